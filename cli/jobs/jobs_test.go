package jobs

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/api"
)

var (
	finished = clitest.When.Add(90_000_000_000)
	running  = client.Job{Id: "job-2", Type: client.WorkflowRun, WorkflowId: "wf-1", OrganizationId: "team-1", Status: client.JobStatusInProgress,
		Progress: client.JobProgress{Total: 200, Completed: 120, Failed: 10, Pending: 70, Percent: 65}, TriggeredBy: "ada@example.com",
		StartedAt: clitest.When, CreatedAt: clitest.When, UpdatedAt: clitest.When}
	test = client.Job{Id: "job-1", Type: client.WorkflowRun, WorkflowId: "wf-1", OrganizationId: "team-1", Status: client.JobStatusSuccess,
		Progress: client.JobProgress{Total: 1, Completed: 1, Percent: 100}, TriggeredBy: "ada@example.com", IsTest: true,
		StartedAt: clitest.When, FinishedAt: &finished, CreatedAt: clitest.When, UpdatedAt: finished}
)

func newCmd(newCmd func(*cmdutil.Factory, func(*ListOptions) error) *cobra.Command) func(*cmdutil.Factory) *cobra.Command {
	return func(f *cmdutil.Factory) *cobra.Command { return newCmd(f, nil) }
}

func TestList(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/workflow/history/wf-1", clitest.Page([]client.Job{running, test}))
	clitest.GoldenOutputs(t, "list", stub.URL, newCmd(NewCmdList), "--workflow", "wf-1")
	if q := stub.Last().Query; q.Get("sizePerPage") != "100" || q.Get("page") != "1" {
		t.Errorf("query %v", q)
	}
}

func TestStatus(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("GET /v2/jobs/status", clitest.Data(http.StatusOK, []client.Job{running, test}))
	stub.Handle("POST /v1/workflow/progress/wf-1", clitest.Data(http.StatusOK, running))
	stub.Handle("POST /v1/workflow/progress/wf-9", clitest.Data(http.StatusOK, nil))
	stub.Handle("POST /v1/workflow/progress/wf-0", clitest.Problem(http.StatusNotFound, client.ProblemCodeNotFound, "Workflow not found."))
	clitest.GoldenOutputs(t, "status", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdStatus(f, nil) }, "job-2", "job-1", "--type", "workflow-run")
	if q := stub.Last().Query; q.Get("ids") != "job-2,job-1" || q.Get("type") != "workflow-run" {
		t.Errorf("query %v", q)
	}
	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdStatus(f, nil), "--workflow", "wf-1"); err != nil || !strings.HasPrefix(s.Out.String(), "job-2\tworkflow-run\tin-progress\t65%") {
		t.Errorf("--workflow: %v %q", err, s.Out)
	}
	f, s = clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdStatus(f, nil), "--workflow", "wf-9", "--json"); err != nil || strings.TrimSpace(s.Out.String()) != "[]" ||
		!strings.Contains(s.ErrOut.String(), "Workflow wf-9 has not run yet") {
		t.Errorf("never ran: %v %q %q", err, s.Out, s.ErrOut)
	}
	f, _ = clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdStatus(f, nil), "--workflow", "wf-0"); cmdutil.ExitCode(err) != cmdutil.ExitNotFound {
		t.Errorf("unknown workflow: %v", err)
	}
}

func TestEnd(t *testing.T) {
	stub := clitest.NewStub(t)
	cancelled := running
	cancelled.Status, cancelled.FinishedAt = client.JobStatusCancelled, &finished
	stub.Handle("POST /v1/workflow/end-job/wf-1", clitest.Data(http.StatusOK, cancelled))
	stub.Handle("POST /v1/workflow/end-job/wf-2", clitest.Problem(http.StatusUnprocessableEntity, client.ProblemCodeValidationFailed, "The workflow has no run in progress."))
	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdJobs(f), "end", "wf-1"); err != nil || s.Out.String() != "job-2\n" ||
		!strings.Contains(s.ErrOut.String(), "Ended job job-2 (cancelled): 120 completed, 10 failed, 70 not called (they stay pending).") {
		t.Errorf("end: %v %q %q", err, s.Out, s.ErrOut)
	}
	f, s = clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdJobs(f), "end", "wf-1", "--json"); err != nil {
		t.Fatal(err)
	}
	clitest.Golden(t, "end.json", s.Out.Bytes())
	f, _ = clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdJobs(f), "end", "wf-2"); err == nil || cmdutil.ExitCode(err) != 1 || !strings.Contains(err.Error(), "no run in progress") {
		t.Errorf("nothing to end: %v", err)
	}
}

func TestUsage(t *testing.T) {
	many := make([]string, 101)
	for i := range many {
		many[i] = "job"
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"list"}, "give the workflow whose runs to list with --workflow"},
		{[]string{"status"}, "give the ids of the jobs, or a workflow with --workflow"},
		{[]string{"status", "job-1", "--workflow", "wf-1"}, "not both"},
		{append([]string{"status"}, many...), "give at most 100 job ids at once, not 101"},
		{[]string{"status", "--workflow", "wf-1", "--type", "contacts-import"}, "--type is for job ids"},
		{[]string{"end"}, "give the id of the workflow whose run to end"},
	} {
		f, _ := clitest.NewFactory(t, clitest.Options{})
		err := clitest.Run(NewCmdJobs(f), c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) || cmdutil.ExitCode(err) != cmdutil.ExitUsage {
			t.Errorf("%v: %v (exit %d), want %q", c.args, err, cmdutil.ExitCode(err), c.want)
		}
	}
}

// The job types copy the contract's.
func TestTypesAgreeWithTheContract(t *testing.T) {
	spec, err := api.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	var want []client.JobType
	for _, v := range spec.Components.Schemas["JobType"].Value.Enum {
		want = append(want, client.JobType(v.(string)))
	}
	if !slices.Equal(Types, want) {
		t.Errorf("the CLI takes %v, the contract %v", Types, want)
	}
}

// A run whose contacts wait says why beside the table, on stderr.
func TestStatusSaysWhyContactsWait(t *testing.T) {
	j := running
	j.Waiting = &[]client.JobWaiting{{Reason: client.JobWaitingReasonCallingWindow, Contacts: 12,
		Message: "12 contacts wait for their calling window; the next opens Mon 09:00 America/Chicago (in 2 d 6 h)"}}
	stub := clitest.NewStub(t)
	stub.Handle("POST /v1/workflow/progress/wf-1", clitest.Data(http.StatusOK, j))
	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdStatus(f, nil), "--workflow", "wf-1"); err != nil ||
		s.ErrOut.String() != "job-2 waiting: 12 contacts wait for their calling window; the next opens Mon 09:00 America/Chicago (in 2 d 6 h)\n" {
		t.Errorf("%v %q", err, s.ErrOut)
	}
}
