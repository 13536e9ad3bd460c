package kb

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
)

// CreateOptions are the inputs of `betty kb create`.
type CreateOptions struct {
	cmdutil.TeamOptions
	Name     string
	Campaign string
	Output   cmdutil.Output
}

// NewCmdCreate returns `betty kb create`; runF replaces the run in tests.
func NewCmdCreate(f *cmdutil.Factory, runF func(*CreateOptions) error) *cobra.Command {
	opts := &CreateOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:   "create <name>",
		Short: "Create a knowledge base",
		Long: `Create an empty knowledge base, named uniquely in the team (ignoring case). With
--campaign it is made for that campaign and becomes its active knowledge base when the
campaign has none. Prints its id. Any member but read-only may do this.`,
		Example: `  betty kb create "Product manuals"
  betty kb create FAQ --campaign 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10`,
		Args: cmdutil.ExactArgs(1, "give a name for the knowledge base"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			if err := kbName.Check(opts.Name); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runCreate(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.ID.Var(cmd.Flags(), &opts.Campaign, "campaign", "Make it for this campaign `id` (its active one if it has none)")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runCreate(ctx context.Context, opts *CreateOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	kb, err := c.CreateKnowledgeBase(ctx, team, opts.Name, opts.Campaign)
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Created knowledge base %q.\n", kb.Name)
	if opts.Output.Format != "" {
		return opts.Output.Print(opts.IO, kb, nil)
	}
	_, err = fmt.Fprintln(opts.IO.Out, kb.Id)
	return err
}
