package store

import (
	"context"
	"time"
)

// PhoneNumberStatus is where a team's number stands.
type PhoneNumberStatus string

const (
	// PhonePending: the carrier is still provisioning a bought number.
	PhonePending PhoneNumberStatus = "pending"
	// PhoneActive: the number works.
	PhoneActive PhoneNumberStatus = "active"
	// PhoneSuspended: its subscription is unpaid.
	PhoneSuspended PhoneNumberStatus = "suspended"
)

// PhoneVerificationStatus is where an attempt to verify a number stands.
type PhoneVerificationStatus string

const (
	VerificationPending  PhoneVerificationStatus = "pending"
	VerificationVerified PhoneVerificationStatus = "verified"
	VerificationFailed   PhoneVerificationStatus = "failed"
	VerificationExpired  PhoneVerificationStatus = "expired"
)

// PhoneNumber is a team's number: bought from the carrier, or one of its own it verified
// (IsNonTelnyx, usable as caller id only).
type PhoneNumber struct {
	ID             string            `db:"id"`
	OrganizationID string            `db:"organization_id"`
	E164           string            `db:"phone_number"`
	Status         PhoneNumberStatus `db:"status"`
	IsNonTelnyx    bool              `db:"is_non_telnyx"`
	CountryCode    string            `db:"country_code"`
	NumberType     *string           `db:"number_type"`
	AreaCode       *string           `db:"area_code"`
	MonthlyPrice   *float64          `db:"monthly_price"`
	CarrierID      *string           `db:"carrier_id"`
	VerifiedAt     *time.Time        `db:"verified_at"`
	CreatedAt      time.Time         `db:"created_at"`
	UpdatedAt      time.Time         `db:"updated_at"`
}

const phoneNumberColumns = `id, organization_id, phone_number, status, is_non_telnyx, country_code, number_type,
	area_code, monthly_price, carrier_id, verified_at, created_at, updated_at`

// PhoneNumberUse is a number with what uses it: the agent answering it (the team's agent call
// configuration) and the first campaign assigned to it.
type PhoneNumberUse struct {
	PhoneNumber
	AgentID      *string `db:"agent_id"`
	CampaignID   *string `db:"campaign_id"`
	CampaignName *string `db:"campaign_name"`
}

// phoneNumberUseSelect reads numbers with their agent and first campaign in one query.
var phoneNumberUseSelect = `SELECT ` + prefixed("p.", phoneNumberColumns) + `,
	(SELECT c.agent_id FROM agent_call_configs c WHERE c.organization_id = p.organization_id AND c.phone_number_id = p.id
		ORDER BY c.created_at, c.id LIMIT 1) AS agent_id,
	(SELECT c.id FROM campaigns c WHERE c.phone_number_id = p.id ORDER BY c.phone_assigned_at, c.created_at, c.id LIMIT 1) AS campaign_id,
	(SELECT c.name FROM campaigns c WHERE c.phone_number_id = p.id ORDER BY c.phone_assigned_at, c.created_at, c.id LIMIT 1) AS campaign_name
	FROM phone_numbers p`

// CreatePhoneNumber inserts n. ErrConflict when the team already has that number, or another
// team bought it.
func (db *DB) CreatePhoneNumber(ctx context.Context, n *PhoneNumber) error {
	n.ID = NewID()
	n.CreatedAt = now()
	n.UpdatedAt = n.CreatedAt
	_, err := db.exec(ctx, `INSERT INTO phone_numbers (`+phoneNumberColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		n.ID, n.OrganizationID, n.E164, n.Status, n.IsNonTelnyx, n.CountryCode, n.NumberType, n.AreaCode,
		n.MonthlyPrice, n.CarrierID, n.VerifiedAt, n.CreatedAt, n.UpdatedAt)
	return err
}

// PhoneNumberByID returns a team's number with what uses it, or ErrNotFound.
func (db *DB) PhoneNumberByID(ctx context.Context, orgID, id string) (PhoneNumberUse, error) {
	var n PhoneNumberUse
	err := db.get(ctx, db.read(ctx), &n, phoneNumberUseSelect+` WHERE p.organization_id = ? AND p.id = ?`, orgID, id)
	return n, err
}

// PhoneNumberByNumber returns the team's number with this E.164 form, or ErrNotFound.
func (db *DB) PhoneNumberByNumber(ctx context.Context, orgID, e164 string) (PhoneNumber, error) {
	var n PhoneNumber
	err := db.get(ctx, db.read(ctx), &n, `SELECT `+phoneNumberColumns+` FROM phone_numbers
		WHERE organization_id = ? AND phone_number = ?`, orgID, e164)
	return n, err
}

// ListPhoneNumbers lists a team's numbers, newest first, with what uses each; and how many
// there are.
func (db *DB) ListPhoneNumbers(ctx context.Context, orgID string, limit, offset int) ([]PhoneNumberUse, int, error) {
	var total int
	if err := db.get(ctx, db.read(ctx), &total, `SELECT COUNT(*) FROM phone_numbers WHERE organization_id = ?`, orgID); err != nil {
		return nil, 0, err
	}
	ns := []PhoneNumberUse{}
	err := db.selectAll(ctx, db.read(ctx), &ns, phoneNumberUseSelect+` WHERE p.organization_id = ?
		ORDER BY p.created_at DESC, p.id DESC LIMIT ? OFFSET ?`, orgID, limit, offset)
	return ns, total, err
}

// DeletePhoneNumber deletes a team's number: the team's agent call configuration using it
// goes with it, campaigns using it lose it. ErrNotFound when the team has no such number.
func (db *DB) DeletePhoneNumber(ctx context.Context, orgID, id string) error {
	return db.one(ctx, `DELETE FROM phone_numbers WHERE organization_id = ? AND id = ?`, orgID, id)
}

// BoughtPhoneNumbers says which of these numbers some team bought (across every team: a
// number bought by one is on sale to nobody else).
func (db *DB) BoughtPhoneNumbers(ctx context.Context, e164s []string) (map[string]bool, error) {
	out := make(map[string]bool, len(e164s))
	if len(e164s) == 0 {
		return out, nil
	}
	var held []string
	if err := db.selectAll(ctx, db.read(ctx), &held, `SELECT phone_number FROM phone_numbers
		WHERE is_non_telnyx = ? AND phone_number IN (`+placeholders(len(e164s))+`)`, append([]any{false}, anys(e164s)...)...); err != nil {
		return nil, err
	}
	for _, n := range held {
		out[n] = true
	}
	return out, nil
}

// PhoneNumberHeldElsewhere says whether a team other than orgID holds this number (bought or
// verified).
func (db *DB) PhoneNumberHeldElsewhere(ctx context.Context, orgID, e164 string) (bool, error) {
	var n int
	err := db.get(ctx, db.read(ctx), &n, `SELECT COUNT(*) FROM phone_numbers WHERE phone_number = ? AND organization_id <> ?`, e164, orgID)
	return n > 0, err
}

// PhoneNumberOrder is a number a team ordered from the carrier; it outlives the number.
type PhoneNumberOrder struct {
	ID             string    `db:"id"`
	OrganizationID string    `db:"organization_id"`
	E164           string    `db:"phone_number"`
	CarrierOrderID string    `db:"carrier_order_id"`
	CreatedAt      time.Time `db:"created_at"`
}

// CreatePhoneNumberOrder records an order.
func (db *DB) CreatePhoneNumberOrder(ctx context.Context, o *PhoneNumberOrder) error {
	o.ID = NewID()
	o.CreatedAt = now()
	_, err := db.exec(ctx, `INSERT INTO phone_number_orders (id, organization_id, phone_number, carrier_order_id, created_at)
		VALUES (?, ?, ?, ?, ?)`, o.ID, o.OrganizationID, o.E164, o.CarrierOrderID, o.CreatedAt)
	return err
}

// FirstPhoneNumberOrderAt is when the team first bought a number; nil when it never did.
func (db *DB) FirstPhoneNumberOrderAt(ctx context.Context, orgID string) (*time.Time, error) {
	var at []time.Time
	if err := db.selectAll(ctx, db.read(ctx), &at, `SELECT created_at FROM phone_number_orders WHERE organization_id = ?
		ORDER BY created_at LIMIT 1`, orgID); err != nil || len(at) == 0 {
		return nil, err
	}
	return &at[0], nil
}

// PhoneVerification is an attempt to verify a number a team owns elsewhere.
type PhoneVerification struct {
	ID             string                  `db:"id"`
	OrganizationID string                  `db:"organization_id"`
	E164           string                  `db:"phone_number"`
	Method         string                  `db:"method"`
	Status         PhoneVerificationStatus `db:"status"`
	WrongCodes     int                     `db:"wrong_codes"`
	ExpiresAt      time.Time               `db:"expires_at"`
	VerifiedAt     *time.Time              `db:"verified_at"`
	PhoneNumberID  *string                 `db:"phone_number_id"`
	CreatedAt      time.Time               `db:"created_at"`
	UpdatedAt      time.Time               `db:"updated_at"`
}

const phoneVerificationColumns = `id, organization_id, phone_number, method, status, wrong_codes, expires_at, verified_at,
	phone_number_id, created_at, updated_at`

// StartPhoneVerification ends the team's pending verifications of the number (expired: a new
// code replaces theirs) and inserts v as pending.
func (db *DB) StartPhoneVerification(ctx context.Context, v *PhoneVerification) error {
	v.ID = NewID()
	v.Status = VerificationPending
	v.CreatedAt = now()
	v.UpdatedAt = v.CreatedAt
	return db.InTx(ctx, func(ctx context.Context) error {
		if _, err := db.exec(ctx, `UPDATE phone_number_verifications SET status = ?, updated_at = ?
			WHERE organization_id = ? AND phone_number = ? AND status = ?`,
			VerificationExpired, v.CreatedAt, v.OrganizationID, v.E164, VerificationPending); err != nil {
			return err
		}
		_, err := db.exec(ctx, `INSERT INTO phone_number_verifications (`+phoneVerificationColumns+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, v.ID, v.OrganizationID, v.E164, v.Method, v.Status,
			v.WrongCodes, v.ExpiresAt, v.VerifiedAt, v.PhoneNumberID, v.CreatedAt, v.UpdatedAt)
		return err
	})
}

// PhoneVerificationTimes lists when the team asked to verify a number since a time, oldest
// first.
func (db *DB) PhoneVerificationTimes(ctx context.Context, orgID, e164 string, since time.Time) ([]time.Time, error) {
	at := []time.Time{}
	err := db.selectAll(ctx, db.read(ctx), &at, `SELECT created_at FROM phone_number_verifications
		WHERE organization_id = ? AND phone_number = ? AND created_at > ? ORDER BY created_at`, orgID, e164, since)
	return at, err
}

// LatestPhoneVerification returns the team's newest attempt to verify a number, or
// ErrNotFound.
func (db *DB) LatestPhoneVerification(ctx context.Context, orgID, e164 string) (PhoneVerification, error) {
	var v PhoneVerification
	err := db.get(ctx, db.read(ctx), &v, `SELECT `+phoneVerificationColumns+` FROM phone_number_verifications
		WHERE organization_id = ? AND phone_number = ? ORDER BY created_at DESC, id DESC LIMIT 1`, orgID, e164)
	return v, err
}

// PhoneVerificationByID returns one of the team's verifications, or ErrNotFound.
func (db *DB) PhoneVerificationByID(ctx context.Context, orgID, id string) (PhoneVerification, error) {
	var v PhoneVerification
	err := db.get(ctx, db.read(ctx), &v, `SELECT `+phoneVerificationColumns+` FROM phone_number_verifications
		WHERE organization_id = ? AND id = ?`, orgID, id)
	return v, err
}

// ListPhoneVerifications lists the team's newest verifications, newest first.
func (db *DB) ListPhoneVerifications(ctx context.Context, orgID string, limit int) ([]PhoneVerification, error) {
	vs := []PhoneVerification{}
	err := db.selectAll(ctx, db.read(ctx), &vs, `SELECT `+phoneVerificationColumns+` FROM phone_number_verifications
		WHERE organization_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`, orgID, limit)
	return vs, err
}

// EndPhoneVerification sets a pending verification's status (expired or failed).
func (db *DB) EndPhoneVerification(ctx context.Context, orgID, id string, status PhoneVerificationStatus) error {
	return db.one(ctx, `UPDATE phone_number_verifications SET status = ?, updated_at = ?
		WHERE organization_id = ? AND id = ? AND status = ?`, status, now(), orgID, id, VerificationPending)
}

// CountWrongPhoneCode records a wrong code on a pending verification, which fails at the
// limit-th; it answers the verification as it is then.
func (db *DB) CountWrongPhoneCode(ctx context.Context, orgID, id string, limit int) (PhoneVerification, error) {
	var v PhoneVerification
	err := db.InTx(ctx, func(ctx context.Context) error {
		if err := db.one(ctx, `UPDATE phone_number_verifications SET wrong_codes = wrong_codes + 1,
			status = CASE WHEN wrong_codes + 1 >= ? THEN ? ELSE status END, updated_at = ?
			WHERE organization_id = ? AND id = ? AND status = ?`,
			limit, VerificationFailed, now(), orgID, id, VerificationPending); err != nil {
			return err
		}
		var err error
		v, err = db.PhoneVerificationByID(ctx, orgID, id)
		return err
	})
	return v, err
}

// CompletePhoneVerification adds the verified number to the team and marks the verification
// verified, in one transaction. ErrConflict when the team has the number already; ErrNotFound
// when the verification is no longer pending.
func (db *DB) CompletePhoneVerification(ctx context.Context, v *PhoneVerification, n *PhoneNumber) error {
	return db.InTx(ctx, func(ctx context.Context) error {
		if err := db.CreatePhoneNumber(ctx, n); err != nil {
			return err
		}
		if err := db.one(ctx, `UPDATE phone_number_verifications SET status = ?, verified_at = ?, phone_number_id = ?, updated_at = ?
			WHERE organization_id = ? AND id = ? AND status = ?`, VerificationVerified, n.VerifiedAt, n.ID, n.CreatedAt,
			v.OrganizationID, v.ID, VerificationPending); err != nil {
			return err
		}
		var err error
		*v, err = db.PhoneVerificationByID(ctx, v.OrganizationID, v.ID)
		return err
	})
}
