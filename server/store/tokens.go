package store

import (
	"context"
	"time"
)

// Token is a one-time token sent by e-mail; only its hash is stored.
type Token struct {
	ID             string     `db:"id"`
	Kind           TokenKind  `db:"kind"`
	TokenHash      string     `db:"token_hash"`
	UserID         *string    `db:"user_id"`
	OrganizationID *string    `db:"organization_id"`
	MemberID       *string    `db:"member_id"`
	Email          string     `db:"email"`
	ExpiresAt      time.Time  `db:"expires_at"`
	UsedAt         *time.Time `db:"used_at"`
	CreatedAt      time.Time  `db:"created_at"`
}

const tokenColumns = `id, kind, token_hash, user_id, organization_id, member_id, email, expires_at, used_at, created_at`

// CreateToken inserts t; with replace, earlier unused tokens of the same kind for the same
// user, member or e-mail stop working (a new link cancels the old one).
func (db *DB) CreateToken(ctx context.Context, t *Token, replace bool) error {
	t.ID = NewID()
	t.CreatedAt = now()
	return db.InTx(ctx, func(ctx context.Context) error {
		if replace {
			if _, err := db.exec(ctx, `UPDATE one_time_tokens SET used_at = ? WHERE kind = ? AND used_at IS NULL
				AND ((member_id IS NOT NULL AND member_id = ?) OR (member_id IS NULL AND email = ? AND COALESCE(organization_id, '') = COALESCE(?, '')))`,
				t.CreatedAt, t.Kind, t.MemberID, t.Email, t.OrganizationID); err != nil {
				return err
			}
		}
		_, err := db.exec(ctx, `INSERT INTO one_time_tokens (`+tokenColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			t.ID, t.Kind, t.TokenHash, t.UserID, t.OrganizationID, t.MemberID, t.Email, t.ExpiresAt, nil, t.CreatedAt)
		return err
	})
}

// TokenByHash returns a token of a kind, used or not. ErrNotFound when there is none.
func (db *DB) TokenByHash(ctx context.Context, kind TokenKind, hash string) (Token, error) {
	var t Token
	err := db.get(ctx, db.read(ctx), &t, `SELECT `+tokenColumns+` FROM one_time_tokens WHERE kind = ? AND token_hash = ?`, kind, hash)
	return t, err
}

// SpendToken marks a token used; ErrNotFound when it was used already (by a concurrent call).
func (db *DB) SpendToken(ctx context.Context, id string) error {
	return db.one(ctx, `UPDATE one_time_tokens SET used_at = ? WHERE id = ? AND used_at IS NULL`, now(), id)
}

// CancelMemberTokens makes every unused token of a kind for a member of an organisation stop
// working (an invitation withdrawn or accepted another way).
func (db *DB) CancelMemberTokens(ctx context.Context, kind TokenKind, orgID, memberID string) error {
	_, err := db.exec(ctx, `UPDATE one_time_tokens SET used_at = ? WHERE kind = ? AND organization_id = ? AND member_id = ?
		AND used_at IS NULL`, now(), kind, orgID, memberID)
	return err
}

// CancelOrganizationTokens makes every unused token of a kind for an organisation stop working
// (a new ownership transfer replaces a pending one, whoever it named).
func (db *DB) CancelOrganizationTokens(ctx context.Context, kind TokenKind, orgID string) error {
	_, err := db.exec(ctx, `UPDATE one_time_tokens SET used_at = ? WHERE kind = ? AND organization_id = ? AND used_at IS NULL`,
		now(), kind, orgID)
	return err
}
