package store_test

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/store"
)

// Where a call stands: written while it goes on (a position it holds already changes
// nothing), cleared at its end with the path kept, read per job through its attempts.
func TestCallPath(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		owner, org := teamFixture(t, db, "owner@example.com")
		_, other := teamFixture(t, db, "other@example.com")
		w := store.Workflow{OrganizationID: org.ID, Name: "Calls", Type: store.Outbound, Graph: `{}`, PromptStatus: store.PromptSuccess}
		if err := db.CreateWorkflow(ctx, &w, nil); err != nil {
			t.Fatal(err)
		}
		phoneID := "phone-1"
		j := store.WorkflowJob{OrganizationID: org.ID, WorkflowID: w.ID, Type: store.JobTypeWorkflowRun, Status: store.JobInProgress,
			TriggeredBy: owner.Email, FromNumber: "+14155559999", PhoneNumberID: &phoneID, Graph: "{}", Settings: "{}", IsTest: true}
		if err := db.CreateWorkflowJob(ctx, &j); err != nil {
			t.Fatal(err)
		}
		a := store.Attempt{ID: store.AttemptID(j.ID, 1, 1), OrganizationID: org.ID, JobID: j.ID, Seq: 1, Attempt: 1, Phone: "+14155550001",
			State: store.AttemptScheduled, DueAt: time.Now().UTC()}
		if _, err := db.InsertAttempt(ctx, &a); err != nil {
			t.Fatal(err)
		}
		// A test call's log names no job: it is found through the attempt.
		c := store.CallLog{OrganizationID: org.ID, Direction: "outbound", From: "+14155559999", To: a.Phone, Status: store.CallInProgress,
			WorkflowID: &w.ID, AttemptID: &a.ID}
		if err := db.CreateCallLog(ctx, &c); err != nil {
			t.Fatal(err)
		}
		if got, err := db.CallLogByID(ctx, org.ID, c.ID); err != nil || got.CurrentNodeID != nil || got.Path == nil || len(got.Path) != 0 {
			t.Fatalf("a new call stands nowhere: %+v %v", got, err)
		}
		on := func(id string) *string { return &id }
		if changed, err := db.WalkCallLog(ctx, org.ID, c.ID, on("hello"), store.Strings{"start", "hello"}); err != nil || !changed {
			t.Fatalf("walk: %v %v", changed, err)
		}
		if changed, err := db.WalkCallLog(ctx, org.ID, c.ID, on("hello"), store.Strings{"start", "hello"}); err != nil || changed {
			t.Fatalf("the same position again: %v %v", changed, err)
		}
		if _, err := db.WalkCallLog(ctx, other.ID, c.ID, on("x"), store.Strings{"x"}); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("another team's call: %v", err)
		}
		ps, err := db.JobCallPositions(ctx, org.ID, j.ID)
		if err != nil || len(ps) != 1 || ps[0].CallLogID != c.ID || *ps[0].CurrentNodeID != "hello" ||
			!reflect.DeepEqual(ps[0].Path, store.Strings{"start", "hello"}) || ps[0].EndTime != nil {
			t.Fatalf("positions: %+v %v", ps, err)
		}
		if ps, err := db.JobCallPositions(ctx, other.ID, j.ID); err != nil || len(ps) != 0 {
			t.Fatalf("another team's positions: %+v %v", ps, err)
		}
		end := store.CallEnd{Status: store.CallCompleted, EndTime: time.Now(), Path: store.Strings{"start", "hello", "end"}}
		if closed, err := db.CloseCallLog(ctx, org.ID, c.ID, end); err != nil || !closed {
			t.Fatalf("close: %v %v", closed, err)
		}
		if changed, err := db.WalkCallLog(ctx, org.ID, c.ID, on("late"), store.Strings{"late"}); err != nil || changed {
			t.Fatalf("a walk after the end: %v %v", changed, err)
		}
		got, err := db.CallLogByID(ctx, org.ID, c.ID)
		if err != nil || got.CurrentNodeID != nil || !reflect.DeepEqual(got.Path, store.Strings{"start", "hello", "end"}) {
			t.Fatalf("an ended call: on %v, path %q, %v", got.CurrentNodeID, got.Path, err)
		}
	})
}
