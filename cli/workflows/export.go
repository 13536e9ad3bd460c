package workflows

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
)

// ExportOptions are the inputs of `betty workflow export`.
type ExportOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)

	ID     string
	Output cmdutil.Output
}

// NewCmdExport returns `betty workflow export`; runF replaces the run in tests.
func NewCmdExport(f *cmdutil.Factory, runF func(*ExportOptions) error) *cobra.Command {
	opts := &ExportOptions{IO: f.IO, Client: f.Client}
	cmd := &cobra.Command{
		Use:   "export <id>",
		Short: "Write a workflow's graph to standard output",
		Long: `Write a workflow's graph as YAML (or JSON with --json): its id, name, type and version,
then its nodes and edges. Keep the file in git, edit it, check it with betty workflow validate,
and save it back with betty workflow import.`,
		Example: `  betty workflow export 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11 > flow.yaml
  betty workflow export 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11 --json > flow.json`,
		Args: cmdutil.ExactArgs(1, "give the id of the workflow to export (see betty workflow list)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if opts.Output.Format == "" {
				opts.Output.Format = "yaml"
			}
			if runF != nil {
				return runF(opts)
			}
			return runExport(cmd.Context(), opts)
		},
	}
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runExport(ctx context.Context, opts *ExportOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	w, err := c.Workflow(ctx, opts.ID)
	if err != nil {
		return err
	}
	return opts.Output.Print(opts.IO, fileOf(w), nil)
}
