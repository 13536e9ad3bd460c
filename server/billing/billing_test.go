package billing

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/store"
)

func TestSubscriptionState(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	later, earlier := now.Add(time.Hour), now.Add(-time.Hour)
	for _, c := range []struct {
		tier    store.SubscriptionTier
		end     *time.Time
		state   State
		running bool
	}{
		{store.TierFree, nil, StateNone, false},
		{store.TierFree, &later, StateNone, false},
		{store.Tier2, nil, StateNone, false}, // set by a site admin, no period
		{store.Tier2, &later, StateActive, true},
		{store.Tier2, &earlier, StateCancelled, false},
	} {
		o := store.Organization{ID: "o", SubscriptionTier: c.tier, SubscriptionEndAt: c.end}
		s := SubscriptionOf(o, now)
		if s.State != c.state || (len(RunningSubscriptions(o, 0, now)) > 0) != c.running || s.Monthly != (c.state != StateNone) {
			t.Errorf("%s ending %v: %+v, running %v", c.tier, c.end, s, RunningSubscriptions(o, 0, now))
		}
	}
}

func TestNumbersKeepATeamBilled(t *testing.T) {
	if got := RunningSubscriptions(store.Organization{SubscriptionTier: store.TierFree}, 2, time.Now()); len(got) != 1 || got[0] != "phone-number subscription" {
		t.Fatal(got)
	}
}

func TestBillingAddressRules(t *testing.T) {
	db := testdb.Open(t, store.SQLite, true)
	ctx := context.Background()
	u := store.User{Email: "ada@example.com"}
	if err := db.CreateUser(ctx, &u); err != nil {
		t.Fatal(err)
	}
	o := store.Organization{Name: "Acme", OwnerUserID: u.ID, PublicAPIKey: "pk"}
	if err := db.CreateOrganization(ctx, &o, u.Email); err != nil {
		t.Fatal(err)
	}
	s := New(db)
	ny := "ny"
	_, err := s.SetAddress(ctx, o.ID, Address{Line1: " ", City: "New York", PostalCode: "10001", Country: "US"})
	e, ok := errs.As(err)
	if !ok || e.Kind != errs.Invalid || len(e.Fields) != 2 || e.Fields[0].Name != "body.billingAddress.line1" ||
		e.Fields[1].Name != "body.billingAddress.state" {
		t.Fatalf("invalid address: %v", err)
	}
	got, err := s.SetAddress(ctx, o.ID, Address{Line1: " 1 Main St ", City: "New York", PostalCode: "10001", Country: "US", State: &ny})
	if err != nil {
		t.Fatal(err)
	}
	a, at, err := AddressOf(got)
	if err != nil || a == nil || a.Line1 != "1 Main St" || *a.State != "NY" || at == nil {
		t.Fatalf("saved: %+v %v %v", a, at, err)
	}
	if _, err := s.SetAddress(ctx, "nope", *a); !errs.Is(err, errs.NotFound) {
		t.Fatalf("unknown team: %v", err)
	}
}

func TestCostsUsage(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := New(db)
		u := store.User{Email: "owner@example.com"}
		if err := db.CreateUser(ctx, &u); err != nil {
			t.Fatal(err)
		}
		org := store.Organization{Name: "Acme", OwnerUserID: u.ID, PublicAPIKey: "pk_" + store.NewID()}
		if err := db.CreateOrganization(ctx, &org, u.Email); err != nil {
			t.Fatal(err)
		}
		now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
		// The usage comes from the call logs: two calls on 2 November (3 and 0 billed
		// minutes), one in October.
		for _, c := range []struct {
			at      time.Time
			minutes int
		}{{time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC), 3}, {time.Date(2026, 11, 2, 23, 59, 0, 0, time.UTC), 0},
			{time.Date(2026, 10, 31, 23, 0, 0, 0, time.UTC), 5}} {
			l := store.CallLog{OrganizationID: org.ID, Direction: "outbound", From: "+14155550100", To: "+14155550123",
				Status: store.CallQueued, StartTime: c.at}
			if err := db.CreateCallLog(ctx, &l); err != nil {
				t.Fatal(err)
			}
			if _, err := db.CloseCallLog(ctx, org.ID, l.ID, store.CallEnd{Status: store.CallCompleted, EndTime: c.at.Add(time.Duration(c.minutes) * time.Minute),
				BilledMinutes: c.minutes}); err != nil {
				t.Fatal(err)
			}
		}
		u2, err := s.CostsUsage(ctx, org.ID, nil, nil, now)
		if err != nil || u2.Month != 11 || u2.Year != 2026 || len(u2.Days) != 23 || u2.Calls != 2 || u2.Minutes != 3 ||
			u2.Cost != RoundCents(3*CallRatePerMinute) || u2.Days[1].Calls != 2 || u2.Days[1].Minutes != 3 || u2.Days[0].Calls != 0 {
			t.Fatalf("this month: %+v %v", u2, err)
		}
		future := 12
		if u, err := s.CostsUsage(ctx, org.ID, &future, nil, now); err != nil || len(u.Days) != 0 {
			t.Fatalf("a future month has no days: %+v %v", u, err)
		}
		bad := 13
		if _, err := s.CostsUsage(ctx, org.ID, &bad, nil, now); !errs.Is(err, errs.Invalid) {
			t.Fatalf("month 13: %v", err)
		}
	})
	if RoundCents(0.27*3.3333) != 0.9 {
		t.Fatal(RoundCents(0.27 * 3.3333))
	}
}

func TestTierLimits(t *testing.T) {
	if err := Check(store.TierFree, LimitCustomVoices, 0); err != nil {
		t.Fatal(err)
	}
	err := Check(store.Tier2, LimitCustomVoices, 1)
	e, ok := errs.As(err)
	if !ok || e.Kind != errs.Forbidden || e.Code != errs.CodeLimitReached ||
		e.Message != "Your plan (Professional Plan) allows 1 custom voice profiles and this team has 1. The Custom plan (tier4) allows 3." {
		t.Fatalf("%v", err)
	}
	if Check(store.Tier4, LimitCustomVoices, 2) != nil || Check(store.Tier4, LimitCustomVoices, 3) == nil {
		t.Fatal("tier4 allows 3")
	}
}

// Spec section 4: free or unknown to tier1, tier1 to tier2, tier2 to tier3, others to tier1.
func TestNextUpgrade(t *testing.T) {
	for from, to := range map[store.SubscriptionTier]store.SubscriptionTier{
		store.TierFree: store.Tier1, "unknown": store.Tier1, store.Tier1: store.Tier2, store.Tier2: store.Tier3,
		store.Tier3: store.Tier1, store.Tier4: store.Tier1,
	} {
		if got := NextUpgrade(from); got != to {
			t.Errorf("%s: %s, want %s", from, got, to)
		}
	}
}

// Every limit has a value for every tier, no tier allows less than the one below it, and each
// refusal names the tier that lifts it.
func TestTheLimitTable(t *testing.T) {
	for _, l := range Limits {
		prev := 0
		for _, tier := range Tiers() {
			n, ok := limits[l][tier]
			if !ok || n < prev {
				t.Fatalf("%s on %s: %d (below %d: %v)", l, tier, n, prev, ok)
			}
			prev = n
		}
	}
	e, _ := errs.As(Check(store.TierFree, LimitPhoneNumbers, 3))
	if e == nil || e.Code != errs.CodeLimitReached || e.Message != "Your plan (Free) allows 3 phone numbers and this team has 3. The Starter Plan (tier1) allows 5." {
		t.Fatalf("%v", e)
	}
	if err := Check(store.Tier4, LimitTeamMembers, 500); err == nil || !strings.Contains(err.Error(), "allows 500 team members") {
		t.Fatalf("the top tier: %v", err)
	}
}
