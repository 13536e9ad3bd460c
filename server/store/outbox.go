package store

import (
	"context"
	"time"
)

// Email is a message of the outbox.
type Email struct {
	ID        string     `db:"id"`
	Recipient string     `db:"recipient"`
	Subject   string     `db:"subject"`
	Body      string     `db:"body"`
	Link      string     `db:"link"`
	Kind      string     `db:"kind"`
	CreatedAt time.Time  `db:"created_at"`
	SentAt    *time.Time `db:"sent_at"`
	Error     string     `db:"error"`
}

const emailColumns = `id, recipient, subject, body, link, kind, created_at, sent_at, error`

// InsertEmail records a message.
func (db *DB) InsertEmail(ctx context.Context, e *Email) error {
	e.ID = NewID()
	e.CreatedAt = now()
	e.Recipient = NormalizeEmail(e.Recipient)
	_, err := db.exec(ctx, `INSERT INTO email_outbox (`+emailColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		e.ID, e.Recipient, e.Subject, e.Body, e.Link, e.Kind, e.CreatedAt, e.SentAt, e.Error)
	return err
}

// Outbox lists the messages to a recipient, newest first.
func (db *DB) Outbox(ctx context.Context, recipient string) ([]Email, error) {
	out := []Email{}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT `+emailColumns+` FROM email_outbox WHERE recipient = ?
		ORDER BY created_at DESC, id DESC`, NormalizeEmail(recipient))
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
