package agents

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
)

// DeleteOptions are the inputs of `betty agents delete`.
type DeleteOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)
	TeamID func(ctx context.Context, flag string) (string, error)

	Team string
	ID   string
	Yes  bool
}

// NewCmdDelete returns `betty agents delete`; runF replaces the run in tests.
func NewCmdDelete(f *cmdutil.Factory, runF func(*DeleteOptions) error) *cobra.Command {
	opts := &DeleteOptions{IO: f.IO, Client: f.Client, TeamID: f.TeamID}
	cmd := &cobra.Command{
		Use:   "delete <id>",
		Short: "Delete an agent",
		Long: `Delete an agent with its FAQ and teaching audio; a phone number paired with it is
unpaired. An agent a workflow still uses is not deleted: give the workflow another agent
first. Asks first on a terminal; needs --yes otherwise. Any member but read-only may do this.`,
		Example: `  betty agents delete 0192f1a4-9e3f-7d70-8c83-5b2a4f9e1d32
  betty agents delete 0192f1a4-9e3f-7d70-8c83-5b2a4f9e1d32 --yes`,
		Aliases: []string{"rm"},
		Args:    cmdutil.ExactArgs(1, "give the id of the agent to delete (see `betty agents list`)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if err := cmdutil.ID.Check(opts.ID); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runDelete(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmd.Flags().BoolVarP(&opts.Yes, "yes", "y", false, "Delete without asking")
	return cmd
}

func runDelete(ctx context.Context, opts *DeleteOptions) error {
	team, err := opts.TeamID(ctx, opts.Team)
	if err != nil {
		return err
	}
	if err := cmdutil.ConfirmDestructive(opts.IO, opts.Yes, fmt.Sprintf("Delete agent %s with its FAQ and audio?", opts.ID)); err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	if err := c.DeleteAgent(ctx, team, opts.ID); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Deleted agent %s.\n", opts.ID)
	return nil
}
