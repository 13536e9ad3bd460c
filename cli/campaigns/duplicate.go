package campaigns

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
)

// DuplicateOptions are the inputs of `betty campaigns duplicate`.
type DuplicateOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)

	ID     string
	Output cmdutil.Output
}

// NewCmdDuplicate returns `betty campaigns duplicate`; runF replaces the run in tests.
func NewCmdDuplicate(f *cmdutil.Factory, runF func(*DuplicateOptions) error) *cobra.Command {
	opts := &DuplicateOptions{IO: f.IO, Client: f.Client}
	cmd := &cobra.Command{
		Use:   "duplicate <id>",
		Short: "Copy a campaign",
		Long: `Copy a campaign with its settings, workflows and agents. The copy is a draft named "Copy of
<name>" with no phone number (a number answers one inbound campaign), no contacts and no
knowledge-base links. Prints the copy's id. Any member but read-only may do this.`,
		Example: `  betty campaigns duplicate 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10`,
		Aliases: []string{"copy"},
		Args:    cmdutil.ExactArgs(1, "give the id of the campaign to copy (see `betty campaigns list`)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if err := cmdutil.ID.Check(opts.ID); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runDuplicate(cmd.Context(), opts)
		},
	}
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runDuplicate(ctx context.Context, opts *DuplicateOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	cp, err := c.DuplicateCampaign(ctx, opts.ID)
	if err != nil {
		return err
	}
	return printCampaign(opts.IO, opts.Output, cp, "Created")
}
