package runs_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/runs"
	"github.com/bettyhq/betty/server/store"
)

var chicago, _ = time.LoadLocation("America/Chicago")

func campaignWindow(t *testing.T) runs.Window {
	t.Helper()
	w, err := runs.ParseWindow("09:00", "17:00", []string{"mon", "tue", "wed", "thu", "fri"})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// queued is n first attempts of contacts in zone tz (nil: the campaign's), due at due.
func queued(n int, tz *string, due time.Time) []runs.Queued {
	out := make([]runs.Queued, n)
	for i := range out {
		out[i] = runs.Queued{Phone: fmt.Sprintf("+1415555%04d", i), TimeZone: tz, Attempt: 1, DueAt: due}
	}
	return out
}

// open is a WaitInput with every rule letting calls through, at now.
func open(now time.Time, q []runs.Queued) runs.WaitInput {
	return runs.WaitInput{Now: now, Window: runs.DefaultWindow, IgnoreWindow: true, Fallback: time.UTC, FreeLines: 100, Limit: 100,
		Affordable: 100, FrequencyCap: 3, Queued: q}
}

func onlyReason(t *testing.T, got []runs.Waiting, want runs.WaitReason, n int) runs.Waiting {
	t.Helper()
	if len(got) != 1 || got[0].Reason != want || got[0].Contacts != n {
		t.Fatalf("want %d waiting for %s, got %+v", n, want, got)
	}
	return got[0]
}

func TestWaitingForTheWindowOnASaturday(t *testing.T) {
	// Saturday 2026-12-05, 02:30 in Chicago: the campaign's window opens Monday 09:00.
	now := time.Date(2026, 12, 5, 2, 30, 0, 0, chicago)
	tz := "America/Chicago"
	in := open(now, queued(12, &tz, now))
	in.IgnoreWindow, in.Window = false, campaignWindow(t)
	w := onlyReason(t, runs.WaitingOf(in), runs.WaitCallingWindow, 12)
	if want := "12 contacts wait for their calling window; the next opens Mon 09:00 America/Chicago (in 2 d 6 h)"; w.Message != want {
		t.Fatalf("message %q, want %q", w.Message, want)
	}
	if w.Until == nil || !w.Until.Equal(time.Date(2026, 12, 7, 9, 0, 0, 0, chicago)) || w.TimeZone != tz {
		t.Fatalf("until %v %q", w.Until, w.TimeZone)
	}
	// One contact, at 14:02: "waits", and the duration is cut down.
	in.Now, in.Queued = time.Date(2026, 12, 5, 14, 2, 0, 0, chicago), in.Queued[:1]
	w = onlyReason(t, runs.WaitingOf(in), runs.WaitCallingWindow, 1)
	if want := "1 contact waits for their calling window; the next opens Mon 09:00 America/Chicago (in 1 d 18 h)"; w.Message != want {
		t.Fatalf("message %q", w.Message)
	}
	// Inside the window nobody waits.
	in.Now = time.Date(2026, 12, 7, 10, 0, 0, 0, chicago)
	if got := runs.WaitingOf(in); len(got) != 0 {
		t.Fatalf("inside the window: %+v", got)
	}
}

func TestWaitingAcrossTimeZonesGivesTheFirstToOpen(t *testing.T) {
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC) // Saturday
	la, ny, none := "America/Los_Angeles", "America/New_York", (*string)(nil)
	q := append(append(queued(2, &la, now), queued(3, &ny, now)...), queued(1, none, now)...)
	in := open(now, q)
	in.IgnoreWindow, in.Window, in.Fallback = false, campaignWindow(t), chicago
	w := onlyReason(t, runs.WaitingOf(in), runs.WaitCallingWindow, 6)
	nyLoc, _ := time.LoadLocation(ny)
	if w.TimeZone != ny || !w.Until.Equal(time.Date(2026, 12, 7, 9, 0, 0, 0, nyLoc)) {
		t.Fatalf("the first to open is New York's: %v %q", w.Until, w.TimeZone)
	}
	if !strings.Contains(w.Message, "6 contacts wait") || !strings.Contains(w.Message, "Mon 09:00 America/New_York (in 2 d 2 h)") {
		t.Fatalf("message %q", w.Message)
	}
}

func TestWaitingForAFreeLine(t *testing.T) {
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	in := open(now, queued(8, nil, now))
	in.FreeLines, in.Limit = 3, 5
	w := onlyReason(t, runs.WaitingOf(in), runs.WaitConcurrency, 5)
	if w.Until != nil || w.Message != "5 contacts wait for a free line: the limit of 5 calls at once is reached" {
		t.Fatalf("%+v", w)
	}
	in.FreeLines = 8
	if got := runs.WaitingOf(in); len(got) != 0 {
		t.Fatalf("lines for all: %+v", got)
	}
}

func TestWaitingForTheFrequencyCap(t *testing.T) {
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	q := queued(2, nil, now)
	in := open(now, q)
	first := now.Add(-20 * time.Hour)
	in.Dials, in.FirstDial = map[string]int{q[0].Phone: 3, q[1].Phone: 2}, map[string]time.Time{q[0].Phone: first, q[1].Phone: first}
	w := onlyReason(t, runs.WaitingOf(in), runs.WaitFrequencyCap, 1)
	if !w.Until.Equal(first.Add(24*time.Hour)) || w.TimeZone != "UTC" ||
		w.Message != "1 contact waits because their number was called 3 times in 24 hours (the frequency cap); the next may be called Mon 16:00 UTC (in 4 h 0 m)" {
		t.Fatalf("%+v", w)
	}
	// A test run is not capped.
	in.IsTest = true
	if got := runs.WaitingOf(in); len(got) != 0 {
		t.Fatalf("test run: %+v", got)
	}
}

func TestWaitingForAPausedCampaignAndForCredits(t *testing.T) {
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	in := open(now, queued(18, nil, now))
	in.CampaignPaused = true
	w := onlyReason(t, runs.WaitingOf(in), runs.WaitCampaignPaused, 18)
	if w.Message != "18 contacts wait because the campaign is paused; they are called once it is resumed" {
		t.Fatalf("%q", w.Message)
	}
	in.CampaignPaused = false
	in.Credits = runs.SpendCheck(0, 0.1, 0, nil)
	w = onlyReason(t, runs.WaitingOf(in), runs.WaitCredits, 18)
	if !strings.HasPrefix(w.Message, "18 contacts wait for credits: The team's credit balance (0.00)") {
		t.Fatalf("%q", w.Message)
	}
	// Credits for two calls only: the rest wait for credits, not for a line.
	in.Credits, in.Affordable = "", 2
	onlyReason(t, runs.WaitingOf(in), runs.WaitCredits, 16)
}

func TestWaitingForARetry(t *testing.T) {
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	q := queued(3, nil, now)
	q[0].Attempt, q[0].DueAt = 2, now.Add(25*time.Minute)
	q[1].Attempt, q[1].DueAt = 3, now.Add(time.Hour)
	w := onlyReason(t, runs.WaitingOf(open(now, q)), runs.WaitRetry, 2)
	if !w.Until.Equal(now.Add(25*time.Minute)) || w.Message != "2 contacts wait to be tried again; the next retry is due Mon 12:25 UTC (in 25 m)" {
		t.Fatalf("%+v", w)
	}
}

func TestWaitingReasonsComeInTheDialersOrder(t *testing.T) {
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC) // Saturday
	q := queued(4, nil, now)
	q[3].Attempt, q[3].DueAt = 2, now.Add(time.Hour)
	in := open(now, q)
	in.Window, in.IgnoreWindow = runs.Window{Start: 0, End: 24 * 60, Days: []time.Weekday{time.Saturday}}, false
	in.Dials, in.FirstDial = map[string]int{q[0].Phone: 5}, map[string]time.Time{q[0].Phone: now}
	in.FreeLines = 1
	got := runs.WaitingOf(in)
	var reasons []string
	for _, w := range got {
		reasons = append(reasons, fmt.Sprintf("%s:%d", w.Reason, w.Contacts))
	}
	if strings.Join(reasons, " ") != "frequency-cap:1 retry:1 concurrency:1" {
		t.Fatalf("%v", reasons)
	}
}

func TestInDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		54*time.Hour + 30*time.Minute: "2 d 6 h", 3*time.Hour + 5*time.Minute: "3 h 5 m", 25 * time.Minute: "25 m",
		40 * time.Second: "40 s", -time.Second: "0 s",
	} {
		if got := runs.InDuration(d); got != want {
			t.Fatalf("%v: %q, want %q", d, got, want)
		}
	}
}

// A change to the campaign's window applies to the attempts of its running job not dialled
// yet: outside the old window they wait, and the new one lets them through at the next round.
func TestACampaignsNewWindowAppliesToItsRunningJob(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		day := time.Now().UTC().AddDate(0, 0, 2).Weekday().String()[:3]
		closed := fmt.Sprintf(`{"callWindow":{"start":"00:00","end":"24:00","days":[%q]},"timezone":"UTC","retryAttempts":0,"retryDelayMinutes":0,"maxConcurrentCalls":5}`, day)
		tm := newTeam(t, db, 1000, closed)
		tz := "UTC"
		addContacts(t, db, tm, []string{"+14155550001", "+14155550002"}, &tz)
		calls := newFakeCalls(func(string, int) phones.Outcome { return phones.OutcomeAnswer })
		h := newHarness(t, db, calls, fast)
		j, err := h.svc.Start(ctx, tm.actor(), tm.workflow.ID, nil)
		must(t, err)
		if _, done, err := h.svc.Dispatch(ctx, j.ID); err != nil || done {
			t.Fatalf("outside the window: %v %v", done, err)
		}
		row, err := db.WorkflowJobByID(ctx, tm.org.ID, j.ID)
		must(t, err)
		ws, err := h.svc.Waiting(ctx, row)
		must(t, err)
		if len(ws) != 1 || ws[0].Reason != runs.WaitCallingWindow || ws[0].Contacts != 2 || ws[0].Until == nil {
			t.Fatalf("waiting: %+v", ws)
		}
		// The campaign is paused: its contacts wait for it, whatever the window.
		tm.campaign.Status = store.CampaignPaused
		must(t, db.UpdateCampaign(ctx, &tm.campaign))
		ws, err = h.svc.Waiting(ctx, row)
		must(t, err)
		if len(ws) != 1 || ws[0].Reason != runs.WaitCampaignPaused {
			t.Fatalf("paused: %+v", ws)
		}
		// Resumed, and open every day now: the waiting attempts are called.
		tm.campaign.Status, tm.campaign.Settings = store.CampaignActive, alwaysOpen
		must(t, db.UpdateCampaign(ctx, &tm.campaign))
		ws, err = h.svc.Waiting(ctx, row)
		must(t, err)
		if len(ws) != 0 {
			t.Fatalf("after the change: %+v", ws)
		}
		h.drive(t, j.ID, 10*time.Second)
		if calls.placedTo("+14155550001") != 1 || calls.placedTo("+14155550002") != 1 {
			t.Fatalf("placed %d %d", calls.placedTo("+14155550001"), calls.placedTo("+14155550002"))
		}
	})
}

func TestWindowForPeople(t *testing.T) {
	for _, tc := range []struct {
		days []string
		want string
	}{
		{[]string{"mon", "tue", "wed", "thu", "fri"}, "Mon–Fri 09:00–17:00"},
		{nil, "every day 09:00–17:00"},
		{[]string{"sat", "mon", "sun", "wed"}, "Mon, Wed, Sat–Sun 09:00–17:00"},
	} {
		w, err := runs.ParseWindow("09:00", "17:00", tc.days)
		if err != nil {
			t.Fatal(err)
		}
		if got := w.String(); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.days, got, tc.want)
		}
	}
}
