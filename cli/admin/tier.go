package admin

import (
	"context"
	"net/http"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/sdk/client"
)

// TierOptions are the inputs of `betty admin orgs tier`.
type TierOptions = SetOptions[client.SubscriptionTier]

// NewCmdTier returns `betty admin orgs tier`; runF replaces the run in tests.
func NewCmdTier(f *cmdutil.Factory, runF func(*TierOptions) error) *cobra.Command {
	return newCmdSet(f, runF, orgSetting[client.SubscriptionTier]{
		cmd: cobra.Command{
			Use:   "tier <id> <tier>",
			Short: "Set an organisation's subscription tier by hand",
			Long: `Set the subscription tier of an organisation without the payment provider: free,
tier1 (Starter), tier2 (Professional), tier3 (Growth) or tier4 (Custom). No charge or refund
is made; the tier stays until an admin or a subscription event changes it.`,
			Example: `  betty admin orgs tier 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 tier4`,
		},
		noun:   "tier",
		label:  "tier",
		values: cmdutil.Tiers,
		set: func(ctx context.Context, api *client.Client, id string, tier client.SubscriptionTier) (*http.Response, error) {
			return api.UpdateAdminOrganizationTier(ctx, &client.UpdateAdminOrganizationTierParams{OrganizationId: id, SubscriptionTier: tier})
		},
		current: func(org client.Organization) client.SubscriptionTier { return org.SubscriptionTier },
	})
}
