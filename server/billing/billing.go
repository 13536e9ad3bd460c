// Package billing is what a team pays: the price of call minutes, its tier subscription and
// the limits each tier sets (limits.go, the one table), prepaid credits and their ledger,
// monthly phone-number subscriptions, its billing address and usage, and the payment
// provider's events (webhook.go).
//
// Payments go through Stripe's hosted Checkout (payments.go says why); the provider is an
// interface with one real adapter (billing/stripepay), tested against stripe-mock. Decisions
// the spec leaves open:
//   - No Stripe configured: every purchase and the portal answer 503 payments_not_configured
//     naming --stripe-secret-key, webhooks name --stripe-webhook-secret. Nothing pretends to
//     charge. A site admin grants credits (betty admin credits grant) and sets tiers (betty
//     admin tier); the offline phone simulator keeps selling numbers free, without a
//     subscription, so a laptop install works end to end.
//   - Prices: one credit is one US dollar; tiers 49, 149 and 399 USD a month (TierPricesCents);
//     tier4 (Custom) is sales-assisted and never sold at checkout.
//   - Trials: trial codes map to days in configuration (--trial-codes, default trial14=14);
//     a team gets one trial.
//   - A cancelled tier drops to free when Stripe ends the subscription
//     (customer.subscription.deleted, sent at the period end for a cancellation from the
//     portal). A failed renewal marks the team past due and keeps the tier while Stripe retries.
//   - Limits (limits.go): seats count pending invitations; bought numbers count, verified
//     numbers of a team's own do not; the concurrent-call limit is read by the dialer.
//   - A paid number the carrier no longer sells ends its intent failed; the refund is made in
//     Stripe's dashboard (Betty issues no refunds). A carrier outage fails the webhook so that
//     Stripe delivers it again. The number is ordered inside the event's transaction, so on
//     SQLite the writer waits for the carrier's answer.
//   - A Telnyx number's checkout charges its monthly price; its one-time price is not added.
package billing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/store"
)

const (
	// CallRatePerMinute is the price of one billed call minute, in Currency.
	CallRatePerMinute = 0.27
	Currency          = "USD"
)

// RoundCents rounds an amount of money to two decimals.
func RoundCents(v float64) float64 { return math.Round(v*100) / 100 }

// RunningSubscriptions names what still bills a team: a paid tier whose period has not ended,
// and its phone-number subscriptions that renew (numbers: how many).
func RunningSubscriptions(o store.Organization, numbers int, now time.Time) []string {
	var out []string
	if o.SubscriptionTier != store.TierFree && o.SubscriptionEndAt != nil && o.SubscriptionEndAt.After(now) {
		out = append(out, "tier subscription")
	}
	if numbers > 0 {
		out = append(out, "phone-number subscription")
	}
	return out
}

// State is where a tier subscription stands.
type State string

const (
	StateNone      State = "none"
	StateActive    State = "active"
	StateCancelled State = "cancelled"
	StateTrialing  State = "trialing"
	StatePastDue   State = "past_due"
	StateUnpaid    State = "unpaid"
)

// Subscription is the state of a team's tier subscription.
type Subscription struct {
	OrganizationID   string
	Tier             store.SubscriptionTier
	State            State
	CurrentPeriodEnd *time.Time
	// Monthly is true when there is a billing period (monthly, the only interval).
	Monthly bool
	// CancelAtPeriodEnd: cancelled in the portal, ends (back to free) at CurrentPeriodEnd.
	CancelAtPeriodEnd bool
	// TrialEndsAt is set while trialing.
	TrialEndsAt *time.Time
}

// SubscriptionOf derives the subscription state from the team's tier and paid period. The
// payment provider's events (trials, failed payments, cancellation) refine it once payments
// exist; until then a paid tier with a running period is active, one whose period ended is
// cancelled, and the free tier or a tier a site admin set without end has none.
func SubscriptionOf(o store.Organization, now time.Time) Subscription {
	out := Subscription{OrganizationID: o.ID, Tier: o.SubscriptionTier, State: StateNone}
	if o.SubscriptionTier == store.TierFree || o.SubscriptionEndAt == nil {
		return out
	}
	end := *o.SubscriptionEndAt
	out.CurrentPeriodEnd, out.Monthly = &end, true
	if end.After(now) {
		out.State = StateActive
	} else {
		out.State = StateCancelled
	}
	return out
}

// Service reads and changes a team's billing.
type Service struct {
	db     *store.DB
	pay    Payments
	seller NumberSeller
	now    func() time.Time
}

// Option changes how the service is built.
type Option func(*Service)

// WithPayments sets how the deployment takes payments (none: purchases answer 503).
func WithPayments(p Payments) Option { return func(s *Service) { s.pay = p } }

// WithClock replaces the clock (tests).
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// New returns the billing service.
func New(db *store.DB, opts ...Option) *Service {
	s := &Service{db: db, now: time.Now}
	for _, o := range opts {
		o(s)
	}
	return s
}

// NumberSeller orders a paid phone number from the carrier for a team (the phones domain,
// wired by app: phones depends on billing, so billing asks through this).
type NumberSeller interface {
	// OrderPaidNumber orders e164 for the team and answers the new number's id and its
	// monthly price.
	OrderPaidNumber(ctx context.Context, orgID, e164 string) (id string, monthlyPrice float64, err error)
}

// SetNumberSeller sets who orders numbers once their subscription is paid.
func (s *Service) SetNumberSeller(n NumberSeller) { s.seller = n }

// Team answers the team's organisation (its tier, balance and period).
func (s *Service) Team(ctx context.Context, orgID string) (store.Organization, error) {
	o, err := s.db.OrganizationByID(ctx, orgID)
	if err != nil {
		return o, notFound(err)
	}
	return o, nil
}

// Subscription answers the state of the team's tier subscription.
func (s *Service) Subscription(ctx context.Context, orgID string, now time.Time) (Subscription, error) {
	o, err := s.Team(ctx, orgID)
	if err != nil {
		return Subscription{}, err
	}
	out := SubscriptionOf(o, now)
	acct, err := s.db.BillingAccount(ctx, orgID)
	if err != nil {
		return Subscription{}, err
	}
	// The provider's events refine what the tier and period say: trialing, past due (the
	// dashboard's banner), unpaid, cancelled.
	if acct.SubscriptionID != nil && acct.SubscriptionStatus != store.SubscriptionNone {
		out.State, out.Monthly, out.CancelAtPeriodEnd = State(acct.SubscriptionStatus), true, acct.CancelAtPeriodEnd
		if out.State == StateTrialing {
			out.TrialEndsAt = acct.TrialEndsAt
		}
		if out.State == StateCancelled && o.SubscriptionTier == store.TierFree {
			out.CurrentPeriodEnd = nil
		}
	}
	return out, nil
}

// Address is a billing address.
type Address struct {
	Line1      string  `json:"line1"`
	Line2      *string `json:"line2,omitempty"`
	City       string  `json:"city"`
	State      *string `json:"state,omitempty"`
	PostalCode string  `json:"postalCode"`
	Country    string  `json:"country"`
}

// AddressOf is a team's saved billing address (nil when none) and when it was saved.
func AddressOf(o store.Organization) (*Address, *time.Time, error) {
	if o.BillingAddress == nil || *o.BillingAddress == "" {
		return nil, o.BillingAddressUpdatedAt, nil
	}
	var a Address
	if err := json.Unmarshal([]byte(*o.BillingAddress), &a); err != nil {
		return nil, nil, fmt.Errorf("billing address of %s: %w", o.ID, err)
	}
	return &a, o.BillingAddressUpdatedAt, nil
}

var stateCode = regexp.MustCompile(`^[A-Z]{2}$`)

// SetAddress replaces the billing address after checking it: line1, city and postal code are
// required; US and CA addresses need a 2-letter state code. A team that is a customer of the
// payment provider has it passed on to its invoices.
func (s *Service) SetAddress(ctx context.Context, orgID string, a Address) (store.Organization, error) {
	a.Line1, a.City, a.PostalCode = strings.TrimSpace(a.Line1), strings.TrimSpace(a.City), strings.TrimSpace(a.PostalCode)
	a.Line2, a.State = trimmedOrNil(a.Line2), trimmedOrNil(a.State)
	var fields []errs.Field
	for _, f := range []struct{ name, v string }{{"line1", a.Line1}, {"city", a.City}, {"postalCode", a.PostalCode}} {
		if f.v == "" {
			fields = append(fields, errs.Field{Name: "body.billingAddress." + f.name, Message: f.name + " is required"})
		}
	}
	if a.Country == "US" || a.Country == "CA" {
		if a.State != nil {
			st := strings.ToUpper(*a.State)
			a.State = &st
		}
		if a.State == nil || !stateCode.MatchString(*a.State) {
			fields = append(fields, errs.Field{Name: "body.billingAddress.state", Message: "state must be a 2-letter code for US and CA addresses"})
		}
	}
	if len(fields) > 0 {
		return store.Organization{}, errs.InvalidFields(fields...)
	}
	// The provider's customer record gets it first: when the provider does not answer, nothing
	// is saved and the caller can try again.
	if s.pay.Provider != nil {
		acct, err := s.db.BillingAccount(ctx, orgID)
		if err != nil {
			return store.Organization{}, err
		}
		if acct.CustomerID != nil {
			if err := s.pay.Provider.SetCustomerAddress(ctx, *acct.CustomerID, a); err != nil {
				return store.Organization{}, providerError(err)
			}
		}
	}
	raw, _ := json.Marshal(a)
	if err := s.db.SetBillingAddress(ctx, orgID, string(raw)); err != nil {
		return store.Organization{}, notFound(err)
	}
	return s.Team(ctx, orgID)
}

// Usage is a month's call minutes and cost, in total and per day up to today.
type Usage struct {
	OrganizationID string
	Month, Year    int
	Calls          int
	Minutes, Cost  float64
	Days           []DayUsage
}

// DayUsage is one day of a month's usage.
type DayUsage struct {
	Date          time.Time
	Calls         int
	Minutes, Cost float64
}

// CostsUsage answers a month's usage (default: this month, in UTC). A future month has no days.
func (s *Service) CostsUsage(ctx context.Context, orgID string, month, year *int, now time.Time) (Usage, error) {
	now = now.UTC()
	out := Usage{OrganizationID: orgID, Month: int(now.Month()), Year: now.Year(), Days: []DayUsage{}}
	if month != nil {
		out.Month = *month
	}
	if year != nil {
		out.Year = *year
	}
	if out.Month < 1 || out.Month > 12 {
		return Usage{}, errs.InvalidField("query.month", "month must be between 1 and 12")
	}
	start := time.Date(out.Year, time.Month(out.Month), 1, 0, 0, 0, 0, time.UTC)
	end := start.AddDate(0, 1, 0)
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	if last := today.AddDate(0, 0, 1); end.After(last) {
		end = last // days up to today
	}
	if end.After(start) {
		usage, err := s.dailyCallUsage(ctx, orgID, start, end)
		if err != nil {
			return Usage{}, err
		}
		for d := start; d.Before(end); d = d.AddDate(0, 0, 1) {
			u := usage[d.Format(time.DateOnly)]
			minutes := u.seconds / 60
			out.Days = append(out.Days, DayUsage{Date: d, Calls: u.calls, Minutes: minutes, Cost: RoundCents(minutes * CallRatePerMinute)})
			out.Calls += u.calls
			out.Minutes += minutes
		}
	}
	out.Cost = RoundCents(out.Minutes * CallRatePerMinute)
	return out, nil
}

type callUsage struct {
	calls   int
	seconds float64
}

// dailyCallUsage answers the team's calls (by start) and billed seconds (the billed minutes
// of the call logs) per UTC day (YYYY-MM-DD) in [from, to).
func (s *Service) dailyCallUsage(ctx context.Context, orgID string, from, to time.Time) (map[string]callUsage, error) {
	starts, err := s.db.CallStarts(ctx, orgID, from, to)
	if err != nil {
		return nil, err
	}
	out := map[string]callUsage{}
	for _, c := range starts {
		day := c.StartTime.UTC().Format(time.DateOnly)
		u := out[day]
		u.calls++
		u.seconds += float64(c.BilledMinutes * 60)
		out[day] = u
	}
	return out, nil
}

func notFound(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return errs.NotFoundf("Team")
	}
	return err
}

func trimmedOrNil(s *string) *string {
	if s == nil {
		return nil
	}
	v := strings.TrimSpace(*s)
	if v == "" {
		return nil
	}
	return &v
}
