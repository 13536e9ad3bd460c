package agents

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/sdk/client"
)

// StatusOptions are the inputs of `betty agents activate` and `deactivate`.
type StatusOptions struct {
	cmdutil.TeamOptions
	ID     string
	Status client.AgentStatus
	Output cmdutil.Output
}

// NewCmdActivate returns `betty agents activate`; runF replaces the run in tests.
func NewCmdActivate(f *cmdutil.Factory, runF func(*StatusOptions) error) *cobra.Command {
	return newCmdStatus(f, runF, client.AgentStatusActive, &cobra.Command{
		Use:   "activate <id>",
		Short: "Make an agent its campaign's active agent",
		Long: `Make an agent active. Its campaign's other agents become inactive: a campaign has at most
one active agent. Activating an active agent changes nothing. Any member but read-only may do
this.`,
		Example: `  betty agents activate 0192f1a4-9e3f-7d70-8c83-5b2a4f9e1d32`,
	})
}

// NewCmdDeactivate returns `betty agents deactivate`; runF replaces the run in tests.
func NewCmdDeactivate(f *cmdutil.Factory, runF func(*StatusOptions) error) *cobra.Command {
	return newCmdStatus(f, runF, client.AgentStatusInactive, &cobra.Command{
		Use:   "deactivate <id>",
		Short: "Make an agent inactive",
		Long: `Make an agent inactive; no other agent changes, so its campaign may be left with no
active agent. Any member but read-only may do this.`,
		Example: `  betty agents deactivate 0192f1a4-9e3f-7d70-8c83-5b2a4f9e1d32`,
	})
}

// newCmdStatus completes activate or deactivate, which differ in their words and the status
// they set.
func newCmdStatus(f *cmdutil.Factory, runF func(*StatusOptions) error, status client.AgentStatus, cmd *cobra.Command) *cobra.Command {
	opts := &StatusOptions{TeamOptions: cmdutil.NewTeamOptions(f), Status: status}
	cmd.Args = cmdutil.ExactArgs(1, "give the id of the agent (see `betty agents list`)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		opts.ID = args[0]
		if err := cmdutil.ID.Check(opts.ID); err != nil {
			return err
		}
		if runF != nil {
			return runF(opts)
		}
		return runStatus(cmd.Context(), opts)
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runStatus(ctx context.Context, opts *StatusOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	set, done := c.ActivateAgent, "Activated"
	if opts.Status == client.AgentStatusInactive {
		set, done = c.DeactivateAgent, "Deactivated"
	}
	a, err := set(ctx, team, opts.ID)
	if err != nil {
		return err
	}
	return printAgent(opts.IO, opts.Output, a, done)
}
