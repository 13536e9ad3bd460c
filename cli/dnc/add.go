package dnc

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
)

// AddOptions are the inputs of `betty dnc add`.
type AddOptions struct {
	Options
	Number string
	Opts   betty.DoNotCallOptions
	Output cmdutil.Output
}

// NewCmdAdd returns `betty dnc add`; runF replaces the run in tests.
func NewCmdAdd(f *cmdutil.Factory, runF func(*AddOptions) error) *cobra.Command {
	opts := &AddOptions{Options: options(f)}
	cmd := &cobra.Command{
		Use:   "add <number>",
		Short: "Add a number to the do-not-call list",
		Long: `Add a number (E.164 such as +14155550123, or national in --region) to the do-not-call
list; from then on no job of the team dials it. Adding a number already listed changes
nothing. Prints the entry's id.`,
		Example: `  betty dnc add +14155550123 --reason "asked by e-mail"
  betty dnc add "020 7183 8750" --region GB`,
		Args: cmdutil.ExactArgs(1, "give the number to add"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Number = args[0]
			if err := number.Check(opts.Number); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runAdd(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	listFlags(cmd, &opts.Opts, "Why the number must not be called")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runAdd(ctx context.Context, opts *AddOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	e, added, err := c.AddDoNotCall(ctx, team, opts.Number, opts.Opts)
	if err != nil {
		return err
	}
	if added {
		fmt.Fprintf(opts.IO.ErrOut, "Added %s to the do-not-call list.\n", e.PhoneNumber)
	} else {
		fmt.Fprintf(opts.IO.ErrOut, "%s was on the do-not-call list already (added by %s on %s).\n", e.PhoneNumber, e.AddedBy, cmdutil.Time(&e.CreatedAt))
	}
	if opts.Output.Format != "" {
		return opts.Output.Print(opts.IO, e, nil)
	}
	_, err = fmt.Fprintln(opts.IO.Out, e.Id)
	return err
}
