package agents

import (
	"context"
	"iter"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// ListOptions are the inputs of `betty agents list`.
type ListOptions = cmdutil.TeamListOptions

// NewCmdList returns `betty agents list`; runF replaces the run in tests.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	return cmdutil.NewCmdTeamList(f, cmdutil.TeamList[client.AgentProfile]{
		Short: "List a team's agents",
		Long: `List the agents of a team, newest first, or with --campaign those of one campaign, the
active one first. Any member of the team may do this.`,
		Example: `  betty agents list
  betty agents list --campaign 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --json`,
		CampaignUsage: "List the agents of the campaign with this `id`",
		Items: func(ctx context.Context, c *betty.Client, team string, opts *cmdutil.TeamListOptions) iter.Seq2[client.AgentProfile, error] {
			if opts.Campaign != "" {
				return c.CampaignAgents(ctx, team, opts.Campaign)
			}
			return c.Agents(ctx, team)
		},
		Table: func(t *cmdutil.Table, items []client.AgentProfile) {
			t.Header("ID", "NAME", "STATUS", "CAMPAIGN", "LANGUAGE", "VOICE", "CREATED")
			for _, a := range items {
				t.Row(a.Id, a.Name, string(a.Status), cmdutil.Str(a.CampaignId), a.Language, voice(a), cmdutil.Time(&a.CreatedAt))
			}
		},
	}, runF)
}
