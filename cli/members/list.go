package members

import (
	"context"
	"iter"
	"net/http"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// ListOptions are the inputs of `betty members list`.
type ListOptions = cmdutil.TeamListOptions

// NewCmdList returns `betty members list`; runF replaces the run in tests.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	return cmdutil.NewCmdTeamList(f, cmdutil.TeamList[client.TeamMember]{
		Short: "List a team's members",
		Long: `List the active and invited members of a team: the owner first, then by the time
they were invited. Any member of the team may do this.`,
		Example: `  betty members list
  betty members list --team 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --json`,
		Items: func(ctx context.Context, c *betty.Client, team string, opts *cmdutil.TeamListOptions) iter.Seq2[client.TeamMember, error] {
			size := cmdutil.PageSize(opts.Limit)
			return betty.All[client.TeamMember](ctx, c, func(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
				return api.ListTeamMembers(ctx, &client.ListTeamMembersParams{OrganizationId: team, Page: &page, SizePerPage: &size})
			})
		},
		Table: func(t *cmdutil.Table, items []client.TeamMember) {
			t.Header("EMAIL", "NAME", "ROLE", "STATUS", "JOINED")
			for _, m := range items {
				t.Row(string(m.Email), cmdutil.Str(m.Name), string(m.Role), string(m.Status), cmdutil.Time(m.JoinedAt))
			}
		},
	}, runF)
}
