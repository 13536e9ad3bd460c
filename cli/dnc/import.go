package dnc

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"

	"github.com/bettyhq/betty/internal/plural"
)

// ImportOptions are the inputs of `betty dnc import`.
type ImportOptions struct {
	Options
	Path   string
	Opts   betty.DoNotCallOptions
	Output cmdutil.Output
}

// NewCmdImport returns `betty dnc import`; runF replaces the run in tests.
func NewCmdImport(f *cmdutil.Factory, runF func(*ImportOptions) error) *cobra.Command {
	opts := &ImportOptions{Options: options(f)}
	cmd := &cobra.Command{
		Use:   "import <file.csv>",
		Short: "Add the numbers of a CSV file to the do-not-call list",
		Long: `Add every number of a CSV file ("-" reads standard input; at most 2 MiB) to the do-not-call
list. The first row is a header; the column named phone or phoneNumber holds the numbers and
a reason column, when there is one, the reason of each (else --reason). Numbers without a
country code are read in --region.

Valid numbers are added (those already listed are counted, not changed); rows that hold no
valid number are listed with why, and nothing is written for them. The command succeeds when
the file was read, even if some rows were refused.`,
		Example: `  betty dnc import opt-outs.csv --reason "opted out by e-mail"
  cut -d, -f3 crm-export.csv | betty dnc import - --region GB --json`,
		Args: cmdutil.ExactArgs(1, "give the CSV file to import (- for standard input)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Path = args[0]
			if runF != nil {
				return runF(opts)
			}
			return runImport(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	listFlags(cmd, &opts.Opts, "The reason recorded for rows without their own")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runImport(ctx context.Context, opts *ImportOptions) error {
	var r io.Reader = opts.IO.In
	if opts.Path != "-" {
		f, err := os.Open(opts.Path)
		if err != nil {
			return cmdutil.FlagErrorf("cannot read %s: %v", opts.Path, err)
		}
		defer f.Close()
		r = f
	}
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	res, err := c.ImportDoNotCall(ctx, team, r, opts.Opts)
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Added %s to the do-not-call list; %s already on it; %s refused.\n",
		plural.Count(res.Added, "number", "numbers"), plural.Count(res.AlreadyListed, "was", "were"), plural.Count(len(res.Rejected), "row", "rows"))
	if opts.Output.Format != "" {
		return opts.Output.Print(opts.IO, res, nil)
	}
	if len(res.Rejected) == 0 {
		return nil
	}
	return cmdutil.PrintTable(opts.IO, func(t *cmdutil.Table) {
		t.Header("ROW", "VALUE", "REFUSED BECAUSE")
		for _, r := range res.Rejected {
			t.Row(fmt.Sprint(r.Row), r.Value, r.Reason)
		}
	})
}
