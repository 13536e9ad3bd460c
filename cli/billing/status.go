package billing

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/sdk/client"
)

// StatusOptions are the inputs of `betty billing status`.
type StatusOptions struct {
	cmdutil.TeamOptions
	Output cmdutil.Output
}

// Status is what `betty billing status --json` prints.
type Status struct {
	OrganizationID    string                   `json:"organizationId"`
	Tier              client.SubscriptionTier  `json:"subscriptionTier"`
	Balance           float64                  `json:"balance"`
	Status            client.SubscriptionState `json:"status"`
	CurrentPeriodEnd  *time.Time               `json:"currentPeriodEnd"`
	CancelAtPeriodEnd bool                     `json:"cancelAtPeriodEnd"`
	TrialEndsAt       *time.Time               `json:"trialEndsAt"`
	NextUpgrade       client.SubscriptionTier  `json:"nextUpgrade"`
	Interval          *client.BillingInterval  `json:"intervalType,omitempty"`
}

// NewCmdStatus returns `betty billing status`; runF replaces the run in tests.
func NewCmdStatus(f *cmdutil.Factory, runF func(*StatusOptions) error) *cobra.Command {
	opts := &StatusOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show the team's plan, credits and subscription",
		Long: `Show the team's tier, credit balance and the state of its tier subscription: trialing,
active, past_due (a payment failed and the provider is retrying: update the card with
betty billing portal --flow payment_method_update), unpaid or cancelled, and the tier the
product suggests next.`,
		Example: `  betty billing status
  betty billing status --json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runStatus(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runStatus(ctx context.Context, opts *StatusOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	cr, err := c.Credits(ctx, team)
	if err != nil {
		return err
	}
	st, err := c.SubscriptionStatus(ctx, team)
	if err != nil {
		return err
	}
	s := Status{OrganizationID: team, Tier: cr.SubscriptionTier, Balance: cr.Balance, Status: st.Status,
		CurrentPeriodEnd: st.CurrentPeriodEnd, CancelAtPeriodEnd: st.CancelAtPeriodEnd, TrialEndsAt: st.TrialEndsAt,
		NextUpgrade: nextUpgrade(cr.SubscriptionTier), Interval: st.IntervalType}
	if s.Status == client.SubscriptionStatePastDue || s.Status == client.SubscriptionStateUnpaid {
		fmt.Fprintln(opts.IO.ErrOut, "A payment failed: update the card with betty billing portal --flow payment_method_update.")
	}
	return opts.Output.Print(opts.IO, s, func(t *cmdutil.Table) {
		t.Row("Tier", tierName(s.Tier))
		t.Row("Balance", money(s.Balance)+" credits")
		t.Row("Subscription", string(s.Status))
		t.Row("Period ends", cmdutil.Time(s.CurrentPeriodEnd))
		if s.CancelAtPeriodEnd {
			t.Row("Cancelled", "ends at the period end")
		}
		if s.TrialEndsAt != nil {
			t.Row("Trial ends", cmdutil.Time(s.TrialEndsAt))
		}
		t.Row("Next upgrade", tierName(s.NextUpgrade))
	})
}
