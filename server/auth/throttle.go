package auth

import (
	"math"
	"sync"
	"time"
)

// Throttle slows down guessing: after FreeFailures failed sign-ins for a key (an account or
// an address) within Window, further attempts wait, doubling from one second up to Window.
// Kept in memory: each replica throttles on its own, which still bounds guessing.
type Throttle struct {
	FreeFailures int
	Window       time.Duration
	now          func() time.Time

	mu    sync.Mutex
	state map[string]*failures
}

type failures struct {
	count int
	first time.Time
	until time.Time
}

// NewThrottle returns a throttle allowing free failures per window.
func NewThrottle(free int, window time.Duration) *Throttle {
	return &Throttle{FreeFailures: free, Window: window, now: time.Now, state: map[string]*failures{}}
}

// Wait returns how long the caller must wait before trying any of keys again (0: go ahead).
func (t *Throttle) Wait(keys ...string) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	var wait time.Duration
	for _, k := range keys {
		if f := t.state[k]; f != nil && f.until.After(now) && f.until.Sub(now) > wait {
			wait = f.until.Sub(now)
		}
	}
	return wait
}

// Fail records a failed attempt for every key.
func (t *Throttle) Fail(keys ...string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	for k, f := range t.state { // forget old entries so the map stays small
		if now.Sub(f.first) > t.Window && now.After(f.until) {
			delete(t.state, k)
		}
	}
	for _, k := range keys {
		f := t.state[k]
		if f == nil || now.Sub(f.first) > t.Window {
			f = &failures{first: now}
			t.state[k] = f
		}
		f.count++
		if over := f.count - t.FreeFailures + 1; over > 0 {
			d := time.Duration(math.Min(float64(time.Second)*math.Pow(2, float64(over-1)), float64(t.Window)))
			f.until = now.Add(d)
		}
	}
}

// Succeed forgets the failures of keys.
func (t *Throttle) Succeed(keys ...string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, k := range keys {
		delete(t.state, k)
	}
}
