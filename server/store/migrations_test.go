package store_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pressly/goose/v3"

	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/store"
)

var migrationName = regexp.MustCompile(`^(\d{5})_[a-z0-9_]+\.sql$`)

// reservedMigrations are numbers claimed by work on another branch: a gap there is allowed
// until that branch lands (8: the workflows branch; billing took 9 to stay clear of it; 26:
// the canvas layout's, issue 23, beside 27 of the live canvas).
var reservedMigrations = map[int]bool{8: true}

// Both dialects have the same migrations, numbered 1, 2, 3… with no gaps but reserved ones.
func TestMigrationsPairUpAndAreNumbered(t *testing.T) {
	names := map[store.Dialect][]string{}
	for _, d := range testdb.Dialects() {
		entries, err := fs.ReadDir(store.MigrationsFS(d), ".")
		if err != nil {
			t.Fatal(err)
		}
		want := 1
		for _, e := range entries {
			m := migrationName.FindStringSubmatch(e.Name())
			if m == nil {
				t.Fatalf("%s: %s is not named NNNNN_name.sql", d, e.Name())
			}
			n, _ := strconv.Atoi(m[1])
			for n != want && reservedMigrations[want] {
				want++ // taken by a branch that has not landed yet
			}
			if n != want {
				t.Fatalf("%s: %s should be number %d", d, e.Name(), want)
			}
			want++
			names[d] = append(names[d], e.Name())
		}
	}
	a, b := names[store.SQLite], names[store.Postgres]
	if len(a) != len(b) {
		t.Fatalf("sqlite has %d migrations, postgres %d", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("migration %d: sqlite %s, postgres %s", i+1, a[i], b[i])
		}
	}
}

// Every migration runs on both databases one step at a time, with the fixture rows of
// testdata/migrations/NNNNN.sql (when present) loaded right after its step, so each later
// migration is proven against data and not only an empty schema.
func TestMigrationsRunStepByStepWithFixtures(t *testing.T) {
	for _, d := range testdb.Dialects() {
		t.Run(string(d)+"/steps", func(t *testing.T) {
			ctx := context.Background()
			db := testdb.Open(t, d, false)
			steps, last := 0, int64(0)
			for {
				r, err := db.MigrateUpByOne(ctx)
				if errors.Is(err, goose.ErrNoNextVersion) {
					break
				}
				if err != nil {
					t.Fatalf("step %d: %v", steps+1, err)
				}
				steps++
				last = r.Version
				fixture := filepath.Join("..", "..", "testdata", "migrations", migrationName.FindStringSubmatch(filepath.Base(r.Name))[1]+".sql")
				if sql, err := os.ReadFile(fixture); err == nil {
					if err := db.ExecRaw(ctx, string(sql)); err != nil {
						t.Fatalf("fixture %s: %v", fixture, err)
					}
				}
			}
			if steps == 0 {
				t.Fatal("no migrations ran")
			}
			v, err := db.MigrationVersion(ctx)
			if err != nil || v != last {
				t.Fatalf("version %d after %d steps ending at %d (%v)", v, steps, last, err)
			}
			// Migrate then adds only River's tables, each of its migrations once; running it
			// again is a no-op.
			applied, err := db.Migrate(ctx)
			if err != nil || len(applied) == 0 {
				t.Fatalf("migrate after the steps: %v (%v)", applied, err)
			}
			for _, m := range applied {
				if !strings.HasPrefix(m.Name, "river/") {
					t.Fatalf("migrate after the steps applied %s again", m.Name)
				}
			}
			if applied, err := db.Migrate(ctx); err != nil || len(applied) != 0 {
				t.Fatalf("second migrate applied %d (%v)", len(applied), err)
			}
		})
	}
}
