// Package testdb gives tests a fresh, migrated database of each dialect: SQLite always, and
// PostgreSQL when BETTY_TEST_POSTGRES_URL is set. Each test gets its own SQLite file or its own
// PostgreSQL schema, dropped when the test ends.
//
// Without BETTY_TEST_POSTGRES_URL the PostgreSQL leg is skipped with a loud message, unless CI
// is set, where it fails: CI must never pass by skipping it. A URL that is set but unreachable
// always fails.
package testdb

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"sync"
	"testing"

	"github.com/bettyhq/betty/server/store"
)

// EnvPostgres names the variable holding the PostgreSQL URL tests use.
const EnvPostgres = "BETTY_TEST_POSTGRES_URL"

// Dialects are the dialects a test should run on, in order.
func Dialects() []store.Dialect { return []store.Dialect{store.SQLite, store.Postgres} }

// Each runs fn as a subtest on every dialect with a fresh migrated database.
func Each(t *testing.T, fn func(t *testing.T, db *store.DB)) {
	t.Helper()
	for _, d := range Dialects() {
		t.Run(string(d), func(t *testing.T) {
			fn(t, Open(t, d, true))
		})
	}
}

var warnOnce sync.Once

// Options returns store options for a fresh, empty database of dialect d, skipping (or
// failing, in CI) when PostgreSQL is not configured. The database is removed at cleanup.
func Options(t testing.TB, d store.Dialect) store.Options {
	t.Helper()
	if d == store.SQLite {
		return store.Options{DataDir: t.TempDir()}
	}
	base := os.Getenv(EnvPostgres)
	if base == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not set: CI must run the PostgreSQL tests", EnvPostgres)
		}
		warnOnce.Do(func() {
			os.Stderr.WriteString("\n*** SKIPPING PostgreSQL tests: set " + EnvPostgres +
				"=postgres://postgres@127.0.0.1:5432/test?sslmode=disable to run them ***\n\n")
		})
		t.Skipf("PostgreSQL tests skipped: %s is not set", EnvPostgres)
	}
	schema := "t_" + randomHex(8)
	admin, err := store.Open(context.Background(), store.Options{DatabaseURL: base, MaxOpenConns: 1})
	if err != nil {
		t.Fatalf("PostgreSQL at %s is unreachable: %v", EnvPostgres, err)
	}
	if err := admin.ExecRaw(context.Background(), "CREATE SCHEMA "+schema); err != nil {
		admin.Close()
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		_ = admin.ExecRaw(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
		admin.Close()
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s: %v", EnvPostgres, err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	// Tests need no durability: not waiting for each commit to reach the disk makes the
	// PostgreSQL leg several times faster.
	q.Set("synchronous_commit", "off")
	u.RawQuery = q.Encode()
	return store.Options{DatabaseURL: u.String(), MaxOpenConns: 4}
}

// Open returns a fresh database of dialect d, migrated when migrate is true, closed at cleanup.
func Open(t testing.TB, d store.Dialect, migrate bool) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), Options(t, d))
	if err != nil {
		t.Fatalf("open %s: %v", d, err)
	}
	t.Cleanup(func() { db.Close() })
	if migrate {
		if _, err := db.Migrate(context.Background()); err != nil {
			t.Fatalf("migrate %s: %v", d, err)
		}
	}
	return db
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
