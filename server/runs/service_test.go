package runs_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/campaigns"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/runs"
	"github.com/bettyhq/betty/server/runs/inuse"
	"github.com/bettyhq/betty/server/store"
)

var fast = runs.Config{Slice: 300 * time.Millisecond, DoubtAfter: 50 * time.Millisecond}

// A run over 40 contacts with every outcome: each contact reaches a final state, nobody is
// dialled more than the campaign's attempts allow (or at all when on the do-not-call list),
// every event delivered twice acts once, each answered call is charged once, and the counts
// add up.
func TestRunCallsEveryContactToAFinalState(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tm := newTeam(t, db, 1000, alwaysOpen)
		must(t, db.SetDialerLimit(ctx, tm.org.ID, 1000, tm.owner.ID)) // free tier: 2 lines otherwise
		numbers := make([]string, 40)
		kind := map[string]int{}
		for i := range numbers {
			numbers[i] = fmt.Sprintf("+1415555%04d", i)
			kind[numbers[i]] = i % 5
		}
		addContacts(t, db, tm, numbers, nil)
		calls := newFakeCalls(func(to string, n int) phones.Outcome {
			switch kind[to] {
			case 1:
				if n == 1 {
					return phones.OutcomeBusy
				}
			case 2:
				return phones.OutcomeNoAnswer
			case 3:
				return phones.OutcomeVoicemail
			}
			return phones.OutcomeAnswer
		})
		calls.reply = func(to string) string {
			if kind[to] == 4 {
				return "please do not call me again"
			}
			return "yes please"
		}
		h := newHarness(t, db, calls, fast)
		h.dnc.numbers[numbers[0]] = "listed before the run"

		j, err := h.svc.Start(ctx, tm.actor(), tm.workflow.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		if j.Status != store.JobInProgress || j.Progress.Total != 40 || j.Progress.Queued != 40 || j.TriggeredBy != tm.owner.Email {
			t.Fatalf("started: %+v", j)
		}
		h.drive(t, j.ID, 30*time.Second)

		j, _, err = h.svc.Progress(ctx, tm.actor(), tm.workflow.ID)
		if err != nil {
			t.Fatal(err)
		}
		// kind 0: answered (one suppressed), 1: busy then answered, 2: no answer three times,
		// 3: voicemail three times, 4: answered and asked not to be called.
		p := j.Progress
		if j.Status != store.JobSuccess || p.Completed != 23 || p.Failed != 17 || p.Suppressed != 1 || p.Pending != 0 || p.Percent != 100 ||
			p.Queued+p.Dialling+p.InCall != 0 {
			t.Fatalf("finished: %s %+v", j.Status, p)
		}
		answered := 0
		for i, n := range numbers {
			want := map[int]int{0: 1, 1: 2, 2: 3, 3: 3, 4: 1}[kind[n]]
			if i == 0 {
				want = 0
			}
			if got := calls.placedTo(n); got != want {
				t.Errorf("%s (kind %d) dialled %d times, want %d", n, kind[n], got, want)
			}
		}
		attempts, err := db.AttemptsOfJob(ctx, j.ID)
		must(t, err)
		for _, a := range attempts {
			if !a.State.Final() {
				t.Errorf("attempt %s left %s", a.ID, a.State)
			}
			if a.State == store.AttemptCompleted || a.State == store.AttemptVoicemail {
				answered++
				if a.BilledMinutes != 2 {
					t.Errorf("attempt %s billed %d minutes", a.ID, a.BilledMinutes)
				}
			}
		}
		if len(attempts) != 1+8+16+24+24+8-1+1 { // kind 0..4 attempts, the suppressed one once
			t.Logf("%d attempts", len(attempts))
		}
		org, err := db.OrganizationByID(ctx, tm.org.ID)
		must(t, err)
		if want := 1000 - float64(answered)*2*0.27; org.CreditsBalance < want-0.001 || org.CreditsBalance > want+0.001 {
			t.Errorf("balance %.2f after %d answered calls, want %.2f", org.CreditsBalance, answered, want)
		}
		if len(h.logs.opened) != len(attempts)-1 || len(h.logs.closed) != len(h.logs.opened) {
			t.Errorf("call logs: %d opened, %d closed, %d attempts", len(h.logs.opened), len(h.logs.closed), len(attempts))
		}
		if _, ok := h.dnc.numbers[numbers[4]]; !ok {
			t.Error("the customer who asked is not on the do-not-call list")
		}
		contacts, _, err := db.ListContacts(ctx, tm.org.ID, tm.nodeID, mustSource(t, db, tm).ImportID, 100, 0)
		must(t, err)
		for _, c := range contacts {
			want := map[int]store.ContactCallStatus{0: "completed", 1: "completed", 2: "no-answer", 3: "voicemail", 4: "completed"}[kind[c.Phone]]
			if c.Phone == numbers[0] {
				want = store.ContactFailed
			}
			if c.Status != want {
				t.Errorf("contact %s: %s, want %s", c.Phone, c.Status, want)
			}
		}
		// A second run finds nobody pending... except nobody: every contact was called.
		if _, err := h.svc.Start(ctx, tm.actor(), tm.workflow.ID, nil); !errs.Is(err, errs.Unprocessable) {
			t.Fatalf("a second run with nothing pending: %v", err)
		}
	})
}

func mustSource(t testing.TB, db *store.DB, tm team) store.ContactSource {
	src, err := db.ContactSourceByNode(context.Background(), tm.org.ID, tm.workflow.ID, tm.nodeID)
	must(t, err)
	return src
}

// A Dial whose answer is lost leaves the attempt in doubt; the dispatcher asks again with the
// same key, the carrier places no second call, and its events finish the attempt. An attempt
// claimed by a process that died before it dialled is dialled once, with its own key.
func TestAttemptsInDoubtAreReconciledNotDialledTwice(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tm := newTeam(t, db, 1000, alwaysOpen)
		must(t, db.SetDialerLimit(ctx, tm.org.ID, 1000, tm.owner.ID))
		addContacts(t, db, tm, []string{"+14155550001", "+14155550002", "+14155550003"}, nil)
		calls := newFakeCalls(func(string, int) phones.Outcome { return phones.OutcomeAnswer })
		h := newHarness(t, db, calls, fast)
		j, err := h.svc.Start(ctx, tm.actor(), tm.workflow.ID, nil)
		must(t, err)
		calls.lose[store.AttemptID(j.ID, 1, 1)] = true
		// The process "died" after claiming contact 3: recorded dialling, never asked.
		a3, err := db.AttemptByID(ctx, store.AttemptID(j.ID, 3, 1))
		must(t, err)
		now := time.Now().UTC()
		a3.DialledAt = &now
		if ok, err := db.MoveAttempt(ctx, &a3, store.AttemptDialling, store.AttemptScheduled); err != nil || !ok {
			t.Fatal(ok, err)
		}
		h.drive(t, j.ID, 20*time.Second)
		for _, n := range []string{"+14155550001", "+14155550002"} {
			if got := calls.placedTo(n); got != 1 {
				t.Errorf("%s dialled %d times", n, got)
			}
		}
		if got := calls.placedTo("+14155550003"); got != 1 {
			t.Errorf("the claimed contact was dialled %d times, want once", got)
		}
		attempts, err := db.AttemptsOfJob(ctx, j.ID)
		must(t, err)
		for _, a := range attempts {
			if a.State != store.AttemptCompleted {
				t.Errorf("attempt %s: %s", a.ID, a.State)
			}
		}
	})
}

// Ending a run: nothing more is dialled, contacts not called stay pending, the job is
// cancelled. Contacts outside their window wait (scheduled), they are not failed.
func TestEndCancelsAndTheWindowWaits(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		// A window that is never open today: only on the day after tomorrow.
		day := time.Now().UTC().AddDate(0, 0, 2).Weekday().String()[:3]
		tm := newTeam(t, db, 1000, fmt.Sprintf(`{"callWindow":{"start":"00:00","end":"24:00","days":[%q]},"timezone":"UTC","retryAttempts":0,"retryDelayMinutes":0,"maxConcurrentCalls":5}`, day))
		tz := "UTC"
		addContacts(t, db, tm, []string{"+14155550001", "+14155550002"}, &tz)
		calls := newFakeCalls(func(string, int) phones.Outcome { return phones.OutcomeAnswer })
		h := newHarness(t, db, calls, fast)
		j, err := h.svc.Start(ctx, tm.actor(), tm.workflow.ID, nil)
		must(t, err)
		// The sweep finds the run's dispatcher there and inserts none again.
		for i := 0; i < 2; i++ {
			must(t, h.svc.Sweep(ctx))
		}
		var dispatchers int
		q := `SELECT COUNT(*) FROM river_job WHERE kind = 'workflow_run_dial' AND CAST(args AS TEXT) LIKE ?`
		if db.Dialect() == store.Postgres {
			q = strings.Replace(q, "?", "$1", 1)
		}
		must(t, db.Writer().QueryRowContext(ctx, q, "%"+j.ID+"%").Scan(&dispatchers))
		if dispatchers != 1 {
			t.Fatalf("%d dispatchers for one run", dispatchers)
		}
		wait, done, err := h.svc.Dispatch(ctx, j.ID)
		if err != nil || done || wait <= 0 {
			t.Fatalf("outside the window: %v %v %v", wait, done, err)
		}
		// The dispatcher holds the job's lease while it snoozes: another one leaves it, and the
		// sweep starts none.
		if _, done, err := h.svc.DispatchAs(ctx, j.ID, "another"); err != nil || !done {
			t.Fatalf("a second dispatcher while the lease holds: %v %v", done, err)
		}
		must(t, h.svc.Sweep(ctx))
		j, _, err = h.svc.Progress(ctx, tm.actor(), tm.workflow.ID)
		must(t, err)
		if j.Progress.Queued != 2 || j.Progress.Failed != 0 || calls.placedTo("+14155550001") != 0 {
			t.Fatalf("outside the window: %+v", j.Progress)
		}
		attempts, _ := db.AttemptsOfJob(ctx, j.ID)
		if !attempts[0].DueAt.After(time.Now().Add(24 * time.Hour)) {
			t.Fatalf("due at %v, want when the window opens", attempts[0].DueAt)
		}
		// Deleting what a run uses is refused meanwhile (delete guards), then End.
		if err := campaigns.New(db, nil).Delete(ctx, tm.actor(), tm.campaign.ID); !errs.Is(err, errs.Conflict) || !strings.Contains(err.Error(), j.ID) {
			t.Fatalf("deleting the campaign of a run: %v", err)
		}
		if err := inuse.Check(ctx, db, tm.org.ID, inuse.PhoneNumber, *tm.campaign.PhoneNumberID); !errs.Is(err, errs.Conflict) {
			t.Fatalf("the run's number: %v", err)
		}
		j, err = h.svc.End(ctx, tm.actor(), tm.workflow.ID)
		must(t, err)
		if j.Status != store.JobCancelled || j.Progress.Pending != 2 || j.FinishedAt == nil {
			t.Fatalf("ended: %+v", j)
		}
		if _, done, err := h.svc.Dispatch(ctx, j.ID); err != nil || !done {
			t.Fatalf("a cancelled job is done: %v %v", done, err)
		}
		contacts, _, err := db.ListContacts(ctx, tm.org.ID, tm.nodeID, mustSource(t, db, tm).ImportID, 10, 0)
		must(t, err)
		for _, c := range contacts {
			if c.Status != store.ContactPending {
				t.Fatalf("contact %s: %s", c.Phone, c.Status)
			}
		}
		if err := inuse.Check(ctx, db, tm.org.ID, inuse.Campaign, tm.campaign.ID); err != nil {
			t.Fatalf("after the run: %v", err)
		}
		if _, err := h.svc.End(ctx, tm.actor(), tm.workflow.ID); !errs.Is(err, errs.Unprocessable) {
			t.Fatalf("ending again: %v", err)
		}
		hist, total, err := h.svc.History(ctx, tm.actor(), tm.workflow.ID, "createdAt", false, runs.Page{Limit: 10})
		if err != nil || total != 1 || hist[0].ID != j.ID {
			t.Fatalf("history: %v %d %v", hist, total, err)
		}
	})
}

// The spend cap: no credits refuses the run; a balance that runs out pauses the job with the
// reason, and it resumes once credits are added.
func TestSpendCapPausesAndResumes(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		broke := newTeam(t, db, 0, alwaysOpen)
		addContacts(t, db, broke, []string{"+14155550001"}, nil)
		calls := newFakeCalls(func(string, int) phones.Outcome { return phones.OutcomeAnswer })
		h := newHarness(t, db, calls, fast)
		_, err := h.svc.Start(ctx, broke.actor(), broke.workflow.ID, nil)
		if e, ok := errs.As(err); !ok || e.Kind != errs.Unprocessable || e.Code != errs.CodeLimitReached {
			t.Fatalf("no credits: %v", err)
		}

		tm := newTeam(t, db, 0.6, alwaysOpen) // one call of 2 minutes costs 0.54
		must(t, db.SetDialerLimit(ctx, tm.org.ID, 1, tm.owner.ID))
		addContacts(t, db, tm, []string{"+14155550001", "+14155550002"}, nil)
		j, err := h.svc.Start(ctx, tm.actor(), tm.workflow.ID, nil)
		must(t, err)
		for i := 0; i < 3; i++ {
			if _, _, err := h.svc.Dispatch(ctx, j.ID); err != nil {
				t.Fatal(err)
			}
		}
		cur, err := db.WorkflowJobByID(ctx, tm.org.ID, j.ID)
		must(t, err)
		if !cur.Paused || cur.PauseReason == nil || cur.Status != store.JobInProgress || calls.placedTo("+14155550002") != 0 {
			t.Fatalf("out of credits: paused %v %v %s", cur.Paused, cur.PauseReason, cur.Status)
		}
		must(t, db.AddCredits(ctx, tm.org.ID, 10, store.LedgerGrant, nil, nil))
		h.drive(t, j.ID, 10*time.Second)
		cur, err = db.WorkflowJobByID(ctx, tm.org.ID, j.ID)
		must(t, err)
		if cur.Paused || cur.Status != store.JobSuccess || calls.placedTo("+14155550002") != 1 {
			t.Fatalf("topped up: paused %v %s", cur.Paused, cur.Status)
		}
		if cur.Spent < 1.07 || cur.Spent > 1.09 {
			t.Fatalf("spent %.2f, want 1.08", cur.Spent)
		}
	})
}

// A test run calls the one destination with the persona, outside any window.
func TestTestRun(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tm := newTeam(t, db, 10, `{"callWindow":{"start":"00:00","end":"00:01","days":[]},"timezone":"UTC"}`)
		calls := newFakeCalls(func(string, int) phones.Outcome { return phones.OutcomeAnswer })
		h := newHarness(t, db, calls, fast)
		if _, err := h.svc.TestRun(ctx, tm.actor(), runs.TestInput{WorkflowID: tm.workflow.ID, Destination: "12345"}); !errs.Is(err, errs.Invalid) {
			t.Fatalf("bad number: %v", err)
		}
		j, err := h.svc.TestRun(ctx, tm.actor(), runs.TestInput{WorkflowID: tm.workflow.ID, Destination: "+14155559999",
			Persona: "A busy chef", NameOrEmail: "Ada", TriggeredBy: "tester@example.com", IsTest: true})
		must(t, err)
		h.drive(t, j.ID, 10*time.Second)
		if calls.placedTo("+14155559999") != 1 {
			t.Fatal("the destination was not called once")
		}
		st, err := h.svc.Statuses(ctx, []string{tm.org.ID}, []string{j.ID, "nope"}, "")
		must(t, err)
		got := st[0].(runs.Job)
		if len(st) != 1 || got.Status != store.JobSuccess || !got.IsTest || got.Progress.Completed != 1 || got.TriggeredBy != "tester@example.com" {
			t.Fatalf("statuses: %+v", st)
		}
		if _, err := h.svc.Statuses(ctx, []string{"other-org"}, []string{j.ID}, ""); !errs.Is(err, errs.NotFound) {
			t.Fatalf("another team's job: %v", err)
		}
		for _, l := range h.logs.opened {
			if l.JobID != "" {
				t.Fatal("a test call's log names a job")
			}
		}
		// The carrier's recording arrives after the hang-up: fetched from its URL (with a
		// timeout) and attached to the call log once; a URL that fails asks for the event again.
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/rec.mp3" {
				http.NotFound(w, r)
				return
			}
			_, _ = w.Write([]byte("ID3 mp3 bytes"))
		}))
		defer srv.Close()
		attempt := store.AttemptID(j.ID, 1, 1)
		if err := h.svc.HandleCallEvent(ctx, phones.CallEvent{ID: "rec-0", Kind: phones.EventRecordingSaved, AttemptID: attempt,
			RecordingURL: srv.URL + "/missing.mp3"}); err == nil {
			t.Fatal("a recording that could not be fetched was acknowledged")
		}
		for i := 0; i < 2; i++ {
			must(t, h.svc.HandleCallEvent(ctx, phones.CallEvent{ID: "rec-1", Kind: phones.EventRecordingSaved, AttemptID: attempt,
				RecordingURL: srv.URL + "/rec.mp3"}))
		}
		if got := string(h.logs.recordings["log-"+attempt]); got != "ID3 mp3 bytes" {
			t.Fatalf("recording: %q", got)
		}
	})
}

// Webhooks in any order: a hang-up that arrives before the answer still ends an answered call
// (completed, its first minute billed); the late answer changes nothing; a busy line after a
// retry is its own row.
func TestEventsInAnyOrder(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tm := newTeam(t, db, 100, alwaysOpen)
		addContacts(t, db, tm, []string{"+14155550001"}, nil)
		calls := newFakeCalls(func(string, int) phones.Outcome { return phones.OutcomeAnswer })
		calls.silent = true
		h := newHarness(t, db, calls, fast)
		j, err := h.svc.Start(ctx, tm.actor(), tm.workflow.ID, nil)
		must(t, err)
		if _, _, err := h.svc.Dispatch(ctx, j.ID); err != nil {
			t.Fatal(err)
		}
		id := store.AttemptID(j.ID, 1, 1)
		a, err := db.AttemptByID(ctx, id)
		must(t, err)
		if a.State != store.AttemptRinging || a.CallControlID == nil {
			t.Fatalf("after Dial: %s %v", a.State, a.CallControlID)
		}
		call := *a.CallControlID
		now := time.Now().UTC()
		for _, e := range []phones.CallEvent{
			{ID: "h", Kind: phones.EventHangup, CallControlID: call, AttemptID: id, Cause: phones.HangupNormal, At: now},
			{ID: "a", Kind: phones.EventAnswered, CallControlID: call, AttemptID: id, At: now.Add(-time.Minute)},
			{ID: "i", Kind: phones.EventInitiated, CallControlID: call, AttemptID: id, At: now.Add(-2 * time.Minute)},
		} {
			must(t, h.svc.HandleCallEvent(ctx, e))
		}
		a, err = db.AttemptByID(ctx, id)
		must(t, err)
		if a.State != store.AttemptCompleted || a.BilledMinutes != 1 {
			t.Fatalf("hang-up before the answer: %s, %d minutes", a.State, a.BilledMinutes)
		}
		h.drive(t, j.ID, 5*time.Second)
		j, _, err = h.svc.Progress(ctx, tm.actor(), tm.workflow.ID)
		must(t, err)
		if j.Status != store.JobSuccess || j.Progress.Completed != 1 {
			t.Fatalf("job: %s %+v", j.Status, j.Progress)
		}
	})
}

// The transcript of a call is written as the call goes (the live transcript), and where it
// stands in the workflow with it: when the
// customer is asked to speak, the agent's greeting is recorded already and the call is not
// closed; at the end, every turn is recorded once, in order.
func TestTranscriptGrowsDuringTheCall(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tm := newTeam(t, db, 10, alwaysOpen)
		calls := newFakeCalls(func(string, int) phones.Outcome { return phones.OutcomeAnswer })
		h := newHarness(t, db, calls, fast)
		j, err := h.svc.TestRun(ctx, tm.actor(), runs.TestInput{WorkflowID: tm.workflow.ID, Destination: "+14155559999",
			Persona: "A busy chef", NameOrEmail: "Ada", TriggeredBy: "tester@example.com", IsTest: true})
		must(t, err)
		id := "log-" + store.AttemptID(j.ID, 1, 1)
		var during []runs.Turn
		var closedDuring bool
		var stoodOn []string
		calls.reply = func(string) string {
			during, stoodOn = h.logs.transcript(id), h.logs.positions(id)
			h.logs.mu.Lock()
			_, closedDuring = h.logs.closed[id]
			h.logs.mu.Unlock()
			return "yes please"
		}
		h.drive(t, j.ID, 10*time.Second)
		if closedDuring || len(during) != 1 || during[0].Speaker != "agent" || during[0].Text != "Hello Ada" {
			t.Fatalf("while the customer was listened to: closed %v, transcript %+v", closedDuring, during)
		}
		final := h.logs.transcript(id)
		if len(final) != 3 || final[1].Speaker != "customer" || final[1].Text != "yes please" || final[2].Text != "Thank you, goodbye." {
			t.Fatalf("the live transcript at the end: %+v", final)
		}
		if c := h.logs.closed[id]; len(c.Turns) != 3 {
			t.Fatalf("closed with %d turns", len(c.Turns))
		}
		// Where the call stands follows it too: on the greeting's step while the customer is
		// listened to, nowhere once it ended, and the path it took kept at the close.
		if !reflect.DeepEqual(stoodOn, []string{"hello"}) || !reflect.DeepEqual(h.logs.positions(id), []string{"hello", ""}) {
			t.Fatalf("positions while listening %q, at the end %q", stoodOn, h.logs.positions(id))
		}
		if p := h.logs.closed[id].Path; !reflect.DeepEqual(p, []string{"start", "hello", "end"}) {
			t.Fatalf("closed with path %q", p)
		}
	})
}

// Credits going negative (doc.go, spend cap): a call on the line is finished and charged for
// every minute it lasted even when that is more than the balance, so the balance dips below
// zero by at most what the calls in flight cost; no new call starts until it is topped up.
func TestACallInFlightMayTakeTheBalanceBelowZero(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tm := newTeam(t, db, 0.3, alwaysOpen) // one minute (0.27) is covered, the call lasts two (0.54)
		addContacts(t, db, tm, []string{"+14155550001", "+14155550002"}, nil)
		calls := newFakeCalls(func(string, int) phones.Outcome { return phones.OutcomeAnswer })
		h := newHarness(t, db, calls, fast)
		j, err := h.svc.Start(ctx, tm.actor(), tm.workflow.ID, nil)
		must(t, err)
		for i := 0; i < 3; i++ {
			if _, _, err := h.svc.Dispatch(ctx, j.ID); err != nil {
				t.Fatal(err)
			}
		}
		org, err := db.OrganizationByID(ctx, tm.org.ID)
		must(t, err)
		if org.CreditsBalance > -0.23 || org.CreditsBalance < -0.25 {
			t.Fatalf("balance %.2f, want 0.30 - 0.54 = -0.24", org.CreditsBalance)
		}
		cur, err := db.WorkflowJobByID(ctx, tm.org.ID, j.ID)
		must(t, err)
		if calls.placedTo("+14155550001")+calls.placedTo("+14155550002") != 1 || !cur.Paused || cur.Status != store.JobInProgress {
			t.Fatalf("after the balance went below zero: %d calls, paused %v, %s", calls.placedTo("+14155550001")+calls.placedTo("+14155550002"), cur.Paused, cur.Status)
		}
	})
}
