package agents

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
)

// ViewOptions are the inputs of `betty agents view`.
type ViewOptions struct {
	cmdutil.TeamOptions
	ID     string
	Output cmdutil.Output
}

// NewCmdView returns `betty agents view`; runF replaces the run in tests.
func NewCmdView(f *cmdutil.Factory, runF func(*ViewOptions) error) *cobra.Command {
	opts := &ViewOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:   "view <id>",
		Short: "Show an agent",
		Long: `Show an agent: status, campaign, language, voice, greeting, instructions and how many FAQ
questions, knowledge files and teaching audio files it has (--json shows them all). Any
member of the team may do this.`,
		Example: `  betty agents view 0192f1a4-9e3f-7d70-8c83-5b2a4f9e1d32
  betty agents view 0192f1a4-9e3f-7d70-8c83-5b2a4f9e1d32 --json`,
		Aliases: []string{"show"},
		Args:    cmdutil.ExactArgs(1, "give the id of the agent (see `betty agents list`)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if err := cmdutil.ID.Check(opts.ID); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runView(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runView(ctx context.Context, opts *ViewOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	a, err := c.Agent(ctx, team, opts.ID)
	if err != nil {
		return err
	}
	return opts.Output.Print(opts.IO, a, func(t *cmdutil.Table) { agentRows(t, a) })
}
