package agents

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/config"
	"github.com/bettyhq/betty/cli/files"
	"github.com/bettyhq/betty/sdk/client"
)

// NewCmdAudio returns `betty agents audio` and its verbs.
func NewCmdAudio(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "audio <command>",
		Short: "An agent's teaching audio",
		Long: `Recordings of model calls teach an agent how to talk: each is summarised by the server,
and the agent learns from the summary.`,
		Example: `  betty agents audio add 0192f1a4-9e3f-7d70-8c83-5b2a4f9e1d32 model-call.mp3
  betty agents audio list 0192f1a4-9e3f-7d70-8c83-5b2a4f9e1d32`,
	}
	cmd.AddCommand(NewCmdAudioList(f, nil), NewCmdAudioAdd(f, nil))
	return cmd
}

// AudioListOptions are the inputs of `betty agents audio list`.
type AudioListOptions struct {
	cmdutil.TeamOptions
	ID     string
	Limit  int
	Output cmdutil.Output
}

// NewCmdAudioList returns `betty agents audio list`; runF replaces the run in tests.
func NewCmdAudioList(f *cmdutil.Factory, runF func(*AudioListOptions) error) *cobra.Command {
	opts := &AudioListOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:   "list <agent-id>",
		Short: "List an agent's teaching audio",
		Long: `List the teaching audio files of an agent, newest first, with the state of each summary
(in-progress, success or error) and the summary once it is there. Any member of the team may
do this.`,
		Example: `  betty agents audio list 0192f1a4-9e3f-7d70-8c83-5b2a4f9e1d32
  betty agents audio list 0192f1a4-9e3f-7d70-8c83-5b2a4f9e1d32 --json`,
		Aliases: []string{"ls"},
		Args:    cmdutil.ExactArgs(1, "give the id of the agent (see `betty agents list`)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if err := cmdutil.ID.Check(opts.ID); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runAudioList(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.AddLimitFlag(cmd, &opts.Limit)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runAudioList(ctx context.Context, opts *AudioListOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	list, err := cmdutil.Collect(c.AgentAudioFiles(ctx, team, opts.ID), opts.Limit)
	if err != nil {
		return err
	}
	return opts.Output.Print(opts.IO, list, func(t *cmdutil.Table) {
		t.Header("ID", "FILE", "SUMMARY STATUS", "SUMMARY", "CREATED")
		for _, a := range list {
			t.Row(a.Id, a.FileName, string(a.SummaryStatus), cmdutil.Str(a.Summary), cmdutil.Time(&a.CreatedAt))
		}
	})
}

// AudioAddOptions are the inputs of `betty agents audio add`.
type AudioAddOptions struct {
	cmdutil.TeamOptions
	// ConfigDir is where unfinished uploads are remembered.
	ConfigDir func() (string, error)

	ID     string
	Audio  string
	Name   string
	Output cmdutil.Output
}

// NewCmdAudioAdd returns `betty agents audio add`; runF replaces the run in tests.
func NewCmdAudioAdd(f *cmdutil.Factory, runF func(*AudioAddOptions) error) *cobra.Command {
	opts := &AudioAddOptions{TeamOptions: cmdutil.NewTeamOptions(f),
		ConfigDir: func() (string, error) { return config.Dir(f.Getenv) }}
	cmd := &cobra.Command{
		Use:   "add <agent-id> <file or url>",
		Short: "Teach an agent with a recording",
		Long: `Add a recording (MP3, WAV or M4A) to an agent's teaching audio: a local file, which is
uploaded first, or the file URL of one already uploaded (betty files upload --purpose
agent-audio). The server summarises it in the background; betty agents audio list shows when
the summary is there. Prints the audio file's id. Any member but read-only may do this.`,
		Example: `  betty agents audio add 0192f1a4-9e3f-7d70-8c83-5b2a4f9e1d32 model-call.mp3
  betty agents audio add 0192f1a4-9e3f-7d70-8c83-5b2a4f9e1d32 model-call.m4a --name "Best call of May" --json`,
		Args: cmdutil.ExactArgs(2, "give the id of the agent and a recording"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID, opts.Audio = args[0], args[1]
			if err := cmdutil.ID.Check(opts.ID); err != nil {
				return err
			}
			if !isURL(opts.Audio) {
				if st, err := os.Stat(opts.Audio); err != nil || !st.Mode().IsRegular() {
					return cmdutil.FlagErrorf("recording %q is neither a file nor an http(s) URL", opts.Audio)
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return runAudioAdd(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmd.Flags().StringVar(&opts.Name, "name", "", "The `name` to show (default: the file's)")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

// isURL says whether a recording is a URL rather than a local file.
func isURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

func runAudioAdd(ctx context.Context, opts *AudioAddOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	url := opts.Audio
	if !isURL(url) {
		dir, err := opts.ConfigDir()
		if err != nil {
			return err
		}
		up, err := files.Send(ctx, opts.IO, c, dir, team, files.File{Path: opts.Audio, Name: opts.Name, Purpose: client.UploadPurposeAgentAudio})
		if err != nil {
			return err
		}
		if up.FileUrl == nil {
			return fmt.Errorf("%s: the server did not answer a file URL", opts.Audio)
		}
		url = *up.FileUrl
	}
	a, err := c.AddAgentAudio(ctx, team, opts.ID, url, opts.Name)
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Added %s to agent %s; its summary is %s.\n", a.FileName, a.AgentId, a.SummaryStatus)
	if opts.Output.Format != "" {
		return opts.Output.Print(opts.IO, a, nil)
	}
	_, err = fmt.Fprintln(opts.IO.Out, a.Id)
	return err
}
