package files

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/config"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// UploadOptions are the inputs of `betty files upload`.
type UploadOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)
	TeamID func(ctx context.Context, flag string) (string, error)
	// ConfigDir is where unfinished uploads are remembered.
	ConfigDir func() (string, error)

	Path    string
	Team    string
	Purpose client.UploadPurpose
	Name    string
	Restart bool
	Output  cmdutil.Output
}

// Purposes are what a file can be for, in the contract's order.
var Purposes = []client.UploadPurpose{client.UploadPurposeKnowledgeFile, client.UploadPurposeAgentFile,
	client.UploadPurposeAgentAudio, client.UploadPurposeVoiceSample, client.UploadPurposeContactsCsv}

// NewCmdUpload returns `betty files upload`; runF replaces the run in tests.
func NewCmdUpload(f *cmdutil.Factory, runF func(*UploadOptions) error) *cobra.Command {
	opts := &UploadOptions{IO: f.IO, Client: f.Client, TeamID: f.TeamID,
		ConfigDir: func() (string, error) { return config.Dir(f.Getenv) }}
	var purpose string
	cmd := &cobra.Command{
		Use:   "upload <path>",
		Short: "Upload a file",
		Long: `Upload a file resumably and print its file URL, which commands and API calls that take a
file accept (valid 24 hours; betty files upload prints a fresh one each time).

The purpose decides what the server accepts, read from the file's bytes: knowledge-file and
agent-file take documents (pdf, docx, txt, md, csv, html), agent-audio and voice-sample take
audio (mp3, wav, m4a, ogg), contacts-csv takes csv; 50 MiB at most. Without --purpose, audio
files are agent-audio and anything else a knowledge-file.

The file goes in 6 MiB chunks; a failed chunk is tried again after 0, 3, 5, 10 and 20 seconds.
Stopped (Ctrl-C, a lost connection), the same command later goes on from where the server got
to: the upload is remembered by the file's path, size and modification time for 24 hours.
--restart forgets it and starts over.`,
		Example: `  betty files upload price-list.pdf
  betty files upload greeting.mp3 --purpose voice-sample
  URL=$(betty files upload contacts.csv --purpose contacts-csv)
  betty files upload manual.pdf --json | jq -r .fileUrl`,
		Args: cmdutil.ExactArgs(1, "give the path of the file to upload"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Path = args[0]
			if purpose == "" {
				opts.Purpose = purposeOf(opts.Path)
			} else {
				var err error
				if opts.Purpose, err = cmdutil.Enum("purpose", purpose, Purposes...); err != nil {
					return err
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
	cmd.Flags().StringVarP(&purpose, "purpose", "p", "", "The `purpose` of the file: "+cmdutil.OneOf(Purposes...))
	cmd.Flags().StringVar(&opts.Name, "name", "", "The file `name` the server keeps (default: the file's own)")
	cmd.Flags().BoolVar(&opts.Restart, "restart", false, "Start over instead of resuming an unfinished upload of this file")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

// purposeOf is the purpose of a file by its extension: audio for agents, else a knowledge file.
func purposeOf(path string) client.UploadPurpose {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".mp3", ".wav", ".m4a", ".ogg", ".oga", ".opus":
		return client.UploadPurposeAgentAudio
	}
	return client.UploadPurposeKnowledgeFile
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
	dir, err := opts.ConfigDir()
	if err != nil {
		return err
	}
	up, err := Send(ctx, opts.IO, c, dir, team, File{Path: opts.Path, Name: opts.Name, Purpose: opts.Purpose, Restart: opts.Restart})
	if err != nil {
		return err
	}
	if opts.Output.Format != "" {
		return opts.Output.Print(opts.IO, up, nil)
	}
	if up.FileUrl == nil {
		return errors.New("the server did not answer a file URL")
	}
	_, err = fmt.Fprintln(opts.IO.Out, *up.FileUrl)
	return err
}

// File is a local file to upload.
type File struct {
	Path    string
	Name    string // the name the server keeps; the file's own when empty
	Purpose client.UploadPurpose
	Restart bool // start over instead of resuming
}

// Send uploads a local file for a team the way betty files upload does: resumably (remembered
// under configDir), with a progress bar on a terminal, saying on ErrOut what it uploaded. Other
// commands that take a file use it to accept a path where the API takes a file URL.
func Send(ctx context.Context, io *cmdutil.IOStreams, c *betty.Client, configDir, team string, f File) (client.Upload, error) {
	path, err := filepath.Abs(f.Path)
	if err != nil {
		return client.Upload{}, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return client.Upload{}, err
	}
	if !st.Mode().IsRegular() {
		return client.Upload{}, cmdutil.FlagErrorf("%s is not a file", f.Path)
	}
	unfinished := openUnfinished(configDir)
	key := unfinishedKey(c.Server(), team, f.Purpose, path, st)
	resume := ""
	if !f.Restart {
		resume = unfinished.get(key)
	}
	name := f.Name
	if name == "" {
		name = filepath.Base(path)
	}
	bar := newBar(io, name, st.Size())
	var sent int64
	up, err := c.UploadFile(ctx, path, betty.UploadOptions{
		OrganizationID: team, Purpose: f.Purpose, FileName: name, Resume: resume,
		OnCreate: func(url string) {
			if err := unfinished.put(key, url); err != nil {
				fmt.Fprintf(io.ErrOut, "warning: this upload cannot be resumed later: %v\n", err)
			}
		},
		Progress: func(n, total int64) {
			if sent == 0 && n > 0 && resume != "" {
				fmt.Fprintf(io.ErrOut, "Resuming %s at %d of %d bytes.\n", name, n, total)
			}
			sent = n
			bar.set(n)
		},
	})
	bar.done()
	switch {
	case ctx.Err() != nil:
		return client.Upload{}, fmt.Errorf("stopped with %d of %d bytes of %s on the server; run the same command again to go on", sent, st.Size(), name)
	case err != nil && betty.UploadResumable(err):
		return client.Upload{}, cmdutil.WithHint(err, "Run the same command again to go on from where it stopped.")
	case err != nil:
		_ = unfinished.forget(key) // refused: the server deleted it, or never made it
		return client.Upload{}, err
	}
	_ = unfinished.forget(key)
	fmt.Fprintf(io.ErrOut, "Uploaded %s (%d bytes, %s).\n", up.FileName, up.Size, up.FileType)
	return up, nil
}

// bar shows progress on a terminal; elsewhere it shows nothing.
type bar struct{ b *progressbar.ProgressBar }

func newBar(io *cmdutil.IOStreams, name string, size int64) bar {
	f, ok := io.ErrOut.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return bar{}
	}
	return bar{progressbar.NewOptions64(size, progressbar.OptionSetWriter(f), progressbar.OptionSetDescription(name),
		progressbar.OptionShowBytes(true), progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionSetWidth(30),
		progressbar.OptionClearOnFinish())}
}

func (b bar) set(n int64) {
	if b.b != nil {
		_ = b.b.Set64(n)
	}
}

func (b bar) done() {
	if b.b != nil {
		_ = b.b.Exit()
	}
}
