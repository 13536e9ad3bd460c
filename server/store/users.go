package store

import (
	"context"
	"strings"
	"time"
)

// User is an account.
type User struct {
	ID               string
	Email            string
	Name             string
	PasswordHash     string
	EmailConfirmedAt *time.Time
	IsSiteAdmin      bool
	IsInternal       bool
	Referral         string
	Properties       string // JSON object
	CreatedAt        time.Time
	UpdatedAt        time.Time
}

const userColumns = `id, email, name, password_hash, email_confirmed_at, is_site_admin, is_internal,
	referral, properties, created_at, updated_at`

type userRow struct {
	ID               string     `db:"id"`
	Email            string     `db:"email"`
	Name             string     `db:"name"`
	PasswordHash     string     `db:"password_hash"`
	EmailConfirmedAt *time.Time `db:"email_confirmed_at"`
	IsSiteAdmin      bool       `db:"is_site_admin"`
	IsInternal       bool       `db:"is_internal"`
	Referral         string     `db:"referral"`
	Properties       string     `db:"properties"`
	CreatedAt        time.Time  `db:"created_at"`
	UpdatedAt        time.Time  `db:"updated_at"`
}

func (r userRow) user() User {
	return User(r)
}

// NormalizeEmail is the form e-mails are stored and looked up in.
func NormalizeEmail(email string) string {
	return strings.ToLower(strings.TrimSpace(email))
}

// CreateUser inserts u, filling ID and timestamps. ErrConflict when the e-mail is taken.
func (db *DB) CreateUser(ctx context.Context, u *User) error {
	if u.ID == "" {
		u.ID = NewID()
	}
	u.Email = NormalizeEmail(u.Email)
	if u.Properties == "" {
		u.Properties = "{}"
	}
	u.CreatedAt = now()
	u.UpdatedAt = u.CreatedAt
	_, err := db.exec(ctx, `INSERT INTO users (`+userColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		u.ID, u.Email, u.Name, u.PasswordHash, u.EmailConfirmedAt, u.IsSiteAdmin, u.IsInternal,
		u.Referral, u.Properties, u.CreatedAt, u.UpdatedAt)
	return err
}

// UserByID returns a user or ErrNotFound.
func (db *DB) UserByID(ctx context.Context, id string) (User, error) {
	var r userRow
	err := db.get(ctx, db.read(ctx), &r, `SELECT `+userColumns+` FROM users WHERE id = ?`, id)
	return r.user(), err
}

// UserByEmail returns a user or ErrNotFound; the e-mail is matched case-insensitively.
func (db *DB) UserByEmail(ctx context.Context, email string) (User, error) {
	var r userRow
	err := db.get(ctx, db.read(ctx), &r, `SELECT `+userColumns+` FROM users WHERE email = ?`, NormalizeEmail(email))
	return r.user(), err
}
