package calls

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
)

// ListOptions are the inputs of `betty calls list`.
type ListOptions struct {
	Options
	Limit  int
	Output cmdutil.Output
}

// NewCmdList returns `betty calls list`; runF replaces the run in tests.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{Options: options(f)}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List a team's calls",
		Long:  `List a team's calls, newest first; calls in progress have no END yet.`,
		Example: `  betty calls list
  betty calls list -L 0 --json > calls.json`,
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
	cmdutil.AddLimitFlag(cmd, &opts.Limit)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runList(ctx context.Context, opts *ListOptions) error {
	c, team, err := opts.connect(ctx)
	if err != nil {
		return err
	}
	list, err := cmdutil.Collect(c.CallLogs(ctx, team), opts.Limit)
	if err != nil {
		return err
	}
	return opts.Output.Print(opts.IO, list, func(t *cmdutil.Table) {
		t.Header("ID", "DIRECTION", "FROM", "TO", "STATUS", "START", "END", "DURATION", "COST")
		for _, cl := range list {
			t.Row(cl.Id, string(cl.Direction), cl.From, cl.To, string(cl.Status), cmdutil.Time(&cl.StartTime), cmdutil.Time(cl.EndTime),
				duration(cl.DurationSeconds), callCost(cl))
		}
	})
}
