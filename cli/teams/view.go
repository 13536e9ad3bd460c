package teams

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
)

// ViewOptions are the inputs of `betty teams view`.
type ViewOptions struct {
	cmdutil.TeamOptions
	Output cmdutil.Output
}

// NewCmdView returns `betty teams view`; runF replaces the run in tests.
func NewCmdView(f *cmdutil.Factory, runF func(*ViewOptions) error) *cobra.Command {
	opts := &ViewOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:   "view [<id>]",
		Short: "Show a team",
		Long:  "Show one of your teams: the current team, or the one whose id is given.",
		Example: `  betty teams view
  betty teams view 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 -o yaml`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				opts.Team = args[0]
				if err := cmdutil.ID.Check(opts.Team); err != nil {
					return err
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return runView(cmd.Context(), opts)
		},
	}
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runView(ctx context.Context, opts *ViewOptions) error {
	id, err := opts.TeamID(ctx, opts.Team)
	if err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	org, err := cmdutil.FindTeam(ctx, c, id)
	if err != nil {
		return err
	}
	return printTeam(opts.IO, opts.Output, org)
}
