package cmdutil

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	betty "github.com/bettyhq/betty/sdk"
)

// RemoveOptions are the inputs of a verb that removes one thing of a team named by its id
// (`betty agents delete`, `betty voices delete`, `betty api-keys delete`, `betty numbers release`).
type RemoveOptions struct {
	TeamOptions
	ID  string
	Yes bool
}

// Remove describes such a verb: its help, what it asks and says, and the call that removes.
type Remove struct {
	Use, Short, Long, Example string
	Aliases                   []string
	// NoID is the usage error without an id ("give the id of the agent to delete (see …)").
	NoID string
	// Verb is the flag's and the message's word: "Delete", "Revoke", "Release".
	Verb string
	// Question asks before removing id on a terminal; Done says it was removed.
	Question, Done func(id string) string
	Call           func(ctx context.Context, c *betty.Client, team, id string) error
}

// NewCmdRemove returns the verb r describes: one id, the team (--team), asked first on a
// terminal, --yes otherwise; runF replaces the run in tests.
func NewCmdRemove(f *Factory, r Remove, runF func(*RemoveOptions) error) *cobra.Command {
	opts := &RemoveOptions{TeamOptions: NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:     r.Use,
		Short:   r.Short,
		Long:    r.Long,
		Example: r.Example,
		Aliases: r.Aliases,
		Args:    ExactArgs(1, r.NoID),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if err := ID.Check(opts.ID); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runRemove(cmd.Context(), r, opts)
		},
	}
	AddTeamFlag(cmd, &opts.Team)
	cmd.Flags().BoolVarP(&opts.Yes, "yes", "y", false, r.Verb+" without asking")
	return cmd
}

func runRemove(ctx context.Context, r Remove, opts *RemoveOptions) error {
	// The team is checked before asking; the client is made only for a yes.
	team, err := opts.TeamID(ctx, opts.Team)
	if err != nil {
		return err
	}
	if err := ConfirmDestructive(opts.IO, opts.Yes, r.Question(opts.ID)); err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	if err := r.Call(ctx, c, team, opts.ID); err != nil {
		return err
	}
	fmt.Fprintln(opts.IO.ErrOut, r.Done(opts.ID))
	return nil
}
