package auth

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

type writes struct {
	mu    sync.Mutex
	calls []map[string]time.Time
	fail  error
}

func (w *writes) write(_ context.Context, uses map[string]time.Time) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fail != nil {
		return w.fail
	}
	copied := map[string]time.Time{}
	for k, v := range uses {
		copied[k] = v
	}
	w.calls = append(w.calls, copied)
	return nil
}

func TestKeyUsesWriteEachKeyAtMostOnceAMinute(t *testing.T) {
	ctx := context.Background()
	w := &writes{}
	u := NewKeyUses(w.write)
	t0 := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)

	// A thousand uses of two keys in the first 30 s: nothing is written until a flush, and the
	// flush writes each key once, at its latest use.
	for i := range 1000 {
		u.Record("a", t0.Add(time.Duration(i)*30*time.Millisecond))
		u.Record("b", t0.Add(time.Second))
	}
	if len(w.calls) != 0 {
		t.Fatal("Record wrote")
	}
	if last, ok := u.Last("a"); !ok || !last.Equal(t0.Add(999*30*time.Millisecond)) {
		t.Fatalf("Last(a) = %v %v", last, ok)
	}
	if err := u.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if len(w.calls) != 1 || len(w.calls[0]) != 2 || !w.calls[0]["a"].Equal(t0.Add(999*30*time.Millisecond)) {
		t.Fatalf("first flush: %v", w.calls)
	}
	if _, ok := u.Last("a"); ok {
		t.Fatal("a written use is still pending")
	}

	// Within the minute after a write, uses are not written again; after it, they are.
	u.Record("a", t0.Add(50*time.Second))
	if err := u.Flush(ctx); err != nil || len(w.calls) != 1 {
		t.Fatalf("a use within the minute was written: %v %v", err, w.calls)
	}
	u.Record("a", t0.Add(90*time.Second))
	if err := u.Flush(ctx); err != nil || len(w.calls) != 2 || len(w.calls[1]) != 1 || !w.calls[1]["a"].Equal(t0.Add(90*time.Second)) {
		t.Fatalf("a use a minute later: %v %v", err, w.calls)
	}
	// An empty flush writes nothing.
	if err := u.Flush(ctx); err != nil || len(w.calls) != 2 {
		t.Fatalf("empty flush: %v %v", err, w.calls)
	}
}

func TestKeyUsesKeepWhatAFailedFlushHeld(t *testing.T) {
	ctx := context.Background()
	w := &writes{fail: errors.New("database is locked")}
	u := NewKeyUses(w.write)
	t0 := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	u.Record("a", t0)
	if err := u.Flush(ctx); err == nil {
		t.Fatal("the failure was not reported")
	}
	u.Record("a", t0.Add(-time.Second)) // an older use never replaces a newer one
	if last, ok := u.Last("a"); !ok || !last.Equal(t0) {
		t.Fatalf("after a failed flush Last(a) = %v %v", last, ok)
	}
	w.fail = nil
	if err := u.Flush(ctx); err != nil || len(w.calls) != 1 || !w.calls[0]["a"].Equal(t0) {
		t.Fatalf("retry: %v %v", err, w.calls)
	}
}

func TestKeyUsesRunFlushesOnceMoreWhenStopped(t *testing.T) {
	w := &writes{}
	u := NewKeyUses(w.write)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		u.Run(ctx, time.Hour, func(err error) { t.Errorf("flush failed: %v", err) })
	}()
	u.Record("a", time.Now())
	cancel()
	<-done
	if len(w.calls) != 1 || len(w.calls[0]) != 1 {
		t.Fatalf("the last flush at stop: %v", w.calls)
	}
}
