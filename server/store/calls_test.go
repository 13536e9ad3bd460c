package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/store"
)

func TestCallLogsTranscriptsAndStarts(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		_, org := teamFixture(t, db, "owner@example.com")
		_, other := teamFixture(t, db, "other@example.com")
		day := time.Date(2026, 3, 4, 23, 30, 0, 0, time.UTC)
		c := store.CallLog{OrganizationID: org.ID, Direction: "outbound", From: "+14155550100", To: "+14155550123",
			Status: store.CallQueued, AttemptID: ptr("attempt-1"), StartTime: day}
		if err := db.CreateCallLog(ctx, &c); err != nil {
			t.Fatal(err)
		}
		again := store.CallLog{OrganizationID: org.ID, Direction: "outbound", From: "+1", To: "+2", Status: store.CallQueued, AttemptID: ptr("attempt-1")}
		if err := db.CreateCallLog(ctx, &again); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("a second call log of one attempt: %v", err)
		}
		if got, err := db.CallLogByAttempt(ctx, org.ID, "attempt-1"); err != nil || got.ID != c.ID {
			t.Fatalf("by attempt: %+v %v", got, err)
		}
		if _, err := db.CallLogByID(ctx, other.ID, c.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("another team's call log: %v", err)
		}
		answered := day.Add(5 * time.Second)
		if err := db.ProgressCallLog(ctx, org.ID, c.ID, ptr("v3:abc"), store.CallInProgress, &answered); err != nil {
			t.Fatal(err)
		}
		if err := db.ProgressCallLog(ctx, other.ID, c.ID, nil, store.CallRinging, nil); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("progress of another team's call: %v", err)
		}
		end := store.CallEnd{Status: store.CallCompleted, EndTime: day.Add(2 * time.Minute), BilledMinutes: 2, Cost: 0.3, HasTranscript: true}
		if closed, err := db.CloseCallLog(ctx, org.ID, c.ID, end); err != nil || !closed {
			t.Fatalf("close: %v %v", closed, err)
		}
		end.Status = store.CallFailed
		if closed, err := db.CloseCallLog(ctx, org.ID, c.ID, end); err != nil || closed {
			t.Fatalf("close twice: %v %v", closed, err)
		}
		// A call that ended keeps its end, whatever progress arrives late.
		if err := db.ProgressCallLog(ctx, org.ID, c.ID, nil, store.CallRinging, nil); err != nil {
			t.Fatal(err)
		}
		got, err := db.CallLogByControlID(ctx, org.ID, "v3:abc")
		if err != nil || got.Status != store.CallCompleted || got.AnsweredAt == nil || !got.AnsweredAt.Equal(answered) ||
			got.EndTime == nil || got.BilledMinutes != 2 || !got.StartTime.Equal(day) {
			t.Fatalf("closed call: %+v %v", got, err)
		}
		turns := []store.TranscriptTurn{{Speaker: "agent", Text: "Hello", OffsetMS: 0}, {Speaker: "customer", Text: "Hi", OffsetMS: 1500}}
		if err := db.AddTranscriptTurns(ctx, org.ID, c.ID, turns); err != nil {
			t.Fatal(err)
		}
		if got, err := db.TranscriptTurns(ctx, org.ID, c.ID); err != nil || len(got) != 2 || got[1].Text != "Hi" || got[1].OffsetMS != 1500 {
			t.Fatalf("turns: %+v %v", got, err)
		}
		if got, err := db.TranscriptTurns(ctx, other.ID, c.ID); err != nil || len(got) != 0 {
			t.Fatalf("another team's turns: %+v %v", got, err)
		}
		starts, err := db.CallStarts(ctx, org.ID, day.Add(-time.Hour), day.Add(time.Hour))
		if err != nil || len(starts) != 1 || starts[0].BilledMinutes != 2 {
			t.Fatalf("starts: %+v %v", starts, err)
		}
		if starts, err := db.CallStarts(ctx, org.ID, day.Add(time.Second), day.Add(time.Hour)); err != nil || len(starts) != 0 {
			t.Fatalf("starts after: %+v %v", starts, err)
		}
		if list, total, err := db.ListCallLogs(ctx, org.ID, 10, 0); err != nil || total != 1 || len(list) != 1 {
			t.Fatalf("list: %d %v", total, err)
		}
	})
}

func TestInboxItemsSearchSortAndSoftDelete(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		_, org := teamFixture(t, db, "owner@example.com")
		_, other := teamFixture(t, db, "other@example.com")
		add := func(orgID, title, summary string, priority int) store.InboxItem {
			i := store.InboxItem{OrganizationID: orgID, Title: title, Summary: summary, Outcome: "completed", Priority: priority,
				Visibility: store.InboxPrivate}
			if err := db.CreateInboxItem(ctx, &i); err != nil {
				t.Fatal(err)
			}
			return i
		}
		a := add(org.ID, "Customer asked to reschedule delivery", "Call back on Tuesday.", 5)
		b := add(org.ID, "Voicemail", "Left a message about the delivery window.", 1)
		add(org.ID, "No answer", "", 0)
		add(other.ID, "Delivery for another team", "", 9)

		search := func(words ...string) []string {
			items, total, err := db.ListInboxItems(ctx, org.ID, store.InboxQuery{Words: words, SortBy: "priority", Limit: 10})
			if err != nil || total != len(items) {
				t.Fatalf("search %v: %d %v", words, total, err)
			}
			out := []string{}
			for _, i := range items {
				out = append(out, i.ID)
			}
			return out
		}
		if got := search("deliv"); len(got) != 2 || got[0] != a.ID || got[1] != b.ID {
			t.Fatalf("deliv: %v", got)
		}
		if got := search("deliv", "resched"); len(got) != 1 || got[0] != a.ID {
			t.Fatalf("deliv resched: %v", got)
		}
		if got := search("window"); len(got) != 1 || got[0] != b.ID {
			t.Fatalf("window (in a summary): %v", got)
		}
		if got := search("nothing"); len(got) != 0 {
			t.Fatalf("nothing: %v", got)
		}
		items, total, err := db.ListInboxItems(ctx, org.ID, store.InboxQuery{SortBy: "title", Ascending: true, Limit: 2})
		if err != nil || total != 3 || len(items) != 2 || items[0].ID != a.ID || items[1].Title != "No answer" {
			t.Fatalf("by title: %d %+v %v", total, items, err)
		}
		pub := store.InboxPublic
		if err := db.UpdateInboxItem(ctx, org.ID, b.ID, ptr(50), &pub); err != nil {
			t.Fatal(err)
		}
		if err := db.UpdateInboxItem(ctx, other.ID, b.ID, ptr(1), nil); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("another team's item: %v", err)
		}
		if got, err := db.InboxItemByID(ctx, org.ID, b.ID); err != nil || got.Priority != 50 || got.Visibility != store.InboxPublic {
			t.Fatalf("updated: %+v %v", got, err)
		}
		if err := db.DeleteInboxItem(ctx, org.ID, a.ID); err != nil {
			t.Fatal(err)
		}
		if err := db.DeleteInboxItem(ctx, org.ID, a.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("delete twice: %v", err)
		}
		if got := search("resched"); len(got) != 0 {
			t.Fatalf("a deleted item is searched: %v", got)
		}
		if got, err := db.InboxItemByID(ctx, org.ID, a.ID); err != nil || got.DeletedAt == nil {
			t.Fatalf("deleted item: %+v %v", got, err)
		}
	})
}

func TestDoNotCallList(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		_, org := teamFixture(t, db, "owner@example.com")
		_, other := teamFixture(t, db, "other@example.com")
		e := store.DoNotCall{OrganizationID: org.ID, PhoneNumber: "+14155550123", Reason: ptr("Asked 100% politely"), AddedBy: "owner@example.com",
			Source: store.DoNotCallManual}
		if created, err := db.AddDoNotCall(ctx, &e); err != nil || !created || e.ID == "" {
			t.Fatalf("add: %v %v", created, err)
		}
		dup := store.DoNotCall{OrganizationID: org.ID, PhoneNumber: "+14155550123", AddedBy: "x", Source: store.DoNotCallImport}
		if created, err := db.AddDoNotCall(ctx, &dup); err != nil || created || dup.ID != e.ID || dup.Source != store.DoNotCallManual {
			t.Fatalf("add twice: %v %+v %v", created, dup, err)
		}
		many := make([]store.DoNotCall, 1200)
		for i := range many {
			many[i] = store.DoNotCall{OrganizationID: org.ID, PhoneNumber: "+1415556" + string(rune('0'+i/1000)) + pad3(i%1000), AddedBy: "import",
				Source: store.DoNotCallImport}
		}
		many = append(many, store.DoNotCall{OrganizationID: org.ID, PhoneNumber: "+14155550123", AddedBy: "import", Source: store.DoNotCallImport})
		if n, err := db.AddDoNotCalls(ctx, many); err != nil || n != 1200 {
			t.Fatalf("add many: %d %v", n, err)
		}
		if _, total, err := db.ListDoNotCall(ctx, org.ID, "", nil, 10, 0); err != nil || total != 1201 {
			t.Fatalf("list: %d %v", total, err)
		}
		if got, total, err := db.ListDoNotCall(ctx, org.ID, "", []string{"100%"}, 10, 0); err != nil || total != 1 || got[0].ID != e.ID {
			t.Fatalf("by reason (a literal %%): %d %v", total, err)
		}
		if _, total, err := db.ListDoNotCall(ctx, org.ID, "5550123", nil, 10, 0); err != nil || total != 1 {
			t.Fatalf("by digits: %d %v", total, err)
		}
		numbers := []string{"+14155550123", "+14155560999", "+14155559999"}
		for i := 0; i < 600; i++ {
			numbers = append(numbers, "+1202555"+pad4(i))
		}
		listed, err := db.DoNotCallNumbers(ctx, org.ID, numbers)
		if err != nil || len(listed) != 2 || !listed["+14155550123"] || !listed["+14155560999"] {
			t.Fatalf("suppressed: %v %v", listed, err)
		}
		if listed, err := db.DoNotCallNumbers(ctx, other.ID, numbers); err != nil || len(listed) != 0 {
			t.Fatalf("another team's list: %v %v", listed, err)
		}
		if err := db.DeleteDoNotCall(ctx, other.ID, e.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("delete another team's entry: %v", err)
		}
		if err := db.DeleteDoNotCall(ctx, org.ID, e.ID); err != nil {
			t.Fatal(err)
		}
	})
}

func pad3(i int) string {
	return string([]byte{byte('0' + i/100), byte('0' + i/10%10), byte('0' + i%10)})
}
func pad4(i int) string { return string(rune('0'+i/1000)) + pad3(i%1000) }

func TestEventsInOrderPerTeam(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		_, org := teamFixture(t, db, "owner@example.com")
		_, other := teamFixture(t, db, "other@example.com")
		start, err := db.LastEventPosition(ctx, org.ID)
		if err != nil || start != (store.EventPosition{}) {
			t.Fatalf("no events yet: %+v %v", start, err)
		}
		for i, typ := range []string{"call.updated", "inbox.updated", "call.updated"} {
			if err := db.InTx(ctx, func(ctx context.Context) error {
				if err := db.AddEvent(ctx, org.ID, typ, string(rune('a'+i))); err != nil {
					return err
				}
				return db.AddEvent(ctx, other.ID, typ, "other")
			}); err != nil {
				t.Fatal(err)
			}
		}
		// A rolled back event never shows.
		_ = db.InTx(ctx, func(ctx context.Context) error {
			if err := db.AddEvent(ctx, org.ID, "call.updated", "rolled back"); err != nil {
				return err
			}
			return errors.New("roll back")
		})
		evs, err := db.EventsAfter(ctx, org.ID, start, nil, 10)
		if err != nil || len(evs) != 3 || evs[0].EntityID != "a" || evs[2].EntityID != "c" {
			t.Fatalf("events: %+v %v", evs, err)
		}
		first := store.EventPosition{Tx: evs[0].Tx, ID: evs[0].ID}
		if rest, err := db.EventsAfter(ctx, org.ID, first, []string{"call.updated"}, 10); err != nil || len(rest) != 1 || rest[0].EntityID != "c" {
			t.Fatalf("after the first, calls only: %+v %v", rest, err)
		}
		last, err := db.LastEventPosition(ctx, org.ID)
		if err != nil || last != (store.EventPosition{Tx: evs[2].Tx, ID: evs[2].ID}) {
			t.Fatalf("last: %+v %v", last, err)
		}
		if kept, err := db.EventKept(ctx, org.ID, first, time.Now().Add(-time.Minute)); err != nil || !kept {
			t.Fatalf("kept: %v %v", kept, err)
		}
		if kept, err := db.EventKept(ctx, other.ID, first, time.Now().Add(-time.Minute)); err != nil || kept {
			t.Fatalf("kept for another team: %v %v", kept, err)
		}
		if n, err := db.PruneEvents(ctx, time.Now().Add(time.Minute)); err != nil || n != 6 {
			t.Fatalf("prune: %d %v", n, err)
		}
	})
}

// On PostgreSQL, event ids follow commit order, not insert order: a transaction that
// published first but commits last gets the larger id, so a reader that has passed the
// other's id still reads it.
func TestEventIdsFollowCommitOrder(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		if db.Dialect() != store.Postgres {
			t.Skip("SQLite has one writer: transactions cannot interleave")
		}
		ctx := context.Background()
		_, org := teamFixture(t, db, "owner@example.com")
		published, release, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
		go func() {
			done <- db.InTx(ctx, func(ctx context.Context) error {
				if err := db.AddEvent(ctx, org.ID, "call.updated", "first-inserted"); err != nil {
					return err
				}
				close(published)
				<-release
				return nil
			})
		}()
		<-published
		if err := db.InTx(ctx, func(ctx context.Context) error { return db.AddEvent(ctx, org.ID, "call.updated", "first-committed") }); err != nil {
			t.Fatal(err)
		}
		seen, err := db.EventsAfter(ctx, org.ID, store.EventPosition{}, nil, 10)
		if err != nil || len(seen) != 1 || seen[0].EntityID != "first-committed" {
			t.Fatalf("while the other is open: %+v %v", seen, err)
		}
		close(release)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		after, err := db.EventsAfter(ctx, org.ID, store.EventPosition{Tx: seen[0].Tx, ID: seen[0].ID}, nil, 10)
		if err != nil || len(after) != 1 || after[0].EntityID != "first-inserted" {
			t.Fatalf("after the reader's position: %+v %v", after, err)
		}
	})
}
