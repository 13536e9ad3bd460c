package agents

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
)

// DuplicateOptions are the inputs of `betty agents duplicate`.
type DuplicateOptions struct {
	cmdutil.TeamOptions
	ID     string
	Name   string
	Output cmdutil.Output
}

// NewCmdDuplicate returns `betty agents duplicate`; runF replaces the run in tests.
func NewCmdDuplicate(f *cmdutil.Factory, runF func(*DuplicateOptions) error) *cobra.Command {
	opts := &DuplicateOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:   "duplicate <id>",
		Short: "Copy an agent",
		Long: `Copy an agent with its greeting, instructions, voice, language, FAQ, knowledge files and
campaign, but not its teaching audio. The copy is inactive and named --name, or "Copy of
<name>". Prints the copy's id. Any member but read-only may do this.`,
		Example: `  betty agents duplicate 0192f1a4-9e3f-7d70-8c83-5b2a4f9e1d32 --name "Front desk (evenings)"`,
		Aliases: []string{"copy"},
		Args:    cmdutil.ExactArgs(1, "give the id of the agent to copy (see `betty agents list`)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if err := cmdutil.ID.Check(opts.ID); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runDuplicate(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	Name.Var(cmd.Flags(), &opts.Name, "name", "The copy's `name`")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runDuplicate(ctx context.Context, opts *DuplicateOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	a, err := c.DuplicateAgent(ctx, team, opts.ID, opts.Name)
	if err != nil {
		return err
	}
	return printAgent(opts.IO, opts.Output, a, "Created")
}
