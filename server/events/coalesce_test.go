package events

import (
	"fmt"
	"strconv"
	"testing"
	"time"
)

// A burst: 18 calls, each with 9 updates 20 ms apart and a final one, and their job updated at
// each step. At most one event per call (and per job) every 250 ms, the latest state held, the
// end always sent, each one's events in order; the job's last state is the last sent of it.
func TestCoalescerThinsABurst(t *testing.T) {
	c := NewCoalescer(CoalesceEvery)
	start := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	seq := 0
	type sent struct {
		ev Event
		at time.Time
	}
	var out []sent
	emit := func(evs []Event, at time.Time) {
		for _, ev := range evs {
			out = append(out, sent{ev, at})
		}
	}
	now := start
	for step := 0; step < 10; step++ {
		for call := 0; call < 18; call++ {
			seq++
			ev := Event{ID: strconv.Itoa(seq), Type: CallUpdated, EntityID: fmt.Sprintf("call-%d", call)}
			if c.Offer(ev, step == 9, now) {
				emit([]Event{ev}, now)
			}
		}
		seq++
		job := Event{ID: strconv.Itoa(seq), Type: JobUpdated, EntityID: "job"}
		if c.Offer(job, false, now) {
			emit([]Event{job}, now)
		}
		now = now.Add(20 * time.Millisecond)
		emit(c.Due(now), now)
	}
	for !c.Next().IsZero() {
		now = c.Next()
		emit(c.Due(now), now)
	}
	perCall := map[string][]sent{}
	for _, s := range out {
		perCall[s.ev.EntityID] = append(perCall[s.ev.EntityID], s)
	}
	if len(out) > 19*3 {
		t.Errorf("%d events sent for 18 calls and their job, 10 updates each in 200 ms", len(out))
	}
	if n := len(perCall["job"]); n != 2 {
		t.Errorf("the job was sent %d times, not its first state and its last", n)
	}
	for call, ss := range perCall {
		for i := 1; i < len(ss); i++ {
			if ss[i].at.Sub(ss[i-1].at) < CoalesceEvery && i != len(ss)-1 {
				t.Errorf("%s: two events %s apart", call, ss[i].at.Sub(ss[i-1].at))
			}
			if !before(ss[i-1].ev, ss[i].ev) {
				t.Errorf("%s: out of order: %s then %s", call, ss[i-1].ev.ID, ss[i].ev.ID)
			}
		}
		if last := ss[len(ss)-1].ev; last.ID == "" || !finalOfBurst(last) {
			t.Errorf("%s: the last event sent is %s, not the call's end", call, last.ID)
		}
	}
	if len(perCall) != 19 {
		t.Errorf("%d calls heard of", len(perCall))
	}
}

// finalOfBurst says whether ev is the final update of its call in the burst above (step 9).
func finalOfBurst(ev Event) bool {
	n, _ := strconv.Atoi(ev.ID)
	return n > 9*19
}

// An event held is replaced by a later one of its call, and goes out when due.
func TestCoalescerKeepsTheLatest(t *testing.T) {
	c := NewCoalescer(time.Second)
	t0 := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	ev := func(id string) Event { return Event{ID: id, Type: CallUpdated, EntityID: "c"} }
	if !c.Offer(ev("1"), false, t0) || c.Offer(ev("2"), false, t0.Add(100*time.Millisecond)) || c.Offer(ev("3"), false, t0.Add(200*time.Millisecond)) {
		t.Fatal("the first goes, the next two are held")
	}
	if got := c.Due(t0.Add(500 * time.Millisecond)); len(got) != 0 {
		t.Fatalf("due early: %v", got)
	}
	if !c.Next().Equal(t0.Add(time.Second)) {
		t.Fatalf("next %v", c.Next())
	}
	// Past the interval, a newer event does not overtake the one held: it replaces it.
	if c.Offer(ev("4"), false, t0.Add(1100*time.Millisecond)) {
		t.Fatal("sent ahead of the held one")
	}
	if got := c.Due(t0.Add(1100 * time.Millisecond)); len(got) != 1 || got[0].ID != "4" {
		t.Fatalf("due: %v", got)
	}
	// The end goes at once and drops what was held.
	c.Offer(ev("5"), false, t0.Add(1200*time.Millisecond))
	if !c.Offer(ev("6"), true, t0.Add(1300*time.Millisecond)) || !c.Next().IsZero() {
		t.Fatal("the end is held")
	}
}
