package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/store"
)

func TestUsers(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		u := store.User{Email: " Ada@Example.com "}
		if err := db.CreateUser(ctx, &u); err != nil {
			t.Fatal(err)
		}
		if u.Email != "ada@example.com" {
			t.Fatalf("email stored as %q", u.Email)
		}
		got, err := db.UserByEmail(ctx, "ADA@example.com")
		if err != nil || got.ID != u.ID || !got.CreatedAt.Equal(u.CreatedAt) {
			t.Fatalf("by email: %+v %v", got, err)
		}
		if _, err := db.UserByID(ctx, "missing"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("missing user: %v", err)
		}
		dup := store.User{Email: "ada@example.com"}
		if err := db.CreateUser(ctx, &dup); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("duplicate e-mail: %v", err)
		}
	})
}

func TestOrganizationWithOwnerMembership(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		u := store.User{Email: "owner@example.com"}
		if err := db.CreateUser(ctx, &u); err != nil {
			t.Fatal(err)
		}
		o := store.Organization{Name: "Acme", OwnerUserID: u.ID, PublicAPIKey: "pk_1"}
		if err := db.CreateOrganization(ctx, &o, u.Email); err != nil {
			t.Fatal(err)
		}
		m, err := db.MemberOf(ctx, o.ID, u.ID)
		if err != nil || m.Role != "owner" || m.Status != "active" {
			t.Fatalf("owner membership: %+v %v", m, err)
		}
		got, err := db.OrganizationByID(ctx, o.ID)
		if err != nil || got.Name != "Acme" || got.SubscriptionTier != "free" {
			t.Fatalf("organization: %+v %v", got, err)
		}
		// A foreign key to a missing owner is a reference error, and nothing is half-written.
		bad := store.Organization{Name: "Ghost", OwnerUserID: "nobody", PublicAPIKey: "pk_2"}
		if err := db.CreateOrganization(ctx, &bad, "x@example.com"); !errors.Is(err, store.ErrReference) {
			t.Fatalf("missing owner: %v", err)
		}
		if _, err := db.OrganizationByID(ctx, bad.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("half-written organization: %v", err)
		}
	})
}

func TestTransactionRollsBackAndJoins(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		boom := errors.New("boom")
		var id string
		err := db.InTx(ctx, func(ctx context.Context) error {
			u := store.User{Email: "tx@example.com"}
			if err := db.CreateUser(ctx, &u); err != nil {
				return err
			}
			id = u.ID
			// A nested transaction joins the outer one and sees its rows.
			return db.InTx(ctx, func(ctx context.Context) error {
				if _, err := db.UserByID(ctx, id); err != nil {
					return err
				}
				return boom
			})
		})
		if !errors.Is(err, boom) {
			t.Fatalf("InTx returned %v", err)
		}
		if _, err := db.UserByID(ctx, id); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("rolled-back user still there: %v", err)
		}
	})
}
