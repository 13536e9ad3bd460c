package integrations

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/store"
)

func team(t *testing.T, db *store.DB, email string) (orgID, userID string) {
	t.Helper()
	ctx := context.Background()
	u := store.User{Email: email}
	if err := db.CreateUser(ctx, &u); err != nil {
		t.Fatal(err)
	}
	o := store.Organization{Name: "Team of " + email, OwnerUserID: u.ID, PublicAPIKey: "pk_" + store.NewID()}
	if err := db.CreateOrganization(ctx, &o, u.Email); err != nil {
		t.Fatal(err)
	}
	return o.ID, u.ID
}

var testKey = []byte("0123456789abcdef0123456789abcdef")

func newService(t *testing.T, db *store.DB) *Service {
	t.Helper()
	s, err := New(db, testKey, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fakeProvider counts refreshes and revocations; refuse makes refreshes refused.
type fakeProvider struct {
	refreshed, revoked atomic.Int32
	refuse             bool
}

func (p *fakeProvider) Refresh(_ context.Context, refresh string) (Tokens, error) {
	p.refreshed.Add(1)
	if p.refuse {
		return Tokens{}, ErrRefreshRefused
	}
	return Tokens{AccessToken: "access-" + refresh + "-2", ExpiresAt: time.Now().Add(time.Hour)}, nil
}

func (p *fakeProvider) Revoke(context.Context, Tokens) error {
	p.revoked.Add(1)
	return errors.New("the provider is down")
}

func TestSealOpensOnlyForItsApp(t *testing.T) {
	s, err := NewSealer(testKey)
	if err != nil {
		t.Fatal(err)
	}
	sealed := s.Seal("app-1", []byte("secret token"))
	if strings.Contains(sealed, "secret") {
		t.Fatal("the sealed value shows the plain text")
	}
	if got, err := s.Open("app-1", sealed); err != nil || string(got) != "secret token" {
		t.Fatalf("open: %q %v", got, err)
	}
	if _, err := s.Open("app-2", sealed); err == nil {
		t.Fatal("a credential sealed for one app opened for another")
	}
	other, _ := NewSealer([]byte("fedcba9876543210fedcba9876543210"))
	if _, err := other.Open("app-1", sealed); err == nil {
		t.Fatal("opened with another key")
	}
	if sealed == s.Seal("app-1", []byte("secret token")) {
		t.Fatal("two seals of one value are equal (nonce reused)")
	}
	if _, err := ParseKey(strings.Repeat("ab", 32)); err != nil {
		t.Fatal(err)
	}
	if _, err := ParseKey("short"); err == nil {
		t.Fatal("a short key was accepted")
	}
}

func TestStateIsSignedSingleUseAndExpires(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := newService(t, db)
		holder := Holder{OrganizationID: "org-1", UserID: "u-1", Integration: HubSpot}
		raw, exp := s.IssueState(State{OrganizationID: "org-1", UserID: "u-1", Integration: HubSpot})
		if d := time.Until(exp); d < 9*time.Minute || d > StateTTL {
			t.Fatalf("expires in %v", d)
		}
		st, err := s.ConsumeState(ctx, raw, holder)
		if err != nil || st.OrganizationID != "org-1" || st.UserID != "u-1" || st.Integration != HubSpot {
			t.Fatalf("consume: %+v %v", st, err)
		}
		if _, err := s.ConsumeState(ctx, raw, holder); !errors.Is(err, ErrInvalidState) {
			t.Fatalf("a state worked twice: %v", err)
		}
		raw2, _ := s.IssueState(State{OrganizationID: "org-1", UserID: "u-1", Integration: HubSpot})
		payload, sig, _ := strings.Cut(raw2, ".")
		last := "A"
		if strings.HasSuffix(payload, "A") {
			last = "B"
		}
		forged := payload[:len(payload)-1] + last + "." + sig
		for _, bad := range []string{"", "x", forged, raw2 + "x", payload} {
			if _, err := s.ConsumeState(ctx, bad, holder); !errors.Is(err, ErrInvalidState) {
				t.Fatalf("state %q accepted: %v", bad, err)
			}
		}
		s.now = func() time.Time { return time.Now().Add(StateTTL + time.Second) }
		if _, err := s.ConsumeState(ctx, raw2, holder); !errors.Is(err, ErrInvalidState) {
			t.Fatalf("an expired state was accepted: %v", err)
		}
	})
}

func TestConnectReconnectDisconnect(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := newService(t, db)
		p := &fakeProvider{}
		s.Register(HubSpot, p)
		org, user := team(t, db, "owner@example.com")
		other, _ := team(t, db, "other@example.com")
		tok := Tokens{AccessToken: "plain-access-token", RefreshToken: "r1", ExpiresAt: time.Now().Add(time.Hour)}
		a, err := s.Save(ctx, Connection{OrganizationID: org, Integration: HubSpot, AccountID: "111", Name: "acme.hubspot.com", Tokens: tok, UserID: user})
		if err != nil {
			t.Fatal(err)
		}
		if a.Status != store.AppConnected || a.ConnectionID == nil || a.SealedTokens == nil || strings.Contains(*a.SealedTokens, "plain-access") {
			t.Fatalf("saved: %+v", a)
		}
		// The same portal again is the same app with a new credential.
		b, err := s.Save(ctx, Connection{OrganizationID: org, Integration: HubSpot, AccountID: "111", Name: "acme.hubspot.com", Tokens: tok})
		if err != nil || b.ID != a.ID || *b.ConnectionID == *a.ConnectionID {
			t.Fatalf("reconnecting the same portal: %+v %v", b, err)
		}
		// A reconnection approving another portal changes nothing.
		if _, err := s.Save(ctx, Connection{OrganizationID: org, Integration: HubSpot, AppID: a.ID, AccountID: "222", Name: "x", Tokens: tok}); !errors.Is(err, ErrAccountMismatch) {
			t.Fatalf("portal mismatch: %v", err)
		}
		// Another team sees nothing of it.
		if _, err := s.Get(ctx, other, a.ID); !errs.Is(err, errs.NotFound) {
			t.Fatalf("another team got the app: %v", err)
		}
		if apps, _ := s.List(ctx, other); len(apps) != 0 {
			t.Fatalf("another team lists %d apps", len(apps))
		}
		if _, err := s.GetOf(ctx, org, a.ID, Zapier); !errs.Is(err, errs.Invalid) {
			t.Fatalf("a HubSpot app as a Zapier one: %v", err)
		}
		if got, err := s.AccessToken(ctx, b); err != nil || got != "plain-access-token" {
			t.Fatalf("token: %q %v", got, err)
		}
		// Disconnecting revokes (a failing revocation still disconnects) and forgets the credential.
		d, err := s.Disconnect(ctx, org, a.ID, "")
		if err != nil || d.Status != store.AppDisconnected || d.SealedTokens != nil || d.ConnectionID != nil || p.revoked.Load() != 1 {
			t.Fatalf("disconnect: %+v %v (revoked %d)", d, err, p.revoked.Load())
		}
		if _, err := s.Disconnect(ctx, org, a.ID, ""); err != nil || p.revoked.Load() != 1 {
			t.Fatalf("disconnecting twice: %v", err)
		}
		if _, err := s.AccessToken(ctx, d); !errs.Is(err, errs.Unprocessable) {
			t.Fatalf("a disconnected app's token: %v", err)
		}
		if _, err := s.Connected(ctx, org, a.ID, HubSpot, "connectedAppId"); !errs.Is(err, errs.Unprocessable) {
			t.Fatalf("Connected on a disconnected app: %v", err)
		}
	})
}

func TestAccessTokenRefreshesBeforeExpiry(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := newService(t, db)
		p := &fakeProvider{}
		s.Register(HubSpot, p)
		org, _ := team(t, db, "owner@example.com")
		a, err := s.Save(ctx, Connection{OrganizationID: org, Integration: HubSpot, AccountID: "111", Name: "acme",
			Tokens: Tokens{AccessToken: "a1", RefreshToken: "r1", ExpiresAt: time.Now().Add(RefreshMargin - time.Second)}})
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.AccessToken(ctx, a)
		if err != nil || got != "access-r1-2" || p.refreshed.Load() != 1 {
			t.Fatalf("refresh: %q %v (%d refreshes)", got, err, p.refreshed.Load())
		}
		// The refreshed credential is stored (and keeps the refresh token HubSpot did not resend).
		fresh, _ := s.Get(ctx, org, a.ID)
		tok, err := s.Tokens(fresh)
		if err != nil || tok.AccessToken != "access-r1-2" || tok.RefreshToken != "r1" {
			t.Fatalf("stored after refresh: %+v %v", tok, err)
		}
		// A stale copy of the app does not refresh again: the stored credential is fresh.
		if got, err := s.AccessToken(ctx, a); err != nil || got != "access-r1-2" || p.refreshed.Load() != 1 {
			t.Fatalf("second call: %q %v (%d refreshes)", got, err, p.refreshed.Load())
		}
		// A refused refresh disconnects the app.
		p.refuse = true
		b, _ := s.Save(ctx, Connection{OrganizationID: org, Integration: HubSpot, AccountID: "111", Name: "acme",
			Tokens: Tokens{AccessToken: "a2", RefreshToken: "r2", ExpiresAt: time.Now()}})
		if _, err := s.AccessToken(ctx, b); !errs.Is(err, errs.Unprocessable) {
			t.Fatalf("refused refresh: %v", err)
		}
		if c, _ := s.Get(ctx, org, a.ID); c.Status != store.AppDisconnected {
			t.Fatalf("after a refused refresh the app is %s", c.Status)
		}
	})
}

// A state is used up only by its holder: presented by another user, another organisation or
// for another integration it is refused and still works for its holder afterwards. Reading it
// (what the public HubSpot callback does) uses nothing up.
func TestStateIsBoundToItsHolder(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := newService(t, db)
		holder := Holder{OrganizationID: "org-1", UserID: "u-1", Integration: HubSpot}
		raw, _ := s.IssueState(State{OrganizationID: "org-1", UserID: "u-1", Integration: HubSpot})
		for _, other := range []Holder{
			{OrganizationID: "org-2", UserID: "u-2", Integration: HubSpot},
			{OrganizationID: "org-1", UserID: "u-2", Integration: HubSpot},
			{OrganizationID: "org-2", UserID: "u-1", Integration: HubSpot},
			{OrganizationID: "org-1", UserID: "u-1", Integration: Zapier},
		} {
			if _, err := s.ConsumeState(ctx, raw, other); !errors.Is(err, ErrInvalidState) {
				t.Fatalf("%+v used the state: %v", other, err)
			}
		}
		if st, err := s.ReadState(raw); err != nil || st.UserID != "u-1" {
			t.Fatalf("read: %+v %v", st, err)
		}
		if _, err := s.ConsumeState(ctx, raw, holder); err != nil {
			t.Fatalf("its holder, after the others: %v", err)
		}
		if _, err := s.ReadState("forged.sig"); !errors.Is(err, ErrInvalidState) {
			t.Fatalf("a forged state was read: %v", err)
		}
	})
}
