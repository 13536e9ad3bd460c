package store

import (
	"context"
	"strings"
	"time"
)

// User is an account.
type User struct {
	ID               string     `db:"id"`
	Email            string     `db:"email"`
	PasswordHash     string     `db:"password_hash"`
	EmailConfirmedAt *time.Time `db:"email_confirmed_at"`
	IsSiteAdmin      bool       `db:"is_site_admin"`
	SiteAdminSince   *time.Time `db:"site_admin_since"`
	Referral         string     `db:"referral"`
	// Profile is a JSON object (name, avatarUrl, phoneNumber, jobTitle, timezone, locale,
	// preferences).
	Profile      string     `db:"profile"`
	LastSignInAt *time.Time `db:"last_sign_in_at"`
	CreatedAt    time.Time  `db:"created_at"`
	UpdatedAt    time.Time  `db:"updated_at"`
}

const userColumns = `id, email, password_hash, email_confirmed_at, is_site_admin, site_admin_since,
	referral, profile, last_sign_in_at, created_at, updated_at`

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
	if u.Profile == "" {
		u.Profile = "{}"
	}
	u.CreatedAt = now()
	u.UpdatedAt = u.CreatedAt
	_, err := db.exec(ctx, `INSERT INTO users (`+userColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		u.ID, u.Email, u.PasswordHash, u.EmailConfirmedAt, u.IsSiteAdmin, u.SiteAdminSince,
		u.Referral, u.Profile, u.LastSignInAt, u.CreatedAt, u.UpdatedAt)
	return err
}

// UserByID returns a user or ErrNotFound.
func (db *DB) UserByID(ctx context.Context, id string) (User, error) {
	var u User
	err := db.get(ctx, db.read(ctx), &u, `SELECT `+userColumns+` FROM users WHERE id = ?`, id)
	return u, err
}

// UserByEmail returns a user or ErrNotFound; the e-mail is matched case-insensitively.
func (db *DB) UserByEmail(ctx context.Context, email string) (User, error) {
	var u User
	err := db.get(ctx, db.read(ctx), &u, `SELECT `+userColumns+` FROM users WHERE email = ?`, NormalizeEmail(email))
	return u, err
}

// UsersByIDs returns the users with these ids, by id.
func (db *DB) UsersByIDs(ctx context.Context, ids []string) (map[string]User, error) {
	out := make(map[string]User, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var users []User
	if err := db.selectAll(ctx, db.read(ctx), &users, `SELECT `+userColumns+` FROM users WHERE id IN (`+placeholders(len(ids))+`)`,
		anys(ids)...); err != nil {
		return nil, err
	}
	for _, u := range users {
		out[u.ID] = u
	}
	return out, nil
}

// UpdateUserProfile replaces a user's profile JSON.
func (db *DB) UpdateUserProfile(ctx context.Context, id, profile string) error {
	return db.one(ctx, `UPDATE users SET profile = ?, updated_at = ? WHERE id = ?`, profile, now(), id)
}

// SetPassword replaces a user's password hash.
func (db *DB) SetPassword(ctx context.Context, id, hash string) error {
	return db.one(ctx, `UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?`, hash, now(), id)
}

// ConfirmEmail marks a user's e-mail confirmed (keeping an earlier confirmation time).
func (db *DB) ConfirmEmail(ctx context.Context, id string) error {
	t := now()
	return db.one(ctx, `UPDATE users SET email_confirmed_at = COALESCE(email_confirmed_at, ?), updated_at = ? WHERE id = ?`, t, t, id)
}

// TouchSignIn records a successful sign-in.
func (db *DB) TouchSignIn(ctx context.Context, id string) error {
	t := now()
	return db.one(ctx, `UPDATE users SET last_sign_in_at = ?, updated_at = ? WHERE id = ?`, t, t, id)
}

// SetSiteAdmin grants (or revokes) the site-admin flag of the user with this e-mail.
func (db *DB) SetSiteAdmin(ctx context.Context, email string, admin bool) (User, error) {
	t := now()
	var since *time.Time
	if admin {
		since = &t
	}
	if err := db.one(ctx, `UPDATE users SET is_site_admin = ?, site_admin_since = CASE WHEN ? THEN COALESCE(site_admin_since, ?) ELSE NULL END,
		updated_at = ? WHERE email = ?`, admin, admin, since, t, NormalizeEmail(email)); err != nil {
		return User{}, err
	}
	return db.UserByEmail(ctx, email)
}

// AddReferral records a referral tag seen at sign-up or sign-in, and keeps the first one on
// the user.
func (db *DB) AddReferral(ctx context.Context, userID, ref, event string) error {
	return db.InTx(ctx, func(ctx context.Context) error {
		if _, err := db.exec(ctx, `INSERT INTO referrals (id, user_id, ref, event, created_at) VALUES (?, ?, ?, ?, ?)`,
			NewID(), userID, ref, event, now()); err != nil {
			return err
		}
		_, err := db.exec(ctx, `UPDATE users SET referral = ? WHERE id = ? AND referral = ''`, ref, userID)
		return err
	})
}

// Referrals lists the referral tags recorded for a user, oldest first.
func (db *DB) Referrals(ctx context.Context, userID string) ([]string, error) {
	var refs []string
	err := db.selectAll(ctx, db.read(ctx), &refs, `SELECT ref FROM referrals WHERE user_id = ? ORDER BY created_at, id`, userID)
	return refs, err
}

// SearchUsers lists users whose e-mail contains search (case-insensitive), by e-mail, and
// how many match in all.
func (db *DB) SearchUsers(ctx context.Context, search string, limit, offset int) ([]User, int, error) {
	pattern := "%" + escapeLike(NormalizeEmail(search)) + "%"
	var total int
	if err := db.get(ctx, db.read(ctx), &total, `SELECT COUNT(*) FROM users WHERE email LIKE ? ESCAPE '\'`, pattern); err != nil {
		return nil, 0, err
	}
	var users []User
	err := db.selectAll(ctx, db.read(ctx), &users, `SELECT `+userColumns+` FROM users WHERE email LIKE ? ESCAPE '\'
		ORDER BY email LIMIT ? OFFSET ?`, pattern, limit, offset)
	return users, total, err
}

func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// UsersByEmails returns the users with these e-mails, by (normalised) e-mail.
func (db *DB) UsersByEmails(ctx context.Context, emails []string) (map[string]User, error) {
	out := make(map[string]User, len(emails))
	if len(emails) == 0 {
		return out, nil
	}
	norm := make([]string, len(emails))
	for i, e := range emails {
		norm[i] = NormalizeEmail(e)
	}
	var users []User
	if err := db.selectAll(ctx, db.read(ctx), &users, `SELECT `+userColumns+` FROM users WHERE email IN (`+placeholders(len(norm))+`)`,
		anys(norm)...); err != nil {
		return nil, err
	}
	for _, u := range users {
		out[u.Email] = u
	}
	return out, nil
}

// CreateFirstUserAsAdmin inserts u as CreateUser does and, when the server had no account
// before it, makes u its site administrator (the first account of a fresh deployment, issue
// 21); it answers whether it did. Of two first sign-ups at once exactly one becomes admin:
// on PostgreSQL the users table is locked against other inserts while the empty table is
// checked and the first account written (only while it is empty: later sign-ups take no
// lock); on SQLite writes are serialised already.
func (db *DB) CreateFirstUserAsAdmin(ctx context.Context, u *User) (bool, error) {
	first := false
	err := db.InTx(ctx, func(ctx context.Context) error {
		empty, err := db.NoUsers(ctx)
		if err != nil {
			return err
		}
		if empty && db.dialect == Postgres {
			if _, err := db.exec(ctx, `LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE`); err != nil {
				return err
			}
			if empty, err = db.NoUsers(ctx); err != nil {
				return err
			}
		}
		if empty {
			t := now()
			u.IsSiteAdmin, u.SiteAdminSince = true, &t
		}
		first = empty
		return db.CreateUser(ctx, u)
	})
	return first, err
}

// NoUsers says whether the server has no account at all.
func (db *DB) NoUsers(ctx context.Context) (bool, error) {
	var n int
	err := db.get(ctx, db.write(ctx), &n, `SELECT COUNT(*) FROM (SELECT 1 FROM users LIMIT 1) u`)
	return n == 0, err
}
