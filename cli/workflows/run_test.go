package workflows

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/api"
)

func ptr[T any](v T) *T { return &v }

func job(status client.JobStatus, completed, failed int) client.Job {
	total := 10
	j := client.Job{Id: "job-1", Type: client.WorkflowRun, WorkflowId: "wf-1", OrganizationId: "team-1", Status: status,
		Progress: client.JobProgress{Total: total, Completed: completed, Failed: failed, Pending: total - completed - failed,
			Percent: (completed + failed) * 100 / total},
		TriggeredBy: "ada@example.com", StartedAt: clitest.When, CreatedAt: clitest.When, UpdatedAt: clitest.When}
	if status != client.JobStatusInProgress {
		j.FinishedAt = &clitest.When
	}
	return j
}

// sse writes events to a stream and keeps it open.
func sse(events ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		w.WriteHeader(http.StatusOK)
		for i, e := range events {
			fmt.Fprintf(w, "id: %d\n%s\n\n", i+1, e)
		}
		http.NewResponseController(w).Flush()
		<-r.Context().Done()
	}
}

func jobEvent(j client.Job) string {
	raw, _ := json.Marshal(j)
	return "event: job.updated\ndata: " + string(raw)
}

// runWait runs `betty workflow run wf-1 --wait` against a stub whose stream sends events;
// interrupt, when set, is Ctrl-C pressed once the stream has sent them.
func runWait(t *testing.T, interrupt bool, events ...client.Job) (error, string, string) {
	t.Helper()
	stub := clitest.NewStub(t)
	stub.Handle("POST /v1/workflow/run/wf-1", clitest.Data(http.StatusCreated, job(client.JobStatusInProgress, 0, 0)))
	stub.Handle("GET /v2/jobs/status", clitest.Data(http.StatusOK, []client.Job{job(client.JobStatusInProgress, 0, 0)}))
	var press context.CancelFunc
	lines := make([]string, len(events))
	for i, e := range events {
		lines[i] = jobEvent(e)
	}
	stub.Handle("GET /v1/events", sse(lines...))
	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	cmd := NewCmdRun(f, func(o *RunOptions) error {
		o.Interrupt = func(ctx context.Context) (context.Context, context.CancelFunc) {
			ctx, press = context.WithCancel(ctx)
			return ctx, press
		}
		if interrupt { // Ctrl-C once the last event's progress is shown
			last := fmt.Sprintf("%3d%%", events[len(events)-1].Progress.Percent)
			o.IO = &cmdutil.IOStreams{In: o.IO.In, Out: o.IO.Out, ErrOut: &watch{w: o.IO.ErrOut, want: last, then: func() { press() }}}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return runRun(ctx, o)
	})
	err := clitest.Run(cmd, "wf-1", "--wait")
	var printed strings.Builder
	cmdutil.PrintError(&printed, nil, err)
	return err, s.Out.String(), s.ErrOut.String() + printed.String()
}

// watch calls then once what is written has contained want n times (once when n is 0).
type watch struct {
	w    io.Writer
	want string
	n    int
	then func()
	seen int
}

func (w *watch) Write(p []byte) (int, error) {
	n, err := w.w.Write(p)
	if strings.Contains(string(p), w.want) {
		if w.seen++; w.seen == max(w.n, 1) {
			w.then()
		}
	}
	return n, err
}

// --wait follows the run from the event stream and its exit code says how it ended: 0
// success, 1 error or cancelled, 130 when Ctrl-C stops the wait (the run goes on).
func TestRunWaitExitCodes(t *testing.T) {
	underway := job(client.JobStatusInProgress, 5, 0)
	underway.Progress.Queued, underway.Progress.Dialling, underway.Progress.InCall = ptr(2), ptr(0), ptr(3)
	done := job(client.JobStatusSuccess, 8, 2)
	done.Progress.Suppressed, done.Progress.Refused = ptr(1), ptr(1)
	err, out, errOut := runWait(t, false, underway, done)
	if cmdutil.ExitCode(err) != 0 || out != "job-1\n" {
		t.Fatalf("success: exit %d (%v) %q", cmdutil.ExitCode(err), err, out)
	}
	for _, want := range []string{"Started job job-1: 10 contacts to call.", "  0%  0 completed, 0 failed, 10 pending of 10 (in-progress)",
		" 50%  5 completed, 0 failed, 5 pending of 10: 2 queued, 3 in call (in-progress)",
		"100%  8 completed, 2 failed (1 on the do-not-call list, 1 of a number type not called), 0 pending of 10 (success)",
		"The run succeeded: 8 completed, 2 failed (1 on the do-not-call list, 1 of a number type not called), 0 not called of 10."} {
		if !strings.Contains(errOut, want) {
			t.Errorf("success: stderr lacks %q:\n%s", want, errOut)
		}
	}

	failed := job(client.JobStatusError, 3, 0)
	reason := "The workflow's phone number was released"
	failed.Error = &reason
	err, _, errOut = runWait(t, false, job(client.JobStatusInProgress, 3, 0), failed)
	if cmdutil.ExitCode(err) != 1 || !strings.Contains(errOut, "the run ended with an error (The workflow's phone number was released): 3 completed, 0 failed, 7 not called of 10") {
		t.Errorf("error: exit %d %s", cmdutil.ExitCode(err), errOut)
	}

	err, _, errOut = runWait(t, false, job(client.JobStatusCancelled, 2, 1))
	if cmdutil.ExitCode(err) != 1 || !strings.Contains(errOut, "the run was cancelled: 2 completed, 1 failed, 7 not called of 10") {
		t.Errorf("cancelled: exit %d %s", cmdutil.ExitCode(err), errOut)
	}

	err, _, errOut = runWait(t, true, job(client.JobStatusInProgress, 4, 0))
	if cmdutil.ExitCode(err) != cmdutil.ExitInterrupted || !strings.Contains(errOut, "stopped waiting; job job-1 goes on (40% done)") ||
		!strings.Contains(errOut, "End it with: betty jobs end wf-1") {
		t.Errorf("interrupted: exit %d %s", cmdutil.ExitCode(err), errOut)
	}
}

// Without --wait the job is printed and the command ends; the run's body names the team.
func TestRunAndTestRunStart(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("POST /v1/workflow/run/wf-1", clitest.Data(http.StatusCreated, job(client.JobStatusInProgress, 0, 0)))
	test := job(client.JobStatusInProgress, 0, 0)
	test.IsTest, test.Progress = true, client.JobProgress{Total: 1, Pending: 1}
	stub.Handle("POST /v1/workflow/test-run/wf-1", clitest.Data(http.StatusCreated, test))

	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdWorkflow(f), "run", "wf-1", "--triggered-by", "nightly"); err != nil {
		t.Fatal(err)
	}
	if body := string(stub.Last().Body); s.Out.String() != "job-1\n" || !strings.Contains(s.ErrOut.String(), "end it with `betty jobs end wf-1`") ||
		strings.TrimSpace(body) != `{"organizationId":"team-1","triggeredBy":"nightly"}` {
		t.Errorf("run: %q %q %s", s.Out, s.ErrOut, body)
	}
	f, s = clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdWorkflow(f), "run", "wf-1", "--json"); err != nil {
		t.Fatal(err)
	}
	clitest.Golden(t, "run.json", s.Out.Bytes())

	f, s = clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdWorkflow(f), "test-run", "wf-1", "--to", "+14155550123", "--persona", "Angry about a late parcel", "--json"); err != nil {
		t.Fatal(err)
	}
	clitest.Golden(t, "test-run.json", s.Out.Bytes())
	var sent client.TestRunWorkflowRequest
	stub.Last().Decode(t, &sent)
	if sent != (client.TestRunWorkflowRequest{OrganizationId: "team-1", WorkflowId: "wf-1", DestinationPhoneNumber: "+14155550123",
		CustomerDescription: "Angry about a late parcel", NameOrEmail: "Test customer", TriggeredBy: "ada@example.com", IsTestWorkflow: true}) {
		t.Errorf("test-run sent %+v", sent)
	}

	for args, want := range map[string]string{
		"test-run wf-1 --persona x":                 "give the number to call with --to",
		"test-run wf-1 --to 4155550123 --persona x": "want a number in E.164 format",
		"run":                      "give the id of the workflow to run",
		"run wf-1 --triggered-by ": "flag needs an argument",
	} {
		f, _ := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
		err := clitest.Run(NewCmdWorkflow(f), strings.Fields(args)...)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", args, err, want)
		}
	}
}

// The rules of run and test-run copy the contract's.
func TestRunRulesAgreeWithTheContract(t *testing.T) {
	spec, err := api.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []cmdutil.Rule{triggeredBy, testTo, testPersona, testName} {
		name, prop, _ := strings.Cut(r.Schema, ".")
		s := spec.Components.Schemas[name].Value.Properties[prop].Value
		if int(s.MinLength) != r.Min || (s.MaxLength == nil) != (r.Max == 0) || s.MaxLength != nil && int(*s.MaxLength) != r.Max || s.Pattern != r.Pattern {
			t.Errorf("%s: rule %+v, contract %d…%v %q", r.Schema, r, s.MinLength, s.MaxLength, s.Pattern)
		}
	}
}

// --wait says why contacts wait and until when, a line each time the reasons change (the same
// reasons read again print nothing).
func TestRunWaitSaysWhyContactsWait(t *testing.T) {
	until := time.Date(2026, 12, 7, 15, 0, 0, 0, time.UTC)
	chicago := "America/Chicago"
	waiting := func(j client.Job, ws ...client.JobWaiting) client.Job {
		j.Progress.Queued = ptr(j.Progress.Pending)
		j.Waiting = &ws
		return j
	}
	window := func(n int, in string) client.JobWaiting {
		return client.JobWaiting{Reason: client.JobWaitingReasonCallingWindow, Contacts: n, Until: &until, TimeZone: &chicago,
			Message: fmt.Sprintf("%d contacts wait for their calling window; the next opens Mon 09:00 America/Chicago (in %s)", n, in)}
	}
	line := client.JobWaiting{Reason: client.JobWaitingReasonConcurrency, Contacts: 3, Message: "3 contacts wait for a free line: the limit of 5 calls at once is reached"}
	err, _, errOut := runWait(t, false,
		waiting(job(client.JobStatusInProgress, 0, 0), window(10, "2 d 6 h")),
		waiting(job(client.JobStatusInProgress, 0, 0), window(10, "2 d 5 h")), // the same reasons, older: no line
		waiting(job(client.JobStatusInProgress, 2, 0), window(5, "1 h 0 m"), line),
		waiting(job(client.JobStatusInProgress, 9, 0)),
		job(client.JobStatusSuccess, 10, 0))
	if cmdutil.ExitCode(err) != 0 {
		t.Fatalf("exit %d: %v", cmdutil.ExitCode(err), err)
	}
	clitest.Golden(t, "run-wait-waiting.stderr", []byte(strings.TrimSuffix(errOut, "Error: <nil>\n")))
}
