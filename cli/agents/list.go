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
type ListOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)
	TeamID func(ctx context.Context, flag string) (string, error)

	Team     string
	Campaign string
	Limit    int
	Output   cmdutil.Output
}

// NewCmdList returns `betty agents list`; runF replaces the run in tests.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{IO: f.IO, Client: f.Client, TeamID: f.TeamID}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List a team's agents",
		Long: `List the agents of a team, newest first, or with --campaign those of one campaign, the
active one first. Any member of the team may do this.`,
		Example: `  betty agents list
  betty agents list --campaign 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --json`,
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
	cmdutil.ID.Var(cmd.Flags(), &opts.Campaign, "campaign", "List the agents of the campaign with this `id`")
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
	var seq iter.Seq2[client.AgentProfile, error]
	if opts.Campaign != "" {
		seq = c.CampaignAgents(ctx, team, opts.Campaign)
	} else {
		seq = c.Agents(ctx, team)
	}
	list, err := cmdutil.Collect(seq, opts.Limit)
	if err != nil {
		return err
	}
	return opts.Output.Print(opts.IO, list, func(t *cmdutil.Table) {
		t.Header("ID", "NAME", "STATUS", "CAMPAIGN", "LANGUAGE", "VOICE", "CREATED")
		for _, a := range list {
			t.Row(a.Id, a.Name, string(a.Status), cmdutil.Str(a.CampaignId), a.Language, voice(a), cmdutil.Time(&a.CreatedAt))
		}
	})
}
