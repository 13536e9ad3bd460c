package billing

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/sdk/client"
)

// TiersOptions are the inputs of `betty billing tiers`.
type TiersOptions struct {
	cmdutil.TeamOptions
	Output cmdutil.Output
}

// The limits a tier sets, as the table and the JSON name them.
const (
	limitVoices  = "custom voice profiles"
	limitCalls   = "concurrent calls"
	limitNumbers = "phone numbers"
	limitSeats   = "team members"
)

var limitColumns = []string{limitVoices, limitCalls, limitNumbers, limitSeats}

// Tier is one row of `betty billing tiers`.
type Tier struct {
	Tier         client.SubscriptionTier `json:"tier"`
	Name         string                  `json:"name"`
	MonthlyPrice *float64                `json:"monthlyPrice"` // 0: free; nil: Custom (ask sales)
	Limits       map[string]int          `json:"limits"`
	Current      bool                    `json:"current"`
	NextUpgrade  bool                    `json:"nextUpgrade"`
}

// NewCmdTiers returns `betty billing tiers`; runF replaces the run in tests.
func NewCmdTiers(f *cmdutil.Factory, runF func(*TiersOptions) error) *cobra.Command {
	opts := &TiersOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:   "tiers",
		Short: "List the tiers, their prices and limits",
		Long: `List the tiers with their monthly price and what each allows, marking the team's tier
and the next upgrade the product suggests. Subscribing happens on the dashboard's billing
page (the payment provider's hosted checkout); Custom is arranged with sales.`,
		Example: `  betty billing tiers
  betty billing tiers --json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runTiers(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runTiers(ctx context.Context, opts *TiersOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	cr, err := c.Credits(ctx, team)
	if err != nil {
		return err
	}
	cat, err := c.Tiers(ctx)
	if err != nil {
		return err
	}
	next := nextUpgrade(cr.SubscriptionTier)
	tiers := make([]Tier, 0, len(cat.Tiers))
	for _, o := range cat.Tiers {
		tiers = append(tiers, Tier{Tier: o.Tier, Name: o.Name, MonthlyPrice: o.MonthlyPriceUsd, Current: o.Tier == cr.SubscriptionTier,
			NextUpgrade: o.Tier == next, Limits: map[string]int{
				limitVoices: o.Limits.CustomVoiceProfiles, limitCalls: o.Limits.ConcurrentCalls,
				limitNumbers: o.Limits.PhoneNumbers, limitSeats: o.Limits.TeamMembers}})
	}
	if !cat.PaymentsConfigured && opts.Output.Format == "" {
		fmt.Fprintln(opts.IO.ErrOut, "This server takes no payments (no Stripe key is set): a site admin sets tiers and grants credits.")
	}
	return opts.Output.Print(opts.IO, tiers, func(t *cmdutil.Table) {
		head := []string{"TIER", "NAME", "PRICE/MONTH"}
		for _, l := range limitColumns {
			head = append(head, strings.ToUpper(l))
		}
		t.Header(append(head, "")...)
		for _, r := range tiers {
			price := "ask sales"
			switch {
			case r.MonthlyPrice != nil && *r.MonthlyPrice == 0:
				price = "free"
			case r.MonthlyPrice != nil:
				price = money(*r.MonthlyPrice)
			}
			row := []string{string(r.Tier), r.Name, price}
			for _, l := range limitColumns {
				row = append(row, fmt.Sprint(r.Limits[l]))
			}
			mark := ""
			switch {
			case r.Current:
				mark = "current"
			case r.NextUpgrade:
				mark = "next upgrade"
			}
			t.Row(append(row, mark)...)
		}
	})
}
