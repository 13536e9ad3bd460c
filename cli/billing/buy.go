package billing

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
)

// BuyOptions are the inputs of `betty billing credits buy`.
type BuyOptions struct {
	cmdutil.TeamOptions
	Credits int
	Origin  string
	Wait    bool
	Timeout time.Duration
	// Poll is how often --wait looks at the balance.
	Poll   time.Duration
	Output cmdutil.Output
}

// NewCmdBuy returns `betty billing credits buy`; runF replaces the run in tests.
func NewCmdBuy(f *cmdutil.Factory, runF func(*BuyOptions) error) *cobra.Command {
	opts := &BuyOptions{TeamOptions: cmdutil.NewTeamOptions(f), Poll: 2 * time.Second}
	cmd := &cobra.Command{
		Use:   "buy <credits>",
		Short: "Buy prepaid credits",
		Long: `Buy 5 to 2500 prepaid credits (one credit is one US dollar) for the team: prints the
payment provider's checkout link to pay at. The credits are added when the provider tells
the server the payment succeeded; with --wait the command waits for that (up to --timeout)
and prints the new balance. Needs the admin or owner role and a signed-in user.`,
		Example: `  betty billing credits buy 50
  betty billing credits buy 100 --wait --timeout 30m`,
		Args: cmdutil.ExactArgs(1, "give the number of credits to buy, 5 to 2500"),
		RunE: func(cmd *cobra.Command, args []string) error {
			var n int
			if _, err := fmt.Sscan(args[0], &n); err != nil || fmt.Sprint(n) != args[0] || n < 5 || n > 2500 {
				return cmdutil.FlagErrorf("invalid number of credits %q: want a whole number from 5 to 2500", args[0])
			}
			opts.Credits = n
			if runF != nil {
				return runF(opts)
			}
			return runBuy(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.Origin.Var(cmd.Flags(), &opts.Origin, "origin",
		"The dashboard `URL` the checkout returns to (default: the server's billing page)")
	cmd.Flags().BoolVar(&opts.Wait, "wait", false, "Wait until the payment is confirmed and the credits are added")
	cmd.Flags().DurationVar(&opts.Timeout, "timeout", 15*time.Minute, "How long --wait waits")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runBuy(ctx context.Context, opts *BuyOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	before, err := c.Credits(ctx, team)
	if err != nil {
		return err
	}
	origin := opts.Origin
	if origin == "" {
		origin = c.Server() + "/dashboard/billing"
	}
	s, err := c.BuyCredits(ctx, team, opts.Credits, origin)
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Pay for %d credits at the link below; they are added once paid.\n", opts.Credits)
	if opts.Output.Format != "" {
		if err := opts.Output.Print(opts.IO, s, nil); err != nil {
			return err
		}
	} else if s.CheckoutUrl != nil {
		fmt.Fprintln(opts.IO.Out, *s.CheckoutUrl)
	}
	if !opts.Wait {
		return nil
	}
	fmt.Fprintln(opts.IO.ErrOut, "Waiting for the payment…")
	wait, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	balance, err := c.WaitForCredits(wait, team, before.Balance+float64(opts.Credits), opts.Poll)
	if err != nil {
		return fmt.Errorf("the payment was not confirmed within %s (the credits are added whenever it is): %w", opts.Timeout, err)
	}
	fmt.Fprintf(opts.IO.ErrOut, "Paid: %d credits added; the balance is %s.\n", opts.Credits, money(balance))
	return nil
}
