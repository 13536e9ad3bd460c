package numbers

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// SearchOptions are the inputs of `betty numbers search`.
type SearchOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)

	Country  client.CountryCode
	Type     client.PhoneNumberType
	AreaCode string
	Limit    int
	Output   cmdutil.Output
}

// NewCmdSearch returns `betty numbers search`; runF replaces the run in tests.
func NewCmdSearch(f *cmdutil.Factory, runF func(*SearchOptions) error) *cobra.Command {
	opts := &SearchOptions{IO: f.IO, Client: f.Client}
	var country, kind string
	cmd := &cobra.Command{
		Use:   "search",
		Short: "Search the numbers on sale",
		Long: `List numbers on sale that a team can buy with betty numbers buy: US local numbers by
default, at most 20. The same search shows the same numbers while none of them is sold;
numbers are not reserved until bought.`,
		Example: `  betty numbers search
  betty numbers search --area-code 415 --limit 5
  betty numbers search --country GB --type toll_free --json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var err error
			if opts.Country, err = cmdutil.Enum("country", country, Countries...); err != nil {
				return err
			}
			if opts.Type, err = cmdutil.Enum("type", kind, Types...); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runSearch(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&country, "country", "US", "The `country` to search in: "+cmdutil.OneOf(Countries...))
	cmd.Flags().StringVar(&kind, "type", "local", "The `kind` of number: "+cmdutil.OneOf(Types...))
	AreaCode.Var(cmd.Flags(), &opts.AreaCode, "area-code", "Only numbers with this area `code` (digits)")
	cmdutil.IntVarP(cmd.Flags(), &opts.Limit, "limit", "L", 20, 1, 50, "Maximum number of numbers to show")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runSearch(ctx context.Context, opts *SearchOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	p := client.SearchAvailablePhoneNumbersParams{CountryCode: &opts.Country, Type: &opts.Type, Limit: &opts.Limit}
	if opts.AreaCode != "" {
		p.AreaCode = &opts.AreaCode
	}
	found, err := c.SearchPhoneNumbers(ctx, p)
	if err != nil {
		return err
	}
	return opts.Output.Print(opts.IO, found, func(t *cmdutil.Table) {
		t.Header("NUMBER", "TYPE", "AREA CODE", "LOCALITY", "REGION", "MONTHLY", "UPFRONT")
		for _, n := range found {
			t.Row(n.PhoneNumber, string(n.Type), cmdutil.Str(n.AreaCode), cmdutil.Str(n.Locality), cmdutil.Str(n.Region),
				fmt.Sprintf("$%.2f", n.MonthlyPrice), fmt.Sprintf("$%.2f", n.UpfrontPrice))
		}
	})
}
