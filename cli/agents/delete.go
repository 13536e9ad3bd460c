package agents

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
)

// DeleteOptions are the inputs of `betty agents delete`.
type DeleteOptions = cmdutil.RemoveOptions

// NewCmdDelete returns `betty agents delete`; runF replaces the run in tests.
func NewCmdDelete(f *cmdutil.Factory, runF func(*DeleteOptions) error) *cobra.Command {
	return cmdutil.NewCmdRemove(f, cmdutil.Remove{
		Use:   "delete <id>",
		Short: "Delete an agent",
		Long: `Delete an agent with its FAQ and teaching audio; a phone number paired with it is
unpaired. An agent a workflow still uses is not deleted: give the workflow another agent
first. Asks first on a terminal; needs --yes otherwise. Any member but read-only may do this.`,
		Example: `  betty agents delete 0192f1a4-9e3f-7d70-8c83-5b2a4f9e1d32
  betty agents delete 0192f1a4-9e3f-7d70-8c83-5b2a4f9e1d32 --yes`,
		Aliases:  []string{"rm"},
		NoID:     "give the id of the agent to delete (see `betty agents list`)",
		Verb:     "Delete",
		Question: func(id string) string { return fmt.Sprintf("Delete agent %s with its FAQ and audio?", id) },
		Done:     func(id string) string { return fmt.Sprintf("Deleted agent %s.", id) },
		Call: func(ctx context.Context, c *betty.Client, team, id string) error {
			return c.DeleteAgent(ctx, team, id)
		},
	}, runF)
}
