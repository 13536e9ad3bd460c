package store

import (
	"context"
	"errors"
	"time"
)

// PaymentKind is what a payment intent buys.
type PaymentKind string

const (
	PaymentCredits     PaymentKind = "credits"
	PaymentTier        PaymentKind = "tier-subscription"
	PaymentPhoneNumber PaymentKind = "phone-number-subscription"
)

// CurrencyUSD is the currency of every price and payment.
const CurrencyUSD = "USD"

// Why a team's credits changed (credit_ledger.reason).
const (
	LedgerPurchase = "purchase"
	LedgerGrant    = "grant"
)

// SubscriptionState is where a subscription stands with the payment provider.
type SubscriptionState string

const (
	SubscriptionNone      SubscriptionState = "none"
	SubscriptionTrialing  SubscriptionState = "trialing"
	SubscriptionActive    SubscriptionState = "active"
	SubscriptionPastDue   SubscriptionState = "past_due"
	SubscriptionUnpaid    SubscriptionState = "unpaid"
	SubscriptionCancelled SubscriptionState = "cancelled"
)

// PaymentStatus is where a payment intent stands.
type PaymentStatus string

const (
	PaymentPending   PaymentStatus = "pending"
	PaymentSucceeded PaymentStatus = "succeeded"
	PaymentFailed    PaymentStatus = "failed"
	PaymentCancelled PaymentStatus = "cancelled"
	PaymentExpired   PaymentStatus = "expired"
)

// BillingAccount is a team's standing with the payment provider.
type BillingAccount struct {
	OrganizationID     string            `db:"organization_id"`
	CustomerID         *string           `db:"customer_id"`
	SubscriptionID     *string           `db:"subscription_id"`
	SubscriptionStatus SubscriptionState `db:"subscription_status"`
	CancelAtPeriodEnd  bool              `db:"cancel_at_period_end"`
	TrialEndsAt        *time.Time        `db:"trial_ends_at"`
	TrialUsed          bool              `db:"trial_used"`
	PastDueSince       *time.Time        `db:"past_due_since"`
	CreatedAt          time.Time         `db:"created_at"`
	UpdatedAt          time.Time         `db:"updated_at"`
}

const billingAccountColumns = `organization_id, customer_id, subscription_id, subscription_status, cancel_at_period_end,
	trial_ends_at, trial_used, past_due_since, created_at, updated_at`

// BillingAccount returns the team's account, or one with status none (not stored) when it has
// never reached the payment provider.
func (db *DB) BillingAccount(ctx context.Context, orgID string) (BillingAccount, error) {
	var a BillingAccount
	err := db.get(ctx, db.read(ctx), &a, `SELECT `+billingAccountColumns+` FROM billing_accounts WHERE organization_id = ?`, orgID)
	if errors.Is(err, ErrNotFound) {
		return BillingAccount{OrganizationID: orgID, SubscriptionStatus: SubscriptionNone}, nil
	}
	return a, err
}

// SaveBillingAccount inserts or replaces the team's account.
func (db *DB) SaveBillingAccount(ctx context.Context, a *BillingAccount) error {
	t := now()
	if a.CreatedAt.IsZero() {
		a.CreatedAt = t
	}
	a.UpdatedAt = t
	if a.SubscriptionStatus == "" {
		a.SubscriptionStatus = SubscriptionNone
	}
	_, err := db.exec(ctx, `INSERT INTO billing_accounts (`+billingAccountColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (organization_id) DO UPDATE SET customer_id = excluded.customer_id, subscription_id = excluded.subscription_id,
		subscription_status = excluded.subscription_status, cancel_at_period_end = excluded.cancel_at_period_end,
		trial_ends_at = excluded.trial_ends_at, trial_used = excluded.trial_used, past_due_since = excluded.past_due_since,
		updated_at = excluded.updated_at`,
		a.OrganizationID, a.CustomerID, a.SubscriptionID, a.SubscriptionStatus, a.CancelAtPeriodEnd, a.TrialEndsAt,
		a.TrialUsed, a.PastDueSince, a.CreatedAt, a.UpdatedAt)
	return err
}

// SetSubscriptionPeriod sets the team's tier and when its paid period ends (nil: no end).
func (db *DB) SetSubscriptionPeriod(ctx context.Context, orgID string, tier SubscriptionTier, end *time.Time) error {
	return db.one(ctx, `UPDATE organizations SET subscription_tier = ?, subscription_end_at = ?, updated_at = ? WHERE id = ?`,
		tier, end, now(), orgID)
}

// PaymentIntent is a payment a team started.
type PaymentIntent struct {
	ID              string        `db:"id"`
	OrganizationID  string        `db:"organization_id"`
	CreatedByUserID *string       `db:"created_by_user_id"`
	Kind            PaymentKind   `db:"kind"`
	Status          PaymentStatus `db:"status"`
	Amount          float64       `db:"amount"`
	Currency        string        `db:"currency"`
	Credits         *int          `db:"credits"`
	TargetTier      *string       `db:"target_tier"`
	TrialDays       *int          `db:"trial_days"`
	PhoneNumber     *string       `db:"phone_number"`
	SessionID       *string       `db:"session_id"`
	CreatedAt       time.Time     `db:"created_at"`
	UpdatedAt       time.Time     `db:"updated_at"`
}

const paymentIntentColumns = `id, organization_id, created_by_user_id, kind, status, amount, currency, credits, target_tier,
	trial_days, phone_number, session_id, created_at, updated_at`

// CreatePaymentIntent inserts p (status pending unless set).
func (db *DB) CreatePaymentIntent(ctx context.Context, p *PaymentIntent) error {
	if p.ID == "" {
		p.ID = NewID()
	}
	if p.Status == "" {
		p.Status = PaymentPending
	}
	p.CreatedAt = now()
	p.UpdatedAt = p.CreatedAt
	_, err := db.exec(ctx, `INSERT INTO payment_intents (`+paymentIntentColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		p.ID, p.OrganizationID, p.CreatedByUserID, p.Kind, p.Status, p.Amount, p.Currency, p.Credits, p.TargetTier,
		p.TrialDays, p.PhoneNumber, p.SessionID, p.CreatedAt, p.UpdatedAt)
	return err
}

// PaymentIntentByID returns a team's payment intent, or ErrNotFound.
func (db *DB) PaymentIntentByID(ctx context.Context, orgID, id string) (PaymentIntent, error) {
	var p PaymentIntent
	err := db.get(ctx, db.read(ctx), &p, `SELECT `+paymentIntentColumns+` FROM payment_intents WHERE organization_id = ? AND id = ?`, orgID, id)
	return p, err
}

// PaymentIntentOrganization answers the organisation of a payment intent (ErrNotFound when
// none): the guard authorises the caller against it.
func (db *DB) PaymentIntentOrganization(ctx context.Context, id string) (string, error) {
	var org string
	err := db.get(ctx, db.read(ctx), &org, `SELECT organization_id FROM payment_intents WHERE id = ?`, id)
	return org, err
}

// SetPaymentIntentSession records the provider's checkout session of a pending intent.
func (db *DB) SetPaymentIntentSession(ctx context.Context, orgID, id, sessionID string) error {
	return db.one(ctx, `UPDATE payment_intents SET session_id = ?, updated_at = ? WHERE organization_id = ? AND id = ?`,
		sessionID, now(), orgID, id)
}

// MovePaymentIntent changes an intent's status when it is one of from; it answers whether it
// changed (false: it was already elsewhere, which makes every settlement happen once).
func (db *DB) MovePaymentIntent(ctx context.Context, orgID, id string, to PaymentStatus, from ...PaymentStatus) (bool, error) {
	args := []any{to, now(), orgID, id}
	for _, f := range from {
		args = append(args, f)
	}
	n, err := db.exec(ctx, `UPDATE payment_intents SET status = ?, updated_at = ? WHERE organization_id = ? AND id = ?
		AND status IN (`+placeholders(len(from))+`)`, args...)
	return n == 1, err
}

// AddCredits writes a ledger row and moves the team's balance by amount, in one transaction.
// ErrConflict when the payment intent already added its credits.
func (db *DB) AddCredits(ctx context.Context, orgID string, amount float64, reason string, intentID, actorUserID *string) error {
	return db.InTx(ctx, func(ctx context.Context) error {
		t := now()
		if _, err := db.exec(ctx, `INSERT INTO credit_ledger (id, organization_id, amount, reason, payment_intent_id, actor_user_id, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, NewID(), orgID, amount, reason, intentID, actorUserID, t); err != nil {
			return err
		}
		return db.one(ctx, `UPDATE organizations SET credits_balance = credits_balance + ?, updated_at = ? WHERE id = ?`, amount, t, orgID)
	})
}

// LedgerEntry is one change of a team's credits.
type LedgerEntry struct {
	ID              string    `db:"id"`
	OrganizationID  string    `db:"organization_id"`
	Amount          float64   `db:"amount"`
	Reason          string    `db:"reason"`
	PaymentIntentID *string   `db:"payment_intent_id"`
	ActorUserID     *string   `db:"actor_user_id"`
	CreatedAt       time.Time `db:"created_at"`
}

// CreditLedger lists a team's credit changes, oldest first.
func (db *DB) CreditLedger(ctx context.Context, orgID string) ([]LedgerEntry, error) {
	out := []LedgerEntry{}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT id, organization_id, amount, reason, payment_intent_id, actor_user_id, created_at
		FROM credit_ledger WHERE organization_id = ? ORDER BY created_at, id`, orgID)
	return out, err
}

// RecordPaymentEvent stores a provider event id; false when it was stored before (handled).
func (db *DB) RecordPaymentEvent(ctx context.Context, id, typ string) (bool, error) {
	n, err := db.exec(ctx, `INSERT INTO payment_events (id, type, received_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING`, id, typ, now())
	return n == 1, err
}

// NumberSubscription is the monthly subscription paying for one number.
type NumberSubscription struct {
	ID                string            `db:"id"`
	OrganizationID    string            `db:"organization_id"`
	E164              string            `db:"phone_number"`
	PhoneNumberID     *string           `db:"phone_number_id"`
	Status            SubscriptionState `db:"status"`
	MonthlyPrice      float64           `db:"monthly_price"`
	Currency          string            `db:"currency"`
	SubscriptionID    *string           `db:"subscription_id"`
	CurrentPeriodEnd  *time.Time        `db:"current_period_end"`
	CancelAtPeriodEnd bool              `db:"cancel_at_period_end"`
	CreatedAt         time.Time         `db:"created_at"`
	UpdatedAt         time.Time         `db:"updated_at"`
}

const numberSubscriptionColumns = `id, organization_id, phone_number, phone_number_id, status, monthly_price, currency,
	subscription_id, current_period_end, cancel_at_period_end, created_at, updated_at`

// CreateNumberSubscription inserts s. ErrConflict when its provider subscription is recorded.
func (db *DB) CreateNumberSubscription(ctx context.Context, s *NumberSubscription) error {
	s.ID = NewID()
	s.CreatedAt = now()
	s.UpdatedAt = s.CreatedAt
	_, err := db.exec(ctx, `INSERT INTO phone_number_subscriptions (`+numberSubscriptionColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		s.ID, s.OrganizationID, s.E164, s.PhoneNumberID, s.Status, s.MonthlyPrice, s.Currency, s.SubscriptionID,
		s.CurrentPeriodEnd, s.CancelAtPeriodEnd, s.CreatedAt, s.UpdatedAt)
	return err
}

// NumberSubscriptions lists a page of a team's number subscriptions by creation date and how
// many there are.
func (db *DB) NumberSubscriptions(ctx context.Context, orgID string, ascending bool, limit, offset int) ([]NumberSubscription, int, error) {
	var total int
	if err := db.get(ctx, db.read(ctx), &total, `SELECT COUNT(*) FROM phone_number_subscriptions WHERE organization_id = ?`, orgID); err != nil {
		return nil, 0, err
	}
	order := "created_at DESC, id DESC"
	if ascending {
		order = "created_at, id"
	}
	out := []NumberSubscription{}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT `+numberSubscriptionColumns+` FROM phone_number_subscriptions
		WHERE organization_id = ? ORDER BY `+order+` LIMIT ? OFFSET ?`, orgID, limit, offset)
	return out, total, err
}

// NumberSubscriptionOfNumber returns the running subscription of a team's number, or ErrNotFound.
func (db *DB) NumberSubscriptionOfNumber(ctx context.Context, orgID, phoneNumberID string) (NumberSubscription, error) {
	var s NumberSubscription
	err := db.get(ctx, db.read(ctx), &s, `SELECT `+numberSubscriptionColumns+` FROM phone_number_subscriptions
		WHERE organization_id = ? AND phone_number_id = ? ORDER BY created_at DESC LIMIT 1`, orgID, phoneNumberID)
	return s, err
}

// UpdateNumberSubscription changes a subscription's status and period by its provider id;
// ErrNotFound when none has it.
func (db *DB) UpdateNumberSubscription(ctx context.Context, subscriptionID string, status SubscriptionState, periodEnd *time.Time, cancelAtPeriodEnd bool) error {
	return db.one(ctx, `UPDATE phone_number_subscriptions SET status = ?, current_period_end = COALESCE(?, current_period_end),
		cancel_at_period_end = ?, updated_at = ? WHERE subscription_id = ?`, status, periodEnd, cancelAtPeriodEnd, now(), subscriptionID)
}

// EndNumberSubscription marks a team's number subscription to end at its period end and
// detaches it from the released number.
func (db *DB) EndNumberSubscription(ctx context.Context, orgID, id string) error {
	return db.one(ctx, `UPDATE phone_number_subscriptions SET cancel_at_period_end = ?, phone_number_id = NULL, updated_at = ?
		WHERE organization_id = ? AND id = ?`, true, now(), orgID, id)
}

// CountSeats answers how many members a team has, invited ones included (they take a
// seat once they accept).
func (db *DB) CountSeats(ctx context.Context, orgID string) (int, error) {
	var n int
	err := db.get(ctx, db.read(ctx), &n, `SELECT COUNT(*) FROM organization_members WHERE organization_id = ? AND status IN (?, ?)`,
		orgID, MemberActive, MemberInvited)
	return n, err
}

// CountBoughtNumbers answers how many numbers a team bought from the carrier (verified numbers
// of its own do not count).
func (db *DB) CountBoughtNumbers(ctx context.Context, orgID string) (int, error) {
	var n int
	err := db.get(ctx, db.read(ctx), &n, `SELECT COUNT(*) FROM phone_numbers WHERE organization_id = ? AND is_non_telnyx = ?`, orgID, false)
	return n, err
}

// RenewingNumberSubscriptions answers how many of a team's phone-number subscriptions still
// renew (not ended, not cancelled at the period end).
func (db *DB) RenewingNumberSubscriptions(ctx context.Context, orgID string) (int, error) {
	var n int
	err := db.get(ctx, db.read(ctx), &n, `SELECT COUNT(*) FROM phone_number_subscriptions WHERE organization_id = ?
		AND status IN (?, ?, ?) AND cancel_at_period_end = ?`, orgID, SubscriptionActive, SubscriptionTrialing, SubscriptionPastDue, false)
	return n, err
}
