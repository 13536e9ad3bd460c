package kb

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
)

// ActivateOptions are the inputs of `betty kb activate` and `betty kb deactivate`.
type ActivateOptions struct {
	cmdutil.TeamOptions
	KB       string
	Campaign string
	Active   bool
	Output   cmdutil.Output
}

// NewCmdActivate returns `betty kb activate`; runF replaces the run in tests.
func NewCmdActivate(f *cmdutil.Factory, runF func(*ActivateOptions) error) *cobra.Command {
	return newCmdSetActive(f, runF, true, &cobra.Command{
		Use:   "activate <knowledge base> --campaign <id>",
		Short: "Make a knowledge base a campaign's active one",
		Long: `Make a knowledge base the one a campaign's agents answer from. A campaign has one active
knowledge base: the one active before becomes inactive (it stays linked to the campaign).`,
		Example: `  betty kb activate "Product manuals" --campaign 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10`,
	})
}

// NewCmdDeactivate returns `betty kb deactivate`; runF replaces the run in tests.
func NewCmdDeactivate(f *cmdutil.Factory, runF func(*ActivateOptions) error) *cobra.Command {
	return newCmdSetActive(f, runF, false, &cobra.Command{
		Use:     "deactivate <knowledge base> --campaign <id>",
		Short:   "Leave a campaign without an active knowledge base",
		Long:    `Make a knowledge base inactive for a campaign, leaving the campaign without an active one.`,
		Example: `  betty kb deactivate "Product manuals" --campaign 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10`,
	})
}

// newCmdSetActive builds activate and deactivate, which differ only in their words.
func newCmdSetActive(f *cmdutil.Factory, runF func(*ActivateOptions) error, active bool, cmd *cobra.Command) *cobra.Command {
	opts := &ActivateOptions{TeamOptions: cmdutil.NewTeamOptions(f), Active: active}
	cmd.Args = cmdutil.ExactArgs(1, "give the knowledge base (id or name; see betty kb list)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		opts.KB = args[0]
		if err := kbRef.Check(opts.KB); err != nil {
			return err
		}
		if opts.Campaign == "" {
			return cmdutil.FlagErrorf("give the campaign with --campaign <id>")
		}
		if runF != nil {
			return runF(opts)
		}
		return runSetActive(cmd.Context(), opts)
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.ID.Var(cmd.Flags(), &opts.Campaign, "campaign", "The campaign `id` (required)")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runSetActive(ctx context.Context, opts *ActivateOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	kb, err := resolve(ctx, c, team, opts.KB)
	if err != nil {
		return err
	}
	set, word := c.ActivateKnowledgeBase, "the active knowledge base of"
	if !opts.Active {
		set, word = c.DeactivateKnowledgeBase, "inactive for"
	}
	l, err := set(ctx, team, kb.Id, opts.Campaign)
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "%q is now %s campaign %s.\n", kb.Name, word, opts.Campaign)
	if opts.Output.Format != "" {
		return opts.Output.Print(opts.IO, l, nil)
	}
	return nil
}
