package billing

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/sdk/client"
)

// PortalOptions are the inputs of `betty billing portal`.
type PortalOptions struct {
	cmdutil.TeamOptions
	Flow   client.BillingPortalFlowType
	Output cmdutil.Output
}

// NewCmdPortal returns `betty billing portal`; runF replaces the run in tests.
func NewCmdPortal(f *cmdutil.Factory, runF func(*PortalOptions) error) *cobra.Command {
	opts := &PortalOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	var flow string
	cmd := &cobra.Command{
		Use:   "portal",
		Short: "Print a link to the billing portal",
		Long: `Print a short-lived link to the payment provider's billing portal, where the card,
invoices, the tier subscription and phone-number subscriptions are managed. --flow opens it
on one task: payment_method_update (change the card), subscription_cancel (cancel the tier
at the period end) or subscription_update (change tier). Needs the admin or owner role.`,
		Example: `  betty billing portal
  betty billing portal --flow subscription_cancel`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if flow != "" {
				var err error
				if opts.Flow, err = cmdutil.Enum("flow", flow, Flows...); err != nil {
					return err
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return runPortal(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&flow, "flow", "", "The `task` to open the portal on: "+cmdutil.OneOf(Flows...))
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runPortal(ctx context.Context, opts *PortalOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	link, err := c.BillingPortal(ctx, team, opts.Flow)
	if err != nil {
		return err
	}
	if opts.Output.Format != "" {
		return opts.Output.Print(opts.IO, link, nil)
	}
	fmt.Fprintf(opts.IO.ErrOut, "Open the link below before %s.\n", cmdutil.Time(&link.ExpiresAt))
	_, err = fmt.Fprintln(opts.IO.Out, link.Url)
	return err
}
