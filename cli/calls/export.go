package calls

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
)

// ExportOptions are the inputs of `betty calls export`.
type ExportOptions struct {
	IO     *cmdutil.IOStreams
	Client Options
	Job    string
	Path   string
}

// NewCmdExport returns `betty calls export`; runF replaces the run in tests.
func NewCmdExport(f *cmdutil.Factory, runF func(*ExportOptions) error) *cobra.Command {
	opts := &ExportOptions{IO: f.IO, Client: options(f)}
	cmd := &cobra.Command{
		Use:   "export <job-id>",
		Short: "Export a run's calls with their post-call fields as CSV",
		Long: `Write, as CSV, one row per call a workflow run placed (see betty jobs list): the call's id,
the number called, its status, when it started, how long it lasted, its outcome and summary,
then one column per post-call field the workflow defines (empty when the call did not
answer it). Standard output by default; with -o a file, written whole or not at all.`,
		Example: `  betty calls export 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b20 -o calls.csv
  betty calls export 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b20 | column -s, -t`,
		Args: cmdutil.ExactArgs(1, "give the id of the run (see betty jobs list)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Job = args[0]
			if runF != nil {
				return runF(opts)
			}
			return runExport(cmd.Context(), opts)
		},
	}
	cmdutil.AddOutFileFlag(cmd, &opts.Path, "Write the CSV to this `file` (default: standard output)")
	return cmd
}

func runExport(ctx context.Context, opts *ExportOptions) error {
	c, err := opts.Client.Client()
	if err != nil {
		return err
	}
	body, _, err := c.JobCalls(ctx, opts.Job)
	if err != nil {
		return err
	}
	defer body.Close()
	if opts.Path == "" || opts.Path == "-" {
		_, err = io.Copy(opts.IO.Out, body)
		return err
	}
	// Written beside the target and renamed at the end, so a failure leaves no half file.
	tmp, err := os.CreateTemp(filepath.Dir(opts.Path), "."+filepath.Base(opts.Path)+".*")
	if err != nil {
		return cmdutil.FlagErrorf("cannot write %s: %v", opts.Path, err)
	}
	defer os.Remove(tmp.Name())
	_, err = io.Copy(tmp, body)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), opts.Path); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Wrote %s.\n", opts.Path)
	return nil
}
