package workflows

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// TestRunOptions are the inputs of `betty workflow test-run`.
type TestRunOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)
	TeamID func(ctx context.Context, flag string) (string, error)
	// Me is who the history shows as starting the test: the profile's e-mail address.
	Me        func() string
	Interrupt func(ctx context.Context) (context.Context, context.CancelFunc)

	ID      string
	Team    string
	To      string
	Persona string
	Name    string
	CRM     bool
	Follow  bool
	Output  cmdutil.Output
}

// The rules of a test run, copied from the contract.
var (
	testTo      = cmdutil.Rule{Name: "number", Schema: "TestRunWorkflowRequest.destinationPhoneNumber", Pattern: `^\+[1-9][0-9]{6,14}$`, Want: "a number in E.164 format such as +14155550123"}
	testPersona = cmdutil.Rule{Name: "persona", Schema: "TestRunWorkflowRequest.customerDescription", Min: 1, Max: 2000}
	testName    = cmdutil.Rule{Name: "name", Schema: "TestRunWorkflowRequest.nameOrEmail", Min: 1, Max: 254}
)

// NewCmdTestRun returns `betty workflow test-run`; runF replaces the run in tests.
func NewCmdTestRun(f *cmdutil.Factory, runF func(*TestRunOptions) error) *cobra.Command {
	opts := &TestRunOptions{IO: f.IO, Client: f.Client, TeamID: f.TeamID, Interrupt: interruptible, Me: func() string {
		if _, p, err := f.Profile(); err == nil && p.Email != "" {
			return p.Email
		}
		return "betty CLI"
	}}
	cmd := &cobra.Command{
		Use:   "test-run <id>",
		Short: "Test a workflow with one call",
		Long: `Place one test call of a workflow (inbound or outbound) to the number given with --to, the
agent taking whoever answers for the person --persona describes and --name names. It needs no
contacts and ignores the calling window; HubSpot lifecycle-stage nodes do not write to the CRM
unless --crm is given, webhooks are called. With the sim provider the simulated customer plays
the persona.

The test job's id is printed. With --follow the conversation is printed instead, turn by turn
as it happens (with --json it goes to standard error and the finished job to standard
output), then how the call ended; the exit code is 0 when the test job succeeds, 1
otherwise, 130 on Ctrl-C (the call goes on).`,
		Example: `  betty workflow test-run 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11 --to +14155550123 \
    --persona "A returning customer whose order arrived damaged" --follow
  betty workflow test-run 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11 --to +14155550123 --persona "Busy, wants a call back" --name Ada --json`,
		Args: cmdutil.ExactArgs(1, "give the id of the workflow to test (see betty workflow list)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if opts.To == "" || opts.Persona == "" {
				return cmdutil.FlagErrorf("give the number to call with --to and who answers with --persona")
			}
			if runF != nil {
				return runF(opts)
			}
			return runTestRun(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	testTo.Var(cmd.Flags(), &opts.To, "to", "The `number` to call, E.164 (usually your own phone)")
	testPersona.Var(cmd.Flags(), &opts.Persona, "persona", "Who answers: their `situation`, history and mood")
	opts.Name = "Test customer"
	testName.Var(cmd.Flags(), &opts.Name, "name", "The `name` or e-mail address the agent uses for them")
	cmd.Flags().BoolVar(&opts.CRM, "crm", false, "Let HubSpot lifecycle-stage nodes write to the CRM")
	cmd.Flags().BoolVarP(&opts.Follow, "follow", "f", false, "Print the conversation as it happens, until the call ends")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runTestRun(ctx context.Context, opts *TestRunOptions) error {
	team, err := opts.TeamID(ctx, opts.Team)
	if err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	job, err := c.TestRunWorkflow(ctx, team, opts.ID, betty.TestRun{To: opts.To, Persona: opts.Persona, Name: opts.Name,
		TriggeredBy: opts.Me(), WriteToCRM: opts.CRM})
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Started test job %s: calling %s.\n", job.Id, opts.To)
	if !opts.Follow {
		return printJob(opts.IO, opts.Output, job)
	}
	followCtx, stop := opts.Interrupt(ctx)
	defer stop()
	fl := &follower{c: c, team: team, workflowID: opts.ID, to: opts.To, job: job, s: opts.IO, json: opts.Output.Format != ""}
	err = fl.run(followCtx)
	if err != nil && followCtx.Err() != nil && ctx.Err() == nil {
		return cmdutil.WithExitCode(cmdutil.WithHint(fmt.Errorf("stopped following; test job %s goes on", job.Id),
			fmt.Sprintf("End it with: betty jobs end %s", opts.ID)), cmdutil.ExitInterrupted)
	}
	if err != nil {
		return err
	}
	if opts.Output.Format != "" { // else stdout holds the conversation alone
		if err := opts.Output.Print(opts.IO, fl.job, nil); err != nil {
			return err
		}
	}
	if fl.call != nil {
		fmt.Fprintf(opts.IO.ErrOut, "Call %s ended %s after %s.\n", fl.call.Id, fl.call.Status, time.Duration(fl.call.DurationSeconds)*time.Second)
	}
	switch fl.job.Status {
	case client.JobStatusSuccess:
		return nil
	case client.JobStatusCancelled:
		return errors.New("the test was cancelled")
	}
	return fmt.Errorf("the test ended with an error: %s", cmdutil.Str(fl.job.Error))
}
