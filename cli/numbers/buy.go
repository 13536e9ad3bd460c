package numbers

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
)

// BuyOptions are the inputs of `betty numbers buy`.
type BuyOptions struct {
	cmdutil.TeamOptions
	Number string
	Origin string
	Output cmdutil.Output
}

// NewCmdBuy returns `betty numbers buy`; runF replaces the run in tests.
func NewCmdBuy(f *cmdutil.Factory, runF func(*BuyOptions) error) *cobra.Command {
	opts := &BuyOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:   "buy <number>",
		Short: "Buy a phone number",
		Long: `Buy a number found with betty numbers search for a team, as a monthly subscription.
A server's offline simulator sells numbers free: the number is the team's at once. When a
payment is needed the command prints the checkout link to pay at; a server that cannot take
payments yet says so. Buying needs the admin or owner role and a signed-in user (not an API
key).`,
		Example: `  betty numbers buy +14155550123
  betty numbers buy +442079460123 --json | jq -r .phoneNumber.id`,
		Args: cmdutil.ExactArgs(1, "give the number to buy, such as +14155550123 (see `betty numbers search`)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Number = args[0]
			if err := PhoneNumber.Check(opts.Number); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runBuy(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.Origin.Var(cmd.Flags(), &opts.Origin, "origin",
		"The dashboard `URL` a checkout returns to (default: the server's address)")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runBuy(ctx context.Context, opts *BuyOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	origin := opts.Origin
	if origin == "" {
		origin = c.Server() + "/dashboard/phone-numbers"
	}
	s, err := c.BuyPhoneNumber(ctx, team, opts.Number, origin)
	if err != nil {
		return err
	}
	if s.CheckoutUrl != nil {
		fmt.Fprintf(opts.IO.ErrOut, "Pay for %s at the link below; the number is the team's once paid.\n", opts.Number)
		if opts.Output.Format != "" {
			return opts.Output.Print(opts.IO, s, nil)
		}
		_, err := fmt.Fprintln(opts.IO.Out, *s.CheckoutUrl)
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Bought %s for the team.\n", opts.Number)
	return opts.Output.Print(opts.IO, s, func(t *cmdutil.Table) {
		if s.PhoneNumber != nil {
			numberRows(t, *s.PhoneNumber)
		}
	})
}
