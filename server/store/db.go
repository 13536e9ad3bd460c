// Package store is Betty's persistence: sqlx over SQLite (the default, a file in the data
// directory) or PostgreSQL. One file per aggregate; dialect differences live in this package
// only; driver errors become the sentinels of errors.go exactly once, in translate.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver
	"github.com/jmoiron/sqlx"
	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver
)

// Dialect names the SQL database in use.
type Dialect string

const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

// DB is the database handle shared by every store. On SQLite writes go through a pool of one
// connection (SQLite allows one writer; queuing in Go beats SQLITE_BUSY) and reads through a
// separate pool; on PostgreSQL both are the same pool.
type DB struct {
	dialect Dialect
	writer  *sqlx.DB
	reader  *sqlx.DB
	// stmts caches prepared statements by pool and query (SQLite only: parsing SQL is most of
	// the cost of a small query there; pgx caches statements itself).
	stmts sync.Map
	// source describes the database for people (path or host/db), never with a password.
	source string
	// pool is, on PostgreSQL, a pgx pool beside database/sql's for River (package jobs), whose
	// pgx driver works on pgx connections.
	pool *pgxpool.Pool
}

// Options configures Open.
type Options struct {
	// DatabaseURL selects PostgreSQL (postgres:// or postgresql://). Empty means SQLite.
	DatabaseURL string
	// DataDir holds the SQLite file (betty.db) when DatabaseURL is empty.
	DataDir string
	// MaxOpenConns bounds the PostgreSQL pool and the SQLite read pool (default 10).
	MaxOpenConns int
	// MustExist refuses to create a SQLite database that is not there yet (ErrNoDatabase):
	// for commands that act on an existing server's data, such as `betty admin grant`.
	MustExist bool
}

// ErrNoDatabase: Options.MustExist was set and there is no SQLite database in the data dir.
var ErrNoDatabase = errors.New("no Betty database here")

// Open connects to the database Options describe and checks that it answers. It does not
// migrate; call Migrate.
func Open(ctx context.Context, o Options) (*DB, error) {
	if o.MaxOpenConns <= 0 {
		o.MaxOpenConns = 10
	}
	var db *DB
	var err error
	switch {
	case o.DatabaseURL == "":
		db, err = openSQLite(o)
	case strings.HasPrefix(o.DatabaseURL, "postgres://"), strings.HasPrefix(o.DatabaseURL, "postgresql://"):
		db, err = openPostgres(o)
	default:
		return nil, fmt.Errorf("database url: unsupported scheme in %q (want postgres:// or none for SQLite)", redact(o.DatabaseURL))
	}
	if err != nil {
		return nil, err
	}
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := db.Ping(pingCtx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect to %s: %w", db.source, err)
	}
	return db, nil
}

func openSQLite(o Options) (*DB, error) {
	if o.DataDir == "" {
		return nil, fmt.Errorf("data dir: required for SQLite")
	}
	path := filepath.Join(o.DataDir, "betty.db")
	if o.MustExist {
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("%w: %s does not exist (betty serve makes it; give the same --data-dir, BETTY_DATA_DIR or --config as betty serve)", ErrNoDatabase, path)
		}
	}
	if err := os.MkdirAll(o.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("data dir: %w", err)
	}
	pragmas := "_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(1)&_time_format=sqlite"
	writer, err := sqlx.Open("sqlite", "file:"+path+"?"+pragmas+"&_txlock=immediate")
	if err != nil {
		return nil, err
	}
	writer.SetMaxOpenConns(1)
	writer.SetMaxIdleConns(1)
	writer.SetConnMaxLifetime(0)
	reader, err := sqlx.Open("sqlite", "file:"+path+"?"+pragmas+"&mode=ro")
	if err != nil {
		writer.Close()
		return nil, err
	}
	reader.SetMaxOpenConns(o.MaxOpenConns)
	reader.SetMaxIdleConns(o.MaxOpenConns)
	// The writer creates the file and switches it to WAL before any reader opens it read-only.
	if _, err := writer.Exec("SELECT 1"); err != nil {
		writer.Close()
		reader.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return &DB{dialect: SQLite, writer: writer, reader: reader, source: path}, nil
}

func openPostgres(o Options) (*DB, error) {
	sqlPool, err := sqlx.Open("pgx", o.DatabaseURL)
	if err != nil {
		return nil, fmt.Errorf("database url: %w", err)
	}
	sqlPool.SetMaxOpenConns(o.MaxOpenConns)
	sqlPool.SetMaxIdleConns(o.MaxOpenConns)
	sqlPool.SetConnMaxIdleTime(5 * time.Minute)
	cfg, err := pgxpool.ParseConfig(o.DatabaseURL)
	if err != nil {
		sqlPool.Close()
		return nil, fmt.Errorf("database url: %w", err)
	}
	// River's pool: its producers, completer and leader elector, plus one listener.
	cfg.MaxConns = 4
	cfg.MaxConnIdleTime = 5 * time.Minute
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		sqlPool.Close()
		return nil, fmt.Errorf("database url: %w", err)
	}
	return &DB{dialect: Postgres, writer: sqlPool, reader: sqlPool, pool: pool, source: redact(o.DatabaseURL)}, nil
}

// Writer is the pool that writes (on SQLite the single writer connection), for River's
// SQLite driver.
func (db *DB) Writer() *sql.DB { return db.writer.DB }

// PgxPool is River's pgx pool on PostgreSQL (nil on SQLite).
func (db *DB) PgxPool() *pgxpool.Pool { return db.pool }

// redact hides the password of a database URL.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparseable url)"
	}
	return u.Redacted()
}

// Dialect says which database this is.
func (db *DB) Dialect() Dialect { return db.dialect }

// Source describes the database for logs and the start-up summary (no password).
func (db *DB) Source() string { return db.source }

// Ping checks that the database answers.
func (db *DB) Ping(ctx context.Context) error {
	if err := db.writer.PingContext(ctx); err != nil {
		return err
	}
	if db.reader != db.writer {
		return db.reader.PingContext(ctx)
	}
	return nil
}

// Close closes the cached statements and every pool.
func (db *DB) Close() error {
	db.stmts.Range(func(k, v any) bool {
		v.(*sqlx.Stmt).Close()
		db.stmts.Delete(k)
		return true
	})
	err := db.writer.Close()
	if db.pool != nil {
		db.pool.Close()
	}
	if db.reader != db.writer {
		if rerr := db.reader.Close(); err == nil {
			err = rerr
		}
	}
	return err
}

// Pools are the connection pools by name, for pool metrics.
func (db *DB) Pools() map[string]*sql.DB {
	if db.reader == db.writer {
		return map[string]*sql.DB{"main": db.writer.DB}
	}
	return map[string]*sql.DB{"writer": db.writer.DB, "reader": db.reader.DB}
}

// queryer is what store methods run statements on: a pool or the transaction in the context.
type queryer interface {
	sqlx.ExtContext
	GetContext(ctx context.Context, dest any, query string, args ...any) error
	SelectContext(ctx context.Context, dest any, query string, args ...any) error
}

// read returns the transaction in ctx, or the read pool.
func (db *DB) read(ctx context.Context) queryer {
	if tx := txFrom(ctx, db); tx != nil {
		return tx
	}
	return db.reader
}

// needTx refuses what must run inside a transaction (a lock held until it ends) outside one.
func (db *DB) needTx(ctx context.Context, what string) error {
	if !db.InTransaction(ctx) {
		return fmt.Errorf("store: %s needs a transaction", what)
	}
	return nil
}

// lockRows ends a SELECT that holds the rows it reads until the transaction in ctx ends:
// " FOR UPDATE" on PostgreSQL in a transaction; nothing on SQLite, whose write transactions
// already run one at a time, or outside a transaction.
func (db *DB) lockRows(ctx context.Context) string {
	if db.dialect == Postgres && txFrom(ctx, db) != nil {
		return " FOR UPDATE"
	}
	return ""
}

// write returns the transaction in ctx, or the write pool.
func (db *DB) write(ctx context.Context) queryer {
	if tx := txFrom(ctx, db); tx != nil {
		return tx
	}
	return db.writer
}

// rebind turns ? placeholders into the dialect's ($1 on PostgreSQL).
func (db *DB) rebind(query string) string {
	if db.dialect == Postgres {
		return sqlx.Rebind(sqlx.DOLLAR, query)
	}
	return query
}

// get runs a single-row query into dest, translating errors.
func (db *DB) get(ctx context.Context, q queryer, dest any, query string, args ...any) error {
	stmt, err := db.prepared(ctx, q, query)
	if err != nil {
		return translate(err)
	}
	if stmt != nil {
		return translate(stmt.GetContext(ctx, dest, args...))
	}
	return translate(q.GetContext(ctx, dest, db.rebind(query), args...))
}

// selectAll runs a query into a slice, translating errors.
func (db *DB) selectAll(ctx context.Context, q queryer, dest any, query string, args ...any) error {
	stmt, err := db.prepared(ctx, q, query)
	if err != nil {
		return translate(err)
	}
	if stmt != nil {
		return translate(stmt.SelectContext(ctx, dest, args...))
	}
	return translate(q.SelectContext(ctx, dest, db.rebind(query), args...))
}

// exec runs a statement and returns the rows it affected, translating errors.
func (db *DB) exec(ctx context.Context, query string, args ...any) (int64, error) {
	q := db.write(ctx)
	stmt, err := db.prepared(ctx, q, query)
	if err != nil {
		return 0, translate(err)
	}
	var res sql.Result
	if stmt != nil {
		res, err = stmt.ExecContext(ctx, args...)
	} else {
		res, err = q.ExecContext(ctx, db.rebind(query), args...)
	}
	if err != nil {
		return 0, translate(err)
	}
	n, err := res.RowsAffected()
	return n, translate(err)
}

// prepared returns the cached prepared statement of query on q's pool (bound to q when q is
// a transaction), or nil on PostgreSQL.
func (db *DB) prepared(ctx context.Context, q queryer, query string) (*sqlx.Stmt, error) {
	if db.dialect != SQLite {
		return nil, nil
	}
	pool, tx := db.writer, (*sqlx.Tx)(nil)
	switch v := q.(type) {
	case *sqlx.Tx:
		tx = v
	case *sqlx.DB:
		pool = v
	}
	key := stmtKey{pool: pool, query: query}
	cached, ok := db.stmts.Load(key)
	if !ok && tx != nil {
		// Preparing on the pool would wait for the writer connection the transaction holds.
		return nil, nil
	}
	if !ok {
		stmt, err := pool.PreparexContext(context.WithoutCancel(ctx), query)
		if err != nil {
			return nil, err
		}
		if cached, ok = db.stmts.LoadOrStore(key, stmt); ok {
			stmt.Close()
		}
	}
	stmt := cached.(*sqlx.Stmt)
	if tx != nil {
		return tx.StmtxContext(ctx, stmt), nil
	}
	return stmt, nil
}

type stmtKey struct {
	pool  *sqlx.DB
	query string
}

// ExecRaw runs a statement outside any store method: schema set-up in tests and tools.
func (db *DB) ExecRaw(ctx context.Context, stmt string) error {
	_, err := db.writer.ExecContext(ctx, stmt)
	return translate(err)
}

// one runs a statement that must change exactly one row: ErrNotFound when it changed none.
func (db *DB) one(ctx context.Context, query string, args ...any) error {
	n, err := db.exec(ctx, query, args...)
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}
