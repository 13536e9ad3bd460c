package inbox

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
)

// DeleteOptions are the inputs of `betty inbox delete`.
type DeleteOptions struct {
	Options
	ID  string
	Yes bool
}

// NewCmdDelete returns `betty inbox delete`; runF replaces the run in tests.
func NewCmdDelete(f *cmdutil.Factory, runF func(*DeleteOptions) error) *cobra.Command {
	opts := &DeleteOptions{Options: options(f)}
	cmd := &cobra.Command{
		Use:   "delete <id>",
		Short: "Delete an inbox item",
		Long: `Delete an inbox item: it leaves lists, searches and its public link; the call's log,
transcript and recording are kept. Asks first on a terminal; needs --yes otherwise.`,
		Example: `  betty inbox delete 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b40 --yes`,
		Aliases: []string{"rm"},
		Args:    cmdutil.ExactArgs(1, "give the id of the inbox item to delete (see betty inbox list)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
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
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	it, err := c.InboxItem(ctx, team, opts.ID)
	if err != nil {
		return err
	}
	if it.Deleted {
		return fmt.Errorf("inbox item %q was deleted already", it.Title)
	}
	if err := cmdutil.ConfirmDestructive(opts.IO, opts.Yes, fmt.Sprintf("Delete inbox item %q?", it.Title)); err != nil {
		return err
	}
	if err := c.DeleteInboxItem(ctx, team, it.Id); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Deleted inbox item %q.\n", it.Title)
	return nil
}
