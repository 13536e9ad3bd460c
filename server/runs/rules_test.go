package runs_test

import (
	"testing"
	"time"

	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/runs"
	"github.com/bettyhq/betty/server/store"
)

func TestWindow(t *testing.T) {
	ny, _ := time.LoadLocation("America/New_York")
	weekdays, err := runs.ParseWindow("09:00", "17:00", []string{"mon", "tue", "wed", "thu", "fri"})
	if err != nil {
		t.Fatal(err)
	}
	// Monday 2026-11-23.
	at := func(h, m int, loc *time.Location, day int) time.Time {
		return time.Date(2026, 11, day, h, m, 0, 0, loc)
	}
	for _, tc := range []struct {
		name string
		w    runs.Window
		now  time.Time
		loc  *time.Location
		ok   bool
		next time.Time
	}{
		{"default, inside", runs.DefaultWindow, at(12, 0, time.UTC, 23), time.UTC, true, time.Time{}},
		{"default, opens at 8", runs.DefaultWindow, at(7, 59, time.UTC, 23), time.UTC, false, at(8, 0, time.UTC, 23)},
		{"default, 21:00 is closed", runs.DefaultWindow, at(21, 0, time.UTC, 23), time.UTC, false, at(8, 0, time.UTC, 24)},
		{"the contact's zone: 13:00 UTC is 08:00 in New York", runs.DefaultWindow, at(13, 0, time.UTC, 23), ny, true, time.Time{}},
		{"the contact's zone: 12:59 UTC is 07:59 in New York", runs.DefaultWindow, at(12, 59, time.UTC, 23), ny, false, at(8, 0, ny, 23).UTC()},
		{"Friday evening waits for Monday", weekdays, at(18, 0, time.UTC, 27), time.UTC, false, at(9, 0, time.UTC, 30)},
		{"Saturday waits for Monday", weekdays, at(10, 0, time.UTC, 28), time.UTC, false, at(9, 0, time.UTC, 30)},
		{"never open", runs.Window{Start: 600, End: 600}, at(10, 0, time.UTC, 23), time.UTC, false, time.Time{}},
	} {
		ok, next := tc.w.NextOpen(tc.now, tc.loc)
		if ok != tc.ok || !next.Equal(tc.next) {
			t.Errorf("%s: %v %v, want %v %v", tc.name, ok, next, tc.ok, tc.next)
		}
	}
	if _, err := runs.ParseWindow("9", "17:00", nil); err == nil {
		t.Error("a bad time was read")
	}
	if _, err := runs.ParseWindow("09:00", "17:00", []string{"someday"}); err == nil {
		t.Error("a bad day was read")
	}
	bad := "Not/AZone"
	if runs.Location(&bad, ny) != ny || runs.Location(nil, nil) != time.UTC {
		t.Error("fallback zones")
	}
}

func TestConcurrencyLimit(t *testing.T) {
	for _, tc := range []struct {
		tier                  store.SubscriptionTier
		override, campaign, n int
	}{
		{store.TierFree, 0, 0, 2}, {store.Tier1, 0, 0, 5}, {store.Tier2, 0, 0, 10}, {store.Tier3, 0, 0, 20}, {store.Tier4, 0, 0, 100},
		{store.TierFree, 50, 0, 50},            // a site admin's override wins over the tier
		{store.Tier4, 0, 5, 5},                 // the campaign's own maximum lowers it
		{store.TierFree, 0, 10, 2},             // but never raises it
		{store.SubscriptionTier("x"), 0, 0, 2}, // unknown tiers are free
	} {
		if n := runs.ConcurrencyLimit(tc.tier, tc.override, tc.campaign); n != tc.n {
			t.Errorf("%s override %d campaign %d: %d, want %d", tc.tier, tc.override, tc.campaign, n, tc.n)
		}
	}
	for _, tc := range []struct{ live, limit, free int }{{0, 2, 2}, {1, 2, 1}, {2, 2, 0}, {5, 2, 0}} {
		if f := runs.FreeLines(tc.live, tc.limit); f != tc.free {
			t.Errorf("FreeLines(%d, %d) = %d", tc.live, tc.limit, f)
		}
	}
}

func TestFrequencyWait(t *testing.T) {
	first := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		count, cap int
		ok         bool
		next       time.Time
	}{
		{0, 3, true, time.Time{}}, {2, 3, true, time.Time{}}, {3, 3, false, first.Add(24 * time.Hour)}, {4, 3, false, first.Add(24 * time.Hour)},
	} {
		ok, next := runs.FrequencyWait(tc.count, tc.cap, first)
		if ok != tc.ok || !next.Equal(tc.next) {
			t.Errorf("%d of %d: %v %v", tc.count, tc.cap, ok, next)
		}
	}
}

func TestSpendCheck(t *testing.T) {
	budget := 1.0
	for _, tc := range []struct {
		name                 string
		balance, rate, spent float64
		budget               *float64
		stop                 bool
	}{
		{"covers a minute", 10, 0.27, 0, nil, false},
		{"exactly a minute", 0.27, 0.27, 0, nil, false},
		{"less than a minute", 0.26, 0.27, 0, nil, true},
		{"negative after a long call", -0.5, 0.27, 0, nil, true},
		{"under the budget", 10, 0.27, 0.5, &budget, false},
		{"the budget reached", 10, 0.27, 0.8, &budget, true},
	} {
		if got := runs.SpendCheck(tc.balance, tc.rate, tc.spent, tc.budget); (got != "") != tc.stop {
			t.Errorf("%s: %q", tc.name, got)
		}
	}
}

func TestAffordable(t *testing.T) {
	budget := 2.0
	for _, tc := range []struct {
		balance, rate, spent float64
		budget               *float64
		live, n              int
	}{
		{10, 1, 0, nil, 0, 10}, {10, 1, 0, nil, 4, 6}, {10, 1, 0, nil, 12, 0}, {0.5, 1, 0, nil, 0, 0},
		{10, 1, 0, &budget, 0, 2}, {10, 1, 1, &budget, 0, 1}, {10, 1, 1, &budget, 1, 0},
	} {
		if n := runs.Affordable(tc.balance, tc.rate, tc.spent, tc.budget, tc.live); n != tc.n {
			t.Errorf("%+v: %d", tc, n)
		}
	}
}

func TestBilledMinutesAndOutcome(t *testing.T) {
	a := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		answered *time.Time
		ended    time.Time
		min      int
	}{{nil, a.Add(time.Minute), 0}, {&a, a, 0}, {&a, a.Add(time.Second), 1}, {&a, a.Add(60 * time.Second), 1}, {&a, a.Add(61 * time.Second), 2}} {
		if m := runs.BilledMinutes(tc.answered, tc.ended); m != tc.min {
			t.Errorf("%v → %v: %d minutes, want %d", tc.answered, tc.ended, m, tc.min)
		}
	}
	for _, tc := range []struct {
		answered, machine bool
		cause             phones.HangupCause
		want              store.AttemptState
	}{
		{true, false, phones.HangupNormal, store.AttemptCompleted}, {true, true, phones.HangupNormal, store.AttemptVoicemail},
		{false, false, phones.HangupBusy, store.AttemptBusy}, {false, false, phones.HangupNoAnswer, store.AttemptNoAnswer},
		{false, false, phones.HangupRejected, store.AttemptFailed}, {false, false, phones.HangupFailed, store.AttemptFailed},
	} {
		if got := runs.Outcome(tc.answered, tc.machine, tc.cause); got != tc.want {
			t.Errorf("%v %v %s: %s, want %s", tc.answered, tc.machine, tc.cause, got, tc.want)
		}
	}
}

func TestRetry(t *testing.T) {
	ended := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		state  store.AttemptState
		n, max int
		retry  bool
	}{
		{store.AttemptBusy, 1, 3, true}, {store.AttemptNoAnswer, 2, 3, true}, {store.AttemptVoicemail, 1, 2, true},
		{store.AttemptBusy, 3, 3, false}, {store.AttemptCompleted, 1, 3, false}, {store.AttemptFailed, 1, 3, false},
		{store.AttemptSuppress, 1, 3, false},
	} {
		retry, at := runs.Retry(tc.state, tc.n, tc.max, time.Hour, ended)
		if retry != tc.retry || (retry && !at.Equal(ended.Add(time.Hour))) {
			t.Errorf("%s %d/%d: %v %v", tc.state, tc.n, tc.max, retry, at)
		}
	}
}

func TestPacer(t *testing.T) {
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	p := runs.NewPacer(1, 2)
	if ok, _ := p.Take("+1", now); !ok {
		t.Fatal("first call from +1")
	}
	ok, wait := p.Take("+1", now)
	if ok || wait != time.Second {
		t.Fatalf("second call from +1 in the same instant: %v %v", ok, wait)
	}
	if ok, _ := p.Take("+2", now); !ok {
		t.Fatal("first call from +2")
	}
	// The account's 2 a second are used: +3 waits though its own bucket is full, and its token
	// is not spent by the refusal.
	if ok, _ := p.Take("+3", now); ok {
		t.Fatal("a third call in the same second passed the account's limit")
	}
	if ok, _ := p.Take("+3", now.Add(500*time.Millisecond)); !ok {
		t.Fatal("+3 after half a second (the account refilled one)")
	}
	if ok, _ := p.Take("+1", now.Add(time.Second)); !ok {
		t.Fatal("+1 a second later")
	}
	// Over time the rate holds: 10 seconds give +9 at most 10 calls.
	n := 0
	for i := 0; i < 1000; i++ {
		if ok, _ := p.Take("+9", now.Add(2*time.Second+time.Duration(i)*10*time.Millisecond)); ok {
			n++
		}
	}
	if n < 9 || n > 11 {
		t.Fatalf("%d calls from +9 in 10 s at 1 CPS", n)
	}
}

// The same call reads with the same word in the call logs and on its contact: every final
// attempt state gives one word to both, except a cancelled call, whose contact waits again.
func TestCallLogAndContactAgree(t *testing.T) {
	for _, s := range []store.AttemptState{store.AttemptCompleted, store.AttemptVoicemail, store.AttemptBusy, store.AttemptNoAnswer, store.AttemptFailed, store.AttemptCancelled} {
		call, contact := runs.CallLogStatus(s), string(runs.ContactStatus(s))
		switch {
		case s == store.AttemptCancelled && (call != "cancelled" || contact != "pending"):
			t.Errorf("cancelled: call %q, contact %q", call, contact)
		case s != store.AttemptCancelled && call != contact:
			t.Errorf("%s: call %q, contact %q", s, call, contact)
		}
	}
}
