package contacts

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

// ImportOptions are the inputs of `betty contacts import`.
type ImportOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)
	TeamID func(ctx context.Context, flag string) (string, error)
	// ConfigDir is where unfinished uploads are remembered.
	ConfigDir func() (string, error)

	Team     string
	Workflow string
	Path     string
	Node     string
	Wait     bool
	Timeout  time.Duration
	Poll     time.Duration
	Restart  bool
	Region   string
	// ConvertLetters reads letters in numbers as keypad digits instead of rejecting the row.
	ConvertLetters bool
}

// NewCmdImport returns `betty contacts import`; runF replaces the run in tests.
func NewCmdImport(f *cmdutil.Factory, runF func(*ImportOptions) error) *cobra.Command {
	opts := &ImportOptions{IO: f.IO, Client: f.Client, TeamID: f.TeamID, Poll: time.Second,
		ConfigDir: func() (string, error) { return config.Dir(f.Getenv) }}
	cmd := &cobra.Command{
		Use:   "import <workflow id> <file.csv>",
		Short: "Import a CSV file of contacts into a workflow",
		Long: `Upload a CSV file (with a progress bar on a terminal, resumable) and make it the contacts
source of the workflow's Contacts node (--node when it has several), replacing the previous
contacts. The server imports it in the background; --wait waits and says how many rows can
be called and how many were rejected (see them with betty contacts list --failed).`,
		Example: `  betty contacts import 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11 customers.csv --wait`,
		Args:    cmdutil.ExactArgs(2, "give the workflow's id and the CSV file"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Workflow, opts.Path = args[0], args[1]
			if st, err := os.Stat(opts.Path); err != nil || !st.Mode().IsRegular() {
				return cmdutil.FlagErrorf("%s is not a file", opts.Path)
			}
			if runF != nil {
				return runF(opts)
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return runImport(ctx, opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.ID.Var(cmd.Flags(), &opts.Node, "node", "The Contacts node `id` (the workflow's only one by default)")
	cmd.Flags().BoolVarP(&opts.Wait, "wait", "w", false, "Wait until the file is imported, and say how it ended")
	cmd.Flags().DurationVar(&opts.Timeout, "timeout", 10*time.Minute, "How long --wait waits at most")
	cmd.Flags().BoolVar(&opts.Restart, "restart", false, "Start the upload over instead of resuming it")
	cmd.Flags().StringVar(&opts.Region, "region", "", "The `country` code (like GB) of numbers written without one (default US)")
	cmd.Flags().BoolVar(&opts.ConvertLetters, "convert-letters", false, "Read letters in numbers (1-800-FLOWERS) as phone keypad digits instead of rejecting those rows")
	return cmd
}

func runImport(ctx context.Context, opts *ImportOptions) error {
	team, err := opts.TeamID(ctx, opts.Team)
	if err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	w, node, err := contactsNode(ctx, c, opts.Workflow, opts.Node)
	if err != nil {
		return err
	}
	dir, err := opts.ConfigDir()
	if err != nil {
		return err
	}
	up, err := files.Send(ctx, opts.IO, c, dir, team, files.File{Path: opts.Path, Purpose: client.UploadPurposeContactsCsv, Restart: opts.Restart})
	if err != nil {
		return err
	}
	if up.FileUrl == nil {
		return fmt.Errorf("%s: the server did not answer a file URL", opts.Path)
	}
	if _, err := c.SetContactsCSV(ctx, team, w.Id, node, *up.FileUrl, betty.CSVOptions{DefaultRegion: opts.Region, ConvertLetters: opts.ConvertLetters}); err != nil {
		return err
	}
	if !opts.Wait {
		fmt.Fprintf(opts.IO.ErrOut, "The server is importing %s into %q (betty contacts list %s shows how it stands).\n", up.FileName, w.Name, w.Id)
		return nil
	}
	wctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	csv, _, err := c.WaitForContacts(wctx, w.Id, node, opts.Poll)
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%s is still being imported after %s; see betty contacts list %s", up.FileName, opts.Timeout, w.Id)
	}
	if err != nil {
		return err
	}
	if csv.Status == client.ContactsImportStatusError {
		return fmt.Errorf("%s could not be imported: %s", up.FileName, cmdutil.Str(csv.Error))
	}
	// The import's own counts: reading every contact to count the rejected ones took 28 s for
	// 50,000 rows (issue 24).
	fmt.Fprintf(opts.IO.ErrOut, "Imported %s into %q: %s, %d rejected.\n", up.FileName, w.Name, plural.Count(csv.RowsImported, "contact", "contacts"), csv.RowsRejected)
	return nil
}
