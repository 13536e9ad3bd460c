package store_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/store"
)

// The first account of a fresh server becomes its site administrator; of first sign-ups at
// the same moment exactly one does, and no account after them.
func TestFirstUserIsSiteAdminOnce(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if empty, err := db.NoUsers(ctx); err != nil || !empty {
			t.Fatalf("a fresh server has accounts: %v %v", empty, err)
		}
		const n = 8
		var wg sync.WaitGroup
		start := make(chan struct{})
		firsts := make([]bool, n)
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				u := store.User{Email: fmt.Sprintf("user%d@example.com", i)}
				firsts[i], errs[i] = db.CreateFirstUserAsAdmin(ctx, &u)
				if errs[i] == nil && u.IsSiteAdmin != firsts[i] {
					errs[i] = fmt.Errorf("user %d: IsSiteAdmin %v, first %v", i, u.IsSiteAdmin, firsts[i])
				}
			}()
		}
		close(start)
		wg.Wait()
		count := 0
		for i := range n {
			if errs[i] != nil {
				t.Fatal(errs[i])
			}
			if firsts[i] {
				count++
			}
		}
		admins, err := db.SiteAdminEmails(ctx)
		if err != nil || count != 1 || len(admins) != 1 {
			t.Fatalf("%d said first, site admins %v (%v)", count, admins, err)
		}
		later := store.User{Email: "later@example.com"}
		if first, err := db.CreateFirstUserAsAdmin(ctx, &later); err != nil || first || later.IsSiteAdmin {
			t.Fatalf("a later account: first %v admin %v (%v)", first, later.IsSiteAdmin, err)
		}
		if empty, err := db.NoUsers(ctx); err != nil || empty {
			t.Fatalf("NoUsers with accounts: %v %v", empty, err)
		}
	})
}

// A second sign-up while the first one's transaction is still open waits for it, then is not
// the first (without the lock on PostgreSQL, it would see no account and become admin too).
func TestFirstUserIsSiteAdminWhileTheFirstIsUncommitted(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		var second bool
		var errB error
		done := make(chan struct{})
		err := db.InTx(ctx, func(ctx context.Context) error {
			a := store.User{Email: "a@example.com"}
			first, err := db.CreateFirstUserAsAdmin(ctx, &a)
			if err != nil || !first {
				return fmt.Errorf("the first account: %v %v", first, err)
			}
			go func() {
				defer close(done)
				b := store.User{Email: "b@example.com"}
				second, errB = db.CreateFirstUserAsAdmin(context.Background(), &b)
			}()
			time.Sleep(300 * time.Millisecond) // b's sign-up runs meanwhile, and must wait
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		<-done
		if errB != nil || second {
			t.Fatalf("the second account: first %v (%v)", second, errB)
		}
		if admins, err := db.SiteAdminEmails(ctx); err != nil || len(admins) != 1 || admins[0] != "a@example.com" {
			t.Fatalf("site admins %v (%v)", admins, err)
		}
	})
}
