package store

import (
	"context"
	"time"
)

// Session is one signed-in device of a user.
type Session struct {
	ID         string     `db:"id"`
	UserID     string     `db:"user_id"`
	UserAgent  string     `db:"user_agent"`
	IP         string     `db:"ip"`
	CreatedAt  time.Time  `db:"created_at"`
	LastUsedAt time.Time  `db:"last_used_at"`
	ExpiresAt  time.Time  `db:"expires_at"`
	RevokedAt  *time.Time `db:"revoked_at"`
	RevokedWhy string     `db:"revoked_why"`
}

const sessionColumns = `id, user_id, user_agent, ip, created_at, last_used_at, expires_at, revoked_at, revoked_why`

// Active says whether the session can still be used at t.
func (s Session) Active(t time.Time) bool { return s.RevokedAt == nil && t.Before(s.ExpiresAt) }

// CreateSession inserts s and its first refresh token (by hash), filling the ids and times.
func (db *DB) CreateSession(ctx context.Context, s *Session, refreshHash string, refreshTTL time.Duration) error {
	s.ID = NewID()
	s.CreatedAt = now()
	s.LastUsedAt = s.CreatedAt
	s.ExpiresAt = s.CreatedAt.Add(refreshTTL)
	return db.InTx(ctx, func(ctx context.Context) error {
		if _, err := db.exec(ctx, `INSERT INTO sessions (`+sessionColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			s.ID, s.UserID, s.UserAgent, s.IP, s.CreatedAt, s.LastUsedAt, s.ExpiresAt, nil, ""); err != nil {
			return err
		}
		_, err := db.exec(ctx, `INSERT INTO refresh_tokens (id, session_id, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?)`,
			NewID(), s.ID, refreshHash, s.CreatedAt, s.ExpiresAt)
		return err
	})
}

// SessionByID returns a session or ErrNotFound.
func (db *DB) SessionByID(ctx context.Context, id string) (Session, error) {
	var s Session
	err := db.get(ctx, db.read(ctx), &s, `SELECT `+sessionColumns+` FROM sessions WHERE id = ?`, id)
	return s, err
}

// RefreshOutcome is what presenting a refresh token led to.
type RefreshOutcome int

const (
	// Rotated: the token was current; it is now spent and newHash is the session's next one.
	Rotated RefreshOutcome = iota
	// Reused: the token had been rotated already: someone replayed it, so the whole session
	// was revoked.
	Reused
	// Dead: the session was revoked or expired.
	Dead
)

// RotateRefresh spends the refresh token with hash oldHash and records newHash as the
// session's next one, in one transaction. ErrNotFound when no such token exists.
func (db *DB) RotateRefresh(ctx context.Context, oldHash, newHash string, ttl time.Duration) (RefreshOutcome, Session, error) {
	var outcome RefreshOutcome
	var s Session
	err := db.InTx(ctx, func(ctx context.Context) error {
		var tok struct {
			SessionID string     `db:"session_id"`
			RotatedAt *time.Time `db:"rotated_at"`
		}
		if err := db.get(ctx, db.write(ctx), &tok, `SELECT session_id, rotated_at FROM refresh_tokens WHERE token_hash = ?`, oldHash); err != nil {
			return err
		}
		var err error
		if s, err = db.SessionByID(ctx, tok.SessionID); err != nil {
			return err
		}
		t := now()
		switch {
		case !s.Active(t):
			outcome = Dead
			return nil
		case tok.RotatedAt != nil:
			outcome = Reused
			_, err := db.exec(ctx, `UPDATE sessions SET revoked_at = ?, revoked_why = 'refresh token reused' WHERE id = ?`, t, s.ID)
			return err
		}
		outcome = Rotated
		s.LastUsedAt, s.ExpiresAt = t, t.Add(ttl)
		// The condition makes a concurrent second rotation of the same token change nothing.
		if err := db.one(ctx, `UPDATE refresh_tokens SET rotated_at = ? WHERE token_hash = ? AND rotated_at IS NULL`, t, oldHash); err != nil {
			return err
		}
		if _, err := db.exec(ctx, `UPDATE sessions SET last_used_at = ?, expires_at = ? WHERE id = ?`, t, s.ExpiresAt, s.ID); err != nil {
			return err
		}
		_, err = db.exec(ctx, `INSERT INTO refresh_tokens (id, session_id, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?)`,
			NewID(), s.ID, newHash, t, s.ExpiresAt)
		return err
	})
	return outcome, s, err
}

// RevokeSession ends one session.
func (db *DB) RevokeSession(ctx context.Context, id, why string) error {
	_, err := db.exec(ctx, `UPDATE sessions SET revoked_at = COALESCE(revoked_at, ?), revoked_why = ? WHERE id = ?`, now(), why, id)
	return err
}

// RevokeUserSessions ends every session of a user.
func (db *DB) RevokeUserSessions(ctx context.Context, userID, why string) error {
	_, err := db.exec(ctx, `UPDATE sessions SET revoked_at = ?, revoked_why = ? WHERE user_id = ? AND revoked_at IS NULL`, now(), why, userID)
	return err
}

// RefreshTokenSession returns the id of the session a refresh token (current or already
// rotated) belongs to, or ErrNotFound.
func (db *DB) RefreshTokenSession(ctx context.Context, hash string) (string, error) {
	var id string
	err := db.get(ctx, db.read(ctx), &id, `SELECT session_id FROM refresh_tokens WHERE token_hash = ?`, hash)
	return id, err
}
