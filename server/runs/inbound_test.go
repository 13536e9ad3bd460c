package runs_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/store"
)

// inboundWorkflow gives the team's number an inbound workflow (outside campaigns).
func inboundWorkflow(t *testing.T, db *store.DB, tm team) store.Workflow {
	t.Helper()
	ctx := context.Background()
	num, err := db.PhoneNumberByNumber(ctx, tm.org.ID, tm.from)
	must(t, err)
	graph := `{"nodes":[
		{"id":"in-start","type":"start","position":{"x":0,"y":0},"data":{},"flow_meta":{}},
		{"id":"in-hello","type":"agent","position":{"x":0,"y":-400},"data":{"nodeLabel":"Hello","instruction":"Greet the caller."},"flow_meta":{}},
		{"id":"in-end","type":"end-call","position":{"x":0,"y":-800},"data":{},"flow_meta":{}}],
		"edges":[{"id":"in-e1","source":"in-start","target":"in-hello","type":"add-step"},{"id":"in-e2","source":"in-hello","target":"in-end","type":"add-step"}]}`
	w := store.Workflow{OrganizationID: tm.org.ID, Name: "Reception", Type: store.Inbound, AgentID: tm.workflow.AgentID,
		PhoneNumberID: &num.ID, Graph: graph, PromptStatus: store.PromptSuccess}
	must(t, db.InTx(ctx, func(ctx context.Context) error { return db.CreateWorkflow(ctx, &w, nil) }))
	return w
}

// A call to a team's number with an inbound workflow is answered (once, however often the
// carrier tells it), held by the conversation like an outbound call, charged, and leaves a
// call log (inbound) with its transcript and an inbox item; its job ends by itself. A call to a
// number no team has, or to one without an inbound workflow, is turned down.
func TestInboundCalls(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tm := newTeam(t, db, 10, alwaysOpen)
		calls := newFakeCalls(func(string, int) phones.Outcome { return phones.OutcomeAnswer })
		h := newHarness(t, db, calls, fast)

		// No inbound workflow yet, and a number nobody has: turned down.
		if _, err := calls.ring("+14155550111", tm.from); err != nil {
			t.Fatal(err)
		}
		if _, err := calls.ring("+14155550111", "+19995550000"); err != nil {
			t.Fatal(err)
		}
		// (every event is delivered twice: the same key twice, one command at the carrier)
		if len(calls.answers) != 0 || len(calls.hangups) != 4 || calls.hangups[0] != calls.hangups[1] || !strings.HasSuffix(calls.hangups[0], ":turn-down") {
			t.Fatalf("turned down: answers %v, hang-ups %v", calls.answers, calls.hangups)
		}

		wf := inboundWorkflow(t, db, tm)
		calls.hangups = nil
		if _, err := calls.ring("+14155550111", tm.from); err != nil {
			t.Fatal(err)
		}
		if len(calls.answers) != 1 || len(calls.hangups) != 1 || strings.HasSuffix(calls.hangups[0], ":turn-down") {
			t.Fatalf("answers: %v, hang-ups %v", calls.answers, calls.hangups)
		}
		attempt := strings.TrimSuffix(calls.answers[0], ":answer")
		a, err := db.AttemptByID(ctx, attempt)
		must(t, err)
		j, err := db.WorkflowJobByID(ctx, tm.org.ID, a.JobID)
		must(t, err)
		if j.Type != store.JobTypeInboundCall || j.WorkflowID != wf.ID || a.Phone != "+14155550111" {
			t.Fatalf("job %+v attempt %+v", j, a)
		}
		h.drive(t, j.ID, 10*time.Second)
		a, err = db.AttemptByID(ctx, attempt)
		must(t, err)
		j, err = db.WorkflowJobByID(ctx, tm.org.ID, j.ID)
		must(t, err)
		if a.State != store.AttemptCompleted || a.BilledMinutes != 2 || j.Status != store.JobSuccess {
			t.Fatalf("after the call: attempt %s %d min, job %s", a.State, a.BilledMinutes, j.Status)
		}
		id := "log-" + attempt
		opened, closed := h.logs.opened[id], h.logs.closed[id]
		if opened.Direction != "inbound" || opened.From != "+14155550111" || opened.To != tm.from || opened.JobID != "" || opened.WorkflowID != wf.ID {
			t.Fatalf("call log opened: %+v", opened)
		}
		if closed.Status != "completed" || len(closed.Turns) != 3 || closed.Cost <= 0 || len(h.logs.transcript(id)) != 3 {
			t.Fatalf("call log closed: %+v", closed)
		}
		// The same call.initiated delivered again (a carrier's retry) answers nothing new.
		e := phones.CallEvent{ID: "again", Kind: phones.EventInitiated, CallControlID: *a.CallControlID, Inbound: true, From: "+14155550111", To: tm.from}
		must(t, h.svc.HandleCallEvent(ctx, e))
		if len(calls.answers) != 1 {
			t.Fatalf("answered again: %v", calls.answers)
		}
		// Outbound runs are not blocked by an inbound call's job.
		if _, err := db.RunningWorkflowJob(ctx, tm.org.ID, wf.ID); err == nil {
			t.Fatal("an inbound call is a run of the workflow")
		}
	})
}

// The crash gap: the call's state is committed and the command it decided never reaches the
// carrier (the process died). The call is quiet; Resume (the sweep's) sends the same command
// again with the same key, and the call goes on to its end.
func TestResumeSendsTheLostCommandAgain(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tm := newTeam(t, db, 10, alwaysOpen)
		addContacts(t, db, tm, []string{"+14155550001"}, nil)
		calls := newFakeCalls(func(string, int) phones.Outcome { return phones.OutcomeAnswer })
		calls.silent = true
		cfg := fast
		cfg.ResumeAfter = 20 * time.Millisecond
		h := newHarness(t, db, calls, cfg)
		j, err := h.svc.Start(ctx, tm.actor(), tm.workflow.ID, nil)
		must(t, err)
		if _, _, err := h.svc.Dispatch(ctx, j.ID); err != nil {
			t.Fatal(err)
		}
		id := store.AttemptID(j.ID, 1, 1)
		a, err := db.AttemptByID(ctx, id)
		must(t, err)
		calls.lost = true
		must(t, h.svc.HandleCallEvent(ctx, phones.CallEvent{ID: "answered", Kind: phones.EventAnswered, CallControlID: *a.CallControlID, AttemptID: id, At: time.Now()}))
		if len(calls.speaks) != 1 {
			t.Fatalf("speaks: %v", calls.speaks)
		}
		// Not quiet long enough yet: nothing is sent.
		if n, err := h.svc.Resume(ctx); err != nil || n != 0 {
			t.Fatalf("resume too early: %d %v", n, err)
		}
		calls.lost = false
		time.Sleep(30 * time.Millisecond)
		if n, err := h.svc.Resume(ctx); err != nil || n != 1 {
			t.Fatalf("resume: %d %v", n, err)
		}
		if len(calls.speaks) < 2 || calls.speaks[1] != calls.speaks[0] {
			t.Fatalf("the greeting was not sent again with its key: %v", calls.speaks)
		}
		a, err = db.AttemptByID(ctx, id)
		must(t, err)
		if a.State != store.AttemptCompleted {
			t.Fatalf("after the resume: %s", a.State)
		}
		h.drive(t, j.ID, 5*time.Second)
	})
}

// An inbound call whose answer never reached the carrier (a crash after the commit) is
// answered again, with the same key, by Resume; the call then goes on to its end.
func TestResumeAnswersAnInboundCallLeftRinging(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tm := newTeam(t, db, 10, alwaysOpen)
		inboundWorkflow(t, db, tm)
		calls := newFakeCalls(func(string, int) phones.Outcome { return phones.OutcomeAnswer })
		cfg := fast
		cfg.ResumeAfter = 20 * time.Millisecond
		h := newHarness(t, db, calls, cfg)
		calls.lost = true
		if _, err := calls.ring("+14155550111", tm.from); err != nil {
			t.Fatal(err)
		}
		if len(calls.answers) != 1 {
			t.Fatalf("answers: %v", calls.answers)
		}
		attempt := strings.TrimSuffix(calls.answers[0], ":answer")
		calls.lost = false
		time.Sleep(30 * time.Millisecond)
		if n, err := h.svc.Resume(ctx); err != nil || n != 1 {
			t.Fatalf("resume: %d %v", n, err)
		}
		a, err := db.AttemptByID(ctx, attempt)
		must(t, err)
		if len(calls.answers) != 2 || calls.answers[1] != calls.answers[0] || a.State != store.AttemptCompleted {
			t.Fatalf("answers %v, attempt %s", calls.answers, a.State)
		}
	})
}
