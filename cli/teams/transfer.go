package teams

import (
	"context"
	"fmt"
	"net/http"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// TransferOptions are the inputs of `betty teams transfer`.
type TransferOptions struct {
	cmdutil.TeamOptions
	Email  string
	Origin string
	Yes    bool
}

// NewCmdTransfer returns `betty teams transfer`; runF replaces the run in tests.
func NewCmdTransfer(f *cmdutil.Factory, runF func(*TransferOptions) error) *cobra.Command {
	opts := &TransferOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:   "transfer <email>",
		Short: "Hand a team over to another member",
		Long: `Start moving the ownership of a team to one of its active members. The future owner
gets an e-mail with a link, valid for 72 hours, to confirm; until then nothing changes. Once
confirmed, you stay in the team as an admin. Only the owner may do this. Asks first on a
terminal; needs --yes otherwise.`,
		Example: `  betty teams transfer ada@example.com
  betty teams transfer ada@example.com --team 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --yes`,
		Args: cmdutil.ExactArgs(1, "give the e-mail address of the new owner"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Email = args[0]
			if err := cmdutil.Email.Check(opts.Email); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runTransfer(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.AddOriginFlag(cmd, &opts.Origin)
	cmd.Flags().BoolVarP(&opts.Yes, "yes", "y", false, "Start the transfer without asking")
	return cmd
}

func runTransfer(ctx context.Context, opts *TransferOptions) error {
	team, err := opts.TeamID(ctx, opts.Team)
	if err != nil {
		return err
	}
	question := fmt.Sprintf("Hand team %s over to %s? Once they confirm, you are no longer its owner.", team, opts.Email)
	if err := cmdutil.ConfirmDestructive(opts.IO, opts.Yes, question); err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	err = betty.NoContent(ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.TransferTeamOwnership(ctx, client.TransferTeamOwnershipRequest{
			NewOwnerEmail:  client.Email(opts.Email),
			OrganizationId: team,
			Origin:         cmdutil.OptionalOrigin(opts.Origin),
		})
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Sent %s a link to confirm the transfer of team %s; it works for 72 hours.\n", opts.Email, team)
	return nil
}
