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

// InviteOptions are the inputs of `betty members invite`.
type InviteOptions struct {
	cmdutil.TeamOptions
	Email  string
	Role   client.AssignableTeamRole
	Origin string
	Output cmdutil.Output
}

// NewCmdInvite returns `betty members invite`; runF replaces the run in tests.
func NewCmdInvite(f *cmdutil.Factory, runF func(*InviteOptions) error) *cobra.Command {
	opts := &InviteOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	var role string
	cmd := &cobra.Command{
		Use:   "invite <email>",
		Short: "Invite someone into a team",
		Long: `Invite an e-mail address into a team with a role. The address gets a link that works
for 7 days; it need not have an account yet. Inviting an address again sends a fresh link
and updates the role. Only an admin or the owner may do this.`,
		Example: `  betty members invite ada@example.com
  betty members invite ada@example.com --role admin --origin https://app.example.com`,
		Args: cmdutil.ExactArgs(1, "give the e-mail address to invite"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Email = args[0]
			if err := cmdutil.Email.Check(opts.Email); err != nil {
				return err
			}
			var err error
			if opts.Role, err = cmdutil.ParseRole(role); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runInvite(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmd.Flags().StringVarP(&role, "role", "r", "member", "The `role` to give: admin, developer, member or readonly")
	cmdutil.AddOriginFlag(cmd, &opts.Origin)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runInvite(ctx context.Context, opts *InviteOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	m, err := betty.Do[client.TeamMember](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.InviteTeamMember(ctx, client.InviteTeamMemberRequest{
			Email:          client.Email(opts.Email),
			OrganizationId: team,
			Origin:         cmdutil.OptionalOrigin(opts.Origin),
			Role:           &opts.Role,
		})
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Invited %s as %s; the link works for 7 days.\n", m.Email, m.Role)
	return opts.Output.Print(opts.IO, m, func(t *cmdutil.Table) { Rows(t, m) })
}
