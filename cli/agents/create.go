package agents

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/sdk/client"
)

// CreateOptions are the inputs of `betty agents create`.
type CreateOptions struct {
	cmdutil.TeamOptions
	Name    string
	Profile profile
	Active  bool
	Output  cmdutil.Output
}

// NewCmdCreate returns `betty agents create`; runF replaces the run in tests.
func NewCmdCreate(f *cmdutil.Factory, runF func(*CreateOptions) error) *cobra.Command {
	opts := &CreateOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:   "create <name>",
		Short: "Create an agent",
		Long: `Create an agent for a team. It speaks en-US with the server's default preset unless
--language, --voice (an approved custom voice) or --voice-preset say otherwise. It is inactive
unless --active is given; an active agent of a campaign makes the campaign's other agents
inactive. Give its FAQ afterwards with betty agents faq set. Any member but read-only may do
this.`,
		Example: `  betty agents create "Front desk" --greeting "Hi, this is Betty from Acme. How can I help?"
  betty agents create "Berlin desk" --language de --voice-preset espeak-de-anna --instructions-file prompt.md
  betty agents create "Renewals" --campaign 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --active --json`,
		Args: cmdutil.ExactArgs(1, "give a name for the agent"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			if err := Name.Check(opts.Name); err != nil {
				return err
			}
			if err := opts.Profile.readInstructions(opts.IO); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runCreate(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	addProfileFlags(cmd, &opts.Profile)
	cmd.Flags().BoolVar(&opts.Active, "active", false, "Make it the campaign's active agent at once")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runCreate(ctx context.Context, opts *CreateOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	p := opts.Profile
	req := client.CreateAgentRequest{OrganizationId: team, Name: opts.Name, Greeting: opt(p.Greeting), Instructions: opt(p.Instructions),
		Language: opt(p.Language), VoiceId: opt(p.Voice), VoicePresetId: opt(p.VoicePreset), CampaignId: opt(p.Campaign),
		KnowledgeBaseId: opt(p.KnowledgeBase)}
	if opts.Active {
		active := client.AgentStatusActive
		req.Status = &active
	}
	a, err := c.CreateAgent(ctx, req)
	if err != nil {
		return err
	}
	return printAgent(opts.IO, opts.Output, a, "Created")
}
