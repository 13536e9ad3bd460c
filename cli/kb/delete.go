package kb

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
)

// DeleteOptions are the inputs of `betty kb delete`.
type DeleteOptions struct {
	cmdutil.TeamOptions
	KB  string
	Yes bool
}

// NewCmdDelete returns `betty kb delete`; runF replaces the run in tests.
func NewCmdDelete(f *cmdutil.Factory, runF func(*DeleteOptions) error) *cobra.Command {
	opts := &DeleteOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:   "delete <knowledge base>",
		Short: "Delete a knowledge base",
		Long: `Delete a knowledge base with all its files (their stored bytes too), FAQs and campaign
links; a campaign whose active knowledge base it was is left without one. Asks first on a
terminal; needs --yes otherwise.`,
		Example: `  betty kb delete "Product manuals"
  betty kb delete 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --yes`,
		Aliases: []string{"rm"},
		Args:    cmdutil.ExactArgs(1, "give the knowledge base to delete (id or name; see betty kb list)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.KB = args[0]
			if err := kbRef.Check(opts.KB); err != nil {
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
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	kb, err := resolve(ctx, c, team, opts.KB)
	if err != nil {
		return err
	}
	if err := cmdutil.ConfirmDestructive(opts.IO, opts.Yes, fmt.Sprintf("Delete knowledge base %q with its %d files and FAQs?", kb.Name, kb.FileCount)); err != nil {
		return err
	}
	if err := c.DeleteKnowledgeBase(ctx, team, kb.Id); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Deleted knowledge base %q.\n", kb.Name)
	return nil
}
