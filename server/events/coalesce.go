package events

import "time"

// CoalesceEvery is how often a stream sends a call.updated of one call, or a job.updated of
// one job, at most (decision: a call's live transcript publishes an event per turn, and a run
// of 18 calls made 165 of them; a job publishes one at each of its calls' changes, and
// rendering it says why its contacts wait, which reads its queue. A client needs the entity
// as it is, not every step).
const CoalesceEvery = 250 * time.Millisecond

// Coalescer thins one stream's call.updated and job.updated events: at most one per call (or
// job) every Every. An
// event of a call sent less than Every ago is held, and a later one of the same call replaces
// it (the stream renders the call as it is when it sends, so the latest state wins); the held
// event goes out once Every has passed. An event the caller marks final (the call ended) is
// sent at once and drops what was held of that call. A call's events keep their order: at
// most one of them is held at a time, and it is sent before any later one. Other events pass.
// It is not safe for concurrent use: one per stream.
type Coalescer struct {
	Every time.Duration
	sent  map[string]time.Time // call → when its last event was sent
	held  map[string]Event     // call → its latest event not sent yet
}

// NewCoalescer returns a coalescer of call.updated and job.updated events every d.
func NewCoalescer(d time.Duration) *Coalescer {
	return &Coalescer{Every: d, sent: map[string]time.Time{}, held: map[string]Event{}}
}

// Offer answers whether ev is to be sent now (at now); if not, it is held for Due.
func (c *Coalescer) Offer(ev Event, final bool, now time.Time) bool {
	if ev.Type != CallUpdated && ev.Type != JobUpdated {
		return true
	}
	c.forget(now)
	id := ev.EntityID
	last, recent := c.sent[id]
	if final || !recent || now.Sub(last) >= c.Every {
		if _, waiting := c.held[id]; waiting && !final {
			// An older event of the call is held: this one replaces it and goes out when it
			// would have, so the call's order holds.
			c.held[id] = ev
			return false
		}
		delete(c.held, id)
		c.sent[id] = now
		return true
	}
	c.held[id] = ev
	return false
}

// Due answers the held events that may be sent at now, the earliest held first, and counts
// them as sent.
func (c *Coalescer) Due(now time.Time) []Event {
	var out []Event
	for id, ev := range c.held {
		if now.Sub(c.sent[id]) >= c.Every {
			out = append(out, ev)
		}
	}
	for _, ev := range out {
		delete(c.held, ev.EntityID)
		c.sent[ev.EntityID] = now
	}
	// Held events of different calls go out in the order they were recorded.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && before(out[j], out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// Next answers when the first held event is due (the zero time when none is held).
func (c *Coalescer) Next() time.Time {
	var next time.Time
	for id := range c.held {
		if t := c.sent[id].Add(c.Every); next.IsZero() || t.Before(next) {
			next = t
		}
	}
	return next
}

// forget drops what it keeps of calls with nothing held and nothing sent for Every.
func (c *Coalescer) forget(now time.Time) {
	if len(c.sent) < 1024 {
		return
	}
	for id, t := range c.sent {
		if _, waiting := c.held[id]; !waiting && now.Sub(t) >= c.Every {
			delete(c.sent, id)
		}
	}
}

// before says whether a was recorded before b (ids increase in commit order).
func before(a, b Event) bool {
	pa, _ := parseID(a.ID)
	pb, _ := parseID(b.ID)
	if pa.Tx != pb.Tx {
		return pa.Tx < pb.Tx
	}
	return pa.ID < pb.ID
}
