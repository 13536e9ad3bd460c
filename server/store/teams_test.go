package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/store"
)

// teamFixture makes an owner and their organisation.
func teamFixture(t testing.TB, db *store.DB, email string) (store.User, store.Organization) {
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
	return u, o
}

func TestInvitationsLifecycle(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		owner, org := teamFixture(t, db, "owner@example.com")
		_, other := teamFixture(t, db, "other@example.com")

		// An invitation by a user names them; one by an API key (no user) names nobody.
		m, err := db.Invite(ctx, org.ID, "Bob@Example.com", "member", owner.ID)
		if err != nil || m.Status != store.MemberInvited || m.InvitedBy == nil || *m.InvitedBy != owner.ID || m.Email != "bob@example.com" {
			t.Fatalf("invite: %+v %v", m, err)
		}
		byKey, err := db.Invite(ctx, other.ID, "bob@example.com", "readonly", "")
		if err != nil || byKey.InvitedBy != nil {
			t.Fatalf("invite by key: %+v %v", byKey, err)
		}
		got, err := db.InvitationsTo(ctx, "BOB@example.com")
		if err != nil || len(got) != 2 || got[0].ID != byKey.ID || got[1].ID != m.ID {
			t.Fatalf("invitations to bob: %+v %v", got, err)
		}

		// Accepted or removed invitations are no longer pending; re-inviting reuses the row.
		bob := store.User{Email: "bob@example.com"}
		if err := db.CreateUser(ctx, &bob); err != nil {
			t.Fatal(err)
		}
		if err := db.ActivateMember(ctx, org.ID, m.ID, bob.ID); err != nil {
			t.Fatal(err)
		}
		if err := db.RemoveMember(ctx, other.ID, byKey.ID); err != nil {
			t.Fatal(err)
		}
		if got, err := db.InvitationsTo(ctx, bob.Email); err != nil || len(got) != 0 {
			t.Fatalf("after accepting and removing: %+v %v", got, err)
		}
		again, err := db.Invite(ctx, other.ID, bob.Email, "member", "")
		if err != nil || again.ID != byKey.ID || again.Status != store.MemberInvited || again.RemovedAt != nil {
			t.Fatalf("re-invite: %+v %v", again, err)
		}
		if _, err := db.Invite(ctx, org.ID, bob.Email, "member", owner.ID); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("invite an active member: %v", err)
		}
	})
}

func TestCancelTokens(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		owner, org := teamFixture(t, db, "owner@example.com")
		_, other := teamFixture(t, db, "other@example.com")
		m1, err := db.Invite(ctx, org.ID, "a@example.com", "member", owner.ID)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := db.Invite(ctx, org.ID, "b@example.com", "member", owner.ID)
		if err != nil {
			t.Fatal(err)
		}
		m3, err := db.Invite(ctx, other.ID, "a@example.com", "member", "")
		if err != nil {
			t.Fatal(err)
		}
		token := func(kind store.TokenKind, m store.Member, hash string) store.Token {
			t.Helper()
			oid, mid := m.OrganizationID, m.ID
			tk := store.Token{Kind: kind, TokenHash: hash, OrganizationID: &oid, MemberID: &mid, Email: m.Email,
				ExpiresAt: time.Now().Add(time.Hour)}
			if err := db.CreateToken(ctx, &tk, false); err != nil {
				t.Fatal(err)
			}
			return tk
		}
		used := func(hash string, kind store.TokenKind) bool {
			t.Helper()
			tk, err := db.TokenByHash(ctx, kind, hash)
			if err != nil {
				t.Fatal(err)
			}
			return tk.UsedAt != nil
		}
		token(store.TokenInvitation, m1, "inv1")
		token(store.TokenInvitation, m2, "inv2")
		token(store.TokenOwnershipTransfer, m1, "tr1")
		token(store.TokenOwnershipTransfer, m2, "tr2")
		token(store.TokenOwnershipTransfer, m3, "tr3")

		if err := db.CancelMemberTokens(ctx, store.TokenInvitation, org.ID, m1.ID); err != nil {
			t.Fatal(err)
		}
		if !used("inv1", store.TokenInvitation) || used("inv2", store.TokenInvitation) || used("tr1", store.TokenOwnershipTransfer) {
			t.Fatal("cancelling a member's invitation touched other tokens")
		}
		if err := db.CancelOrganizationTokens(ctx, store.TokenOwnershipTransfer, org.ID); err != nil {
			t.Fatal(err)
		}
		if !used("tr1", store.TokenOwnershipTransfer) || !used("tr2", store.TokenOwnershipTransfer) ||
			used("tr3", store.TokenOwnershipTransfer) || used("inv2", store.TokenInvitation) {
			t.Fatal("cancelling a team's transfers touched other tokens")
		}
	})
}

func TestSiteAdminEmails(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		for _, e := range []string{"b@example.com", "a@example.com", "c@example.com"} {
			u := store.User{Email: e}
			if err := db.CreateUser(ctx, &u); err != nil {
				t.Fatal(err)
			}
		}
		for _, e := range []string{"b@example.com", "a@example.com"} {
			if _, err := db.SetSiteAdmin(ctx, e, true); err != nil {
				t.Fatal(err)
			}
		}
		got, err := db.SiteAdminEmails(ctx)
		if err != nil || len(got) != 2 || got[0] != "a@example.com" || got[1] != "b@example.com" {
			t.Fatalf("site admins: %v %v", got, err)
		}
	})
}

// Member methods act only on their organisation's rows: another team's member id changes
// nothing.
func TestMemberMethodsAreScopedToTheirOrganisation(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		owner, org := teamFixture(t, db, "owner@example.com")
		_, other := teamFixture(t, db, "other@example.com")
		m, err := db.Invite(ctx, org.ID, "bob@example.com", "member", owner.ID)
		if err != nil {
			t.Fatal(err)
		}
		for name, err := range map[string]error{
			"get":      func() error { _, err := db.MemberByID(ctx, other.ID, m.ID); return err }(),
			"role":     db.SetMemberRole(ctx, other.ID, m.ID, "admin"),
			"remove":   db.RemoveMember(ctx, other.ID, m.ID),
			"activate": db.ActivateMember(ctx, other.ID, m.ID, owner.ID),
		} {
			if !errors.Is(err, store.ErrNotFound) {
				t.Errorf("%s through another organisation: %v", name, err)
			}
		}
		got, err := db.MemberByID(ctx, org.ID, m.ID)
		if err != nil || got.Role != "member" || got.Status != store.MemberInvited {
			t.Fatalf("untouched: %+v %v", got, err)
		}
	})
}
