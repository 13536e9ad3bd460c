package agents

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/sdk/client"
)

// SayOptions are the inputs of `betty agents say`.
type SayOptions struct {
	cmdutil.TeamOptions
	Text        string
	Agent       string
	Voice       string
	VoicePreset string
	Out         string
}

// NewCmdSay returns `betty agents say`; runF replaces the run in tests.
func NewCmdSay(f *cmdutil.Factory, runF func(*SayOptions) error) *cobra.Command {
	opts := &SayOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:   "say [<text>]",
		Short: "Hear a text in an agent's voice",
		Long: `Speak a text as MP3, in the voice of the agent given with --agent, or of a custom voice
(--voice) or preset (--voice-preset). Without a text, the agent's greeting is spoken. Writes
the audio to --out, or to stdout when it is not a terminal. Any member of the team may do
this.`,
		Example: `  betty agents say --agent 0192f1a4-9e3f-7d70-8c83-5b2a4f9e1d32 --out greeting.mp3
  betty agents say "Thanks for calling Acme." --voice-preset espeak-en-us-linda > thanks.mp3`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Text = args[0]
				if err := SpeechText.Check(opts.Text); err != nil {
					return err
				}
			}
			switch {
			case opts.Agent == "" && opts.Text == "":
				return cmdutil.FlagErrorf("give a text to say, or --agent to say its greeting")
			case opts.Agent == "" && opts.Voice == "" && opts.VoicePreset == "":
				return cmdutil.FlagErrorf("give a voice: --agent, --voice or --voice-preset")
			case opts.Out == "" && opts.IO.StdoutTTY:
				return cmdutil.FlagErrorf("say writes MP3 audio: give --out <file> or redirect stdout to a file (> speech.mp3)")
			}
			if runF != nil {
				return runF(opts)
			}
			return runSay(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.ID.Var(cmd.Flags(), &opts.Agent, "agent", "The `id` of the agent whose voice (and greeting) to use")
	cmdutil.ID.Var(cmd.Flags(), &opts.Voice, "voice", "A custom voice `id` to speak with instead")
	cmdutil.ID.Var(cmd.Flags(), &opts.VoicePreset, "voice-preset", "A voice preset `id` to speak with instead")
	cmd.MarkFlagsMutuallyExclusive("voice", "voice-preset")
	cmdutil.AddOutFileFlag(cmd, &opts.Out, "Write the MP3 to this `file` (default: stdout)")
	return cmd
}

func runSay(ctx context.Context, opts *SayOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	mp3, err := c.AgentSpeech(ctx, client.SynthesizeAgentSpeechParams{OrganizationId: team, AgentProfileId: opt(opts.Agent),
		Text: opt(opts.Text), VoiceId: opt(opts.Voice), VoicePresetId: opt(opts.VoicePreset)})
	if err != nil {
		return err
	}
	if opts.Out == "" {
		_, err = opts.IO.Out.Write(mp3)
		return err
	}
	if err := os.WriteFile(opts.Out, mp3, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Wrote %s (%d bytes).\n", opts.Out, len(mp3))
	return nil
}
