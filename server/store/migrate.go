package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"

	"github.com/jackc/pgx/v5"
	"github.com/pressly/goose/v3"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
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

// Migrate applies every pending migration of Betty's schema, then River's (the background
// job tables, package jobs), and returns those it applied.
func (db *DB) Migrate(ctx context.Context) ([]MigrationResult, error) {
	p, err := db.migrator()
	if err != nil {
		return nil, fmt.Errorf("migrations: %w", err)
	}
	res, err := p.Up(ctx)
	out := results(res)
	if err != nil {
		return out, err
	}
	river, err := db.migrateRiver(ctx)
	return append(out, river...), err
}

// migrateRiver applies River's own migrations with River's migrator, on the same database.
func (db *DB) migrateRiver(ctx context.Context) ([]MigrationResult, error) {
	var res *rivermigrate.MigrateResult
	var err error
	if db.dialect == Postgres {
		var m *rivermigrate.Migrator[pgx.Tx]
		if m, err = rivermigrate.New(riverpgxv5.New(db.pool), nil); err == nil {
			res, err = m.Migrate(ctx, rivermigrate.DirectionUp, nil)
		}
	} else {
		var m *rivermigrate.Migrator[*sql.Tx]
		if m, err = rivermigrate.New(riversqlite.New(db.writer.DB), nil); err == nil {
			res, err = m.Migrate(ctx, rivermigrate.DirectionUp, nil)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("river migrations: %w", err)
	}
	var out []MigrationResult
	for _, v := range res.Versions {
		out = append(out, MigrationResult{Version: int64(v.Version), Name: "river/" + v.Name})
	}
	return out, nil
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
