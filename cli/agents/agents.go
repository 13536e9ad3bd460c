// Package agents is `betty agents`: a team's voice agents — their profiles, FAQ, teaching
// audio, the phone number that reaches them, and how they sound.
package agents

import (
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/sdk/client"
)

// NewCmdAgents returns `betty agents` and its verbs.
func NewCmdAgents(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "agents <command>",
		Short: "Create and manage voice agents",
		Long: `Manage the voice agents of the current team (or the one given with --team): the greeting
they open a call with, their instructions, voice and language, their FAQ and teaching audio,
and the phone number whose calls they answer. A campaign has at most one active agent.`,
		Example: `  betty agents create "Front desk" --greeting "Hi, this is Betty from Acme." --campaign 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10
  betty agents faq set 0192f1a4-9e3f-7d70-8c83-5b2a4f9e1d32 --file faq.yaml
  betty agents say "Thanks for calling Acme." --agent 0192f1a4-9e3f-7d70-8c83-5b2a4f9e1d32 --out greeting.mp3
  betty agents activate 0192f1a4-9e3f-7d70-8c83-5b2a4f9e1d32`,
		Aliases: []string{"agent"},
	}
	cmd.AddCommand(NewCmdList(f, nil), NewCmdView(f, nil), NewCmdCreate(f, nil), NewCmdEdit(f, nil),
		NewCmdDuplicate(f, nil), NewCmdDelete(f, nil), NewCmdActivate(f, nil), NewCmdDeactivate(f, nil),
		NewCmdFAQ(f), NewCmdSay(f, nil), NewCmdPair(f, nil), NewCmdAudio(f))
	return cmd
}

// The rules of what these commands send, copied from the contract (agents_test.go checks that
// they still agree).
var (
	Name         = cmdutil.Rule{Name: "agent name", Schema: "CreateAgentRequest.name", Min: 1, Max: 100}
	Greeting     = cmdutil.Rule{Name: "greeting", Schema: "CreateAgentRequest.greeting", Max: 1000}
	Instructions = cmdutil.Rule{Name: "instructions", Schema: "CreateAgentRequest.instructions", Max: 20000}
	Language     = cmdutil.Rule{Name: "language", Schema: "CreateAgentRequest.language",
		Pattern: `^[a-z]{2,3}(-[A-Z]{2})?$`, Want: "a language tag such as en-US or de"}
	SpeechText = cmdutil.Rule{Name: "text", Schema: "synthesizeAgentSpeech?text", Min: 1, Max: 1000}
	// Answer is one FAQ answer; questions are bounded by the server (500 characters).
	Answer = cmdutil.Rule{Name: "FAQ answer", Schema: "AgentFaq.*", Max: 5000}
)

// maxFAQ is how many question/answer pairs an agent's FAQ holds.
const maxFAQ = 200

// agentRows shows one agent, a label and a value per row.
func agentRows(t *cmdutil.Table, a client.AgentProfile) {
	t.Row("ID", a.Id)
	t.Row("NAME", a.Name)
	t.Row("STATUS", string(a.Status))
	t.Row("CAMPAIGN", cmdutil.Str(a.CampaignId))
	t.Row("LANGUAGE", a.Language)
	t.Row("VOICE", voice(a))
	t.Row("GREETING", a.Greeting)
	t.Row("INSTRUCTIONS", a.Instructions)
	t.Row("FAQ", strconv.Itoa(len(a.Faq))+" questions")
	kb := "none"
	if a.KnowledgeBaseId != nil {
		kb = *a.KnowledgeBaseId
	}
	t.Row("KNOWLEDGE BASE", kb)
	t.Row("KNOWLEDGE FILES", strconv.Itoa(len(a.KnowledgeFiles)))
	t.Row("AUDIO FILES", strconv.Itoa(len(a.AudioFiles)))
	t.Row("CREATED", cmdutil.Time(&a.CreatedAt))
	t.Row("UPDATED", cmdutil.Time(&a.UpdatedAt))
}

// voice says what an agent speaks with.
func voice(a client.AgentProfile) string {
	switch {
	case a.VoiceId != nil:
		return "custom " + *a.VoiceId
	case a.VoicePresetId != nil:
		return "preset " + *a.VoicePresetId
	}
	return "default preset"
}

// printAgent says what was done on stderr, then prints the agent's id, or the agent in the
// format asked.
func printAgent(s *cmdutil.IOStreams, o cmdutil.Output, a client.AgentProfile, done string) error {
	fmt.Fprintf(s.ErrOut, "%s agent %q (%s), %s.\n", done, a.Name, a.Id, a.Status)
	if o.Format != "" {
		return o.Print(s, a, nil)
	}
	_, err := fmt.Fprintln(s.Out, a.Id)
	return err
}

// profile is the fields create and edit share.
type profile struct {
	Greeting, Instructions, InstructionsFile string
	Language, Voice, VoicePreset, Campaign   string
	KnowledgeBase                            string
}

func addProfileFlags(cmd *cobra.Command, p *profile) {
	fs := cmd.Flags()
	Greeting.Var(fs, &p.Greeting, "greeting", "The first `sentence` of every call")
	Instructions.Var(fs, &p.Instructions, "instructions", "The agent's prompt: role, tone, rules")
	fs.StringVar(&p.InstructionsFile, "instructions-file", "", "Read the instructions from a `file` (- for stdin)")
	Language.Var(fs, &p.Language, "language", "The `tag` of the language it speaks, such as en-US or de")
	cmdutil.ID.Var(fs, &p.Voice, "voice", "A custom voice `id` to speak with (see `betty voices list`)")
	cmdutil.ID.Var(fs, &p.VoicePreset, "voice-preset", "A voice preset `id` to speak with (see `betty voices presets`)")
	cmdutil.ID.Var(fs, &p.Campaign, "campaign", "The `id` of the campaign it works for (see `betty campaigns list`)")
	cmdutil.ID.Var(fs, &p.KnowledgeBase, "knowledge-base", "The `id` of a knowledge base it answers from, wherever it speaks (see `betty kb list`)")
	cmd.MarkFlagsMutuallyExclusive("voice", "voice-preset")
	cmd.MarkFlagsMutuallyExclusive("instructions", "instructions-file")
}

// readInstructions reads --instructions-file into Instructions.
func (p *profile) readInstructions(s *cmdutil.IOStreams) error {
	if p.InstructionsFile == "" {
		return nil
	}
	raw, err := readFile(s, p.InstructionsFile)
	if err != nil {
		return err
	}
	p.Instructions = string(raw)
	return Instructions.Check(p.Instructions)
}

// readFile reads a file named by a flag, "-" being stdin; a file that cannot be read is a
// usage error.
func readFile(s *cmdutil.IOStreams, path string) ([]byte, error) {
	if path == "-" {
		return io.ReadAll(s.In)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, cmdutil.FlagErrorf("cannot read %s: %v", path, err)
	}
	return raw, nil
}

func opt(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
