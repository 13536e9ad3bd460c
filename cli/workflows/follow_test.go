package workflows

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
)

func callEvent(status client.CallLogStatus, ended bool) string {
	wf := "wf-1"
	cl := client.CallLog{Id: "call-1", CallControlId: "cc-1", OrganizationId: "team-1", Direction: client.CallDirectionOutbound,
		From: "+14155550100", To: "+14155550123", Status: status, StartTime: clitest.When.Add(time.Second), WorkflowId: &wf,
		CreatedAt: clitest.When, UpdatedAt: clitest.When, DurationSeconds: 42}
	if ended {
		cl.EndTime = &clitest.When
	}
	raw, _ := json.Marshal(cl)
	return "event: call.updated\ndata: " + string(raw)
}

// --follow prints the test call turn by turn, each turn once, as the call.updated events come
// and the transcript grows; the test job's end ends it.
func TestTestRunFollow(t *testing.T) {
	old := followTick
	followTick = time.Hour // only the events drive this test
	t.Cleanup(func() { followTick = old })

	test := job(client.JobStatusInProgress, 0, 0)
	test.IsTest, test.Progress = true, client.JobProgress{Total: 1, Pending: 1}
	done := test
	done.Status, done.Progress = client.JobStatusSuccess, client.JobProgress{Total: 1, Completed: 1, Percent: 100}
	turns := []client.TranscriptEntry{
		{Speaker: client.TranscriptSpeakerAgent, Text: "Hi, this is Betty from Acme.", OffsetSeconds: 0.4},
		{Speaker: client.TranscriptSpeakerCustomer, Text: "My parcel is late.", OffsetSeconds: 3.1},
		{Speaker: client.TranscriptSpeakerAgent, Text: "Sorry to hear that; let me check.", OffsetSeconds: 65},
	}
	var reads atomic.Int32
	stub := clitest.NewStub(t)
	stub.Handle("POST /v1/workflow/test-run/wf-1", clitest.Data(http.StatusCreated, test))
	stub.Handle("GET /v2/jobs/status", clitest.Data(http.StatusOK, []client.Job{test}))
	stub.Handle("GET /v1/call/logs", clitest.Page([]client.CallLog{}))
	stub.Handle("GET /v1/call/transcripts/cc-1", func(w http.ResponseWriter, r *http.Request) {
		n := 2
		if reads.Add(1) > 1 {
			n = 3
		}
		clitest.Data(http.StatusOK, client.Transcript{Id: "tr-1", CallLogId: "call-1", CallControlId: "cc-1", OrganizationId: "team-1",
			Entries: turns[:n], CreatedAt: clitest.When, UpdatedAt: clitest.When})(w, r)
	})
	stub.Handle("GET /v1/events", sse(callEvent(client.CallLogStatusInProgress, false), callEvent(client.CallLogStatusCompleted, true), jobEvent(done)))

	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	err := clitest.Run(NewCmdWorkflow(f), "test-run", "wf-1", "--to", "+14155550123", "--persona", "Angry about a late parcel", "--follow")
	if err != nil {
		t.Fatalf("%v\n%s", err, s.ErrOut)
	}
	want := "[0:00] Agent: Hi, this is Betty from Acme.\n[0:03] Customer: My parcel is late.\n[1:05] Agent: Sorry to hear that; let me check.\n"
	if s.Out.String() != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", s.Out, want)
	}
	for _, line := range []string{"Call call-1 from +14155550100 to +14155550123: in-progress", "Call call-1 from +14155550100 to +14155550123: completed",
		"Call call-1 ended completed after 42s."} {
		if !strings.Contains(s.ErrOut.String(), line) {
			t.Errorf("stderr lacks %q:\n%s", line, s.ErrOut)
		}
	}
	if q := stub.Last().Query; q.Get("organizationId") != "team-1" {
		t.Errorf("last query %v", q)
	}
}
