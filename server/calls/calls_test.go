package calls

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/events"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/runs"
	"github.com/bettyhq/betty/server/storage"
	"github.com/bettyhq/betty/server/store"
)

func team(t *testing.T, db *store.DB, email string) string {
	t.Helper()
	ctx := context.Background()
	u := store.User{Email: email}
	if err := db.CreateUser(ctx, &u); err != nil {
		t.Fatal(err)
	}
	o := store.Organization{Name: "Team of " + email, OwnerUserID: u.ID, PublicAPIKey: "pk_" + store.NewID()}
	if err := db.CreateOrganization(ctx, &o, u.Email); err != nil {
		t.Fatal(err)
	}
	return o.ID
}

func newService(t *testing.T, db *store.DB) *Service {
	files, err := storage.NewDisk(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return New(db, files, nil, events.New(db, nil))
}

func TestCallCloseIsOnceAndWhole(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		org := team(t, db, "owner@example.com")
		s := newService(t, db)
		opened := runs.CallOpened{OrganizationID: org, Direction: "outbound", From: "+14155550100", To: "+14155550123", AttemptID: "a1"}
		id, err := s.Open(ctx, opened)
		if err != nil {
			t.Fatal(err)
		}
		if again, err := s.Open(ctx, opened); err != nil || again != id {
			t.Fatalf("opening an attempt's call again: %s %v", again, err)
		}
		if err := s.Close(ctx, org, id, runs.CallClosed{Status: "ringing"}); err == nil {
			t.Fatal("closed with a status that is not final")
		}
		bad := runs.CallClosed{Status: "completed", Turns: []runs.Turn{{Speaker: "robot", Text: "beep"}}}
		if err := s.Close(ctx, org, id, bad); err == nil {
			t.Fatal("closed with a turn of an unknown speaker")
		}
		// A failing transaction leaves nothing half-written: no end, no turns, no inbox item.
		fail := errors.New("the dialer's transaction failed")
		err = db.InTx(ctx, func(ctx context.Context) error {
			if err := s.Close(ctx, org, id, runs.CallClosed{Status: "completed", Recording: []byte("mp3"),
				Turns: []runs.Turn{{Speaker: "agent", Text: "Hi"}}}); err != nil {
				return err
			}
			return fail
		})
		if !errors.Is(err, fail) {
			t.Fatal(err)
		}
		a := auth.Actor{Grant: auth.Grant{OrganizationID: org}}
		if l, err := s.Get(ctx, a, id); err != nil || l.EndTime != nil || l.RecordingUploadID != nil {
			t.Fatalf("after the rollback: %+v %v", l, err)
		}
		if _, n, err := s.Inbox(ctx, a, InboxQuery{Limit: 10}); err != nil || n != 0 {
			t.Fatalf("inbox after the rollback: %d %v", n, err)
		}
		for i := 0; i < 2; i++ {
			if err := s.Close(ctx, org, id, runs.CallClosed{Status: "completed", Priority: 250, Turns: []runs.Turn{{Speaker: "agent", Text: "Hi"}}}); err != nil {
				t.Fatal(err)
			}
		}
		items, n, err := s.Inbox(ctx, a, InboxQuery{Limit: 10})
		if err != nil || n != 1 || items[0].Priority != 100 || items[0].Title != "Call with +14155550123: completed" {
			t.Fatalf("inbox after closing twice: %+v %v", items, err)
		}
		if err := s.Progress(ctx, org, id, runs.CallProgress{Status: "ringing"}); err != nil {
			t.Fatal(err)
		}
		if l, _ := s.Get(ctx, a, id); l.Status != store.CallCompleted {
			t.Fatalf("late progress changed an ended call: %s", l.Status)
		}
		if err := s.Progress(ctx, org, id, runs.CallProgress{Status: "completed"}); err == nil {
			t.Fatal("progress to a final status")
		}
	})
}

func TestCallStatisticsCountDaysOfTheZoneAsked(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		org := team(t, db, "owner@example.com")
		s := newService(t, db)
		at := time.Date(2026, 3, 4, 23, 30, 0, 0, time.UTC) // 5 March in Paris
		s.now = func() time.Time { return at }
		for i := 0; i < 3; i++ {
			if _, err := s.Open(ctx, runs.CallOpened{OrganizationID: org, Direction: "inbound", From: "+14155550100", To: "+14155550123"}); err != nil {
				t.Fatal(err)
			}
		}
		a := auth.Actor{Grant: auth.Grant{OrganizationID: org}}
		utc, err := s.Statistics(ctx, a, nil, nil, "")
		if err != nil || utc.Total != 3 || len(utc.Days) != 7 || utc.Days[6].Count != 3 || utc.End.Format(time.DateOnly) != "2026-03-04" {
			t.Fatalf("UTC: %+v %v", utc, err)
		}
		paris, err := s.Statistics(ctx, a, nil, nil, "Europe/Paris")
		if err != nil || paris.End.Format(time.DateOnly) != "2026-03-05" || paris.Days[6].Count != 3 || paris.Days[5].Count != 0 {
			t.Fatalf("Paris: %+v %v", paris, err)
		}
		d := time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC)
		one, err := s.Statistics(ctx, a, &d, &d, "America/New_York")
		if err != nil || len(one.Days) != 1 || one.Total != 3 {
			t.Fatalf("one day in New York: %+v %v", one, err)
		}
	})
}

// The transcript is written as the call goes: what was said so far is there (and the call
// has a transcript) before the call ends; saying the same conversation again and closing
// with the whole of it add each turn once.
func TestLiveTranscriptAddsEachTurnOnce(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		org := team(t, db, "owner@example.com")
		s := newService(t, db)
		cc := "call-control-1"
		id, err := s.Open(ctx, runs.CallOpened{OrganizationID: org, Direction: "outbound", From: "+14155550100", To: "+14155550123", AttemptID: "a1"})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Progress(ctx, org, id, runs.CallProgress{CallControlID: cc, Status: "in-progress"}); err != nil {
			t.Fatal(err)
		}
		a := auth.Actor{Grant: auth.Grant{OrganizationID: org}}
		if _, err := s.Transcript(ctx, a, cc); err == nil {
			t.Fatal("a transcript before anything was said")
		}
		if err := s.Said(ctx, org, id, []runs.Turn{{Speaker: "robot", Text: "beep"}}); err == nil {
			t.Fatal("said by an unknown speaker")
		}
		hi := runs.Turn{Speaker: "agent", Text: "Hi Ada"}
		yes := runs.Turn{Speaker: "customer", Text: "Yes?", Offset: 2 * time.Second}
		bye := runs.Turn{Speaker: "agent", Text: "Goodbye", Offset: 4 * time.Second}
		for i := 0; i < 2; i++ {
			if err := s.Said(ctx, org, id, []runs.Turn{hi}); err != nil {
				t.Fatal(err)
			}
		}
		tr, err := s.Transcript(ctx, a, cc)
		if err != nil || len(tr.Turns) != 1 || tr.Turns[0].Text != "Hi Ada" || !tr.CallLog.HasTranscript || tr.CallLog.EndTime != nil {
			t.Fatalf("during the call: %+v %v", tr, err)
		}
		if err := s.Said(ctx, org, id, []runs.Turn{hi, yes}); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 2; i++ {
			if err := s.Close(ctx, org, id, runs.CallClosed{Status: "completed", Turns: []runs.Turn{hi, yes, bye}}); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Said(ctx, org, id, []runs.Turn{hi, yes, bye, bye}); err != nil {
			t.Fatal(err)
		}
		tr, err = s.Transcript(ctx, a, cc)
		if err != nil || len(tr.Turns) != 3 || tr.Turns[1].Text != "Yes?" || tr.Turns[1].OffsetMS != 2000 || tr.Turns[2].Text != "Goodbye" || !tr.CallLog.HasTranscript {
			t.Fatalf("after the call: %+v %v", tr.Turns, err)
		}
	})
}

// Webhooks come in any order: a recording attached before the hang-up closed the call stays
// when the call closes.
func TestRecordingBeforeTheCloseStays(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		org := team(t, db, "owner@example.com")
		s := newService(t, db)
		id, err := s.Open(ctx, runs.CallOpened{OrganizationID: org, Direction: "inbound", From: "+14155550100", To: "+14155550123", AttemptID: "a1"})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.AttachRecording(ctx, org, id, []byte("ID3 mp3")); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(ctx, org, id, runs.CallClosed{Status: "completed"}); err != nil {
			t.Fatal(err)
		}
		l, err := s.Get(ctx, auth.Actor{Grant: auth.Grant{OrganizationID: org}}, id)
		if err != nil || l.RecordingUploadID == nil || l.EndTime == nil {
			t.Fatalf("closed after its recording: %+v %v", l, err)
		}
	})
}
