package store

import (
	"context"
	"strings"
	"time"
)

// Member is a user's (or an invited e-mail's) place in an organisation.
type Member struct {
	ID             string     `db:"id"`
	OrganizationID string     `db:"organization_id"`
	UserID         *string    `db:"user_id"`
	Email          string     `db:"email"`
	Role           string     `db:"role"`
	Status         string     `db:"status"`
	InvitedBy      *string    `db:"invited_by"`
	InvitedAt      *time.Time `db:"invited_at"`
	JoinedAt       *time.Time `db:"joined_at"`
	RemovedAt      *time.Time `db:"removed_at"`
	CreatedAt      time.Time  `db:"created_at"`
	UpdatedAt      time.Time  `db:"updated_at"`
}

const memberColumns = `id, organization_id, user_id, email, role, status, invited_by, invited_at, joined_at,
	removed_at, created_at, updated_at`

// MemberOf returns the active membership of a user in an organisation, or ErrNotFound.
func (db *DB) MemberOf(ctx context.Context, orgID, userID string) (Member, error) {
	var m Member
	err := db.get(ctx, db.read(ctx), &m, `SELECT `+memberColumns+` FROM organization_members
		WHERE organization_id = ? AND user_id = ? AND status = 'active'`, orgID, userID)
	return m, err
}

// MemberByID returns a member of an organisation (any status), or ErrNotFound.
func (db *DB) MemberByID(ctx context.Context, id string) (Member, error) {
	var m Member
	err := db.get(ctx, db.read(ctx), &m, `SELECT `+memberColumns+` FROM organization_members WHERE id = ?`, id)
	return m, err
}

// MemberByEmail returns the member row of an e-mail in an organisation (any status).
func (db *DB) MemberByEmail(ctx context.Context, orgID, email string) (Member, error) {
	var m Member
	err := db.get(ctx, db.read(ctx), &m, `SELECT `+memberColumns+` FROM organization_members
		WHERE organization_id = ? AND email = ?`, orgID, NormalizeEmail(email))
	return m, err
}

// ListMembers lists the invited and active members of an organisation, owner first, then by
// when they were added; and how many there are.
func (db *DB) ListMembers(ctx context.Context, orgID string, limit, offset int) ([]Member, int, error) {
	var total int
	if err := db.get(ctx, db.read(ctx), &total, `SELECT COUNT(*) FROM organization_members
		WHERE organization_id = ? AND status IN ('invited', 'active')`, orgID); err != nil {
		return nil, 0, err
	}
	ms := []Member{}
	err := db.selectAll(ctx, db.read(ctx), &ms, `SELECT `+memberColumns+` FROM organization_members
		WHERE organization_id = ? AND status IN ('invited', 'active')
		ORDER BY CASE WHEN role = 'owner' THEN 0 ELSE 1 END, created_at, id LIMIT ? OFFSET ?`, orgID, limit, offset)
	return ms, total, err
}

// UserMemberships lists every membership row of a user (by user id, or by e-mail for
// invitations not yet accepted), newest first.
func (db *DB) UserMemberships(ctx context.Context, userID, email string) ([]Member, error) {
	ms := []Member{}
	err := db.selectAll(ctx, db.read(ctx), &ms, `SELECT `+memberColumns+` FROM organization_members
		WHERE user_id = ? OR (user_id IS NULL AND email = ?) ORDER BY created_at DESC, id DESC`, userID, NormalizeEmail(email))
	return ms, err
}

// Invite records an invitation of email with role: a new member row, or a removed or
// still-invited one made invited again. ErrConflict when the e-mail is an active member.
// invitedBy is the inviting user's id; empty (an API key invited) records no inviter.
func (db *DB) Invite(ctx context.Context, orgID, email, role, invitedBy string) (Member, error) {
	var m Member
	var inviter *string
	if invitedBy != "" {
		inviter = &invitedBy
	}
	err := db.InTx(ctx, func(ctx context.Context) error {
		t := now()
		existing, err := db.MemberByEmail(ctx, orgID, email)
		switch {
		case err == nil && existing.Status == "active":
			return ErrConflict
		case err == nil:
			if _, err := db.exec(ctx, `UPDATE organization_members SET role = ?, status = 'invited', invited_by = ?,
				invited_at = ?, removed_at = NULL, joined_at = NULL, user_id = NULL, updated_at = ? WHERE id = ?`,
				role, inviter, t, t, existing.ID); err != nil {
				return err
			}
			m, err = db.MemberByID(ctx, existing.ID)
			return err
		case err != ErrNotFound:
			return err
		}
		m = Member{ID: NewID(), OrganizationID: orgID, Email: NormalizeEmail(email), Role: role, Status: "invited",
			InvitedBy: inviter, InvitedAt: &t, CreatedAt: t, UpdatedAt: t}
		_, err = db.exec(ctx, `INSERT INTO organization_members (`+memberColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			m.ID, m.OrganizationID, nil, m.Email, m.Role, m.Status, m.InvitedBy, m.InvitedAt, nil, nil, m.CreatedAt, m.UpdatedAt)
		return err
	})
	return m, err
}

// ActivateMember turns an invitation into an active membership of userID.
func (db *DB) ActivateMember(ctx context.Context, memberID, userID string) error {
	t := now()
	return db.one(ctx, `UPDATE organization_members SET status = 'active', user_id = ?, joined_at = ?, updated_at = ?
		WHERE id = ? AND status = 'invited'`, userID, t, t, memberID)
}

// SetMemberRole changes the role of an active or invited member.
func (db *DB) SetMemberRole(ctx context.Context, memberID, role string) error {
	return db.one(ctx, `UPDATE organization_members SET role = ?, updated_at = ? WHERE id = ? AND status IN ('invited', 'active')`,
		role, now(), memberID)
}

// RemoveMember marks a member removed (the row and its history stay).
func (db *DB) RemoveMember(ctx context.Context, memberID string) error {
	t := now()
	return db.one(ctx, `UPDATE organization_members SET status = 'removed', removed_at = ?, updated_at = ?
		WHERE id = ? AND status IN ('invited', 'active')`, t, t, memberID)
}

// InvitationsTo lists the invitations (members with status invited) addressed to an e-mail,
// newest invitation first.
func (db *DB) InvitationsTo(ctx context.Context, email string) ([]Member, error) {
	ms := []Member{}
	err := db.selectAll(ctx, db.read(ctx), &ms, `SELECT `+memberColumns+` FROM organization_members
		WHERE email = ? AND status = 'invited' ORDER BY invited_at DESC, id DESC`, NormalizeEmail(email))
	return ms, err
}

// CountActiveMembers counts an organisation's active members.
func (db *DB) CountActiveMembers(ctx context.Context, orgID string) (int, error) {
	var n int
	err := db.get(ctx, db.read(ctx), &n, `SELECT COUNT(*) FROM organization_members WHERE organization_id = ? AND status = 'active'`, orgID)
	return n, err
}

func splitColumns(columns string) []string {
	parts := strings.Split(columns, ",")
	for i, p := range parts {
		parts[i] = strings.TrimSpace(p)
	}
	return parts
}

// MemberStatusesOf answers the membership status of each of these users in an organisation,
// by user id (users who were never members are left out).
func (db *DB) MemberStatusesOf(ctx context.Context, orgID string, userIDs []string) (map[string]string, error) {
	out := make(map[string]string, len(userIDs))
	if len(userIDs) == 0 {
		return out, nil
	}
	args := []any{orgID}
	for _, id := range userIDs {
		args = append(args, id)
	}
	var rows []struct {
		UserID string `db:"user_id"`
		Status string `db:"status"`
	}
	if err := db.selectAll(ctx, db.read(ctx), &rows, `SELECT user_id, status FROM organization_members
		WHERE organization_id = ? AND user_id IN (?`+strings.Repeat(", ?", len(userIDs)-1)+`)`, args...); err != nil {
		return nil, err
	}
	for _, r := range rows {
		out[r.UserID] = r.Status
	}
	return out, nil
}
