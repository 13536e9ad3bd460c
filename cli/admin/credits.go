package admin

import (
	"context"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
)

// CreditsGrantOptions are the inputs of `betty admin credits grant`.
type CreditsGrantOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)

	ID      string
	Credits int
	Output  cmdutil.Output
}

// NewCmdCreditsGrant returns `betty admin credits grant`; runF replaces the run in tests.
func NewCmdCreditsGrant(f *cmdutil.Factory, runF func(*CreditsGrantOptions) error) *cobra.Command {
	opts := &CreditsGrantOptions{IO: f.IO, Client: f.Client}
	cmd := &cobra.Command{
		Use:   "grant <team-id> <credits>",
		Short: "Give an organisation credits without a payment",
		Long: `Add 1 to 100000 prepaid credits (one credit is one US dollar) to any organisation,
without a payment: a courtesy, a refund made elsewhere, or the way to fund calls on a server
without Stripe. The grant is written to the team's credit ledger with your name.`,
		Example: `  betty admin credits grant 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 100`,
		Args:    cmdutil.ExactArgs(2, "give the organisation's id and the number of credits"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if err := cmdutil.ID.Check(opts.ID); err != nil {
				return err
			}
			n, err := strconv.Atoi(args[1])
			if err != nil || n < 1 || n > 100000 {
				return cmdutil.FlagErrorf("invalid number of credits %q: want a whole number from 1 to 100000", args[1])
			}
			opts.Credits = n
			if runF != nil {
				return runF(opts)
			}
			return runCreditsGrant(cmd.Context(), opts)
		},
	}
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runCreditsGrant(ctx context.Context, opts *CreditsGrantOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	org, err := c.GrantCredits(ctx, opts.ID, opts.Credits)
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Granted %d credits to %s; the balance is %.2f.\n", opts.Credits, org.Organization.Name, org.Balance)
	return printOrg(opts.IO, opts.Output, org)
}
