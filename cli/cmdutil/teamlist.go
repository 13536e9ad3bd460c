package cmdutil

import (
	"context"
	"iter"

	"github.com/spf13/cobra"

	betty "github.com/bettyhq/betty/sdk"
)

// TeamListOptions are the inputs of a verb listing a team's things (`betty agents list`,
// `betty members list`, …).
type TeamListOptions struct {
	TeamOptions
	// Campaign narrows the list to one campaign's, where the verb takes --campaign.
	Campaign string
	Limit    int
	Output   Output
}

// TeamList describes such a verb: its help, the items and their table.
type TeamList[T any] struct {
	Short, Long, Example string
	// CampaignUsage, when set, adds --campaign with this usage.
	CampaignUsage string
	Items         func(ctx context.Context, c *betty.Client, team string, opts *TeamListOptions) iter.Seq2[T, error]
	Table         func(t *Table, items []T)
}

// NewCmdTeamList returns `list` (alias `ls`) as l describes it: the team (--team), at most
// --limit items, a table or -o json|yaml; runF replaces the run in tests.
func NewCmdTeamList[T any](f *Factory, l TeamList[T], runF func(*TeamListOptions) error) *cobra.Command {
	opts := &TeamListOptions{TeamOptions: NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:     "list",
		Short:   l.Short,
		Long:    l.Long,
		Example: l.Example,
		Aliases: []string{"ls"},
		Args:    NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runTeamList(cmd.Context(), l, opts)
		},
	}
	AddTeamFlag(cmd, &opts.Team)
	if l.CampaignUsage != "" {
		ID.Var(cmd.Flags(), &opts.Campaign, "campaign", l.CampaignUsage)
	}
	AddLimitFlag(cmd, &opts.Limit)
	AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runTeamList[T any](ctx context.Context, l TeamList[T], opts *TeamListOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	items, err := Collect(l.Items(ctx, c, team, opts), opts.Limit)
	if err != nil {
		return err
	}
	return opts.Output.Print(opts.IO, items, func(t *Table) { l.Table(t, items) })
}
