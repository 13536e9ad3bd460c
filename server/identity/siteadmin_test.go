package identity_test

import (
	"context"
	"testing"

	"github.com/bettyhq/betty/server/identity"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/links"
	"github.com/bettyhq/betty/server/store"
)

func service(db *store.DB, adminEmail string) *identity.Service {
	return identity.New(db, nil, nil, nil, links.Builder{}, identity.Config{AdminEmail: adminEmail})
}

func rule(t *testing.T, s *identity.Service) string {
	t.Helper()
	r, err := s.SiteAdminRule(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Without --admin-email the summary says the first account will be admin, then who is.
func TestSiteAdminRuleFirstAccount(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := service(db, "")
		if err := s.GrantNamedAdmin(ctx); err != nil {
			t.Fatal(err)
		}
		if r := rule(t, s); r != "site admin: the first account to sign up becomes site administrator (or name one: --admin-email)" {
			t.Fatalf("fresh server: %q", r)
		}
		u := store.User{Email: "ada@example.com"}
		if err := db.CreateUser(ctx, &u); err != nil {
			t.Fatal(err)
		}
		if r := rule(t, s); r != "site admin: none (grant one on this host: betty admin grant EMAIL)" {
			t.Fatalf("accounts, no admin: %q", r)
		}
		for _, e := range []string{"ada@example.com", "bob@example.com"} {
			if e != u.Email {
				v := store.User{Email: e}
				if err := db.CreateUser(ctx, &v); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := db.SetSiteAdmin(ctx, e, true); err != nil {
				t.Fatal(err)
			}
		}
		if r := rule(t, s); r != "site admins: ada@example.com, bob@example.com" {
			t.Fatalf("two admins: %q", r)
		}
	})
}

// With --admin-email only that account becomes admin: at start when it exists already.
func TestNamedSiteAdmin(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := service(db, " Boss@Example.com ")
		if r := rule(t, s); r != "site admin: boss@example.com (--admin-email)" {
			t.Fatalf("before the account exists: %q", r)
		}
		boss := store.User{Email: "boss@example.com"}
		if err := db.CreateUser(ctx, &boss); err != nil {
			t.Fatal(err)
		}
		if err := s.GrantNamedAdmin(ctx); err != nil {
			t.Fatal(err)
		}
		if u, err := db.UserByEmail(ctx, "boss@example.com"); err != nil || !u.IsSiteAdmin {
			t.Fatalf("the named account after start: %+v %v", u, err)
		}
		if err := s.GrantNamedAdmin(ctx); err != nil { // again: nothing changes
			t.Fatal(err)
		}
		other := store.User{Email: "root@example.com"}
		if err := db.CreateUser(ctx, &other); err != nil {
			t.Fatal(err)
		}
		if _, err := db.SetSiteAdmin(ctx, other.Email, true); err != nil {
			t.Fatal(err)
		}
		if r := rule(t, s); r != "site admin: boss@example.com (--admin-email); also root@example.com" {
			t.Fatalf("with another admin: %q", r)
		}
	})
}
