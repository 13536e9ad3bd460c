package members

import (
	"context"
	"net/http"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// ListOptions are the inputs of `betty members list`.
type ListOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)
	TeamID func(ctx context.Context, flag string) (string, error)

	Team   string
	Limit  int
	Output cmdutil.Output
}

// NewCmdList returns `betty members list`; runF replaces the run in tests.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{IO: f.IO, Client: f.Client, TeamID: f.TeamID}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List a team's members",
		Long: `List the active and invited members of a team: the owner first, then by the time
they were invited. Any member of the team may do this.`,
		Example: `  betty members list
  betty members list --team 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --json`,
		Aliases: []string{"ls"},
		Args:    cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runList(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.AddLimitFlag(cmd, &opts.Limit)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runList(ctx context.Context, opts *ListOptions) error {
	team, err := opts.TeamID(ctx, opts.Team)
	if err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	size := cmdutil.PageSize(opts.Limit)
	members, err := cmdutil.Collect(betty.All[client.TeamMember](ctx, c, func(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
		return api.ListTeamMembers(ctx, &client.ListTeamMembersParams{OrganizationId: team, Page: &page, SizePerPage: &size})
	}), opts.Limit)
	if err != nil {
		return err
	}
	return opts.Output.Print(opts.IO, members, func(t *cmdutil.Table) {
		t.Header("EMAIL", "NAME", "ROLE", "STATUS", "JOINED")
		for _, m := range members {
			t.Row(string(m.Email), cmdutil.Str(m.Name), string(m.Role), string(m.Status), cmdutil.Time(m.JoinedAt))
		}
	})
}
