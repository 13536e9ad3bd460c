package runs_test

import (
	"context"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/runs"
	"github.com/bettyhq/betty/server/store"
)

// A single-contact run calls its one number once, runs beside the workflow's run over its
// contacts and beside another single run, and leaves the contacts alone.
func TestSingleRunCallsOneNumberBesideOtherRuns(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tm := newTeam(t, db, 1000, alwaysOpen)
		addContacts(t, db, tm, []string{"+14155550100"}, nil)
		calls := newFakeCalls(func(string, int) phones.Outcome { return phones.OutcomeAnswer })
		h := newHarness(t, db, calls, fast)

		run, err := h.svc.Start(ctx, tm.actor(), tm.workflow.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		tz := "America/New_York"
		var singles []runs.Job
		for _, n := range []string{"+12125550101", "+12125550102"} {
			j, err := h.svc.StartSingle(ctx, runs.SingleInput{OrganizationID: tm.org.ID, WorkflowID: tm.workflow.ID,
				Phone: n, TimeZone: &tz, Name: "Ann", TriggeredBy: "Storefront widget"})
			if err != nil {
				t.Fatalf("single run beside others: %v", err)
			}
			if j.IsTest || j.Total != 1 || j.NodeID != nil || j.TriggeredBy != "Storefront widget" || j.Progress.Queued != 1 {
				t.Fatalf("single run: %+v", j)
			}
			singles = append(singles, j)
		}
		// The run over the contacts is still the workflow's one run: starting another is refused.
		if _, err := h.svc.Start(ctx, tm.actor(), tm.workflow.ID, nil); !errs.Is(err, errs.Unprocessable) {
			t.Fatalf("second run: %v", err)
		}
		for _, j := range append(singles, run) {
			h.drive(t, j.ID, 20*time.Second)
		}
		for _, n := range []string{"+12125550101", "+12125550102", "+14155550100"} {
			if got := calls.placedTo(n); got != 1 {
				t.Errorf("%s dialled %d times", n, got)
			}
		}
		as, err := db.AttemptsOfJob(ctx, singles[0].ID)
		if err != nil || len(as) != 1 || as[0].TimeZone == nil || *as[0].TimeZone != tz || as[0].ContactID != nil {
			t.Fatalf("attempt: %+v %v", as, err)
		}
	})
}

// A single run obeys the dialer's rules: the number on the do-not-call list is suppressed,
// and a workflow that cannot run (no credits) is refused before anything is written.
func TestSingleRunFollowsTheDialerRules(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tm := newTeam(t, db, 1000, alwaysOpen)
		calls := newFakeCalls(func(string, int) phones.Outcome { return phones.OutcomeAnswer })
		h := newHarness(t, db, calls, fast)
		h.dnc.numbers["+12125550103"] = "asked"
		j, err := h.svc.StartSingle(ctx, runs.SingleInput{OrganizationID: tm.org.ID, WorkflowID: tm.workflow.ID, Phone: "+12125550103"})
		if err != nil {
			t.Fatal(err)
		}
		h.drive(t, j.ID, 10*time.Second)
		if calls.placedTo("+12125550103") != 0 {
			t.Fatal("a number on the do-not-call list was dialled")
		}
		if _, err := h.svc.StartSingle(ctx, runs.SingleInput{OrganizationID: tm.org.ID, WorkflowID: tm.workflow.ID, Phone: "12"}); !errs.Is(err, errs.Invalid) {
			t.Fatalf("bad number: %v", err)
		}

		poor := newTeam(t, db, 0, alwaysOpen)
		_, err = h.svc.StartSingle(ctx, runs.SingleInput{OrganizationID: poor.org.ID, WorkflowID: poor.workflow.ID, Phone: "+12125550104"})
		if !errs.Is(err, errs.Unprocessable) {
			t.Fatalf("no credits: %v", err)
		}
		if n, _, _ := db.ListWorkflowJobs(ctx, poor.org.ID, poor.workflow.ID, "", false, 10, 0); len(n) != 0 {
			t.Fatalf("a refused single run left a job: %+v", n)
		}
	})
}

// A Contacts node without a source stops a run over the contacts, not a single-contact run.
func TestSingleRunIgnoresTheContactsSource(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tm := newTeam(t, db, 1000, alwaysOpen)
		must(t, db.ExecRaw(ctx, `UPDATE workflows SET graph = REPLACE(graph, '"contactsSource":"csv"', '') WHERE id = '`+tm.workflow.ID+`'`))
		h := newHarness(t, db, newFakeCalls(func(string, int) phones.Outcome { return phones.OutcomeAnswer }), fast)
		if _, err := h.svc.TestRun(ctx, tm.actor(), runs.TestInput{WorkflowID: tm.workflow.ID, Destination: "+12125550105"}); !errs.Is(err, errs.Unprocessable) {
			t.Fatalf("a test run without a contacts source: %v", err)
		}
		if _, err := h.svc.StartSingle(ctx, runs.SingleInput{OrganizationID: tm.org.ID, WorkflowID: tm.workflow.ID, Phone: "+12125550105"}); err != nil {
			t.Fatalf("a single run without a contacts source: %v", err)
		}
	})
}
