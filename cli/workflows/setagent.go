package workflows

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
)

// SetAgentOptions are the inputs of `betty workflow set-agent`.
type SetAgentOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)

	ID     string
	Agent  string
	Output cmdutil.Output
}

// NewCmdSetAgent returns `betty workflow set-agent`; runF replaces the run in tests.
func NewCmdSetAgent(f *cmdutil.Factory, runF func(*SetAgentOptions) error) *cobra.Command {
	opts := &SetAgentOptions{IO: f.IO, Client: f.Client}
	cmd := &cobra.Command{
		Use:   "set-agent <workflow-id> <agent-id>",
		Short: "Set the agent that speaks in a workflow",
		Long: `Make an agent of the workflow's team (see betty agents list) the one that speaks in it.
Its readable prompt is compiled again (betty workflow view --prompt shows it); the graph and
its version do not change. Any member but read-only may do this.`,
		Example: `  betty workflow set-agent 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10`,
		Args:    cmdutil.ExactArgs(2, "give the workflow's id and the agent's"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID, opts.Agent = args[0], args[1]
			if err := cmdutil.ID.Check(opts.Agent); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runSetAgent(cmd.Context(), opts)
		},
	}
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runSetAgent(ctx context.Context, opts *SetAgentOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	w, err := c.SetWorkflowAgent(ctx, opts.ID, opts.Agent)
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Agent %s speaks in workflow %q.\n", opts.Agent, w.Name)
	if opts.Output.Format != "" {
		return opts.Output.Print(opts.IO, w, nil)
	}
	return nil
}
