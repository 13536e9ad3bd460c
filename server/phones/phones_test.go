package phones_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/links"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/phones/sim"
	"github.com/bettyhq/betty/server/store"
)

// clock is a settable clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

type fixture struct {
	svc   *phones.Service
	sim   *sim.Sim
	clock *clock
	db    *store.DB
}

func newFixture(t *testing.T, db *store.DB) fixture {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	c := &clock{t: time.Now()}
	s := sim.New(log, db.BoughtPhoneNumbers)
	svc := phones.New(db, s, links.Builder{BaseURL: "http://betty.test"}, log, phones.WithClock(c.now))
	return fixture{svc: svc, sim: s, clock: c, db: db}
}

// team makes a team and answers its owner as an actor.
func team(t *testing.T, db *store.DB, email string) auth.Actor {
	t.Helper()
	ctx := context.Background()
	u := store.User{Email: email}
	if err := db.CreateUser(ctx, &u); err != nil {
		t.Fatal(err)
	}
	o := store.Organization{Name: "Team of " + email, OwnerUserID: u.ID, PublicAPIKey: "pk_" + store.NewID()}
	if err := db.CreateOrganization(ctx, &o, email); err != nil {
		t.Fatal(err)
	}
	return auth.Actor{Principal: auth.Principal{UserID: u.ID, Email: email}, Grant: auth.Grant{OrganizationID: o.ID, Role: auth.Owner}}
}

func kindOf(err error) errs.Kind {
	if e, ok := errs.As(err); ok {
		return e.Kind
	}
	return 0
}

// A code can be submitted for ten minutes; after that the verification is expired, in the
// list too, and the code is refused.
func TestVerificationExpiresAfterTenMinutes(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		a := team(t, db, "ada@example.com")
		const n = "+14155550142"

		v, err := f.svc.RequestVerification(ctx, a, n, "")
		if err != nil || v.Status != store.VerificationPending || v.Method != phones.ByCall || !v.ExpiresAt.Equal(f.clock.now().UTC().Truncate(time.Microsecond).Add(10*time.Minute)) {
			t.Fatalf("requested %+v %v", v, err)
		}
		code, _ := f.sim.Code(n)
		f.clock.advance(9*time.Minute + 59*time.Second)
		if vs, _ := f.svc.Verifications(ctx, a); vs[0].Status != store.VerificationPending || vs[0].AttemptsLeft != 5 {
			t.Fatalf("just before expiry: %+v", vs[0])
		}
		f.clock.advance(time.Second)
		if vs, _ := f.svc.Verifications(ctx, a); vs[0].Status != store.VerificationExpired || vs[0].ExpiresAt != nil || vs[0].AttemptsLeft != 0 {
			t.Fatalf("at expiry: %+v", vs[0])
		}
		if _, err := f.svc.Verify(ctx, a, n, code); kindOf(err) != errs.Unprocessable {
			t.Fatalf("the code after expiry: %v", err)
		}
		if stored, _ := db.LatestPhoneVerification(ctx, a.OrganizationID, n); stored.Status != store.VerificationExpired {
			t.Fatalf("stored as %s", stored.Status)
		}
		if ns, _, _ := f.svc.List(ctx, a, 10, 0); len(ns) != 0 {
			t.Fatalf("an expired verification added %+v", ns)
		}
		// A new request starts over.
		if _, err := f.svc.RequestVerification(ctx, a, n, phones.BySMS); err != nil {
			t.Fatal(err)
		}
		code, _ = f.sim.Code(n)
		v, err = f.svc.Verify(ctx, a, n, code)
		if err != nil || v.Status != store.VerificationVerified || v.VerifiedAt == nil || v.PhoneNumberID == nil {
			t.Fatalf("verified %+v %v", v, err)
		}
		got, err := f.svc.Number(ctx, a.OrganizationID, *v.PhoneNumberID)
		if err != nil || got.E164 != n || !got.CallerIDOnly() || got.CountryCode != "US" || *got.AreaCode != "415" {
			t.Fatalf("the verified number: %+v %v", got, err)
		}
	})
}

// What other domains call: a team's number by id, another team's id missing.
func TestNumberBelongsToItsTeam(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		a, b := team(t, db, "ada@example.com"), team(t, db, "bob@example.com")
		found, err := f.svc.Search(ctx, phones.Query{})
		if err != nil || len(found) != phones.DefaultSearchLimit || found[0].Country != phones.US || found[0].Type != phones.Local {
			t.Fatalf("default search: %+v %v", found, err)
		}
		p, err := f.svc.Buy(ctx, a, found[0].E164, "http://betty.test/dashboard")
		if err != nil || p.Number.E164 != found[0].E164 || p.Number.CallerIDOnly() || p.Number.Status != store.PhoneActive {
			t.Fatalf("bought %+v %v", p, err)
		}
		n, err := f.svc.Number(ctx, a.OrganizationID, p.Number.ID)
		if err != nil || n.E164 != found[0].E164 {
			t.Fatalf("number: %+v %v", n, err)
		}
		if _, err := f.svc.Number(ctx, b.OrganizationID, p.Number.ID); kindOf(err) != errs.NotFound {
			t.Fatalf("another team's number: %v", err)
		}
		if err := f.svc.Release(ctx, b, p.Number.ID); kindOf(err) != errs.NotFound {
			t.Fatalf("releasing another team's number: %v", err)
		}
		// It rings a's agent: b cannot claim it as its own.
		if _, err := f.svc.RequestVerification(ctx, b, p.Number.E164, phones.ByCall); kindOf(err) != errs.Conflict {
			t.Fatalf("verifying another team's bought number: %v", err)
		}
		// The first order stays on record after the release.
		if err := f.svc.Release(ctx, a, p.Number.ID); err != nil {
			t.Fatal(err)
		}
		if at, err := db.FirstPhoneNumberOrderAt(ctx, a.OrganizationID); err != nil || at == nil {
			t.Fatalf("first order: %v %v", at, err)
		}
	})
}

// Two teams buying the same number at once: one gets it, the other is told it is gone.
func TestConcurrentPurchases(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		found, _ := f.svc.Search(ctx, phones.Query{Country: phones.GB, Limit: 1})
		var wg sync.WaitGroup
		results := make([]error, 4)
		for i := range results {
			a := team(t, db, string(rune('a'+i))+"@example.com")
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, results[i] = f.svc.Buy(ctx, a, found[0].E164, "http://betty.test/")
			}()
		}
		wg.Wait()
		won := 0
		for _, err := range results {
			switch {
			case err == nil:
				won++
			case kindOf(err) != errs.Conflict:
				t.Fatalf("a losing purchase: %v", err)
			}
		}
		if won != 1 {
			t.Fatalf("%d teams bought %s", won, found[0].E164)
		}
	})
}

type failingCarrier struct {
	phones.Telephony
	err error
}

func (c failingCarrier) Search(context.Context, phones.Query) ([]phones.Available, error) {
	return nil, c.err
}
func (c failingCarrier) Release(context.Context, phones.Bought) error { return c.err }

// A carrier failure is answered in Betty's words with its cause kept for the log; a release
// the carrier does not confirm removes nothing.
func TestCarrierFailures(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		a := team(t, db, "ada@example.com")
		found, _ := f.svc.Search(ctx, phones.Query{Limit: 1})
		p, err := f.svc.Buy(ctx, a, found[0].E164, "http://betty.test/")
		if err != nil {
			t.Fatal(err)
		}
		log := slog.New(slog.NewTextHandler(io.Discard, nil))
		for _, tt := range []struct {
			err  error
			kind errs.Kind
		}{
			{errors.Join(phones.ErrCarrierDown, errors.New("telnyx answered 502")), errs.Unavailable},
			{errors.Join(phones.ErrCarrierAuth, errors.New("telnyx answered 401")), errs.Unavailable},
			{errors.Join(phones.ErrRejected, errors.New("telnyx answered 400")), errs.Unprocessable},
			{errors.New("something odd"), errs.Unavailable},
		} {
			svc := phones.New(db, failingCarrier{Telephony: f.sim, err: tt.err}, links.Builder{BaseURL: "http://betty.test"}, log)
			_, err := svc.Search(ctx, phones.Query{})
			e, ok := errs.As(err)
			if !ok || e.Kind != tt.kind || !errors.Is(err, tt.err) || e.Message == "" {
				t.Errorf("%v: %#v", tt.err, err)
			}
			if err := svc.Release(ctx, a, p.Number.ID); kindOf(err) != tt.kind {
				t.Errorf("release with %v: %v", tt.err, err)
			}
		}
		if ns, _, _ := f.svc.List(ctx, a, 10, 0); len(ns) != 1 {
			t.Fatalf("a release the carrier did not confirm removed the number: %+v", ns)
		}
	})
}
