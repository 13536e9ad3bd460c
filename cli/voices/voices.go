// Package voices is `betty voices`: the voice presets of the server's speech engines and a
// team's custom voice profiles.
package voices

import (
	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/sdk/client"
)

// NewCmdVoices returns `betty voices` and its verbs.
func NewCmdVoices(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "voices <command>",
		Short: "Voice presets and a team's custom voices",
		Long: `List the voice presets agents can speak with, and manage the custom voice profiles of
the current team (or the one given with --team).

Presets are the voices of the server's speech engines: flite and espeak-ng, offline, by
default, or the OpenAI-compatible engine an operator configured with --tts-url. A custom voice
keeps your recorded samples, but no engine clones voices: it speaks with the preset nearest to
its language and gender, which betty voices create and betty voices list show.`,
		Example: `  betty voices presets
  betty voices presets --sample flite-en-us-slt > sarah.mp3
  betty voices create "Front desk" --gender female --sample front-desk.mp3
  betty voices list --json`,
		Aliases: []string{"voice"},
	}
	cmd.AddCommand(NewCmdList(f, nil), NewCmdPresets(f, nil), NewCmdCreate(f, nil), NewCmdDelete(f, nil))
	return cmd
}

// The rules of what the voice commands send, copied from the contract (rules_test.go checks
// that they still agree).
var (
	voiceName        = cmdutil.Rule{Name: "voice name", Schema: "CreateVoiceProfileRequest.name", Min: 1, Max: 100}
	voiceDescription = cmdutil.Rule{Name: "description", Schema: "CreateVoiceProfileRequest.description", Max: 500}
	voiceLanguage    = cmdutil.Rule{Name: "language", Schema: "CreateVoiceProfileRequest.language", Max: 10,
		Pattern: `^[a-z]{2,3}(-([A-Z]{2}|[0-9]{3}))?$`, Want: "a language tag such as en-US, de or es-419"}
	sampleURL = cmdutil.Rule{Name: "sample URL", Schema: "CreateVoiceProfileRequest.audioUrls[]", Max: 2048, URL: true}
	// genders are the contract's VoiceGender values.
	genders = []client.VoiceGender{client.Female, client.Male, client.Neutral}
)

// maxSamples is how many samples a voice takes.
const maxSamples = 10
