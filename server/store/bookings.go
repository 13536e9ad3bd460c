package store

import (
	"context"
	"time"
)

// CallBooking is a shopper's request for a call from the storefront widget, with the consent
// they gave (server/integrations/shopify).
type CallBooking struct {
	ID             string    `db:"id"`
	OrganizationID string    `db:"organization_id"`
	WorkflowID     string    `db:"workflow_id"`
	JobID          string    `db:"job_id"`
	PhoneNumber    string    `db:"phone_number"`
	Name           *string   `db:"name"`
	ConsentText    string    `db:"consent_text"`
	PageURL        *string   `db:"page_url"`
	ClientIP       string    `db:"client_ip"`
	ConsentGivenAt time.Time `db:"consent_given_at"`
	CreatedAt      time.Time `db:"created_at"`
}

const callBookingColumns = `id, organization_id, workflow_id, job_id, phone_number, name, consent_text, page_url, client_ip,
	consent_given_at, created_at`

// OrganizationByPublicKey answers the organisation whose publishable key is key, or ErrNotFound.
func (db *DB) OrganizationByPublicKey(ctx context.Context, key string) (Organization, error) {
	var o Organization
	err := db.get(ctx, db.read(ctx), &o, `SELECT `+organizationColumns+` FROM organizations WHERE public_api_key = ?`, key)
	return o, err
}

// StorefrontWorkflow answers the team's workflow attached to its storefront (shopify_enabled),
// or ErrNotFound.
func (db *DB) StorefrontWorkflow(ctx context.Context, orgID string) (Workflow, error) {
	var w Workflow
	err := db.get(ctx, db.read(ctx), &w, workflowSelect+` WHERE w.organization_id = ? AND w.shopify_enabled
		ORDER BY w.updated_at DESC LIMIT 1`, orgID)
	return w, err
}

// LockBookings serialises the counting of book-a-call limits with the booking that follows,
// until the transaction in ctx ends: on PostgreSQL a transaction-scoped advisory lock (every
// replica shares it); SQLite's single writer serialises write transactions already.
func (db *DB) LockBookings(ctx context.Context) error {
	if db.dialect != Postgres {
		return nil
	}
	// 0x626f6f6b ("book"): the lock's key.
	_, err := db.exec(ctx, `SELECT pg_advisory_xact_lock(1651470187)`)
	return err
}

// Count is how many rows a limit counts in its window and when the oldest of them was made
// (zero when none).
type Count struct {
	N      int
	Oldest time.Time
}

// countSince counts the rows a query over created_at answers (oldest first).
func (db *DB) countSince(ctx context.Context, query string, args ...any) (Count, error) {
	var at []time.Time
	if err := db.selectAll(ctx, db.read(ctx), &at, query+` ORDER BY created_at`, args...); err != nil {
		return Count{}, err
	}
	c := Count{N: len(at)}
	if len(at) > 0 {
		c.Oldest = at[0]
	}
	return c, nil
}

// BookingRequestsSince counts the book-a-call requests of a client since t.
func (db *DB) BookingRequestsSince(ctx context.Context, clientKey string, since time.Time) (Count, error) {
	return db.countSince(ctx, `SELECT created_at FROM call_booking_requests WHERE client_key = ? AND created_at > ?`, clientKey, since)
}

// AddBookingRequest records a request of a client at t and forgets the requests made before
// prune.
func (db *DB) AddBookingRequest(ctx context.Context, clientKey string, t, prune time.Time) error {
	if _, err := db.exec(ctx, `DELETE FROM call_booking_requests WHERE created_at < ?`, prune); err != nil {
		return err
	}
	_, err := db.exec(ctx, `INSERT INTO call_booking_requests (id, client_key, created_at) VALUES (?, ?, ?)`, NewID(), clientKey, t)
	return err
}

// BookingsOfNumberSince counts the bookings of a number (every team's) since t.
func (db *DB) BookingsOfNumberSince(ctx context.Context, number string, since time.Time) (Count, error) {
	return db.countSince(ctx, `SELECT created_at FROM call_bookings WHERE phone_number = ? AND created_at > ?`, number, since)
}

// BookingsOfTeamSince counts the team's bookings since t.
func (db *DB) BookingsOfTeamSince(ctx context.Context, orgID string, since time.Time) (Count, error) {
	return db.countSince(ctx, `SELECT created_at FROM call_bookings WHERE organization_id = ? AND created_at > ?`, orgID, since)
}

// CreateCallBooking inserts b (its id filled when empty).
func (db *DB) CreateCallBooking(ctx context.Context, b *CallBooking) error {
	if b.ID == "" {
		b.ID = NewID()
	}
	_, err := db.exec(ctx, `INSERT INTO call_bookings (`+callBookingColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		b.ID, b.OrganizationID, b.WorkflowID, b.JobID, b.PhoneNumber, b.Name, b.ConsentText, b.PageURL, b.ClientIP,
		b.ConsentGivenAt, b.CreatedAt)
	return err
}

// StorefrontBooking is a booking with the log and status of its call (nil before the call was
// placed; the latest attempt's when the call was tried again).
type StorefrontBooking struct {
	CallBooking
	CallLogID  *string `db:"call_log_id"`
	CallStatus *string `db:"call_status"`
}

// CallBookingsOfTeam lists a team's bookings newest first with their calls, and how many there
// are.
func (db *DB) CallBookingsOfTeam(ctx context.Context, orgID string, limit, offset int) ([]StorefrontBooking, int, error) {
	var total int
	if err := db.get(ctx, db.read(ctx), &total, `SELECT COUNT(*) FROM call_bookings WHERE organization_id = ?`, orgID); err != nil {
		return nil, 0, err
	}
	out := []StorefrontBooking{}
	if total == 0 {
		return out, 0, nil
	}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT b.id, b.organization_id, b.workflow_id, b.job_id, b.phone_number, b.name,
		b.consent_text, b.page_url, b.client_ip, b.consent_given_at, b.created_at, l.id AS call_log_id, l.status AS call_status
		FROM call_bookings b
		LEFT JOIN call_logs l ON l.organization_id = b.organization_id AND l.id = (SELECT a.call_log_id FROM contact_attempts a
			WHERE a.job_id = b.job_id AND a.call_log_id IS NOT NULL ORDER BY a.attempt DESC LIMIT 1)
		WHERE b.organization_id = ? ORDER BY b.created_at DESC, b.id DESC LIMIT ? OFFSET ?`, orgID, limit, offset)
	return out, total, err
}
