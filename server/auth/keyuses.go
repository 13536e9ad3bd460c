package auth

import (
	"context"
	"sync"
	"time"
)

// KeyUseInterval is how often at most a key's "last used" time is written: a key that
// authenticates a thousand requests a minute costs one write a minute.
const KeyUseInterval = time.Minute

// KeyUses records when API keys authenticate requests without writing on the request path:
// Record notes the time in memory, and Flush (every few seconds from Run, and once more at
// shutdown) writes the keys whose stored time is a minute old or more, in one transaction.
// Until then Last answers the time from memory, so a key's list shows its use at once.
// A read request therefore never writes; a crash loses at most the last flush interval of
// "last used" times, which are informational.
type KeyUses struct {
	write func(ctx context.Context, uses map[string]time.Time) error

	mu      sync.Mutex
	pending map[string]time.Time // used since the last flush, to be written
	written map[string]time.Time // when each key's use was last written (pruned after a minute)
}

// NewKeyUses answers a recorder that writes through write (store.DB.TouchAPIKeys).
func NewKeyUses(write func(ctx context.Context, uses map[string]time.Time) error) *KeyUses {
	return &KeyUses{write: write, pending: map[string]time.Time{}, written: map[string]time.Time{}}
}

// Record notes that key id authenticated a request at t. It never blocks on I/O.
func (u *KeyUses) Record(id string, t time.Time) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if w, ok := u.written[id]; ok && t.Sub(w) < KeyUseInterval {
		return
	}
	if p, ok := u.pending[id]; !ok || t.After(p) {
		u.pending[id] = t
	}
}

// Last answers the key's use recorded in memory and not written yet (ok false when there is
// none: the stored time is the latest).
func (u *KeyUses) Last(id string) (time.Time, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	t, ok := u.pending[id]
	return t, ok
}

// Flush writes the pending uses in one call; on failure they stay pending for the next flush.
func (u *KeyUses) Flush(ctx context.Context) error {
	u.mu.Lock()
	if len(u.pending) == 0 {
		u.mu.Unlock()
		return nil
	}
	batch := u.pending
	u.pending = map[string]time.Time{}
	u.mu.Unlock()

	err := u.write(ctx, batch)

	u.mu.Lock()
	defer u.mu.Unlock()
	if err != nil {
		for id, t := range batch {
			if p, ok := u.pending[id]; !ok || t.After(p) {
				u.pending[id] = t
			}
		}
		return err
	}
	var newest time.Time
	for id, t := range batch {
		u.written[id] = t
		if t.After(newest) {
			newest = t
		}
	}
	for id, t := range u.written {
		if newest.Sub(t) >= KeyUseInterval {
			delete(u.written, id)
		}
	}
	return nil
}

// Run flushes every interval until ctx ends, then once more (with its own short deadline) so
// a clean shutdown loses nothing. failed is told of each failed flush.
func (u *KeyUses) Run(ctx context.Context, interval time.Duration, failed func(error)) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			if err := u.Flush(ctx); err != nil && ctx.Err() == nil {
				failed(err)
			}
		case <-ctx.Done():
			fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			if err := u.Flush(fctx); err != nil {
				failed(err)
			}
			cancel()
			return
		}
	}
}
