package billing

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
)

// NumbersOptions are the inputs of `betty billing numbers`.
type NumbersOptions struct {
	cmdutil.TeamOptions
	Limit  int
	Output cmdutil.Output
}

// NewCmdNumbers returns `betty billing numbers`; runF replaces the run in tests.
func NewCmdNumbers(f *cmdutil.Factory, runF func(*NumbersOptions) error) *cobra.Command {
	opts := &NumbersOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:   "numbers",
		Short: "List the team's phone-number subscriptions",
		Long: `List the monthly subscriptions that pay for the team's phone numbers, newest first:
active, past due and ended ones. Releasing a number (betty numbers release) ends its
subscription at the period end. Numbers of the offline simulator cost nothing and have none.`,
		Example: `  betty billing numbers
  betty billing numbers --json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runNumbers(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.AddLimitFlag(cmd, &opts.Limit)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runNumbers(ctx context.Context, opts *NumbersOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	subs, err := cmdutil.Collect(c.PhoneNumberSubscriptions(ctx, team), opts.Limit)
	if err != nil {
		return err
	}
	return opts.Output.Print(opts.IO, subs, func(t *cmdutil.Table) {
		t.Header("NUMBER", "STATUS", "MONTHLY", "PERIOD ENDS", "ENDING", "CREATED")
		for _, s := range subs {
			ending := ""
			if s.CancelAtPeriodEnd {
				ending = "at period end"
			}
			t.Row(s.PhoneNumber, string(s.Status), money(s.MonthlyPrice)+" "+s.Currency, cmdutil.Time(s.CurrentPeriodEnd), ending,
				cmdutil.Time(&s.CreatedAt))
		}
	})
}
