package numbers

import (
	"context"
	"iter"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// ListOptions are the inputs of `betty numbers list`.
type ListOptions = cmdutil.TeamListOptions

// NewCmdList returns `betty numbers list`; runF replaces the run in tests.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	return cmdutil.NewCmdTeamList(f, cmdutil.TeamList[client.PhoneNumber]{
		Short: "List a team's phone numbers",
		Long: `List a team's phone numbers, newest first: the numbers it bought, and numbers of its own
it verified (kind "own (caller id)": agents call from them, but calls to them do not reach
Betty), with the agent answering each and the campaign using it.`,
		Example: `  betty numbers list
  betty numbers list --json`,
		Items: func(ctx context.Context, c *betty.Client, team string, _ *cmdutil.TeamListOptions) iter.Seq2[client.PhoneNumber, error] {
			return c.PhoneNumbers(ctx, team)
		},
		Table: func(t *cmdutil.Table, items []client.PhoneNumber) {
			t.Header("ID", "NUMBER", "STATUS", "KIND", "COUNTRY", "MONTHLY", "AGENT", "CAMPAIGN", "CREATED")
			for _, n := range items {
				t.Row(n.Id, n.PhoneNumber, string(n.Status), kind(n), string(n.CountryCode), price(n.MonthlyPrice),
					cmdutil.Str(n.AgentId), cmdutil.Str(n.CampaignId), cmdutil.Time(&n.CreatedAt))
			}
		},
	}, runF)
}
