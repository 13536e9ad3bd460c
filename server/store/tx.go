package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/jmoiron/sqlx"
)

type txKey struct{}

type txValue struct {
	db *DB
	tx *sqlx.Tx
	// pgConn is, on PostgreSQL, the pgx connection the transaction runs on, so River can
	// insert jobs in it (see PgxTx).
	pgConn *pgx.Conn
}

// InTx runs fn in a transaction that travels in the context: every store method called with
// the context fn receives joins it, and so does a background job inserted with it (package
// jobs). A nested InTx joins the outer transaction. The transaction commits when fn returns
// nil and rolls back otherwise (and on panic).
func (db *DB) InTx(ctx context.Context, fn func(ctx context.Context) error) (err error) {
	if txFrom(ctx, db) != nil {
		return fn(ctx)
	}
	v := txValue{db: db}
	var conn *sqlx.Conn
	if db.dialect == Postgres {
		// The transaction runs on a connection held for its whole life, whose pgx connection
		// is kept so River's pgx driver can join the same transaction.
		if conn, err = db.writer.Connx(ctx); err != nil {
			return fmt.Errorf("begin: %w", translate(err))
		}
		defer conn.Close()
		if err := conn.Raw(func(dc any) error {
			if c, ok := dc.(*stdlib.Conn); ok {
				v.pgConn = c.Conn()
			}
			return nil
		}); err != nil {
			return fmt.Errorf("begin: %w", err)
		}
		v.tx, err = conn.BeginTxx(ctx, nil)
	} else {
		v.tx, err = db.writer.BeginTxx(ctx, nil)
	}
	if err != nil {
		return fmt.Errorf("begin: %w", translate(err))
	}
	tx := v.tx
	defer func() {
		if p := recover(); p != nil {
			_ = tx.Rollback()
			panic(p)
		}
		if err != nil {
			_ = tx.Rollback()
			return
		}
		if cerr := tx.Commit(); cerr != nil {
			err = fmt.Errorf("commit: %w", translate(cerr))
		}
	}()
	return fn(context.WithValue(ctx, txKey{}, v))
}

// txFrom returns the transaction of db carried by ctx, if any.
func txFrom(ctx context.Context, db *DB) *sqlx.Tx {
	v, ok := ctx.Value(txKey{}).(txValue)
	if !ok || v.db != db {
		return nil
	}
	return v.tx
}

// InTransaction says whether ctx carries a transaction of db.
func (db *DB) InTransaction(ctx context.Context) bool { return txFrom(ctx, db) != nil }

// SQLTx returns the database/sql transaction ctx carries (for River's SQLite driver).
func (db *DB) SQLTx(ctx context.Context) (*sql.Tx, bool) {
	tx := txFrom(ctx, db)
	if tx == nil {
		return nil, false
	}
	return tx.Tx, true
}

// PgxTx returns, on PostgreSQL, the transaction ctx carries as a pgx.Tx, for River's pgx driver:
// statements sent through it run inside the same transaction as the store's. The transaction
// still belongs to InTx, which commits or rolls it back; Commit and Rollback of the returned
// value refuse, and Begin opens a savepoint.
func (db *DB) PgxTx(ctx context.Context) (pgx.Tx, bool) {
	v, ok := ctx.Value(txKey{}).(txValue)
	if !ok || v.db != db || v.pgConn == nil {
		return nil, false
	}
	return &joinedTx{conn: v.pgConn}, true
}
