package kb

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
)

// FilesOptions are the inputs of `betty kb files`.
type FilesOptions struct {
	cmdutil.TeamOptions
	KB     string
	Limit  int
	Output cmdutil.Output
}

// NewCmdFiles returns `betty kb files`; runF replaces the run in tests.
func NewCmdFiles(f *cmdutil.Factory, runF func(*FilesOptions) error) *cobra.Command {
	opts := &FilesOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:   "files <knowledge base>",
		Short: "List the files and FAQs of a knowledge base",
		Long: `List the files and FAQs of a knowledge base, newest first, with how each stands: parsing
(being read), success, or error with the reason in MESSAGE.`,
		Example: `  betty kb files "Product manuals"
  betty kb files "Product manuals" --json`,
		Args: cmdutil.ExactArgs(1, "give the knowledge base (id or name; see betty kb list)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.KB = args[0]
			if err := kbRef.Check(opts.KB); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runFiles(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.AddLimitFlag(cmd, &opts.Limit)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runFiles(ctx context.Context, opts *FilesOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	kb, err := resolve(ctx, c, team, opts.KB)
	if err != nil {
		return err
	}
	list, err := cmdutil.Collect(c.KnowledgeFiles(ctx, team, kb.Id), opts.Limit)
	if err != nil {
		return err
	}
	return opts.Output.Print(opts.IO, list, func(t *cmdutil.Table) { fileRows(t, list) })
}
