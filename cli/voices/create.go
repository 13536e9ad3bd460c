package voices

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/config"
	"github.com/bettyhq/betty/cli/files"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// CreateOptions are the inputs of `betty voices create`.
type CreateOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)
	TeamID func(ctx context.Context, flag string) (string, error)
	// ConfigDir is where unfinished uploads of samples are remembered.
	ConfigDir func() (string, error)

	Team        string
	Name        string
	Gender      client.VoiceGender
	Language    string
	Description string
	Samples     []string
	Output      cmdutil.Output
}

// NewCmdCreate returns `betty voices create`; runF replaces the run in tests.
func NewCmdCreate(f *cmdutil.Factory, runF func(*CreateOptions) error) *cobra.Command {
	opts := &CreateOptions{IO: f.IO, Client: f.Client, TeamID: f.TeamID,
		ConfigDir: func() (string, error) { return config.Dir(f.Getenv) }}
	var gender string
	cmd := &cobra.Command{
		Use:   "create <name>",
		Short: "Create a custom voice",
		Long: `Create a custom voice profile for a team from 1 to 10 recorded samples (MP3, WAV, M4A or
OGG), each given with --sample: a local file, which is uploaded first, or the file URL of a
voice sample already uploaded (betty files upload --purpose voice-sample).

The server's speech engines cannot clone a voice: the new voice is approved at once and
speaks with the preset nearest to its language and gender, which the answer names. A team may
have 1 custom voice, 3 on the Custom plan (tier4). Any member but read-only may do this.`,
		Example: `  betty voices create "Front desk" --gender female --sample ceo-1.mp3 --sample ceo-2.mp3
  betty voices create "Berlin desk" --gender male --language de-DE --sample https://betty.example.com/v1/uploads/0192f1a4-…/file?… --json`,
		Args: cmdutil.ExactArgs(1, "give a name for the voice"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			if err := voiceName.Check(opts.Name); err != nil {
				return err
			}
			if gender == "" {
				return cmdutil.FlagErrorf("give how the voice sounds with --gender %s", cmdutil.OneOf(genders...))
			}
			var err error
			if opts.Gender, err = cmdutil.Enum("gender", gender, genders...); err != nil {
				return err
			}
			switch n := len(opts.Samples); {
			case n == 0:
				return cmdutil.FlagErrorf("give at least one recorded sample with --sample <file or url>")
			case n > maxSamples:
				return cmdutil.FlagErrorf("give at most %d samples, not %d", maxSamples, n)
			}
			for _, s := range opts.Samples {
				if !isURL(s) {
					if st, err := os.Stat(s); err != nil || !st.Mode().IsRegular() {
						return cmdutil.FlagErrorf("sample %q is neither a file nor an http(s) URL", s)
					}
					continue // uploaded first
				}
				if err := sampleURL.Check(s); err != nil {
					return err
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return runCreate(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmd.Flags().StringVarP(&gender, "gender", "g", "", "How the voice sounds: female, male or neutral (required)")
	voiceLanguage.Var(cmd.Flags(), &opts.Language, "language", "The `tag` of the language it speaks, such as en-US or de (default en-US)")
	voiceDescription.Var(cmd.Flags(), &opts.Description, "description", "How the voice sounds, in words")
	cmd.Flags().StringArrayVarP(&opts.Samples, "sample", "s", nil, "A recording: a local `file` or the URL of an uploaded one (repeat for more)")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runCreate(ctx context.Context, opts *CreateOptions) error {
	team, err := opts.TeamID(ctx, opts.Team)
	if err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	samples, err := sampleURLs(ctx, opts, c, team)
	if err != nil {
		return err
	}
	req := client.CreateVoiceProfileRequest{OrganizationId: team, Name: opts.Name, Gender: opts.Gender, AudioUrls: samples}
	if opts.Language != "" {
		req.Language = &opts.Language
	}
	if opts.Description != "" {
		req.Description = &opts.Description
	}
	v, err := betty.Do[client.VoiceProfile](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.CreateVoiceProfile(ctx, req)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Created voice %q (%s), %s.\n%s\n", v.Name, v.Id, v.Status, v.Note)
	if opts.Output.Format != "" {
		return opts.Output.Print(opts.IO, v, nil)
	}
	_, err = fmt.Fprintln(opts.IO.Out, v.Id)
	return err
}

// isURL says whether a --sample is a URL rather than a local file.
func isURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

// sampleURLs uploads the samples given as local files and answers the URLs of all.
func sampleURLs(ctx context.Context, opts *CreateOptions, c *betty.Client, team string) ([]string, error) {
	urls := make([]string, 0, len(opts.Samples))
	for _, s := range opts.Samples {
		if isURL(s) {
			urls = append(urls, s)
			continue
		}
		dir, err := opts.ConfigDir()
		if err != nil {
			return nil, err
		}
		up, err := files.Send(ctx, opts.IO, c, dir, team, files.File{Path: s, Purpose: client.UploadPurposeVoiceSample})
		if err != nil {
			return nil, fmt.Errorf("sample %s: %w", s, err)
		}
		if up.FileUrl == nil {
			return nil, fmt.Errorf("sample %s: the server did not answer a file URL", s)
		}
		urls = append(urls, *up.FileUrl)
	}
	return urls, nil
}
