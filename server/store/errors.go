package store

import (
	"database/sql"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Sentinels every store method returns instead of driver errors. Callers test them with
// errors.Is; the HTTP layer maps them to problems once.
var (
	// ErrNotFound: no row matched (or it belongs to another organisation).
	ErrNotFound = errors.New("store: not found")
	// ErrConflict: a unique constraint would be broken.
	ErrConflict = errors.New("store: conflict")
	// ErrReference: a foreign key points at nothing, or a row is still referenced.
	ErrReference = errors.New("store: invalid reference")
)

// translate maps driver errors to the sentinels above, keeping the driver error for logs.
func translate(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case "23505": // unique_violation
			return fmt.Errorf("%w: %s", ErrConflict, pgErr.ConstraintName)
		case "23503": // foreign_key_violation
			return fmt.Errorf("%w: %s", ErrReference, pgErr.ConstraintName)
		}
		return err
	}
	var sqliteErr *sqlite.Error
	if errors.As(err, &sqliteErr) {
		switch sqliteErr.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return fmt.Errorf("%w: %s", ErrConflict, sqliteErr.Error())
		case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
			return fmt.Errorf("%w: %s", ErrReference, sqliteErr.Error())
		}
	}
	return err
}
