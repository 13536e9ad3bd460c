package store_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/store"
)

func TestRunsStore(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		owner, org := teamFixture(t, db, "owner@example.com")
		_, other := teamFixture(t, db, "other@example.com")
		w := store.Workflow{OrganizationID: org.ID, Name: "Calls", Type: store.Outbound, Graph: `{}`, PromptStatus: store.PromptSuccess}
		if err := db.CreateWorkflow(ctx, &w, []store.WorkflowNode{{ID: "contacts-1", Type: "contacts"}}); err != nil {
			t.Fatal(err)
		}
		src := store.ContactSource{NodeID: "contacts-1", OrganizationID: org.ID, WorkflowID: w.ID, Source: "csv", Status: store.ContactsSuccess}
		err := db.InTx(ctx, func(ctx context.Context) error {
			if err := db.SetContactSource(ctx, &src); err != nil {
				return err
			}
			return db.InsertContacts(ctx, []store.Contact{
				{OrganizationID: org.ID, NodeID: "contacts-1", ImportID: src.ImportID, Seq: 1, Phone: "+14155550001", Status: store.ContactPending},
				{OrganizationID: org.ID, NodeID: "contacts-1", ImportID: src.ImportID, Seq: 2, Phone: "+14155550002", Status: store.ContactPending},
				{OrganizationID: org.ID, NodeID: "contacts-1", ImportID: src.ImportID, Seq: 3, Phone: "+14155550003", Status: store.ContactFailed},
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		phoneID, nodeID := "phone-1", "contacts-1"
		j := store.WorkflowJob{OrganizationID: org.ID, WorkflowID: w.ID, Type: store.JobTypeWorkflowRun, Status: store.JobInProgress,
			TriggeredBy: owner.Email, FromNumber: "+14155559999", PhoneNumberID: &phoneID, NodeID: &nodeID, Graph: "{}", Settings: "{}"}
		if err := db.CreateWorkflowJob(ctx, &j); err != nil {
			t.Fatal(err)
		}
		// One run in progress per workflow, whatever races.
		dup := j
		dup.ID = ""
		if err := db.CreateWorkflowJob(ctx, &dup); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("a second run in progress: %v", err)
		}
		// A single-contact run (no node) runs beside it.
		single := j
		single.ID, single.NodeID = "", nil
		if err := db.CreateWorkflowJob(ctx, &single); err != nil {
			t.Fatalf("a single-contact run beside the run: %v", err)
		}
		if got, err := db.RunningWorkflowJob(ctx, org.ID, w.ID); err != nil || got.ID != j.ID {
			t.Fatalf("the running run: %+v %v", got.ID, err)
		}
		n, err := db.InsertAttemptsFromContacts(ctx, &j, "contacts-1", src.ImportID, time.Now().UTC())
		if err != nil || n != 2 || j.Total != 2 {
			t.Fatalf("attempts from pending contacts: %d %v", n, err)
		}
		due, err := db.DueAttempts(ctx, j.ID, time.Now().UTC().Add(time.Second), 10)
		if err != nil || len(due) != 2 || due[0].ID != store.AttemptID(j.ID, 1, 1) || due[0].State != store.AttemptScheduled {
			t.Fatalf("due: %+v %v", due, err)
		}
		// A move happens once: from the states it may leave.
		a := due[0]
		now := time.Now().UTC()
		a.DialledAt = &now
		if ok, err := db.MoveAttempt(ctx, &a, store.AttemptDialling, store.AttemptScheduled); err != nil || !ok {
			t.Fatalf("claim: %v %v", ok, err)
		}
		if ok, err := db.MoveAttempt(ctx, &a, store.AttemptDialling, store.AttemptScheduled); err != nil || ok {
			t.Fatalf("claimed twice: %v %v", ok, err)
		}
		if ok, err := db.SetAttemptCall(ctx, a.ID, "call-1"); err != nil || !ok {
			t.Fatal(err)
		}
		if got, err := db.AttemptByCall(ctx, "call-1"); err != nil || got.ID != a.ID || got.State != store.AttemptRinging {
			t.Fatalf("by call: %+v %v", got, err)
		}
		if live, err := db.LiveCalls(ctx, org.ID); err != nil || live != 1 {
			t.Fatalf("live calls: %d %v", live, err)
		}
		counts, first, err := db.RecentDials(ctx, org.ID, []string{"+14155550001", "+14155550002"}, now.Add(-time.Hour))
		if err != nil || counts["+14155550001"] != 1 || counts["+14155550002"] != 0 || first["+14155550001"].IsZero() {
			t.Fatalf("recent dials: %v %v %v", counts, first, err)
		}
		pc, err := db.AttemptCounts(ctx, []string{j.ID})
		if err != nil || pc[j.ID][store.AttemptRinging] != 1 || pc[j.ID][store.AttemptScheduled] != 1 {
			t.Fatalf("counts: %v %v", pc, err)
		}
		// Events are seen once; asking whether one was seen records nothing.
		if seen, err := db.CallEventSeen(ctx, "ev-1"); err != nil || seen {
			t.Fatalf("seen before its first sight: %v %v", seen, err)
		}
		if fresh, err := db.MarkCallEventSeen(ctx, "ev-1", a.ID, "call.answered"); err != nil || !fresh {
			t.Fatalf("first sight: %v %v", fresh, err)
		}
		if seen, err := db.CallEventSeen(ctx, "ev-1"); err != nil || !seen {
			t.Fatalf("not seen after its first sight: %v %v", seen, err)
		}
		if fresh, err := db.MarkCallEventSeen(ctx, "ev-1", a.ID, "call.answered"); err != nil || fresh {
			t.Fatalf("second sight: %v %v", fresh, err)
		}
		// A call is charged once.
		if err := db.AddCredits(ctx, org.ID, 10, store.LedgerGrant, nil, nil); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 2; i++ {
			if _, err := db.ChargeCall(ctx, org.ID, a.ID, 0.54); err != nil {
				t.Fatal(err)
			}
		}
		if o, err := db.OrganizationByID(ctx, org.ID); err != nil || o.CreditsBalance < 9.45 || o.CreditsBalance > 9.47 {
			t.Fatalf("balance after a call charged twice: %v %v", o.CreditsBalance, err)
		}
		// What a run uses; another team sees nothing.
		if _, err := db.RunningJobUsing(ctx, org.ID, "phone", phoneID); err != nil {
			t.Fatalf("phone in use: %v", err)
		}
		if _, err := db.RunningJobUsing(ctx, other.ID, "workflow", w.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("another team: %v", err)
		}
		if _, err := db.WorkflowJobByID(ctx, other.ID, j.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("another team's job: %v", err)
		}
		if js, err := db.WorkflowJobsByIDs(ctx, []string{other.ID}, []string{j.ID}); err != nil || len(js) != 0 {
			t.Fatalf("another team's job by ids: %v %v", js, err)
		}
		// Pausing, cancelling, finishing.
		reason := "no credits"
		if ok, err := db.PauseWorkflowJob(ctx, j.ID, &reason); err != nil || !ok {
			t.Fatalf("pause: %v %v", ok, err)
		}
		if ok, err := db.PauseWorkflowJob(ctx, j.ID, &reason); err != nil || ok {
			t.Fatalf("pause again: %v %v", ok, err)
		}
		if n, err := db.CancelScheduledAttempts(ctx, j.ID); err != nil || n != 1 {
			t.Fatalf("cancel: %d %v", n, err)
		}
		if ok, err := db.FinishWorkflowJob(ctx, j.ID, store.JobCancelled, nil); err != nil || !ok {
			t.Fatalf("finish: %v %v", ok, err)
		}
		if ok, err := db.FinishWorkflowJob(ctx, j.ID, store.JobSuccess, nil); err != nil || ok {
			t.Fatalf("a finished job changed: %v %v", ok, err)
		}
		// The site admin's override.
		if err := db.SetDialerLimit(ctx, org.ID, 40, owner.ID); err != nil {
			t.Fatal(err)
		}
		if err := db.SetDialerLimit(ctx, org.ID, 50, owner.ID); err != nil {
			t.Fatal(err)
		}
		if n, err := db.DialerLimit(ctx, org.ID); err != nil || n != 50 {
			t.Fatalf("override: %d %v", n, err)
		}
		if err := db.SetDialerLimit(ctx, org.ID, 0, owner.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := db.DialerLimit(ctx, org.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("removed override: %v", err)
		}
	})
}

// A transaction that read a run with RunningWorkflowJob (a Zapier push joining it) holds the
// run's row: the run's end (LockWorkflowJob, then its open attempts) waits for it and sees the
// attempts it added, instead of ending the run with them undialled.
func TestRunRowHeld(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		owner, org := teamFixture(t, db, "owner@example.com")
		w := store.Workflow{OrganizationID: org.ID, Name: "Zap", Type: store.Outbound, Graph: `{}`, PromptStatus: store.PromptSuccess}
		if err := db.CreateWorkflow(ctx, &w, []store.WorkflowNode{{ID: "contacts-z", Type: "contacts"}}); err != nil {
			t.Fatal(err)
		}
		nodeID := "contacts-z"
		j := store.WorkflowJob{OrganizationID: org.ID, WorkflowID: w.ID, Type: store.JobTypeWorkflowRun, Status: store.JobInProgress,
			TriggeredBy: owner.Email, FromNumber: "+14155559999", NodeID: &nodeID, Graph: "{}", Settings: "{}"}
		if err := db.CreateWorkflowJob(ctx, &j); err != nil {
			t.Fatal(err)
		}
		if _, err := db.LockWorkflowJob(ctx, j.ID); err == nil {
			t.Fatal("LockWorkflowJob outside a transaction")
		}
		held, pushed := make(chan struct{}), make(chan error, 1)
		go func() {
			pushed <- db.InTx(ctx, func(ctx context.Context) error {
				if _, err := db.RunningWorkflowJob(ctx, org.ID, w.ID); err != nil {
					return err
				}
				close(held)
				time.Sleep(300 * time.Millisecond)
				_, err := db.InsertAttempt(ctx, &store.Attempt{ID: store.AttemptID(j.ID, 1, 1), OrganizationID: org.ID, JobID: j.ID,
					Seq: 1, Attempt: 1, Phone: "+14155550001", State: store.AttemptScheduled, DueAt: time.Now().UTC()})
				return err
			})
		}()
		<-held
		var open bool
		err := db.InTx(ctx, func(ctx context.Context) error {
			st, err := db.LockWorkflowJob(ctx, j.ID)
			if err != nil || st != store.JobInProgress {
				return fmt.Errorf("status %s: %v", st, err)
			}
			open, err = db.JobHasOpenAttempts(ctx, j.ID)
			return err
		})
		if err := <-pushed; err != nil {
			t.Fatal(err)
		}
		if err != nil || !open {
			t.Fatalf("the run's end did not wait for the push: open %v, %v", open, err)
		}
	})
}
