package runs_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/store"
)

// A workflow that has not run yet has no job: that is a state, not an error; a workflow that is
// not the team's is not found; once it ran, progress answers the run.
func TestProgressSaysNoJobYet(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		day := time.Now().UTC().AddDate(0, 0, 2).Weekday().String()[:3]
		tm := newTeam(t, db, 1000, fmt.Sprintf(`{"callWindow":{"start":"00:00","end":"24:00","days":[%q]},"timezone":"UTC","retryAttempts":0,"retryDelayMinutes":0,"maxConcurrentCalls":5}`, day))
		tz := "UTC"
		addContacts(t, db, tm, []string{"+14155550001"}, &tz)
		h := newHarness(t, db, newFakeCalls(func(string, int) phones.Outcome { return phones.OutcomeAnswer }), fast)

		j, ran, err := h.svc.Progress(ctx, tm.actor(), tm.workflow.ID)
		if err != nil || ran || j.ID != "" {
			t.Fatalf("before any run: %+v %v %v", j, ran, err)
		}
		other := newTeam(t, db, 1000, alwaysOpen)
		if _, ran, err := h.svc.Progress(ctx, other.actor(), tm.workflow.ID); ran || !errs.Is(err, errs.NotFound) {
			t.Fatalf("another team's workflow: %v %v", ran, err)
		}

		started, err := h.svc.Start(ctx, tm.actor(), tm.workflow.ID, nil)
		must(t, err)
		j, ran, err = h.svc.Progress(ctx, tm.actor(), tm.workflow.ID)
		if err != nil || !ran || j.ID != started.ID || j.Status != store.JobInProgress || j.Progress.Total != 1 {
			t.Fatalf("after the start: %+v %v %v", j, ran, err)
		}
	})
}
