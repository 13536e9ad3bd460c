package jobs

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// StatusOptions are the inputs of `betty jobs status`.
type StatusOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)

	IDs      []string
	Workflow string
	Type     client.JobType
	Output   cmdutil.Output
}

// maxIDs is the most jobs one request answers.
const maxIDs = 100

// NewCmdStatus returns `betty jobs status`; runF replaces the run in tests.
func NewCmdStatus(f *cmdutil.Factory, runF func(*StatusOptions) error) *cobra.Command {
	opts := &StatusOptions{IO: f.IO, Client: f.Client}
	cmd := &cobra.Command{
		Use:   "status {<job-id>... | --workflow <id>}",
		Short: "Show the state of jobs",
		Long: `Show the state and progress of jobs by their ids (at most 100), or of a workflow's run in
progress (else its latest run) with --workflow; a workflow that has not run yet shows no job
(and says so on stderr). Ids of jobs that are not yours are left out; when none is answered
the command fails as not found.`,
		Example: `  betty jobs status 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b20 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b21
  betty jobs status --workflow 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11 --json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.IDs = args
			switch {
			case len(args) == 0 && opts.Workflow == "":
				return cmdutil.FlagErrorf("give the ids of the jobs, or a workflow with --workflow")
			case len(args) > 0 && opts.Workflow != "":
				return cmdutil.FlagErrorf("give job ids or --workflow, not both")
			case len(args) > maxIDs:
				return cmdutil.FlagErrorf("give at most %d job ids at once, not %d", maxIDs, len(args))
			case opts.Workflow != "" && opts.Type != "":
				return cmdutil.FlagErrorf("--type is for job ids: a workflow's runs are workflow-run jobs")
			}
			for _, id := range args {
				if err := cmdutil.ID.Check(id); err != nil {
					return err
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return runStatus(cmd.Context(), opts)
		},
	}
	cmdutil.ID.Var(cmd.Flags(), &opts.Workflow, "workflow", "Show the run of this workflow (`id`)")
	cmdutil.EnumVar(cmd.Flags(), &opts.Type, "type", "Only jobs of this `type`: "+cmdutil.OneOf(Types...), Types...)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runStatus(ctx context.Context, opts *StatusOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	list := []client.Job{}
	if opts.Workflow != "" {
		j, err := c.WorkflowProgress(ctx, opts.Workflow)
		if err != nil {
			return err
		}
		if j == nil {
			// Not a failure: the workflow is there, it has no job yet (an empty list for scripts).
			fmt.Fprintf(opts.IO.ErrOut, "Workflow %s has not run yet: start it with betty workflow run %s\n", opts.Workflow, opts.Workflow)
		} else {
			list = []client.Job{*j}
		}
	} else if list, err = c.JobStatuses(ctx, opts.IDs, opts.Type); err != nil {
		return err
	}
	if err := opts.Output.Print(opts.IO, list, func(t *cmdutil.Table) {
		header(t)
		for _, j := range list {
			row(t, j)
		}
	}); err != nil {
		return err
	}
	if opts.Output.Format == "" {
		// Why queued contacts wait does not fit a column: a line each, beside the table.
		for _, j := range list {
			for _, w := range betty.JobWaiting(j) {
				fmt.Fprintf(opts.IO.ErrOut, "%s waiting: %s\n", j.Id, w.Message)
			}
		}
	}
	return nil
}
