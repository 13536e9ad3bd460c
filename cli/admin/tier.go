package admin

import (
	"context"
	"fmt"
	"net/http"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// TierOptions are the inputs of `betty admin orgs tier`.
type TierOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)

	ID     string
	Tier   client.SubscriptionTier
	Output cmdutil.Output
}

// NewCmdTier returns `betty admin orgs tier`; runF replaces the run in tests.
func NewCmdTier(f *cmdutil.Factory, runF func(*TierOptions) error) *cobra.Command {
	opts := &TierOptions{IO: f.IO, Client: f.Client}
	cmd := &cobra.Command{
		Use:   "tier <id> <tier>",
		Short: "Set an organisation's subscription tier by hand",
		Long: `Set the subscription tier of an organisation without the payment provider: free,
tier1 (Starter), tier2 (Professional), tier3 (Growth) or tier4 (Custom). No charge or refund
is made; the tier stays until an admin or a subscription event changes it.`,
		Example:           `  betty admin orgs tier 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 tier4`,
		Args:              cmdutil.ExactArgs(2, "give the organisation's id and the tier (free, tier1 … tier4)"),
		ValidArgsFunction: cmdutil.CompleteArg(1, "free", "tier1", "tier2", "tier3", "tier4"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID, opts.Tier = args[0], client.SubscriptionTier(args[1])
			if !opts.Tier.Valid() {
				return cmdutil.FlagErrorf("invalid tier %q: want free, tier1, tier2, tier3 or tier4", args[1])
			}
			if runF != nil {
				return runF(opts)
			}
			return runTier(cmd.Context(), opts)
		},
	}
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runTier(ctx context.Context, opts *TierOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	org, err := betty.Do[client.AdminOrganization](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.UpdateAdminOrganizationTier(ctx, &client.UpdateAdminOrganizationTierParams{OrganizationId: opts.ID, SubscriptionTier: opts.Tier})
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Set the tier of %s to %s.\n", org.Organization.Name, org.Organization.SubscriptionTier)
	return printOrg(opts.IO, opts.Output, org)
}
