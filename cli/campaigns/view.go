package campaigns

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
)

// ViewOptions are the inputs of `betty campaigns view`.
type ViewOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)

	ID     string
	Output cmdutil.Output
}

// NewCmdView returns `betty campaigns view`; runF replaces the run in tests.
func NewCmdView(f *cmdutil.Factory, runF func(*ViewOptions) error) *cobra.Command {
	opts := &ViewOptions{IO: f.IO, Client: f.Client}
	cmd := &cobra.Command{
		Use:   "view <id>",
		Short: "Show a campaign",
		Long: `Show a campaign: its direction, status, priority, purpose, phone number, active workflow,
agents and call settings. Any member of the campaign's team may do this.`,
		Example: `  betty campaigns view 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10
  betty campaigns view 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --json`,
		Aliases: []string{"show"},
		Args:    cmdutil.ExactArgs(1, "give the id of the campaign (see `betty campaigns list`)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if err := cmdutil.ID.Check(opts.ID); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runView(cmd.Context(), opts)
		},
	}
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runView(ctx context.Context, opts *ViewOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	cp, err := c.Campaign(ctx, opts.ID)
	if err != nil {
		return err
	}
	return opts.Output.Print(opts.IO, cp, func(t *cmdutil.Table) { campaignRows(t, cp) })
}
