package calls

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
)

// ViewOptions are the inputs of `betty calls view`.
type ViewOptions struct {
	Options
	ID     string
	Output cmdutil.Output
}

// NewCmdView returns `betty calls view`; runF replaces the run in tests.
func NewCmdView(f *cmdutil.Factory, runF func(*ViewOptions) error) *cobra.Command {
	opts := &ViewOptions{Options: options(f)}
	cmd := &cobra.Command{
		Use:   "view <id>",
		Short: "Show a call",
		Long: `Show a call's log: direction, numbers, status, when it started and ended, how long it
lasted, what it cost, and the campaign, agent, workflow and job it belongs to; for a finished
call, its outcome, a summary of what happened and the workflow's post-call fields the customer
answered, each with the turn it came from; then what was said, turn by turn (so far, for a
call in progress).`,
		Example: `  betty calls view 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b30
  betty calls view 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b30 --json`,
		Args: cmdutil.ExactArgs(1, "give the id of the call (see betty calls list)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if runF != nil {
				return runF(opts)
			}
			return runView(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runView(ctx context.Context, opts *ViewOptions) error {
	c, team, err := opts.connect(ctx)
	if err != nil {
		return err
	}
	cl, err := c.CallLog(ctx, team, opts.ID)
	if err != nil {
		return err
	}
	err = opts.Output.Print(opts.IO, cl, func(t *cmdutil.Table) {
		t.Row("ID", cl.Id)
		t.Row("CALL CONTROL ID", cl.CallControlId)
		t.Row("DIRECTION", string(cl.Direction))
		t.Row("FROM", cl.From)
		t.Row("TO", cl.To)
		t.Row("STATUS", string(cl.Status))
		t.Row("START", cmdutil.Time(&cl.StartTime))
		t.Row("END", cmdutil.Time(cl.EndTime))
		t.Row("DURATION", duration(cl.DurationSeconds))
		t.Row("COST", callCost(cl))
		t.Row("SIMULATED", yesNo(cl.Simulated))
		t.Row("CAMPAIGN", cmdutil.Str(cl.CampaignId))
		t.Row("AGENT", cmdutil.Str(cl.AgentId))
		t.Row("WORKFLOW", cmdutil.Str(cl.WorkflowId))
		t.Row("JOB", cmdutil.Str(cl.JobId))
		t.Row("RECORDING", yesNo(cl.HasRecording))
		t.Row("TRANSCRIPT", yesNo(cl.HasTranscript))
		if a := cl.Analysis; a != nil {
			t.Row("OUTCOME", a.Outcome)
			t.Row("SUMMARY", a.Summary)
			for _, f := range a.Fields {
				// Turns are counted from 1 for people, as the transcript below lists them.
				t.Row("FIELD "+f.Name, fmt.Sprintf("%s (turn %d)", f.Value, f.Turn+1))
			}
		}
	})
	if err != nil || opts.Output.Format != "" || !opts.IO.StdoutTTY || !cl.HasTranscript { // TSV stays one record
		return err
	}
	tr, err := c.CallTranscript(ctx, team, cl.CallControlId)
	if errors.Is(err, betty.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(opts.IO.Out)
	PrintTurns(opts.IO.Out, tr.Entries)
	return nil
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
