package calls

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
)

// BookingsOptions are the inputs of `betty calls bookings`.
type BookingsOptions struct {
	Options
	Limit  int
	Output cmdutil.Output
}

// NewCmdBookings returns `betty calls bookings`; runF replaces the run in tests.
func NewCmdBookings(f *cmdutil.Factory, runF func(*BookingsOptions) error) *cobra.Command {
	opts := &BookingsOptions{Options: options(f)}
	cmd := &cobra.Command{
		Use:   "bookings",
		Short: "List the calls shoppers asked for from the storefront widget",
		Long: `List the calls shoppers asked for with the team's storefront widget, newest first: the
number and name they gave, when they gave their consent and from which page, and the call's
status once it was placed (its log: betty calls view CALL). --json adds the consent's words
and the client address: the team's record of consent for those calls.`,
		Example: `  betty calls bookings
  betty calls bookings -L 0 --json > consent-records.json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runBookings(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.AddLimitFlag(cmd, &opts.Limit)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runBookings(ctx context.Context, opts *BookingsOptions) error {
	c, team, err := opts.connect(ctx)
	if err != nil {
		return err
	}
	list, err := cmdutil.Collect(c.CallBookings(ctx, team), opts.Limit)
	if err != nil {
		return err
	}
	return opts.Output.Print(opts.IO, list, func(t *cmdutil.Table) {
		t.Header("ID", "NUMBER", "NAME", "CONSENT GIVEN", "PAGE", "CALL", "STATUS")
		for _, b := range list {
			status := "not placed yet"
			if b.CallStatus != nil {
				status = *b.CallStatus
			}
			t.Row(b.Id, b.PhoneNumber, orDash(b.Name), cmdutil.Time(&b.Consent.GivenAt), orDash(b.Consent.PageUrl), orDash(b.CallLogId), status)
		}
	})
}

func orDash(s *string) string {
	if s == nil || *s == "" {
		return "-"
	}
	return *s
}
