package store

import (
	"context"
	"embed"
	"fmt"
	"io/fs"

	"github.com/pressly/goose/v3"
)

// Migrations live in one folder per dialect with the same numbered files in each
// (migrations_test.go checks that they pair up). They are embedded, applied at start by
// `betty serve` and on demand by `betty migrate`.
//
//go:embed migrations
var migrations embed.FS

// MigrationsFS returns the migrations of a dialect.
func MigrationsFS(d Dialect) fs.FS {
	sub, err := fs.Sub(migrations, "migrations/"+string(d))
	if err != nil {
		panic(err)
	}
	return sub
}

func (db *DB) migrator() (*goose.Provider, error) {
	dialect := goose.DialectSQLite3
	if db.dialect == Postgres {
		dialect = goose.DialectPostgres
	}
	return goose.NewProvider(dialect, db.writer.DB, MigrationsFS(db.dialect))
}

// MigrationResult is one migration applied.
type MigrationResult struct {
	Version int64
	Name    string
}

// Migrate applies every pending migration and returns those it applied.
func (db *DB) Migrate(ctx context.Context) ([]MigrationResult, error) {
	p, err := db.migrator()
	if err != nil {
		return nil, fmt.Errorf("migrations: %w", err)
	}
	res, err := p.Up(ctx)
	return results(res), err
}

// MigrateUpByOne applies the next pending migration; it returns goose.ErrNoNextVersion when
// none is left. Used by the migration tests to load fixtures between steps.
func (db *DB) MigrateUpByOne(ctx context.Context) (MigrationResult, error) {
	p, err := db.migrator()
	if err != nil {
		return MigrationResult{}, fmt.Errorf("migrations: %w", err)
	}
	r, err := p.UpByOne(ctx)
	if err != nil {
		return MigrationResult{}, err
	}
	return MigrationResult{Version: r.Source.Version, Name: r.Source.Path}, nil
}

// MigrationVersion is the newest applied migration.
func (db *DB) MigrationVersion(ctx context.Context) (int64, error) {
	p, err := db.migrator()
	if err != nil {
		return 0, err
	}
	return p.GetDBVersion(ctx)
}

func results(rs []*goose.MigrationResult) []MigrationResult {
	out := make([]MigrationResult, 0, len(rs))
	for _, r := range rs {
		out = append(out, MigrationResult{Version: r.Source.Version, Name: r.Source.Path})
	}
	return out
}
