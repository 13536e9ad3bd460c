package members

import (
	"context"
	"fmt"
	"net/http"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// RemoveOptions are the inputs of `betty members remove`.
type RemoveOptions struct {
	cmdutil.TeamOptions
	Email    string
	KeepKeys bool
	Yes      bool
}

// NewCmdRemove returns `betty members remove`; runF replaces the run in tests.
func NewCmdRemove(f *cmdutil.Factory, runF func(*RemoveOptions) error) *cobra.Command {
	opts := &RemoveOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:   "remove <email>",
		Short: "Remove a member from a team",
		Long: `Remove a member from a team: they lose access at once and a pending invitation to
the address is cancelled; what they did stays. The API keys they made are revoked with them,
unless --keep-api-keys keeps them working. The owner cannot be removed. An admin or the owner
may remove anyone else; anyone may remove themselves (leave the team). Asks first on a
terminal; needs --yes otherwise.`,
		Example: `  betty members remove ada@example.com
  betty members remove ada@example.com --keep-api-keys
  betty members remove ada@example.com --team 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --yes`,
		Aliases: []string{"rm"},
		Args:    cmdutil.ExactArgs(1, "give the e-mail address of the member to remove"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Email = args[0]
			if err := cmdutil.Email.Check(opts.Email); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runRemove(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmd.Flags().BoolVar(&opts.KeepKeys, "keep-api-keys", false, "Keep the API keys the member made working (they are revoked otherwise)")
	cmd.Flags().BoolVarP(&opts.Yes, "yes", "y", false, "Remove without asking")
	return cmd
}

func runRemove(ctx context.Context, opts *RemoveOptions) error {
	team, err := opts.TeamID(ctx, opts.Team)
	if err != nil {
		return err
	}
	question := fmt.Sprintf("Remove %s from team %s and revoke the API keys they made?", opts.Email, team)
	if opts.KeepKeys {
		question = fmt.Sprintf("Remove %s from team %s (their API keys keep working)?", opts.Email, team)
	}
	if err := cmdutil.ConfirmDestructive(opts.IO, opts.Yes, question); err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	removal, err := betty.Do[client.MemberRemoval](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.RemoveTeamMember(ctx, &client.RemoveTeamMemberParams{OrganizationId: team, Email: client.Email(opts.Email), KeepApiKeys: &opts.KeepKeys})
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Removed %s from team %s; %s.\n", opts.Email, team, revoked(removal.RevokedApiKeys, opts.KeepKeys))
	return nil
}

// revoked says what became of the removed member's API keys.
func revoked(n int, kept bool) string {
	switch {
	case kept:
		return "the API keys they made keep working"
	case n == 0:
		return "they had no API keys to revoke"
	case n == 1:
		return "revoked the 1 API key they made"
	}
	return fmt.Sprintf("revoked the %d API keys they made", n)
}
