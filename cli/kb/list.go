package kb

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
)

// ListOptions are the inputs of `betty kb list`.
type ListOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)
	TeamID func(ctx context.Context, flag string) (string, error)

	Team     string
	Campaign string
	Limit    int
	Output   cmdutil.Output
}

// NewCmdList returns `betty kb list`; runF replaces the run in tests.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{IO: f.IO, Client: f.Client, TeamID: f.TeamID}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List a team's knowledge bases",
		Long: `List a team's knowledge bases by name, with how many files and FAQs each holds. With
--campaign, only those linked to that campaign, ACTIVE marking the one its agents answer from.`,
		Example: `  betty kb list
  betty kb list --campaign 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --json`,
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
	cmdutil.ID.Var(cmd.Flags(), &opts.Campaign, "campaign", "Only the knowledge bases of this campaign `id`")
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
	kbs, err := cmdutil.Collect(c.KnowledgeBases(ctx, team, opts.Campaign), opts.Limit)
	if err != nil {
		return err
	}
	return opts.Output.Print(opts.IO, kbs, func(t *cmdutil.Table) {
		t.Header("ID", "NAME", "FILES", "CAMPAIGN", "ACTIVE", "CREATED")
		for _, kb := range kbs {
			active := ""
			if kb.Active {
				active = "yes"
			}
			t.Row(kb.Id, kb.Name, fmt.Sprint(kb.FileCount), cmdutil.Str(kb.CampaignId), active, cmdutil.Time(&kb.CreatedAt))
		}
	})
}
