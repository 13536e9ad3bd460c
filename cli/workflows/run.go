package workflows

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// RunOptions are the inputs of `betty workflow run`.
type RunOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)
	TeamID func(ctx context.Context, flag string) (string, error)
	// Interrupt returns a context that Ctrl-C ends (signal.NotifyContext outside tests).
	Interrupt func(ctx context.Context) (context.Context, context.CancelFunc)

	ID          string
	Team        string
	TriggeredBy string
	Wait        bool
	Output      cmdutil.Output
}

// NewCmdRun returns `betty workflow run`; runF replaces the run in tests.
func NewCmdRun(f *cmdutil.Factory, runF func(*RunOptions) error) *cobra.Command {
	opts := &RunOptions{IO: f.IO, Client: f.Client, TeamID: f.TeamID, Interrupt: interruptible}
	cmd := &cobra.Command{
		Use:   "run <id>",
		Short: "Run a workflow: call its contacts",
		Long: `Start a run of an outbound workflow: a job that calls every contact of its Contacts node
not called yet, with the workflow's agent and phone number, within its campaign's calling
window and limits. Numbers on the team's do-not-call list are never dialled.

The server refuses a workflow that cannot run (no contacts, no agent, no phone number, a
broken graph, a run already in progress, no credits left) and says why.

Without --wait the job's id is printed and the command ends; the run goes on on the server
(see betty jobs status). With --wait the command follows the run live (a progress bar on a
terminal, a line per percent otherwise) and says why contacts wait when they do (outside
their calling window, a full line, the frequency cap, credits, a paused campaign) and until
when. It exits 0 when the run succeeds, 1 when it ends with an error or is cancelled. Ctrl-C
stops waiting with exit code 130 and leaves the run going; betty jobs end <workflow-id> ends
it.`,
		Example: `  betty workflow run 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11
  betty workflow run 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11 --wait
  betty workflow run 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11 --wait --json | jq .progress`,
		Args: cmdutil.ExactArgs(1, "give the id of the workflow to run (see betty workflow list)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if runF != nil {
				return runF(opts)
			}
			return runRun(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	triggeredBy.Var(cmd.Flags(), &opts.TriggeredBy, "triggered-by", "Who the history shows as starting the run (default: you)")
	cmd.Flags().BoolVarP(&opts.Wait, "wait", "w", false, "Follow the run until it ends; the exit code tells how it ended")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

var triggeredBy = cmdutil.Rule{Name: "triggered-by", Schema: "RunWorkflowRequest.triggeredBy", Min: 1, Max: 254}

// interruptible ends ctx on Ctrl-C or SIGTERM.
func interruptible(ctx context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
}

func runRun(ctx context.Context, opts *RunOptions) error {
	team, err := opts.TeamID(ctx, opts.Team)
	if err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	job, err := c.RunWorkflow(ctx, team, opts.ID, betty.RunOptions{TriggeredBy: opts.TriggeredBy})
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Started job %s: %d contacts to call.\n", job.Id, job.Progress.Total)
	if !opts.Wait {
		fmt.Fprintf(opts.IO.ErrOut, "Follow it with `betty jobs status %s`; end it with `betty jobs end %s`.\n", job.Id, opts.ID)
		return printJob(opts.IO, opts.Output, job)
	}
	return waitForRun(ctx, opts, c, team, job)
}

// waitForRun follows a job to its end and maps how it ended to the exit code.
func waitForRun(ctx context.Context, opts *RunOptions, c *betty.Client, team string, job client.Job) error {
	waitCtx, stop := opts.Interrupt(ctx)
	defer stop()
	p := newProgress(opts.IO, job.Progress.Total)
	final, err := c.WaitForJob(waitCtx, team, job.Id, p.update)
	p.done()
	if err != nil {
		if waitCtx.Err() != nil && ctx.Err() == nil {
			if final.Id == "" {
				final = job
			}
			return cmdutil.WithExitCode(cmdutil.WithHint(
				fmt.Errorf("stopped waiting; job %s goes on (%d%% done)", job.Id, final.Progress.Percent),
				fmt.Sprintf("End it with: betty jobs end %s", opts.ID)), cmdutil.ExitInterrupted)
		}
		return err
	}
	if err := printJob(opts.IO, opts.Output, final); err != nil {
		return err
	}
	pr := final.Progress
	summary := fmt.Sprintf("%d completed, %s, %d not called of %d", pr.Completed, failed(pr), pr.Pending, pr.Total)
	switch final.Status {
	case client.JobStatusSuccess:
		fmt.Fprintf(opts.IO.ErrOut, "The run succeeded: %s.\n", summary)
		return nil
	case client.JobStatusCancelled:
		return fmt.Errorf("the run was cancelled: %s", summary)
	}
	reason := cmdutil.Str(final.Error)
	if reason == "" {
		reason = "no reason given"
	}
	return fmt.Errorf("the run ended with an error (%s): %s", reason, summary)
}

// printJob prints a job: its id for scripts, or the job as JSON or YAML.
func printJob(s *cmdutil.IOStreams, o cmdutil.Output, j client.Job) error {
	if o.Format != "" {
		return o.Print(s, j, nil)
	}
	_, err := fmt.Fprintln(s.Out, j.Id)
	return err
}

// progress shows a job's progress on ErrOut: a bar on a terminal, else one line each time
// the percentage changes.
type progress struct {
	w     io.Writer
	bar   *progressbar.ProgressBar
	last  int
	total int
	// waited is the last state whose waiting reasons were printed.
	waited *client.Job
}

func newProgress(s *cmdutil.IOStreams, total int) *progress {
	p := &progress{w: s.ErrOut, last: -1, total: total}
	if f, ok := s.ErrOut.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.bar = progressbar.NewOptions(max(total, 1), progressbar.OptionSetWriter(f), progressbar.OptionSetDescription("Calling"),
			progressbar.OptionShowCount(), progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionSetWidth(30),
			progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish())
	}
	return p
}

func (p *progress) update(j client.Job) {
	pr := j.Progress
	if p.bar != nil {
		if pr.Total != p.total && pr.Total > 0 {
			p.bar.ChangeMax(pr.Total)
			p.total = pr.Total
		}
		desc := "Calling"
		if now := underway(pr); now != "" {
			desc += " (" + now + ")"
		}
		// On a terminal the reasons ride on the progress line, kept up to date.
		var why []string
		for _, w := range betty.JobWaiting(j) {
			why = append(why, w.Message)
		}
		if len(why) > 0 {
			desc += " · " + strings.Join(why, "; ")
		}
		p.bar.Describe(desc)
		_ = p.bar.Set(pr.Completed + pr.Failed)
		return
	}
	if pr.Percent != p.last || j.Status != client.JobStatusInProgress {
		p.last = pr.Percent
		line := fmt.Sprintf("%3d%%  %d completed, %s, %d pending of %d", pr.Percent, pr.Completed, failed(pr), pr.Pending, pr.Total)
		if now := underway(pr); now != "" {
			line += ": " + now
		}
		fmt.Fprintf(p.w, "%s (%s)\n", line, j.Status)
	}
	// Elsewhere, a line for each reason when the reasons change, not at every poll.
	if j.Status == client.JobStatusInProgress && (p.waited == nil || !betty.SameWaiting(*p.waited, j)) {
		p.waited = &j
		for _, w := range betty.JobWaiting(j) {
			fmt.Fprintf(p.w, "      waiting: %s\n", w.Message)
		}
	}
}

// failed counts a run's failed contacts, saying how many were on the do-not-call list and how
// many had a number of a kind the run does not call (premium-rate, toll-free…).
func failed(pr client.JobProgress) string {
	var why []string
	if n := deref(pr.Suppressed); n > 0 {
		why = append(why, fmt.Sprintf("%d on the do-not-call list", n))
	}
	if n := deref(pr.Refused); n > 0 {
		why = append(why, fmt.Sprintf("%d of a number type not called", n))
	}
	if len(why) == 0 {
		return fmt.Sprintf("%d failed", pr.Failed)
	}
	return fmt.Sprintf("%d failed (%s)", pr.Failed, strings.Join(why, ", "))
}

// underway says where the pending contacts of a run are: "2 queued, 1 dialling, 3 in call".
func underway(pr client.JobProgress) string {
	var parts []string
	for _, c := range []struct {
		n    *int
		what string
	}{{pr.Queued, "queued"}, {pr.Dialling, "dialling"}, {pr.InCall, "in call"}} {
		if deref(c.n) > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", *c.n, c.what))
		}
	}
	return strings.Join(parts, ", ")
}

func deref(n *int) int {
	if n == nil {
		return 0
	}
	return *n
}

func (p *progress) done() {
	if p.bar != nil {
		_ = p.bar.Exit()
	}
}
