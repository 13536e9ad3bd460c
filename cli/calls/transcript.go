package calls

import (
	"context"
	"errors"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
)

// TranscriptOptions are the inputs of `betty calls transcript`.
type TranscriptOptions struct {
	Options
	ID     string
	Output cmdutil.Output
}

// NewCmdTranscript returns `betty calls transcript`; runF replaces the run in tests.
func NewCmdTranscript(f *cmdutil.Factory, runF func(*TranscriptOptions) error) *cobra.Command {
	opts := &TranscriptOptions{Options: options(f)}
	cmd := &cobra.Command{
		Use:   "transcript <call-id>",
		Short: "Print what was said on a call",
		Long: `Print what the agent and the customer said on a call, turn by turn, each with its time from
the moment the call was answered. While the call goes on, what was said so far.`,
		Example: `  betty calls transcript 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b30
  betty calls transcript 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b30 --json | jq -r '.entries[].text'`,
		Args: cmdutil.ExactArgs(1, "give the id of the call (see betty calls list)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if runF != nil {
				return runF(opts)
			}
			return runTranscript(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runTranscript(ctx context.Context, opts *TranscriptOptions) error {
	c, team, err := opts.connect(ctx)
	if err != nil {
		return err
	}
	cl, err := c.CallLog(ctx, team, opts.ID)
	if err != nil {
		return err
	}
	tr, err := c.CallTranscript(ctx, team, cl.CallControlId)
	if errors.Is(err, betty.ErrNotFound) {
		return cmdutil.NotFoundf("call %s has no transcript (it is %s)", cl.Id, cl.Status)
	}
	if err != nil {
		return err
	}
	return opts.Output.Print(opts.IO, tr, func(t *cmdutil.Table) { TurnRows(t, tr.Entries) })
}
