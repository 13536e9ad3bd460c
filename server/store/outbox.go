package store

import (
	"context"
	"time"
)

// Email is a message of the outbox.
type Email struct {
	ID        string      `db:"id"`
	Recipient string      `db:"recipient"`
	Subject   string      `db:"subject"`
	Body      string      `db:"body"`
	Link      string      `db:"link"`
	Kind      string      `db:"kind"`
	Status    EmailStatus `db:"status"`
	Attempts  int         `db:"attempts"`
	CreatedAt time.Time   `db:"created_at"`
	SentAt    *time.Time  `db:"sent_at"`
	Error     string      `db:"error"`
}

const emailColumns = `id, recipient, subject, body, link, kind, status, attempts, created_at, sent_at, error`

// InsertEmail records a message, queued.
func (db *DB) InsertEmail(ctx context.Context, e *Email) error {
	e.ID = NewID()
	e.CreatedAt = now()
	e.Recipient = NormalizeEmail(e.Recipient)
	e.Status = EmailQueued
	_, err := db.exec(ctx, `INSERT INTO email_outbox (`+emailColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		e.ID, e.Recipient, e.Subject, e.Body, e.Link, e.Kind, e.Status, 0, e.CreatedAt, nil, "")
	return err
}

// EmailByID returns a message of the outbox, or ErrNotFound.
func (db *DB) EmailByID(ctx context.Context, id string) (Email, error) {
	var e Email
	err := db.get(ctx, db.write(ctx), &e, `SELECT `+emailColumns+` FROM email_outbox WHERE id = ?`, id)
	return e, err
}

// SettleEmail records a delivery attempt that ended the message's journey: sent (the relay
// accepted it) or kept (no relay). Only a queued or failed message changes.
func (db *DB) SettleEmail(ctx context.Context, id string, status EmailStatus) error {
	attempt := 1
	if status == EmailKept {
		attempt = 0
	}
	return db.one(ctx, `UPDATE email_outbox SET status = ?, sent_at = ?, error = '', attempts = attempts + ?
		WHERE id = ? AND status IN (?, ?)`, status, now(), attempt, id, EmailQueued, EmailFailed)
}

// FailEmail records a failed delivery attempt and why.
func (db *DB) FailEmail(ctx context.Context, id, why string) error {
	return db.one(ctx, `UPDATE email_outbox SET status = ?, error = ?, attempts = attempts + 1
		WHERE id = ? AND status IN (?, ?)`, EmailFailed, why, id, EmailQueued, EmailFailed)
}

// Outbox lists the messages to a recipient, newest first.
func (db *DB) Outbox(ctx context.Context, recipient string) ([]Email, error) {
	out, _, err := db.ListOutbox(ctx, recipient, 1000, 0)
	return out, err
}

// ListOutbox lists messages newest first, to one recipient when recipient is not empty, and
// how many match.
func (db *DB) ListOutbox(ctx context.Context, recipient string, limit, offset int) ([]Email, int, error) {
	where, args := "", []any{}
	if recipient != "" {
		where, args = " WHERE recipient = ?", append(args, NormalizeEmail(recipient))
	}
	var total int
	if err := db.get(ctx, db.read(ctx), &total, `SELECT COUNT(*) FROM email_outbox`+where, args...); err != nil {
		return nil, 0, err
	}
	out := []Email{}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT `+emailColumns+` FROM email_outbox`+where+`
		ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, append(args, limit, offset)...)
	return out, total, err
}
