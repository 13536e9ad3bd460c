package agents

import (
	"context"

	"github.com/oapi-codegen/nullable"
	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/sdk/client"
)

// EditOptions are the inputs of `betty agents edit`.
type EditOptions struct {
	cmdutil.TeamOptions
	ID      string
	Name    string
	Profile profile
	// Set are the flags given: an empty --greeting clears the greeting.
	Set    map[string]bool
	Output cmdutil.Output
}

// NewCmdEdit returns `betty agents edit`; runF replaces the run in tests.
func NewCmdEdit(f *cmdutil.Factory, runF func(*EditOptions) error) *cobra.Command {
	opts := &EditOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:   "edit <id>",
		Short: "Change an agent",
		Long: `Change an agent's name, greeting, instructions, language, voice, campaign or knowledge
base; what is not given stays as it is (an empty --greeting "" or --instructions "" clears it,
--no-knowledge-base removes its knowledge base). Giving --voice
replaces the preset and --voice-preset the custom voice. Moving an active agent to another
campaign makes it inactive. Its status has betty agents activate and deactivate, its FAQ
betty agents faq set. Any member but read-only may do this.`,
		Example: `  betty agents edit 0192f1a4-9e3f-7d70-8c83-5b2a4f9e1d32 --greeting "Hello, Acme support."
  betty agents edit 0192f1a4-9e3f-7d70-8c83-5b2a4f9e1d32 --instructions-file prompt.md --language en-GB`,
		Args: cmdutil.ExactArgs(1, "give the id of the agent to change (see `betty agents list`)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if err := cmdutil.ID.Check(opts.ID); err != nil {
				return err
			}
			opts.Set = map[string]bool{}
			for _, name := range []string{"name", "greeting", "instructions", "instructions-file", "language", "voice", "voice-preset", "campaign", "knowledge-base", "no-knowledge-base"} {
				if cmd.Flags().Changed(name) {
					opts.Set[name] = true
				}
			}
			if len(opts.Set) == 0 {
				return cmdutil.FlagErrorf("nothing to change: give --name, --greeting, --instructions, --language, --voice, --voice-preset, --campaign, --knowledge-base or --no-knowledge-base")
			}
			if err := opts.Profile.readInstructions(opts.IO); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runEdit(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	Name.Var(cmd.Flags(), &opts.Name, "name", "The new `name`")
	addProfileFlags(cmd, &opts.Profile)
	cmd.Flags().Bool("no-knowledge-base", false, "Remove the agent's knowledge base")
	cmd.MarkFlagsMutuallyExclusive("knowledge-base", "no-knowledge-base")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runEdit(ctx context.Context, opts *EditOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	p, set := opts.Profile, opts.Set
	given := func(name, v string) *string {
		if !set[name] {
			return nil
		}
		return &v
	}
	req := client.UpdateAgentRequest{OrganizationId: team, Name: given("name", opts.Name), Greeting: given("greeting", p.Greeting),
		Language: given("language", p.Language), VoiceId: given("voice", p.Voice), VoicePresetId: given("voice-preset", p.VoicePreset),
		CampaignId: given("campaign", p.Campaign)}
	if set["instructions"] || set["instructions-file"] {
		req.Instructions = &p.Instructions
	}
	switch {
	case set["no-knowledge-base"]:
		req.KnowledgeBaseId = nullable.NewNullNullable[string]()
	case set["knowledge-base"]:
		req.KnowledgeBaseId = nullable.NewNullableWithValue(p.KnowledgeBase)
	}
	a, err := c.UpdateAgent(ctx, opts.ID, req)
	if err != nil {
		return err
	}
	return printAgent(opts.IO, opts.Output, a, "Updated")
}
