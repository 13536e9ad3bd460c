// Package billing is `betty billing`: a team's plan and credits — its status, the tiers and
// their limits, buying credits, the payment provider's billing portal and the monthly
// subscriptions of its phone numbers.
package billing

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/sdk/client"
	serverbilling "github.com/bettyhq/betty/server/billing"
	"github.com/bettyhq/betty/server/store"
)

// NewCmdBilling returns `betty billing` and its verbs.
func NewCmdBilling(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "billing <command>",
		Short: "Plan, credits, billing portal and phone-number subscriptions",
		Long: `See and pay for what the current team (or the one given with --team) uses: its plan
(tier) and credit balance, the tiers and their limits, buying credits through the payment
provider's hosted checkout, the billing portal, and the monthly subscriptions of its phone
numbers.

Looking needs the developer role or higher; paying needs the admin or owner role and a
signed-in user (not an API key). A server without Stripe cannot take payments: a site admin
grants credits instead (betty admin credits grant).`,
		Example: `  betty billing status
  betty billing tiers
  betty billing credits buy 50 --wait
  betty billing portal --flow payment_method_update
  betty billing numbers`,
	}
	credits := &cobra.Command{
		Use:     "credits <command>",
		Short:   "Buy prepaid call credits",
		Long:    "Buy prepaid call credits (one credit is one US dollar) through the payment provider's checkout.",
		Example: `  betty billing credits buy 50 --wait`,
	}
	credits.AddCommand(NewCmdBuy(f, nil))
	cmd.AddCommand(NewCmdStatus(f, nil), NewCmdTiers(f, nil), credits, NewCmdPortal(f, nil), NewCmdNumbers(f, nil))
	return cmd
}

// Flows are the billing portal's tasks, in the contract's order.
var Flows = []client.BillingPortalFlowType{client.PaymentMethodUpdate, client.SubscriptionCancel, client.SubscriptionUpdate}

// tierName is a tier with its product name, such as "tier1 (Starter Plan)".
func tierName(t client.SubscriptionTier) string {
	if n, ok := serverbilling.TierNames[store.SubscriptionTier(t)]; ok {
		return fmt.Sprintf("%s (%s)", t, n)
	}
	return string(t)
}

// nextUpgrade is the tier the product suggests next (spec section 4).
func nextUpgrade(t client.SubscriptionTier) client.SubscriptionTier {
	return client.SubscriptionTier(serverbilling.NextUpgrade(store.SubscriptionTier(t)))
}

func money(v float64) string { return fmt.Sprintf("%.2f", v) }
