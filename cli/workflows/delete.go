package workflows

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
)

// DeleteOptions are the inputs of `betty workflow delete`.
type DeleteOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)

	ID  string
	Yes bool
}

// NewCmdDelete returns `betty workflow delete`; runF replaces the run in tests.
func NewCmdDelete(f *cmdutil.Factory, runF func(*DeleteOptions) error) *cobra.Command {
	opts := &DeleteOptions{IO: f.IO, Client: f.Client}
	cmd := &cobra.Command{
		Use:   "delete <id>",
		Short: "Delete a workflow",
		Long: `Delete a workflow with its graph; a campaign whose workflow it was is left without one
(and an active campaign is paused). Asks first on a terminal; needs --yes otherwise.`,
		Example: `  betty workflow delete 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11 --yes`,
		Aliases: []string{"rm"},
		Args:    cmdutil.ExactArgs(1, "give the id of the workflow to delete (see betty workflow list)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if runF != nil {
				return runF(opts)
			}
			return runDelete(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVarP(&opts.Yes, "yes", "y", false, "Delete without asking")
	return cmd
}

func runDelete(ctx context.Context, opts *DeleteOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	w, err := c.Workflow(ctx, opts.ID)
	if err != nil {
		return err
	}
	if err := cmdutil.ConfirmDestructive(opts.IO, opts.Yes, fmt.Sprintf("Delete workflow %q?", w.Name)); err != nil {
		return err
	}
	if err := c.DeleteWorkflow(ctx, w.Id); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Deleted workflow %q.\n", w.Name)
	return nil
}
