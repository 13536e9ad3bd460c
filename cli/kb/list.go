package kb

import (
	"context"
	"fmt"
	"iter"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// ListOptions are the inputs of `betty kb list`.
type ListOptions = cmdutil.TeamListOptions

// NewCmdList returns `betty kb list`; runF replaces the run in tests.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	return cmdutil.NewCmdTeamList(f, cmdutil.TeamList[client.KnowledgeBase]{
		Short: "List a team's knowledge bases",
		Long: `List a team's knowledge bases by name, with how many files and FAQs each holds. With
--campaign, only those linked to that campaign, ACTIVE marking the one its agents answer from.`,
		Example: `  betty kb list
  betty kb list --campaign 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --json`,
		CampaignUsage: "Only the knowledge bases of this campaign `id`",
		Items: func(ctx context.Context, c *betty.Client, team string, opts *cmdutil.TeamListOptions) iter.Seq2[client.KnowledgeBase, error] {
			return c.KnowledgeBases(ctx, team, opts.Campaign)
		},
		Table: func(t *cmdutil.Table, items []client.KnowledgeBase) {
			t.Header("ID", "NAME", "FILES", "CAMPAIGN", "ACTIVE", "CREATED")
			for _, kb := range items {
				active := ""
				if kb.Active {
					active = "yes"
				}
				t.Row(kb.Id, kb.Name, fmt.Sprint(kb.FileCount), cmdutil.Str(kb.CampaignId), active, cmdutil.Time(&kb.CreatedAt))
			}
		},
	}, runF)
}
