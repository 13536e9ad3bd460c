package voices

import (
	"context"
	"net/http"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// PresetsOptions are the inputs of `betty voices presets`.
type PresetsOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)

	Limit  int
	Sample string
	Output cmdutil.Output
}

// NewCmdPresets returns `betty voices presets`; runF replaces the run in tests.
func NewCmdPresets(f *cmdutil.Factory, runF func(*PresetsOptions) error) *cobra.Command {
	opts := &PresetsOptions{IO: f.IO, Client: f.Client}
	cmd := &cobra.Command{
		Use:   "presets",
		Short: "List the voice presets",
		Long: `List the voice presets agents can speak with, in the server's order: the voices of its
speech engines (ENGINE: flite, espeak-ng or openai-compatible), the same for every team.

With --sample <id>, write that preset's MP3 sample to stdout instead (redirect it to a file;
it is not written to a terminal).`,
		Example: `  betty voices presets
  betty voices presets --json
  betty voices presets --sample flite-en-us-slt > sarah.mp3`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.Sample != "" && opts.IO.StdoutTTY {
				return cmdutil.FlagErrorf("--sample writes MP3 audio: redirect stdout to a file (> sample.mp3)")
			}
			if runF != nil {
				return runF(opts)
			}
			return runPresets(cmd.Context(), opts)
		},
	}
	cmdutil.AddLimitFlag(cmd, &opts.Limit)
	cmdutil.ID.Var(cmd.Flags(), &opts.Sample, "sample", "Write the MP3 sample of the preset with this `id` to stdout")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runPresets(ctx context.Context, opts *PresetsOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	if opts.Sample != "" {
		mp3, err := c.VoicePresetSample(ctx, opts.Sample)
		if err != nil {
			return err
		}
		_, err = opts.IO.Out.Write(mp3)
		return err
	}
	size := cmdutil.PageSize(opts.Limit)
	presets, err := cmdutil.Collect(betty.All[client.Voice](ctx, c, func(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
		return api.ListVoicePresets(ctx, &client.ListVoicePresetsParams{Page: &page, SizePerPage: &size})
	}), opts.Limit)
	if err != nil {
		return err
	}
	return opts.Output.Print(opts.IO, presets, func(t *cmdutil.Table) {
		t.Header("ID", "NAME", "GENDER", "LANGUAGE", "ENGINE")
		for _, v := range presets {
			t.Row(v.Id, v.Name, string(v.Gender), v.Language, string(v.Engine))
		}
	})
}
