package kb

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/config"
	"github.com/bettyhq/betty/cli/files"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"

	"github.com/bettyhq/betty/internal/plural"
)

// UploadOptions are the inputs of `betty kb upload`.
type UploadOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)
	TeamID func(ctx context.Context, flag string) (string, error)
	// ConfigDir is where unfinished uploads are remembered.
	ConfigDir func() (string, error)

	Team    string
	KB      string
	Paths   []string
	Wait    bool
	Timeout time.Duration
	// Poll is how often a file is asked about while waiting.
	Poll    time.Duration
	Restart bool
	Output  cmdutil.Output
}

// NewCmdUpload returns `betty kb upload`; runF replaces the run in tests.
func NewCmdUpload(f *cmdutil.Factory, runF func(*UploadOptions) error) *cobra.Command {
	opts := &UploadOptions{IO: f.IO, Client: f.Client, TeamID: f.TeamID, Poll: time.Second,
		ConfigDir: func() (string, error) { return config.Dir(f.Getenv) }}
	cmd := &cobra.Command{
		Use:   "upload <knowledge base> <file>...",
		Short: "Upload files into a knowledge base",
		Long: `Upload documents (PDF, DOCX, TXT, Markdown, CSV or HTML; 50 MiB each) into a knowledge base.
Each goes resumably, with a progress bar on a terminal, as betty files upload does: stopped, the
same command goes on from where the server got to.

The server then reads each file in the background; a file is parsing, then success (agents
can use it) or error, with the reason (a scanned PDF without a text layer, a password, a
damaged file). With --wait the command waits for every file and prints how each ended; it
fails (exit 1) when one could not be read. The table lists the files as they stand.`,
		Example: `  betty kb upload "Product manuals" kettle.pdf toaster.docx
  betty kb upload "Product manuals" *.pdf --wait
  betty kb upload 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 faq.md --wait --json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 2 {
				return cmdutil.FlagErrorf("give the knowledge base (id or name) and at least one file")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.KB, opts.Paths = args[0], args[1:]
			if err := kbRef.Check(opts.KB); err != nil {
				return err
			}
			for _, p := range opts.Paths {
				if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
					return cmdutil.FlagErrorf("%s is not a file", p)
				}
			}
			if runF != nil {
				return runF(opts)
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return runUpload(ctx, opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmd.Flags().BoolVarP(&opts.Wait, "wait", "w", false, "Wait until every file is read, and print how each ended")
	cmd.Flags().DurationVar(&opts.Timeout, "timeout", 10*time.Minute, "How long --wait waits at most")
	cmd.Flags().BoolVar(&opts.Restart, "restart", false, "Start over instead of resuming unfinished uploads of these files")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runUpload(ctx context.Context, opts *UploadOptions) error {
	team, err := opts.TeamID(ctx, opts.Team)
	if err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	kb, err := resolve(ctx, c, team, opts.KB)
	if err != nil {
		return err
	}
	dir, err := opts.ConfigDir()
	if err != nil {
		return err
	}
	added := make([]client.KnowledgeFile, 0, len(opts.Paths))
	for _, p := range opts.Paths {
		up, err := files.Send(ctx, opts.IO, c, dir, team, files.File{Path: p, Purpose: client.UploadPurposeKnowledgeFile, Restart: opts.Restart})
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		if up.FileUrl == nil {
			return fmt.Errorf("%s: the server did not answer a file URL", p)
		}
		f, err := c.AddKnowledgeFile(ctx, kb.Id, *up.FileUrl, "")
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		added = append(added, f)
	}
	failed := 0
	if opts.Wait {
		wctx, cancel := context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
		for i, f := range added {
			done, err := c.WaitForKnowledgeFile(wctx, team, f.Id, opts.Poll)
			if errors.Is(err, context.DeadlineExceeded) {
				return fmt.Errorf("%s is still being read after %s; see betty kb files %q", f.Name, opts.Timeout, kb.Name)
			}
			if err != nil {
				return err
			}
			added[i] = done
			switch done.Status {
			case client.KnowledgeFileStatusSuccess:
				fmt.Fprintf(opts.IO.ErrOut, "%s: read%s.\n", done.Name, pagesNote(done.Pages))
			default:
				failed++
				fmt.Fprintf(opts.IO.ErrOut, "%s: could not be read: %s\n", done.Name, cmdutil.Str(done.ErrorMessage))
			}
		}
	} else {
		fmt.Fprintf(opts.IO.ErrOut, "Added %d file(s) to %q; the server is reading them (betty kb files %q shows how they stand).\n",
			len(added), kb.Name, kb.Name)
	}
	if err := opts.Output.Print(opts.IO, added, func(t *cmdutil.Table) { fileRows(t, added) }); err != nil {
		return err
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d files could not be read", failed, len(added))
	}
	return nil
}

func pagesNote(p *int) string {
	if p == nil {
		return ""
	}
	return ", " + plural.Count(*p, "page", "pages")
}
