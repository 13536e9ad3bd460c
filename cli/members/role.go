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

// RoleOptions are the inputs of `betty members role`.
type RoleOptions struct {
	cmdutil.TeamOptions
	Email  string
	Role   client.AssignableTeamRole
	Output cmdutil.Output
}

// NewCmdRole returns `betty members role`; runF replaces the run in tests.
func NewCmdRole(f *cmdutil.Factory, runF func(*RoleOptions) error) *cobra.Command {
	opts := &RoleOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:   "role <email> <role>",
		Short: "Change a member's role",
		Long: `Give an active or invited member a new role: admin, developer, member or readonly.
The owner's role cannot be changed (use betty teams transfer). Only an admin or the owner may
do this.`,
		Example:           `  betty members role ada@example.com admin`,
		Args:              cmdutil.ExactArgs(2, "give the member's e-mail address and the new role"),
		ValidArgsFunction: cmdutil.CompleteArg(1, cmdutil.Roles...),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Email = args[0]
			if err := cmdutil.Email.Check(opts.Email); err != nil {
				return err
			}
			var err error
			if opts.Role, err = cmdutil.ParseRole(args[1]); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runRole(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runRole(ctx context.Context, opts *RoleOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	m, err := betty.Do[client.TeamMember](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.UpdateTeamMemberRole(ctx, client.UpdateTeamMemberRoleRequest{
			Email:          client.Email(opts.Email),
			OrganizationId: team,
			Role:           opts.Role,
		})
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "%s is now %s.\n", m.Email, m.Role)
	return opts.Output.Print(opts.IO, m, func(t *cmdutil.Table) { Rows(t, m) })
}
