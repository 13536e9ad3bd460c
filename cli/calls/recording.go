package calls

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
)

// RecordingOptions are the inputs of `betty calls recording`.
type RecordingOptions struct {
	Options
	ID   string
	Path string
	JSON bool
}

// NewCmdRecording returns `betty calls recording`; runF replaces the run in tests.
func NewCmdRecording(f *cmdutil.Factory, runF func(*RecordingOptions) error) *cobra.Command {
	opts := &RecordingOptions{Options: options(f)}
	cmd := &cobra.Command{
		Use:   "recording <call-id> -o <file>",
		Short: "Download a call's recording",
		Long: `Download a call's MP3 recording to the file given with -o ("-" writes it to standard
output, the default when that is not a terminal). A file is written whole or not at all.
With --json, print where the recording can be downloaded instead: a signed URL, valid until
its expiresAt, that serves byte ranges.`,
		Example: `  betty calls recording 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b30 -o call.mp3
  betty calls recording 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b30 | mpv -
  betty calls recording 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b30 --json | jq -r .url`,
		Args: cmdutil.ExactArgs(1, "give the id of the call (see betty calls list)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if opts.JSON && opts.Path != "" {
				return cmdutil.FlagErrorf("give -o to download the recording or --json to print its URL, not both")
			}
			if !opts.JSON && opts.Path == "" {
				if opts.IO.StdoutTTY {
					return cmdutil.FlagErrorf("give the file to write with -o (- for standard output)")
				}
				opts.Path = "-"
			}
			if runF != nil {
				return runF(opts)
			}
			return runRecording(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.AddOutFileFlag(cmd, &opts.Path, "The `file` to write the MP3 to (- for standard output)")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "Print the recording's download URL as JSON instead of downloading it")
	return cmd
}

func runRecording(ctx context.Context, opts *RecordingOptions) error {
	c, team, err := opts.connect(ctx)
	if err != nil {
		return err
	}
	if opts.JSON {
		rec, err := c.CallRecording(ctx, team, opts.ID)
		if err != nil {
			return err
		}
		return cmdutil.Output{Format: "json"}.Print(opts.IO, rec, nil)
	}
	if opts.Path == "-" {
		_, err := c.DownloadRecording(ctx, team, opts.ID, opts.IO.Out)
		return err
	}
	// Written beside the target and renamed at the end, so a failure leaves no half file.
	tmp, err := os.CreateTemp(filepath.Dir(opts.Path), "."+filepath.Base(opts.Path)+".*")
	if err != nil {
		return cmdutil.FlagErrorf("cannot write %s: %v", opts.Path, err)
	}
	defer os.Remove(tmp.Name())
	n, err := c.DownloadRecording(ctx, team, opts.ID, tmp)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), opts.Path); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Wrote %s (%d bytes).\n", opts.Path, n)
	return nil
}
