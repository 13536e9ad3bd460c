package jobs

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
)

// EndOptions are the inputs of `betty jobs end`.
type EndOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)

	Workflow string
	Output   cmdutil.Output
}

// NewCmdEnd returns `betty jobs end`; runF replaces the run in tests.
func NewCmdEnd(f *cmdutil.Factory, runF func(*EndOptions) error) *cobra.Command {
	opts := &EndOptions{IO: f.IO, Client: f.Client}
	cmd := &cobra.Command{
		Use:   "end <workflow-id>",
		Short: "End a workflow's run in progress",
		Long: `End the run in progress of a workflow: no new call is placed, calls already connected
finish, and the job ends cancelled. Contacts not called yet stay pending: the next run calls
them. Prints the job's id.`,
		Example: `  betty jobs end 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11`,
		Aliases: []string{"cancel", "stop"},
		Args:    cmdutil.ExactArgs(1, "give the id of the workflow whose run to end (see betty workflow list)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Workflow = args[0]
			if runF != nil {
				return runF(opts)
			}
			return runEnd(cmd.Context(), opts)
		},
	}
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runEnd(ctx context.Context, opts *EndOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	j, err := c.EndWorkflowJob(ctx, opts.Workflow)
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Ended job %s (%s): %d completed, %d failed, %d not called (they stay pending).\n",
		j.Id, j.Status, j.Progress.Completed, j.Progress.Failed, j.Progress.Pending)
	if opts.Output.Format != "" {
		return opts.Output.Print(opts.IO, j, nil)
	}
	_, err = fmt.Fprintln(opts.IO.Out, j.Id)
	return err
}
