package events

import (
	"context"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/store"
)

func TestEventIDsRoundTrip(t *testing.T) {
	for _, p := range []store.EventPosition{{ID: 1}, {ID: 42}, {Tx: 7781, ID: 42}} {
		if got, ok := parseID(formatID(p)); !ok || got != p {
			t.Fatalf("%+v → %q → %+v %v", p, formatID(p), got, ok)
		}
	}
	for _, bad := range []string{"", "x", "-1", "1-", "0", "1-2-3", "9999999999999999999999"} {
		if _, ok := parseID(bad); ok {
			t.Fatalf("%q parsed", bad)
		}
	}
}

func TestEventResumeReplaysOrResets(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		clock := time.Now()
		s := New(db, nil, WithClock(func() time.Time { return clock }))
		publish := func(n int) {
			if err := db.InTx(ctx, func(ctx context.Context) error {
				for i := 0; i < n; i++ {
					if err := s.Publish(ctx, "org", CallUpdated, "c"); err != nil {
						return err
					}
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		}
		publish(1)
		c, reset, err := s.Open(ctx, "org", "", nil)
		if err != nil || reset || c.Position() == "" {
			t.Fatalf("a new stream: %+v %v %v", c, reset, err)
		}
		mark := c.Position()
		publish(3)
		if c, reset, err = s.Open(ctx, "org", mark, nil); err != nil || reset {
			t.Fatalf("resume: %v %v", reset, err)
		}
		evs, _, err := s.Next(ctx, c)
		if err != nil || len(evs) != 3 {
			t.Fatalf("replayed: %d %v", len(evs), err)
		}
		// More than MaxReplay missed events: a reset.
		publish(MaxReplay)
		if _, reset, err = s.Open(ctx, "org", mark, nil); err != nil || !reset {
			t.Fatalf("resume past MaxReplay: %v %v", reset, err)
		}
		// An event older than Retention is pruned and cannot be resumed from.
		last := evs[2].ID
		clock = clock.Add(Retention + time.Minute)
		if n, err := s.Prune(ctx); err != nil || n != MaxReplay+4 {
			t.Fatalf("prune: %d %v", n, err)
		}
		if _, reset, err = s.Open(ctx, "org", last, nil); err != nil || !reset {
			t.Fatalf("resume after the prune: %v %v", reset, err)
		}
	})
}
