package jobs

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
)

// ListOptions are the inputs of `betty jobs list`.
type ListOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)

	Workflow string
	Limit    int
	Output   cmdutil.Output
}

// NewCmdList returns `betty jobs list`; runF replaces the run in tests.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{IO: f.IO, Client: f.Client}
	cmd := &cobra.Command{
		Use:   "list --workflow <id>",
		Short: "List a workflow's runs",
		Long:  `List the runs of a workflow, test runs included (TEST), newest first.`,
		Example: `  betty jobs list --workflow 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11
  betty jobs list --workflow 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11 -L 1 --json`,
		Aliases: []string{"ls", "history"},
		Args:    cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.Workflow == "" {
				return cmdutil.FlagErrorf("give the workflow whose runs to list with --workflow (see betty workflow list)")
			}
			if runF != nil {
				return runF(opts)
			}
			return runList(cmd.Context(), opts)
		},
	}
	cmdutil.ID.Var(cmd.Flags(), &opts.Workflow, "workflow", "The workflow's `id`")
	cmdutil.AddLimitFlag(cmd, &opts.Limit)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runList(ctx context.Context, opts *ListOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	list, err := cmdutil.Collect(c.WorkflowHistory(ctx, opts.Workflow), opts.Limit)
	if err != nil {
		return err
	}
	return opts.Output.Print(opts.IO, list, func(t *cmdutil.Table) {
		header(t)
		for _, j := range list {
			row(t, j)
		}
	})
}
