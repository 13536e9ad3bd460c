package dnc

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
)

// ListOptions are the inputs of `betty dnc list`.
type ListOptions struct {
	Options
	Search string
	Limit  int
	Output cmdutil.Output
}

// NewCmdList returns `betty dnc list`; runF replaces the run in tests.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{Options: options(f)}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the do-not-call list",
		Long: `List the team's do-not-call list, newest first: the number, why, who added it and when.
--search keeps numbers containing the digits given, or reasons containing the words given.`,
		Example: `  betty dnc list
  betty dnc list --search 415 --json`,
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
	search.Var(cmd.Flags(), &opts.Search, "search", "Digits of a number or words of a reason to look for")
	cmdutil.AddLimitFlag(cmd, &opts.Limit)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runList(ctx context.Context, opts *ListOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	list, err := cmdutil.Collect(c.DoNotCall(ctx, team, opts.Search), opts.Limit)
	if err != nil {
		return err
	}
	return printEntries(opts.IO, opts.Output, list)
}
