package workflows

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
)

// RenameOptions are the inputs of `betty workflow rename`.
type RenameOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)

	ID   string
	Name string
}

// NewCmdRename returns `betty workflow rename`; runF replaces the run in tests.
func NewCmdRename(f *cmdutil.Factory, runF func(*RenameOptions) error) *cobra.Command {
	opts := &RenameOptions{IO: f.IO, Client: f.Client}
	cmd := &cobra.Command{
		Use:     "rename <id> <new name>",
		Short:   "Rename a workflow",
		Long:    `Rename a workflow (its graph and version do not change). Names need not be unique.`,
		Example: `  betty workflow rename 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11 "Renewal reminder v2"`,
		Args:    cmdutil.ExactArgs(2, "give the workflow's id and its new name"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID, opts.Name = args[0], args[1]
			if err := wfName.Check(opts.Name); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runRename(cmd.Context(), opts)
		},
	}
	return cmd
}

func runRename(ctx context.Context, opts *RenameOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	w, err := c.RenameWorkflow(ctx, opts.ID, opts.Name)
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Renamed the workflow to %q.\n", w.Name)
	return nil
}
