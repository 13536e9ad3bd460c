package kb

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
)

// RenameOptions are the inputs of `betty kb rename`.
type RenameOptions struct {
	cmdutil.TeamOptions
	KB     string
	Name   string
	Output cmdutil.Output
}

// NewCmdRename returns `betty kb rename`; runF replaces the run in tests.
func NewCmdRename(f *cmdutil.Factory, runF func(*RenameOptions) error) *cobra.Command {
	opts := &RenameOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:     "rename <knowledge base> <new name>",
		Short:   "Rename a knowledge base",
		Long:    `Rename a knowledge base; its files, FAQs and campaign links stay as they are.`,
		Example: `  betty kb rename "Product manuals" "Manuals 2026"`,
		Args:    cmdutil.ExactArgs(2, "give the knowledge base (id or name) and its new name"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.KB, opts.Name = args[0], args[1]
			if err := kbRef.Check(opts.KB); err != nil {
				return err
			}
			if err := kbName.Check(opts.Name); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runRename(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runRename(ctx context.Context, opts *RenameOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	kb, err := resolve(ctx, c, team, opts.KB)
	if err != nil {
		return err
	}
	if kb, err = c.RenameKnowledgeBase(ctx, team, kb.Id, opts.Name); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Renamed knowledge base %s to %q.\n", kb.Id, kb.Name)
	if opts.Output.Format != "" {
		return opts.Output.Print(opts.IO, kb, nil)
	}
	return nil
}
