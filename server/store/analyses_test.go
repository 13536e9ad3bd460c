package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/store"
)

func TestCallAnalysesAndJobCalls(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		_, org := teamFixture(t, db, "owner@example.com")
		_, other := teamFixture(t, db, "other@example.com")
		day := time.Date(2026, 3, 4, 9, 0, 0, 0, time.UTC)
		var ids []string
		for i, start := range []time.Time{day.Add(time.Minute), day, day} { // two start together: the id orders them
			c := store.CallLog{OrganizationID: org.ID, Direction: "outbound", From: "+14155550100", To: "+1415555012" + string(rune('0'+i)),
				Status: store.CallCompleted, JobID: ptr("job-1"), StartTime: start}
			if err := db.CreateCallLog(ctx, &c); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, c.ID)
		}
		stray := store.CallLog{OrganizationID: org.ID, Direction: "outbound", From: "+1", To: "+2", Status: store.CallCompleted, JobID: ptr("job-2"), StartTime: day}
		if err := db.CreateCallLog(ctx, &stray); err != nil {
			t.Fatal(err)
		}
		a := store.CallAnalysis{CallLogID: ids[0], OrganizationID: org.ID, Summary: "Ann asked for a demo.", Outcome: "completed",
			Fields: `[{"name":"email","value":"ann@example.com","turn":3}]`, AnalysedBy: "patterns"}
		if err := db.InsertCallAnalysis(ctx, &a); err != nil {
			t.Fatal(err)
		}
		if err := db.InsertCallAnalysis(ctx, &a); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("a second analysis: %v", err)
		}
		if err := db.InsertCallAnalysis(ctx, &store.CallAnalysis{CallLogID: "nope", OrganizationID: org.ID, AnalysedBy: "x"}); !errors.Is(err, store.ErrReference) {
			t.Fatalf("analysis of no call: %v", err)
		}
		got, err := db.CallAnalysisOf(ctx, org.ID, ids[0])
		if err != nil || got.Summary != a.Summary || got.Fields != a.Fields || got.AnalysedBy != "patterns" {
			t.Fatalf("analysis %+v %v", got, err)
		}
		if _, err := db.CallAnalysisOf(ctx, other.ID, ids[0]); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("another team's analysis: %v", err)
		}
		if _, err := db.CallAnalysisOf(ctx, org.ID, ids[1]); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("a call without analysis: %v", err)
		}
		// Pages of two, in the order the calls started.
		var seen []string
		var at time.Time
		after := ""
		for {
			page, err := db.JobCallsAfter(ctx, org.ID, "job-1", at, after, 2)
			if err != nil {
				t.Fatal(err)
			}
			if len(page) == 0 {
				break
			}
			for _, c := range page {
				seen = append(seen, c.ID)
				if (c.ID == ids[0]) != (c.Fields != nil) || (c.Summary != nil && *c.Summary != a.Summary) {
					t.Fatalf("call %s analysis %v", c.ID, c.Summary)
				}
			}
			last := page[len(page)-1]
			at, after = last.StartTime, last.ID
		}
		first, second := ids[1], ids[2]
		if second < first {
			first, second = second, first
		}
		if len(seen) != 3 || seen[0] != first || seen[1] != second || seen[2] != ids[0] {
			t.Fatalf("job calls %v, want %v %v %v", seen, first, second, ids[0])
		}
		if page, err := db.JobCallsAfter(ctx, other.ID, "job-1", time.Time{}, "", 10); err != nil || len(page) != 0 {
			t.Fatalf("another team's job calls: %v %v", page, err)
		}
	})
}
