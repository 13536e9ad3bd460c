package inbox

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// UpdateOptions are the inputs of `betty inbox update`.
type UpdateOptions struct {
	Options
	ID         string
	Priority   *int
	Visibility client.InboxVisibility
	Output     cmdutil.Output
}

// NewCmdUpdate returns `betty inbox update`; runF replaces the run in tests.
func NewCmdUpdate(f *cmdutil.Factory, runF func(*UpdateOptions) error) *cobra.Command {
	opts := &UpdateOptions{Options: options(f)}
	var priority int
	cmd := &cobra.Command{
		Use:   "update <id> [--priority <n>] [--visibility public|private]",
		Short: "Change an inbox item's priority or visibility",
		Long: `Change an inbox item's priority (0 lowest, up to 100) and/or visibility. Making an item
public lets anyone who has its link read it without signing in.`,
		Example: `  betty inbox update 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b40 --priority 80
  betty inbox update 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b40 --visibility public`,
		Args: cmdutil.ExactArgs(1, "give the id of the inbox item (see betty inbox list)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if cmd.Flags().Changed("priority") {
				opts.Priority = &priority
			}
			if opts.Priority == nil && opts.Visibility == "" {
				return cmdutil.FlagErrorf("nothing to change: give --priority or --visibility")
			}
			if runF != nil {
				return runF(opts)
			}
			return runUpdate(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.IntVarP(cmd.Flags(), &priority, "priority", "p", 0, 0, 100, "The new `priority`, 0 (lowest) to 100")
	cmdutil.EnumVar(cmd.Flags(), &opts.Visibility, "visibility", "Who can read it: "+cmdutil.OneOf(Visibilities...), Visibilities...)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runUpdate(ctx context.Context, opts *UpdateOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	u := betty.InboxUpdate{Priority: opts.Priority}
	if opts.Visibility != "" {
		u.Visibility = &opts.Visibility
	}
	it, err := c.UpdateInboxItem(ctx, team, opts.ID, u)
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Updated inbox item %q: priority %d, %s.\n", it.Title, it.Priority, it.Visibility)
	if opts.Output.Format != "" {
		return opts.Output.Print(opts.IO, it, nil)
	}
	_, err = fmt.Fprintln(opts.IO.Out, it.Id)
	return err
}
