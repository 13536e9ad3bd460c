package calls

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
)

// StatsOptions are the inputs of `betty calls stats`.
type StatsOptions struct {
	Options
	From, To time.Time
	Output   cmdutil.Output
}

// NewCmdStats returns `betty calls stats`; runF replaces the run in tests.
func NewCmdStats(f *cmdutil.Factory, runF func(*StatsOptions) error) *cobra.Command {
	opts := &StatsOptions{Options: options(f)}
	var from, to string
	cmd := &cobra.Command{
		Use:   "stats [--from <date>] [--to <date>]",
		Short: "Count a team's calls per day",
		Long: `Count a team's calls (inbound and outbound, by the day they started, UTC) for every day from
--from to --to, both included; days without calls count 0. Without dates: the last 7 days
up to today. A range is at most 366 days.`,
		Example: `  betty calls stats
  betty calls stats --from 2026-03-01 --to 2026-03-31 --json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var err error
			if opts.From, err = parseDate("--from", from); err != nil {
				return err
			}
			if opts.To, err = parseDate("--to", to); err != nil {
				return err
			}
			if !opts.From.IsZero() && !opts.To.IsZero() && opts.From.After(opts.To) {
				return cmdutil.FlagErrorf("--from %s is after --to %s", from, to)
			}
			if runF != nil {
				return runF(opts)
			}
			return runStats(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmd.Flags().StringVar(&from, "from", "", "The first `date` counted, YYYY-MM-DD (default: 6 days before --to)")
	cmd.Flags().StringVar(&to, "to", "", "The last `date` counted, YYYY-MM-DD (default: today)")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func parseDate(flag, s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return time.Time{}, cmdutil.FlagErrorf("invalid %s %q: want a date such as 2026-03-31", flag, s)
	}
	return d, nil
}

func runStats(ctx context.Context, opts *StatsOptions) error {
	c, team, err := opts.connect(ctx)
	if err != nil {
		return err
	}
	st, err := c.CallStatistics(ctx, team, opts.From, opts.To)
	if err != nil {
		return err
	}
	if err := opts.Output.Print(opts.IO, st, func(t *cmdutil.Table) {
		t.Header("DATE", "CALLS")
		for _, d := range st.DailyData {
			t.Row(d.Date.Format(time.DateOnly), fmt.Sprint(d.Count))
		}
	}); err != nil {
		return err
	}
	if opts.Output.Format == "" {
		fmt.Fprintf(opts.IO.ErrOut, "%d calls from %s to %s.\n", st.TotalCalls, st.StartDate.Format(time.DateOnly), st.EndDate.Format(time.DateOnly))
	}
	return nil
}
