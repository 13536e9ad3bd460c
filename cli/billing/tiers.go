package billing

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
	serverbilling "github.com/bettyhq/betty/server/billing"
)

// TiersOptions are the inputs of `betty billing tiers`.
type TiersOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)
	TeamID func(ctx context.Context, flag string) (string, error)

	Team   string
	Output cmdutil.Output
}

// Tier is one row of `betty billing tiers`.
type Tier struct {
	Tier         client.SubscriptionTier `json:"tier"`
	Name         string                  `json:"name"`
	MonthlyPrice *float64                `json:"monthlyPrice"` // nil: free, or Custom (ask sales)
	Limits       map[string]int          `json:"limits"`
	Current      bool                    `json:"current"`
	NextUpgrade  bool                    `json:"nextUpgrade"`
}

// NewCmdTiers returns `betty billing tiers`; runF replaces the run in tests.
func NewCmdTiers(f *cmdutil.Factory, runF func(*TiersOptions) error) *cobra.Command {
	opts := &TiersOptions{IO: f.IO, Client: f.Client, TeamID: f.TeamID}
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
	team, err := opts.TeamID(ctx, opts.Team)
	if err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	cr, err := c.Credits(ctx, team)
	if err != nil {
		return err
	}
	next := nextUpgrade(cr.SubscriptionTier)
	var tiers []Tier
	for _, t := range serverbilling.Tiers() {
		row := Tier{Tier: client.SubscriptionTier(t), Name: serverbilling.TierNames[t], Limits: map[string]int{},
			Current: client.SubscriptionTier(t) == cr.SubscriptionTier, NextUpgrade: client.SubscriptionTier(t) == next}
		if cents, ok := serverbilling.TierPricesCents[t]; ok {
			p := float64(cents) / 100
			row.MonthlyPrice = &p
		}
		for _, l := range serverbilling.Limits {
			row.Limits[string(l)] = serverbilling.Allowed(t, l)
		}
		tiers = append(tiers, row)
	}
	return opts.Output.Print(opts.IO, tiers, func(t *cmdutil.Table) {
		head := []string{"TIER", "NAME", "PRICE/MONTH"}
		for _, l := range serverbilling.Limits {
			head = append(head, strings.ToUpper(string(l)))
		}
		t.Header(append(head, "")...)
		for _, r := range tiers {
			price := "free"
			if r.MonthlyPrice != nil {
				price = money(*r.MonthlyPrice)
			} else if r.Tier == client.SubscriptionTierTier4 {
				price = "ask sales"
			}
			row := []string{string(r.Tier), r.Name, price}
			for _, l := range serverbilling.Limits {
				row = append(row, fmt.Sprint(r.Limits[string(l)]))
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
