package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// joinedTx is a pgx.Tx over the connection of a transaction begun by InTx through
// database/sql. It is used from the goroutine that runs InTx's function only, while that
// function runs, so the connection is never used by two callers at once.
type joinedTx struct {
	conn  *pgx.Conn
	depth int
}

var errJoinedTx = errors.New("store: this transaction is committed or rolled back by InTx")

func (t *joinedTx) Begin(ctx context.Context) (pgx.Tx, error) {
	sp := &savepointTx{joinedTx: joinedTx{conn: t.conn, depth: t.depth + 1}}
	if _, err := t.conn.Exec(ctx, fmt.Sprintf("SAVEPOINT betty_sp_%d", sp.depth)); err != nil {
		return nil, err
	}
	return sp, nil
}

func (t *joinedTx) Commit(context.Context) error   { return errJoinedTx }
func (t *joinedTx) Rollback(context.Context) error { return errJoinedTx }

func (t *joinedTx) CopyFrom(ctx context.Context, table pgx.Identifier, columns []string, src pgx.CopyFromSource) (int64, error) {
	return t.conn.CopyFrom(ctx, table, columns, src)
}

func (t *joinedTx) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	return t.conn.SendBatch(ctx, b)
}

func (t *joinedTx) LargeObjects() pgx.LargeObjects { return pgx.LargeObjects{} }

func (t *joinedTx) Prepare(ctx context.Context, name, sql string) (*pgconn.StatementDescription, error) {
	return t.conn.Prepare(ctx, name, sql)
}

func (t *joinedTx) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	return t.conn.Exec(ctx, sql, args...)
}

func (t *joinedTx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	return t.conn.Query(ctx, sql, args...)
}

func (t *joinedTx) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return t.conn.QueryRow(ctx, sql, args...)
}

func (t *joinedTx) Conn() *pgx.Conn { return t.conn }

// savepointTx is a nested transaction of a joinedTx.
type savepointTx struct {
	joinedTx
	done bool
}

func (s *savepointTx) Commit(ctx context.Context) error {
	if s.done {
		return pgx.ErrTxClosed
	}
	s.done = true
	_, err := s.conn.Exec(ctx, fmt.Sprintf("RELEASE SAVEPOINT betty_sp_%d", s.depth))
	return err
}

func (s *savepointTx) Rollback(ctx context.Context) error {
	if s.done {
		return pgx.ErrTxClosed
	}
	s.done = true
	_, err := s.conn.Exec(ctx, fmt.Sprintf("ROLLBACK TO SAVEPOINT betty_sp_%d", s.depth))
	return err
}
