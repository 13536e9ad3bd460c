package shopify_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/integrations/shopify"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/store"
)

// A client address gets PerClientPerHour requests an hour, whatever they ask; the next is 429
// with Retry-After until its oldest request is an hour old. An IPv6 client counts by its /64.
func TestPerClientLimit(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := newClock()
		svc := shopify.New(db, &fakeRuns{}, fakeDNC{}, shopify.Options{Now: c.now})
		_, key := storefront(t, db, true)
		for i := 0; i < shopify.PerClientPerHour; i++ {
			// Refused requests count too (an unknown key here), so probing is limited as well.
			k := key
			if i == 0 {
				k = "betty_pk_wrong"
			}
			if _, err := svc.BookCall(ctx, request(k, fmt.Sprintf("+1415555%04d", i), "203.0.113.7")); err != nil && i > 0 {
				t.Fatal(err)
			}
			c.advance(time.Minute)
		}
		_, err := svc.BookCall(ctx, request(key, "+14155559999", "203.0.113.7"))
		e := wantErr(t, err, errs.TooManyRequests, "too many times", "")
		if e.RetryAfter != 55*time.Minute {
			t.Fatalf("Retry-After %s, want 55m (the oldest request leaves the hour)", e.RetryAfter)
		}
		// Another address is not slowed down.
		if _, err := svc.BookCall(ctx, request(key, "+14155559999", "203.0.113.8")); err != nil {
			t.Fatal(err)
		}
		// Once the oldest request is an hour old, one more gets through.
		c.advance(55 * time.Minute)
		if _, err := svc.BookCall(ctx, request(key, "+14155559998", "203.0.113.7")); err != nil {
			t.Fatal(err)
		}

		for i := 0; i < shopify.PerClientPerHour; i++ {
			_, _ = svc.BookCall(ctx, request("betty_pk_wrong", "+14155550000", fmt.Sprintf("2001:db8:1:2::%x", i+1)))
		}
		_, err = svc.BookCall(ctx, request(key, "+14155550000", "2001:db8:1:2:ffff::1"))
		wantErr(t, err, errs.TooManyRequests, "too many times", "")
	})
}

// A number is booked PerNumberPerDay times in 24 hours, across teams.
func TestPerNumberLimit(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := newClock()
		svc := shopify.New(db, &fakeRuns{}, fakeDNC{}, shopify.Options{Now: c.now})
		_, a := storefront(t, db, true)
		_, b := storefront(t, db, true)
		for i, key := range []string{a, b} {
			if _, err := svc.BookCall(ctx, request(key, "+14155550123", fmt.Sprintf("203.0.113.%d", i+1))); err != nil {
				t.Fatal(err)
			}
			c.advance(time.Hour)
		}
		_, err := svc.BookCall(ctx, request(a, "+1 415 555 0123", "203.0.113.9"))
		e := wantErr(t, err, errs.TooManyRequests, "already been booked", "")
		if e.RetryAfter != 22*time.Hour {
			t.Fatalf("Retry-After %s, want 22h", e.RetryAfter)
		}
		c.advance(22 * time.Hour)
		if _, err := svc.BookCall(ctx, request(a, "+14155550123", "203.0.113.10")); err != nil {
			t.Fatal(err)
		}
	})
}

// A team's storefront books PerTeamPerDay calls in 24 hours; another team is not affected.
func TestPerTeamLimit(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := newClock()
		svc := shopify.New(db, &fakeRuns{}, fakeDNC{}, shopify.Options{Now: c.now})
		o, key := storefront(t, db, true)
		_, other := storefront(t, db, true)
		// The day's bookings so far, written as the service writes them.
		for i := 0; i < shopify.PerTeamPerDay; i++ {
			at := c.now().Add(-time.Duration(shopify.PerTeamPerDay-i) * time.Minute)
			must(t, db.CreateCallBooking(ctx, &store.CallBooking{OrganizationID: o.ID, WorkflowID: "w", JobID: "j",
				PhoneNumber: fmt.Sprintf("+1415555%04d", i), ConsentText: "ok", ClientIP: "192.0.2.1", ConsentGivenAt: at, CreatedAt: at}))
		}
		_, err := svc.BookCall(ctx, request(key, "+14155559000", "203.0.113.1"))
		e := wantErr(t, err, errs.TooManyRequests, "more call requests today", "")
		if e.RetryAfter != 24*time.Hour-100*time.Minute {
			t.Fatalf("Retry-After %s", e.RetryAfter)
		}
		if _, err := svc.BookCall(ctx, request(other, "+14155559000", "203.0.113.2")); err != nil {
			t.Fatal(err)
		}
	})
}

// The limits are counted in the database: two services (two replicas) on one database share
// them, even racing.
func TestLimitsHoldAcrossInstances(t *testing.T) {
	for _, d := range testdb.Dialects() {
		t.Run(string(d), func(t *testing.T) {
			opts := testdb.Options(t, d)
			var dbs [2]*store.DB
			for i := range dbs {
				db, err := store.Open(context.Background(), opts)
				must(t, err)
				t.Cleanup(func() { db.Close() })
				dbs[i] = db
			}
			_, err := dbs[0].Migrate(context.Background())
			must(t, err)
			ctx := context.Background()
			_, key := storefront(t, dbs[0], true)
			r := &fakeRuns{}
			svcs := [2]*shopify.Service{shopify.New(dbs[0], r, fakeDNC{}, shopify.Options{}), shopify.New(dbs[1], r, fakeDNC{}, shopify.Options{})}

			// One client, twelve requests at once on two replicas: five pass.
			var wg sync.WaitGroup
			var mu sync.Mutex
			ok, limited := 0, 0
			for i := 0; i < 12; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, err := svcs[i%2].BookCall(ctx, request(key, fmt.Sprintf("+1415555%04d", i), "203.0.113.50"))
					mu.Lock()
					defer mu.Unlock()
					switch {
					case err == nil:
						ok++
					case errs.Is(err, errs.TooManyRequests):
						limited++
					default:
						t.Error(err)
					}
				}()
			}
			wg.Wait()
			if ok != shopify.PerClientPerHour || limited != 12-shopify.PerClientPerHour {
				t.Fatalf("%d booked, %d limited; want %d booked", ok, limited, shopify.PerClientPerHour)
			}

			// One number from many clients at once on two replicas: two calls.
			ok, limited = 0, 0
			for i := 0; i < 6; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, err := svcs[i%2].BookCall(ctx, request(key, "+14155557777", fmt.Sprintf("198.51.100.%d", i+1)))
					mu.Lock()
					defer mu.Unlock()
					if err == nil {
						ok++
					} else if errs.Is(err, errs.TooManyRequests) {
						limited++
					} else {
						t.Error(err)
					}
				}()
			}
			wg.Wait()
			if ok != shopify.PerNumberPerDay || limited != 6-shopify.PerNumberPerDay {
				t.Fatalf("one number: %d booked, %d limited", ok, limited)
			}
		})
	}
}
