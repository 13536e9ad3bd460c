package store

import (
	"context"
	"time"
)

// Organization is a team.
type Organization struct {
	ID                string
	Name              string
	CompanyName       string
	PlatformKey       string
	Industry          string
	Purpose           string
	OwnerUserID       string
	PublicAPIKey      string
	VerificationLevel string
	SubscriptionTier  string
	CreatedAt         time.Time
	UpdatedAt         time.Time
}

// Member is a user's (or an invited e-mail's) place in an organisation.
type Member struct {
	ID             string
	OrganizationID string
	UserID         *string
	Email          string
	Role           string
	Status         string
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

const organizationColumns = `id, name, company_name, platform_key, industry, purpose, owner_user_id,
	public_api_key, verification_level, subscription_tier, created_at, updated_at`

type organizationRow struct {
	ID                string    `db:"id"`
	Name              string    `db:"name"`
	CompanyName       string    `db:"company_name"`
	PlatformKey       string    `db:"platform_key"`
	Industry          string    `db:"industry"`
	Purpose           string    `db:"purpose"`
	OwnerUserID       string    `db:"owner_user_id"`
	PublicAPIKey      string    `db:"public_api_key"`
	VerificationLevel string    `db:"verification_level"`
	SubscriptionTier  string    `db:"subscription_tier"`
	CreatedAt         time.Time `db:"created_at"`
	UpdatedAt         time.Time `db:"updated_at"`
}

const memberColumns = `id, organization_id, user_id, email, role, status, created_at, updated_at`

type memberRow struct {
	ID             string    `db:"id"`
	OrganizationID string    `db:"organization_id"`
	UserID         *string   `db:"user_id"`
	Email          string    `db:"email"`
	Role           string    `db:"role"`
	Status         string    `db:"status"`
	CreatedAt      time.Time `db:"created_at"`
	UpdatedAt      time.Time `db:"updated_at"`
}

// CreateOrganization inserts o and makes its owner an active member with role owner, in one
// transaction.
func (db *DB) CreateOrganization(ctx context.Context, o *Organization, ownerEmail string) error {
	if o.ID == "" {
		o.ID = NewID()
	}
	if o.VerificationLevel == "" {
		o.VerificationLevel = "none"
	}
	if o.SubscriptionTier == "" {
		o.SubscriptionTier = "free"
	}
	o.CreatedAt = now()
	o.UpdatedAt = o.CreatedAt
	return db.InTx(ctx, func(ctx context.Context) error {
		if _, err := db.exec(ctx, `INSERT INTO organizations (`+organizationColumns+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			o.ID, o.Name, o.CompanyName, o.PlatformKey, o.Industry, o.Purpose, o.OwnerUserID,
			o.PublicAPIKey, o.VerificationLevel, o.SubscriptionTier, o.CreatedAt, o.UpdatedAt); err != nil {
			return err
		}
		owner := o.OwnerUserID
		_, err := db.exec(ctx, `INSERT INTO organization_members (`+memberColumns+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			NewID(), o.ID, &owner, NormalizeEmail(ownerEmail), "owner", "active", o.CreatedAt, o.CreatedAt)
		return err
	})
}

// OrganizationByID returns an organisation or ErrNotFound.
func (db *DB) OrganizationByID(ctx context.Context, id string) (Organization, error) {
	var r organizationRow
	err := db.get(ctx, db.read(ctx), &r, `SELECT `+organizationColumns+` FROM organizations WHERE id = ?`, id)
	return Organization(r), err
}

// MemberOf returns the active membership of a user in an organisation, or ErrNotFound.
func (db *DB) MemberOf(ctx context.Context, organizationID, userID string) (Member, error) {
	var r memberRow
	err := db.get(ctx, db.read(ctx), &r, `SELECT `+memberColumns+` FROM organization_members
		WHERE organization_id = ? AND user_id = ? AND status = 'active'`, organizationID, userID)
	return Member(r), err
}
