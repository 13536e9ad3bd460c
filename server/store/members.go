package store

import (
	"context"
	"strings"
	"time"
)

// Member is a user's (or an invited e-mail's) place in an organisation.
type Member struct {
	ID             string       `db:"id"`
	OrganizationID string       `db:"organization_id"`
	UserID         *string      `db:"user_id"`
	Email          string       `db:"email"`
	Role           string       `db:"role"`
	Status         MemberStatus `db:"status"`
	InvitedBy      *string      `db:"invited_by"`
	InvitedAt      *time.Time   `db:"invited_at"`
	JoinedAt       *time.Time   `db:"joined_at"`
	RemovedAt      *time.Time   `db:"removed_at"`
	CreatedAt      time.Time    `db:"created_at"`
	UpdatedAt      time.Time    `db:"updated_at"`
}

const memberColumns = `id, organization_id, user_id, email, role, status, invited_by, invited_at, joined_at,
	removed_at, created_at, updated_at`

// MemberOf returns the active membership of a user in an organisation, or ErrNotFound.
func (db *DB) MemberOf(ctx context.Context, orgID, userID string) (Member, error) {
	var m Member
	err := db.get(ctx, db.read(ctx), &m, `SELECT `+memberColumns+` FROM organization_members
		WHERE organization_id = ? AND user_id = ? AND status = ?`, orgID, userID, MemberActive)
	return m, err
}

// MemberByID returns a member of an organisation (any status), or ErrNotFound.
func (db *DB) MemberByID(ctx context.Context, orgID, id string) (Member, error) {
	var m Member
	err := db.get(ctx, db.read(ctx), &m, `SELECT `+memberColumns+` FROM organization_members
		WHERE organization_id = ? AND id = ?`, orgID, id)
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
		WHERE organization_id = ? AND status IN (?, ?)`, orgID, MemberInvited, MemberActive); err != nil {
		return nil, 0, err
	}
	ms := []Member{}
	err := db.selectAll(ctx, db.read(ctx), &ms, `SELECT `+memberColumns+` FROM organization_members
		WHERE organization_id = ? AND status IN (?, ?)
		ORDER BY CASE WHEN role = 'owner' THEN 0 ELSE 1 END, created_at, id LIMIT ? OFFSET ?`,
		orgID, MemberInvited, MemberActive, limit, offset)
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

// ActiveOrganizationIDs lists the organisations a user is an active member of.
func (db *DB) ActiveOrganizationIDs(ctx context.Context, userID string) ([]string, error) {
	ids := []string{}
	err := db.selectAll(ctx, db.read(ctx), &ids, `SELECT organization_id FROM organization_members
		WHERE user_id = ? AND status = ? ORDER BY organization_id`, userID, MemberActive)
	return ids, err
}

// ShareATeam says whether two users are both active members of some organisation, or one is
// active and the other invited to it (an invitation names its address to the team).
func (db *DB) ShareATeam(ctx context.Context, userID, otherUserID, otherEmail string) (bool, error) {
	var n int
	err := db.get(ctx, db.read(ctx), &n, `SELECT COUNT(*) FROM organization_members a
		JOIN organization_members b ON b.organization_id = a.organization_id
		WHERE a.user_id = ? AND a.status = ?
		AND ((b.user_id = ? AND b.status = ?) OR (b.email = ? AND b.status = ?))`,
		userID, MemberActive, otherUserID, MemberActive, NormalizeEmail(otherEmail), MemberInvited)
	return n > 0, err
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
		case err == nil && existing.Status == MemberActive:
			return ErrConflict
		case err == nil:
			if _, err := db.exec(ctx, `UPDATE organization_members SET role = ?, status = ?, invited_by = ?,
				invited_at = ?, removed_at = NULL, joined_at = NULL, user_id = NULL, updated_at = ?
				WHERE organization_id = ? AND id = ?`,
				role, MemberInvited, inviter, t, t, orgID, existing.ID); err != nil {
				return err
			}
			m, err = db.MemberByID(ctx, orgID, existing.ID)
			return err
		case err != ErrNotFound:
			return err
		}
		m = Member{ID: NewID(), OrganizationID: orgID, Email: NormalizeEmail(email), Role: role, Status: MemberInvited,
			InvitedBy: inviter, InvitedAt: &t, CreatedAt: t, UpdatedAt: t}
		_, err = db.exec(ctx, `INSERT INTO organization_members (`+memberColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			m.ID, m.OrganizationID, nil, m.Email, m.Role, m.Status, m.InvitedBy, m.InvitedAt, nil, nil, m.CreatedAt, m.UpdatedAt)
		return err
	})
	return m, err
}

// ActivateMember turns an invitation to an organisation into an active membership of userID.
func (db *DB) ActivateMember(ctx context.Context, orgID, memberID, userID string) error {
	t := now()
	return db.one(ctx, `UPDATE organization_members SET status = ?, user_id = ?, joined_at = ?, updated_at = ?
		WHERE organization_id = ? AND id = ? AND status = ?`, MemberActive, userID, t, t, orgID, memberID, MemberInvited)
}

// SetMemberRole changes the role of an active or invited member of an organisation.
func (db *DB) SetMemberRole(ctx context.Context, orgID, memberID, role string) error {
	return db.one(ctx, `UPDATE organization_members SET role = ?, updated_at = ?
		WHERE organization_id = ? AND id = ? AND status IN (?, ?)`, role, now(), orgID, memberID, MemberInvited, MemberActive)
}

// RemoveMember marks a member of an organisation removed (the row and its history stay).
func (db *DB) RemoveMember(ctx context.Context, orgID, memberID string) error {
	t := now()
	return db.one(ctx, `UPDATE organization_members SET status = ?, removed_at = ?, updated_at = ?
		WHERE organization_id = ? AND id = ? AND status IN (?, ?)`, MemberRemoved, t, t, orgID, memberID, MemberInvited, MemberActive)
}

// InvitationsTo lists the invitations (members with status invited) addressed to an e-mail,
// newest invitation first.
func (db *DB) InvitationsTo(ctx context.Context, email string) ([]Member, error) {
	ms := []Member{}
	err := db.selectAll(ctx, db.read(ctx), &ms, `SELECT `+memberColumns+` FROM organization_members
		WHERE email = ? AND status = ? ORDER BY invited_at DESC, id DESC`, NormalizeEmail(email), MemberInvited)
	return ms, err
}

// MembershipOfEmail returns the member row id if it is addressed to email (any organisation,
// any status): how a user reaches an invitation sent to them. ErrNotFound otherwise.
func (db *DB) MembershipOfEmail(ctx context.Context, id, email string) (Member, error) {
	var m Member
	err := db.get(ctx, db.read(ctx), &m, `SELECT `+memberColumns+` FROM organization_members WHERE id = ? AND email = ?`,
		id, NormalizeEmail(email))
	return m, err
}

// CountActiveMembers counts an organisation's active members.
func (db *DB) CountActiveMembers(ctx context.Context, orgID string) (int, error) {
	var n int
	err := db.get(ctx, db.read(ctx), &n, `SELECT COUNT(*) FROM organization_members WHERE organization_id = ? AND status = ?`,
		orgID, MemberActive)
	return n, err
}

// MemberStatusesOf answers the membership status of each of these users in an organisation,
// by user id (users who were never members are left out).
func (db *DB) MemberStatusesOf(ctx context.Context, orgID string, userIDs []string) (map[string]MemberStatus, error) {
	out := make(map[string]MemberStatus, len(userIDs))
	if len(userIDs) == 0 {
		return out, nil
	}
	var rows []struct {
		UserID string       `db:"user_id"`
		Status MemberStatus `db:"status"`
	}
	if err := db.selectAll(ctx, db.read(ctx), &rows, `SELECT user_id, status FROM organization_members
		WHERE organization_id = ? AND user_id IN (`+placeholders(len(userIDs))+`)`, append([]any{orgID}, anys(userIDs)...)...); err != nil {
		return nil, err
	}
	for _, r := range rows {
		out[r.UserID] = r.Status
	}
	return out, nil
}

func splitColumns(columns string) []string {
	parts := strings.Split(columns, ",")
	for i, p := range parts {
		parts[i] = strings.TrimSpace(p)
	}
	return parts
}

// placeholders is "?, ?, …" for an IN list of n values (n > 0).
func placeholders(n int) string { return "?" + strings.Repeat(", ?", n-1) }

// anys turns values into query arguments.
func anys[T any](values []T) []any {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = v
	}
	return out
}
