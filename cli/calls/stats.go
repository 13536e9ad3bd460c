package calls

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"

	"github.com/bettyhq/betty/internal/plural"
)

// StatsOptions are the inputs of `betty calls stats`.
type StatsOptions struct {
	Options
	Stats  betty.StatsOptions
	Output cmdutil.Output
}

// NewCmdStats returns `betty calls stats`; runF replaces the run in tests.
func NewCmdStats(f *cmdutil.Factory, runF func(*StatsOptions) error) *cobra.Command {
	opts := &StatsOptions{Options: options(f)}
	var from, to string
	cmd := &cobra.Command{
		Use:   "stats [--from <date>] [--to <date>]",
		Short: "Count a team's calls per day",
		Long: `Count a team's calls (inbound and outbound, by the day they started) for every day from
--from to --to, both included; days without calls count 0. Days are those of --time-zone
(UTC by default). Without dates: the last 7 days up to today. A range is at most 366 days.`,
		Example: `  betty calls stats
  betty calls stats --from 2026-03-01 --to 2026-03-31 --json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var err error
			if opts.Stats.From, err = parseDate("--from", from); err != nil {
				return err
			}
			if opts.Stats.To, err = parseDate("--to", to); err != nil {
				return err
			}
			if !opts.Stats.From.IsZero() && !opts.Stats.To.IsZero() && opts.Stats.From.After(opts.Stats.To) {
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
	timeZone.Var(cmd.Flags(), &opts.Stats.TimeZone, "time-zone", "The IANA time `zone` whose days are counted, such as Europe/Paris (default UTC)")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

// timeZone is the rule of --time-zone, copied from the contract.
var timeZone = cmdutil.Rule{Name: "time zone", Schema: "getCallStatistics?timeZone", Min: 1, Max: 64}

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
	st, err := c.CallStatistics(ctx, team, opts.Stats)
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
		fmt.Fprintf(opts.IO.ErrOut, "%s from %s to %s.\n", plural.Count(st.TotalCalls, "call", "calls"), st.StartDate.Format(time.DateOnly), st.EndDate.Format(time.DateOnly))
	}
	return nil
}
