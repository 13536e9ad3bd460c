package store

import (
	"context"
	"strings"
	"time"
)

// Organization is a team.
type Organization struct {
	ID                      string            `db:"id"`
	Name                    string            `db:"name"`
	CompanyName             string            `db:"company_name"`
	PlatformKey             string            `db:"platform_key"`
	Industry                string            `db:"industry"`
	Purpose                 string            `db:"purpose"`
	OwnerUserID             string            `db:"owner_user_id"`
	PublicAPIKey            string            `db:"public_api_key"`
	VerificationLevel       VerificationLevel `db:"verification_level"`
	SubscriptionTier        SubscriptionTier  `db:"subscription_tier"`
	SubscriptionEndAt       *time.Time        `db:"subscription_end_at"`
	CreditsBalance          float64           `db:"credits_balance"`
	BillingAddress          *string           `db:"billing_address"` // JSON object
	BillingAddressUpdatedAt *time.Time        `db:"billing_address_updated_at"`
	CreatedAt               time.Time         `db:"created_at"`
	UpdatedAt               time.Time         `db:"updated_at"`
}

const organizationColumns = `id, name, company_name, platform_key, industry, purpose, owner_user_id,
	public_api_key, verification_level, subscription_tier, subscription_end_at, credits_balance,
	billing_address, billing_address_updated_at, created_at, updated_at`

// CreateOrganization inserts o and makes its owner an active member with role owner, in one
// transaction.
func (db *DB) CreateOrganization(ctx context.Context, o *Organization, ownerEmail string) error {
	if o.ID == "" {
		o.ID = NewID()
	}
	if o.VerificationLevel == "" {
		o.VerificationLevel = LevelNone
	}
	if o.SubscriptionTier == "" {
		o.SubscriptionTier = TierFree
	}
	o.CreatedAt = now()
	o.UpdatedAt = o.CreatedAt
	return db.InTx(ctx, func(ctx context.Context) error {
		if _, err := db.exec(ctx, `INSERT INTO organizations (`+organizationColumns+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			o.ID, o.Name, o.CompanyName, o.PlatformKey, o.Industry, o.Purpose, o.OwnerUserID,
			o.PublicAPIKey, o.VerificationLevel, o.SubscriptionTier, o.SubscriptionEndAt, o.CreditsBalance,
			o.BillingAddress, o.BillingAddressUpdatedAt, o.CreatedAt, o.UpdatedAt); err != nil {
			return err
		}
		owner := o.OwnerUserID
		_, err := db.exec(ctx, `INSERT INTO organization_members (`+memberColumns+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			NewID(), o.ID, &owner, NormalizeEmail(ownerEmail), "owner", MemberActive, nil, nil, o.CreatedAt, nil, o.CreatedAt, o.CreatedAt)
		return err
	})
}

// OrganizationByID returns an organisation or ErrNotFound.
func (db *DB) OrganizationByID(ctx context.Context, id string) (Organization, error) {
	var o Organization
	err := db.get(ctx, db.read(ctx), &o, `SELECT `+organizationColumns+` FROM organizations WHERE id = ?`, id)
	return o, err
}

// UserOrganizations lists the organisations where a user is an active member, oldest first,
// with the user's role in each, and how many there are.
func (db *DB) UserOrganizations(ctx context.Context, userID string, limit, offset int) ([]OrganizationRole, int, error) {
	var total int
	if err := db.get(ctx, db.read(ctx), &total, `SELECT COUNT(*) FROM organization_members
		WHERE user_id = ? AND status = ?`, userID, MemberActive); err != nil {
		return nil, 0, err
	}
	rows := []struct {
		Organization
		Role string `db:"member_role"`
	}{}
	err := db.selectAll(ctx, db.read(ctx), &rows, `SELECT `+prefixed("o.", organizationColumns)+`, m.role AS member_role
		FROM organizations o JOIN organization_members m ON m.organization_id = o.id
		WHERE m.user_id = ? AND m.status = ? ORDER BY o.created_at, o.id LIMIT ? OFFSET ?`, userID, MemberActive, limit, offset)
	out := make([]OrganizationRole, len(rows))
	for i, r := range rows {
		out[i] = OrganizationRole{Organization: r.Organization, Role: r.Role}
	}
	return out, total, err
}

// OrganizationRole is an organisation with a member's role in it.
type OrganizationRole struct {
	Organization
	Role string
}

// OrganizationsByIDs returns the organisations with these ids, by id.
func (db *DB) OrganizationsByIDs(ctx context.Context, ids []string) (map[string]Organization, error) {
	out := make(map[string]Organization, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var orgs []Organization
	if err := db.selectAll(ctx, db.read(ctx), &orgs, `SELECT `+organizationColumns+` FROM organizations
		WHERE id IN (`+placeholders(len(ids))+`)`, anys(ids)...); err != nil {
		return nil, err
	}
	for _, o := range orgs {
		out[o.ID] = o
	}
	return out, nil
}

// OrganizationsOwnedBy lists the organisations a user owns, oldest first.
func (db *DB) OrganizationsOwnedBy(ctx context.Context, userID string) ([]Organization, error) {
	orgs := []Organization{}
	err := db.selectAll(ctx, db.read(ctx), &orgs, `SELECT `+organizationColumns+` FROM organizations
		WHERE owner_user_id = ? ORDER BY created_at, id`, userID)
	return orgs, err
}

// OrganizationUpdate holds the properties to change; nil fields are kept.
type OrganizationUpdate struct {
	Name, CompanyName, PlatformKey, Industry, Purpose *string
}

// UpdateOrganization changes an organisation's properties.
func (db *DB) UpdateOrganization(ctx context.Context, id string, u OrganizationUpdate) error {
	return db.one(ctx, `UPDATE organizations SET name = COALESCE(?, name), company_name = COALESCE(?, company_name),
		platform_key = COALESCE(?, platform_key), industry = COALESCE(?, industry), purpose = COALESCE(?, purpose),
		updated_at = ? WHERE id = ?`, u.Name, u.CompanyName, u.PlatformKey, u.Industry, u.Purpose, now(), id)
}

// DeleteOrganization deletes an organisation and, by cascade, everything it holds.
func (db *DB) DeleteOrganization(ctx context.Context, id string) error {
	return db.one(ctx, `DELETE FROM organizations WHERE id = ?`, id)
}

// SetVerificationLevel sets the level and completes pending requests up to it.
func (db *DB) SetVerificationLevel(ctx context.Context, id string, level VerificationLevel) error {
	return db.InTx(ctx, func(ctx context.Context) error {
		t := now()
		if err := db.one(ctx, `UPDATE organizations SET verification_level = ?, updated_at = ? WHERE id = ?`, level, t, id); err != nil {
			return err
		}
		_, err := db.exec(ctx, `UPDATE verification_requests SET status = ?, updated_at = ?
			WHERE organization_id = ? AND status = ? AND (requested_level = ? OR ? = ?)`,
			RequestCompleted, t, id, RequestPending, level, level, LevelL2)
		return err
	})
}

// SetSubscriptionTier sets the tier.
func (db *DB) SetSubscriptionTier(ctx context.Context, id string, tier SubscriptionTier) error {
	return db.one(ctx, `UPDATE organizations SET subscription_tier = ?, updated_at = ? WHERE id = ?`, tier, now(), id)
}

// SetBillingAddress replaces the billing address (JSON).
func (db *DB) SetBillingAddress(ctx context.Context, id, address string) error {
	t := now()
	return db.one(ctx, `UPDATE organizations SET billing_address = ?, billing_address_updated_at = ?, updated_at = ? WHERE id = ?`,
		address, t, t, id)
}

// TransferOwnership makes newOwner's active membership the owner and the old owner an admin.
func (db *DB) TransferOwnership(ctx context.Context, orgID, newOwnerUserID string) error {
	return db.InTx(ctx, func(ctx context.Context) error {
		t := now()
		if _, err := db.exec(ctx, `UPDATE organization_members SET role = 'admin', updated_at = ?
			WHERE organization_id = ? AND role = 'owner'`, t, orgID); err != nil {
			return err
		}
		if err := db.one(ctx, `UPDATE organization_members SET role = 'owner', updated_at = ?
			WHERE organization_id = ? AND user_id = ? AND status = ?`, t, orgID, newOwnerUserID, MemberActive); err != nil {
			return err
		}
		return db.one(ctx, `UPDATE organizations SET owner_user_id = ?, updated_at = ? WHERE id = ?`, newOwnerUserID, t, orgID)
	})
}

// VerificationRequest is a team's request for the next verification level.
type VerificationRequest struct {
	ID             string            `db:"id"`
	OrganizationID string            `db:"organization_id"`
	CurrentLevel   VerificationLevel `db:"current_level"`
	RequestedLevel VerificationLevel `db:"requested_level"`
	Status         RequestStatus     `db:"status"`
	CreatedAt      time.Time         `db:"created_at"`
	UpdatedAt      time.Time         `db:"updated_at"`
}

const verificationColumns = `id, organization_id, current_level, requested_level, status, created_at, updated_at`

// PendingVerificationRequest returns the team's pending request, or ErrNotFound.
func (db *DB) PendingVerificationRequest(ctx context.Context, orgID string) (VerificationRequest, error) {
	var v VerificationRequest
	err := db.get(ctx, db.read(ctx), &v, `SELECT `+verificationColumns+` FROM verification_requests
		WHERE organization_id = ? AND status = ? ORDER BY created_at DESC LIMIT 1`, orgID, RequestPending)
	return v, err
}

// CreateVerificationRequest inserts a pending request.
func (db *DB) CreateVerificationRequest(ctx context.Context, v *VerificationRequest) error {
	v.ID = NewID()
	v.Status = RequestPending
	v.CreatedAt = now()
	v.UpdatedAt = v.CreatedAt
	_, err := db.exec(ctx, `INSERT INTO verification_requests (`+verificationColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		v.ID, v.OrganizationID, v.CurrentLevel, v.RequestedLevel, v.Status, v.CreatedAt, v.UpdatedAt)
	return err
}

// SiteAdminEmails lists the e-mails of the site administrators, who handle verification
// requests.
func (db *DB) SiteAdminEmails(ctx context.Context) ([]string, error) {
	emails := []string{}
	err := db.selectAll(ctx, db.read(ctx), &emails, `SELECT email FROM users WHERE is_site_admin = ? ORDER BY email`, true)
	return emails, err
}

// prefixed qualifies a column list with a table alias.
func prefixed(alias, columns string) string {
	cols := splitColumns(columns)
	for i, c := range cols {
		cols[i] = alias + c
	}
	return strings.Join(cols, ", ")
}
