package runs_test

import (
	"context"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/runs"
	"github.com/bettyhq/betty/server/store"
)

// A run moves its campaign draft → active while it runs, → completed when it ends, and a new
// run makes the completed campaign active again; a test run changes nothing (issue 21).
func TestARunMovesItsCampaignDraftActiveCompleted(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tm := newTeam(t, db, 1000, alwaysOpen)
		status := func() store.CampaignStatus {
			c, err := db.CampaignByID(ctx, tm.org.ID, tm.campaign.ID)
			must(t, err)
			return c.Status
		}
		tm.campaign.Status = store.CampaignDraft
		must(t, db.UpdateCampaign(ctx, &tm.campaign))
		addContacts(t, db, tm, []string{"+14155550001", "+14155550002"}, nil)
		calls := newFakeCalls(func(string, int) phones.Outcome { return phones.OutcomeAnswer })
		h := newHarness(t, db, calls, fast)

		tr, err := h.svc.TestRun(ctx, tm.actor(), runs.TestInput{WorkflowID: tm.workflow.ID, Destination: "+14155559999", IsTest: true})
		must(t, err)
		h.drive(t, tr.ID, 10*time.Second)
		if s := status(); s != store.CampaignDraft {
			t.Fatalf("after a test run: %s, want draft", s)
		}

		j, err := h.svc.Start(ctx, tm.actor(), tm.workflow.ID, nil)
		must(t, err)
		if s := status(); s != store.CampaignActive {
			t.Fatalf("while running: %s, want active", s)
		}
		h.drive(t, j.ID, 10*time.Second)
		if s := status(); s != store.CampaignCompleted {
			t.Fatalf("after the run: %s, want completed", s)
		}

		addContacts(t, db, tm, []string{"+14155550003"}, nil)
		j, err = h.svc.Start(ctx, tm.actor(), tm.workflow.ID, nil)
		must(t, err)
		if s := status(); s != store.CampaignActive {
			t.Fatalf("a new run: %s, want active", s)
		}
		_, err = h.svc.End(ctx, tm.actor(), tm.workflow.ID)
		must(t, err)
		if s := status(); s != store.CampaignCompleted {
			t.Fatalf("after ending the run: %s, want completed", s)
		}

		// Paused is the user's: a run neither starts on it nor moves it.
		tm.campaign.Status = store.CampaignPaused
		must(t, db.UpdateCampaign(ctx, &tm.campaign))
		if _, err := h.svc.Start(ctx, tm.actor(), tm.workflow.ID, nil); err == nil {
			t.Fatal("a paused campaign's workflow ran")
		}
	})
}
