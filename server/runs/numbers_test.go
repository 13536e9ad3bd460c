package runs_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/runs"
	"github.com/bettyhq/betty/server/store"
)

// contactsFrom gives the team's workflow a contacts source of kind source with these numbers,
// written as they are (as rows imported before a rule existed, or under another setting).
func contactsFrom(t testing.TB, db *store.DB, tm team, source string, numbers []string) string {
	t.Helper()
	ctx := context.Background()
	src := store.ContactSource{NodeID: tm.nodeID, OrganizationID: tm.org.ID, WorkflowID: tm.workflow.ID, Source: source, Status: store.ContactsSuccess}
	must(t, db.InTx(ctx, func(ctx context.Context) error {
		if err := db.SetContactSource(ctx, &src); err != nil {
			return err
		}
		rows := make([]store.Contact, len(numbers))
		for i, p := range numbers {
			rows[i] = store.Contact{OrganizationID: tm.org.ID, NodeID: tm.nodeID, ImportID: src.ImportID, Seq: i + 1, Phone: p,
				Status: store.ContactPending}
		}
		return db.InsertContacts(ctx, rows)
	}))
	return src.ImportID
}

// The dialer checks each number's kind when it dials: a number no rule let in (an older row,
// a campaign whose opt-in was withdrawn, a number from outside the team) ends its attempt
// without a call, failed with the reason on the contact, counted as refused.
func TestTheDialerRefusesCostlyNumbers(t *testing.T) {
	optIn := strings.Replace(alwaysOpen, `"recordCalls":true`, `"recordCalls":true,"allowedNumberTypes":["premium-rate"]`, 1)
	cases := []struct {
		name, settings, source string
		premiumDialled         bool
	}{
		{"no opt-in", alwaysOpen, "csv", false},
		{"the team's numbers, premium-rate allowed", optIn, "csv", true},
		{"Zapier's numbers, premium-rate allowed", optIn, "zapier", false},
		{"HubSpot's numbers, premium-rate allowed", optIn, "hubspot", false},
	}
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		// One carrier for every case: its call ids are unique in the database.
		calls := newFakeCalls(func(string, int) phones.Outcome { return phones.OutcomeAnswer })
		h := newHarness(t, db, calls, fast)
		for i, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				ctx := context.Background()
				landline, premium, personal := fmt.Sprintf("+141555501%02d", i), fmt.Sprintf("+190055512%02d", i), fmt.Sprintf("+4470100000%02d", i)
				tm := newTeam(t, db, 100, c.settings)
				importID := contactsFrom(t, db, tm, c.source, []string{landline, premium, personal})
				j, err := h.svc.Start(ctx, tm.actor(), tm.workflow.ID, nil)
				must(t, err)
				h.drive(t, j.ID, 20*time.Second)
				dialled, refused := []string{landline}, []string{personal}
				if c.premiumDialled {
					dialled = append(dialled, premium)
				} else {
					refused = append(refused, premium)
				}
				for _, n := range dialled {
					if calls.placedTo(n) != 1 {
						t.Errorf("%s was dialled %d times", n, calls.placedTo(n))
					}
				}
				contacts, _, err := db.ListContacts(ctx, tm.org.ID, tm.nodeID, importID, 10, 0)
				must(t, err)
				byPhone := map[string]store.Contact{}
				for _, ct := range contacts {
					byPhone[ct.Phone] = ct
				}
				for _, n := range refused {
					ct := byPhone[n]
					if calls.placedTo(n) != 0 || ct.Status != store.ContactFailed || ct.LastError == nil || !strings.Contains(*ct.LastError, "Not called") {
						t.Errorf("%s: dialled %d times, contact %s %v", n, calls.placedTo(n), ct.Status, deref(ct.LastError))
					}
				}
				j, _, err = h.svc.Progress(ctx, tm.actor(), tm.workflow.ID)
				must(t, err)
				p := j.Progress
				if j.Status != store.JobSuccess || p.Refused != len(refused) || p.Failed != len(refused) || p.Completed != len(dialled) {
					t.Errorf("progress: %s %+v", j.Status, p)
				}
			})
		}
	})
}

// A single-contact run (the storefront's) and a test run check the number when they start,
// and the dialer checks it again.
func TestSingleAndTestRunsCheckTheNumber(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		optIn := strings.Replace(alwaysOpen, `"recordCalls":true`, `"recordCalls":true,"allowedNumberTypes":["premium-rate"]`, 1)
		tm := newTeam(t, db, 100, optIn)
		calls := newFakeCalls(func(string, int) phones.Outcome { return phones.OutcomeAnswer })
		h := newHarness(t, db, calls, fast)
		// The storefront's numbers come from outside: the campaign's opt-in does not apply.
		_, err := h.svc.StartSingle(ctx, runs.SingleInput{OrganizationID: tm.org.ID, WorkflowID: tm.workflow.ID, Phone: "+19005551234"})
		if e, ok := errs.As(err); !ok || e.Kind != errs.Unprocessable || len(e.Fields) != 1 || e.Fields[0].Name != "body.phoneNumber" {
			t.Fatalf("a single run to a premium number: %v", err)
		}
		// A test run's number is the team's: the opt-in applies; a personal number is refused.
		_, err = h.svc.TestRun(ctx, tm.actor(), runs.TestInput{WorkflowID: tm.workflow.ID, Destination: "+447010000000", IsTest: true})
		if e, ok := errs.As(err); !ok || e.Kind != errs.Unprocessable || len(e.Fields) != 1 || e.Fields[0].Name != "body.destinationPhoneNumber" {
			t.Fatalf("a test run to a personal number: %v", err)
		}
		j, err := h.svc.TestRun(ctx, tm.actor(), runs.TestInput{WorkflowID: tm.workflow.ID, Destination: "+19005551234", IsTest: true})
		must(t, err)
		h.drive(t, j.ID, 10*time.Second)
		if calls.placedTo("+19005551234") != 1 {
			t.Fatal("the test run's premium number was not called under the opt-in")
		}
	})
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}
