package store

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
)

type txKey struct{}

type txValue struct {
	db *DB
	tx *sqlx.Tx
}

// InTx runs fn in a transaction that travels in the context: every store method called with
// the context fn receives joins it. A nested InTx joins the outer transaction. The transaction
// commits when fn returns nil and rolls back otherwise (and on panic).
func (db *DB) InTx(ctx context.Context, fn func(ctx context.Context) error) (err error) {
	if txFrom(ctx, db) != nil {
		return fn(ctx)
	}
	tx, err := db.writer.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", translate(err))
	}
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
	return fn(context.WithValue(ctx, txKey{}, txValue{db: db, tx: tx}))
}

// txFrom returns the transaction of db carried by ctx, if any.
func txFrom(ctx context.Context, db *DB) *sqlx.Tx {
	v, ok := ctx.Value(txKey{}).(txValue)
	if !ok || v.db != db {
		return nil
	}
	return v.tx
}
