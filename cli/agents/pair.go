package agents

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
)

// PairOptions are the inputs of `betty agents pair`.
type PairOptions struct {
	cmdutil.TeamOptions
	ID          string
	PhoneNumber string
	Output      cmdutil.Output
}

// NewCmdPair returns `betty agents pair`; runF replaces the run in tests.
func NewCmdPair(f *cmdutil.Factory, runF func(*PairOptions) error) *cobra.Command {
	opts := &PairOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:   "pair <agent-id> <phone-number-id>",
		Short: "Have an agent answer a phone number",
		Long: `Pair a team's phone number with an agent, so the agent answers the calls to it (the step
before a test call). A team has one such pairing: this replaces the previous one. The number
must be an active number bought through Betty (see betty numbers list); a verified number of
the team's own cannot receive calls. Any member but read-only may do this.

Calls follow an inbound workflow: the number's own inbound workflow gets the agent, or Betty
makes one, "Calls to <number>", from the Answer calls template (greet, answer from the agent's
profile, FAQ and knowledge base, take a message). Its id is printed; edit it like any workflow.`,
		Example: `  betty agents pair 0192f1a4-9e3f-7d70-8c83-5b2a4f9e1d32 0192f1a4-8d2e-7c61-8b72-4a1f3e8d0c21`,
		Args:    cmdutil.ExactArgs(2, "give the id of the agent and of the phone number (see `betty numbers list`)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID, opts.PhoneNumber = args[0], args[1]
			for _, id := range args {
				if err := cmdutil.ID.Check(id); err != nil {
					return err
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return runPair(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runPair(ctx context.Context, opts *PairOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	cfg, err := c.SetAgentCallConfig(ctx, team, opts.ID, opts.PhoneNumber)
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Agent %s answers the calls to phone number %s now.\n", cfg.AgentId, cfg.PhoneNumberId)
	if cfg.WorkflowId != nil {
		fmt.Fprintf(opts.IO.ErrOut, "The calls follow workflow %s (betty workflow view %s).\n", *cfg.WorkflowId, *cfg.WorkflowId)
	}
	if opts.Output.Format != "" {
		return opts.Output.Print(opts.IO, cfg, nil)
	}
	return nil
}
