// Package phones is the phone-number domain: searching the carrier's inventory, buying and
// releasing numbers, and verifying numbers a team owns elsewhere so it can use them as caller
// id. The carrier is a Telephony (telephony.go): the offline simulator (phones/sim) unless a
// Telnyx account is configured (phones/telnyx).
//
// Other domains use Number to check that a phone number id belongs to a team and to get its
// E.164 form, and Parse to read a number people typed.
package phones

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/billing"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/links"
	"github.com/bettyhq/betty/server/runs/inuse"
	"github.com/bettyhq/betty/server/store"
)

const (
	// DefaultSearchLimit is how many numbers a search answers by default (the dashboard's buy
	// filter: US, local, 20).
	DefaultSearchLimit = 20
	// VerificationTTL is how long a verification code can be submitted.
	VerificationTTL = 10 * time.Minute
	// MaxWrongCodes is how many wrong codes fail a verification.
	MaxWrongCodes = 5
	// MaxVerificationRequests is how many verifications a team may request for one number in
	// VerificationWindow: each one rings or texts that number.
	MaxVerificationRequests = 5
	VerificationWindow      = time.Hour
	// maxVerificationsListed bounds the (unpaginated) list of a team's verifications.
	maxVerificationsListed = 100
)

// Service is the phone-number domain.
type Service struct {
	db    *store.DB
	tel   Telephony
	links links.Builder
	log   *slog.Logger
	now   func() time.Time
	// billing takes the monthly subscription a carrier's number needs and knows the tier's
	// phone-number limit; nil in tests of this package alone.
	billing *billing.Service
}

// Option changes how the service is built.
type Option func(*Service)

// WithClock replaces the clock that expires verifications (tests).
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// WithBilling sets the billing service: subscriptions for bought numbers and the tier's limit.
func WithBilling(b *billing.Service) Option { return func(s *Service) { s.billing = b } }

// New returns the phone-number domain on carrier tel.
func New(db *store.DB, tel Telephony, l links.Builder, log *slog.Logger, opts ...Option) *Service {
	s := &Service{db: db, tel: tel, links: l, log: log, now: time.Now}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Carrier is the telephony provider in use.
func (s *Service) Carrier() Telephony { return s.tel }

// clock is the service's time, as the store keeps it (UTC, microseconds).
func (s *Service) clock() time.Time { return s.now().UTC().Truncate(time.Microsecond) }

// Number is a team's phone number with what uses it.
type Number struct {
	store.PhoneNumber
	// AgentID is the agent answering calls to it (the team's agent call configuration).
	AgentID *string
	// CampaignID is the first campaign assigned to it.
	CampaignID *string
}

// CallerIDOnly says whether the number is one of the team's own, verified: it can be shown as
// caller id on outbound calls but Betty receives no calls on it.
func (n Number) CallerIDOnly() bool { return n.IsNonTelnyx }

func numberOf(u store.PhoneNumberUse) Number {
	return Number{PhoneNumber: u.PhoneNumber, AgentID: u.AgentID, CampaignID: u.CampaignID}
}

var errNumberNotFound = errs.NotFoundf("Phone number")

// Number returns the team's phone number id (NotFound when the team has no such number, so
// another team's id is missing too). Other domains call it to check a number they are given
// and to read its E.164 form (Number.E164).
func (s *Service) Number(ctx context.Context, orgID, id string) (Number, error) {
	u, err := s.db.PhoneNumberByID(ctx, orgID, id)
	if errors.Is(err, store.ErrNotFound) {
		return Number{}, errNumberNotFound
	}
	if err != nil {
		return Number{}, err
	}
	return numberOf(u), nil
}

// ---- the catalogue ---------------------------------------------------------------------------

// SupportedCountry is a supported country with the usual monthly price of each number type.
type SupportedCountry struct {
	CountryInfo
	Prices map[NumberType]float64
}

// SupportedCountries lists where numbers are sold and verified, with the carrier's usual
// monthly prices.
func (s *Service) SupportedCountries() []SupportedCountry {
	out := make([]SupportedCountry, 0, len(Countries))
	for _, c := range Countries {
		sc := SupportedCountry{CountryInfo: c, Prices: map[NumberType]float64{}}
		for _, t := range NumberTypes {
			sc.Prices[t] = s.tel.MonthlyPrice(c.Code, t)
		}
		out = append(out, sc)
	}
	return out
}

// Search finds numbers on sale; empty fields take the defaults (US, local, 20). A search
// without matches answers an empty list.
func (s *Service) Search(ctx context.Context, q Query) ([]Available, error) {
	if q.Country == "" {
		q.Country = US
	}
	if q.Type == "" {
		q.Type = Local
	}
	if q.Limit <= 0 {
		q.Limit = DefaultSearchLimit
	}
	found, err := s.tel.Search(ctx, q)
	if err != nil {
		return nil, s.carrierError(ctx, "search numbers", err)
	}
	if len(found) > q.Limit {
		found = found[:q.Limit]
	}
	return found, nil
}

// ---- the team's numbers --------------------------------------------------------------------

// List lists the team's numbers, newest first, and how many there are.
func (s *Service) List(ctx context.Context, a auth.Actor, limit, offset int) ([]Number, int, error) {
	us, total, err := s.db.ListPhoneNumbers(ctx, a.OrganizationID, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	out := make([]Number, 0, len(us))
	for _, u := range us {
		out = append(out, numberOf(u))
	}
	return out, total, nil
}

// Purchase is what buying a number did: with the offline simulator (free numbers) the number,
// bought at once; with a carrier that charges, the checkout of its monthly subscription (the
// number is ordered when it is paid, OrderPaidNumber).
type Purchase struct {
	Number   Number
	Checkout *billing.CheckoutStarted
}

// Buy buys a number found by Search for the team. originURL is the dashboard page to come
// back to after a checkout; it must be on one of the deployment's dashboard origins.
func (s *Service) Buy(ctx context.Context, a auth.Actor, e164, originURL string) (Purchase, error) {
	if err := s.checkOrigin(originURL); err != nil {
		return Purchase{}, err
	}
	num, ok := Parse(e164)
	if !ok {
		return Purchase{}, errUnsupportedNumber(e164)
	}
	if err := s.checkNotHeld(ctx, a.OrganizationID, num.E164); err != nil {
		return Purchase{}, err
	}
	if owner, err := s.db.BoughtPhoneNumbers(ctx, []string{num.E164}); err != nil {
		return Purchase{}, err
	} else if owner[num.E164] {
		return Purchase{}, errNotOnSale(num.E164)
	}
	if err := s.checkLimit(ctx, a.OrganizationID); err != nil {
		return Purchase{}, err
	}
	if !s.tel.FreeNumbers() {
		if s.billing == nil || !s.billing.Configured() {
			return Purchase{}, errs.WithCode(errs.Unavailable, errs.CodePaymentsNotConfigured, "Buying a number from "+carrierName(s.tel)+
				" needs a paid monthly phone-number subscription, and payments are not configured on this server: set "+
				"--stripe-secret-key. You can verify a number your team already owns and use it as caller id meanwhile.")
		}
		c, err := s.billing.BuyNumber(ctx, a, num.E164, s.tel.MonthlyPrice(num.Country, num.Type), 0, originURL)
		if err != nil {
			return Purchase{}, err
		}
		return Purchase{Checkout: &c}, nil
	}
	n, err := s.order(ctx, a.OrganizationID, num)
	if err != nil {
		return Purchase{}, err
	}
	return Purchase{Number: Number{PhoneNumber: n}}, nil
}

// OrderPaidNumber orders a number whose subscription was paid (billing calls it when the
// checkout completes) and answers its id and monthly price.
func (s *Service) OrderPaidNumber(ctx context.Context, orgID, e164 string) (string, float64, error) {
	num, ok := Parse(e164)
	if !ok {
		return "", 0, errUnsupportedNumber(e164)
	}
	n, err := s.order(ctx, orgID, num)
	if err != nil {
		return "", 0, err
	}
	price := 0.0
	if n.MonthlyPrice != nil {
		price = *n.MonthlyPrice
	}
	return n.ID, price, nil
}

// checkLimit refuses a number past the tier's phone-number limit.
func (s *Service) checkLimit(ctx context.Context, orgID string) error {
	if s.billing == nil {
		return nil
	}
	used, err := s.db.CountBoughtNumbers(ctx, orgID)
	if err != nil {
		return err
	}
	return s.billing.CheckLimit(ctx, orgID, billing.LimitPhoneNumbers, used)
}

// order orders a number from the carrier and records it for the team.
func (s *Service) order(ctx context.Context, orgID string, num Parsed) (store.PhoneNumber, error) {
	order, err := s.tel.Order(ctx, num.E164)
	if errors.Is(err, ErrNotOnSale) {
		return store.PhoneNumber{}, errNotOnSale(num.E164)
	}
	if err != nil {
		return store.PhoneNumber{}, s.carrierError(ctx, "order a number", err)
	}
	n := store.PhoneNumber{OrganizationID: orgID, E164: num.E164, Status: store.PhonePending,
		CountryCode: string(num.Country), NumberType: ptr(string(num.Type)), AreaCode: optional(num.AreaCode),
		MonthlyPrice: &order.MonthlyPrice, CarrierID: optional(order.CarrierID)}
	if order.Active {
		n.Status = store.PhoneActive
	}
	if order.Country != "" {
		n.CountryCode = string(order.Country)
	}
	if order.Type != "" {
		n.NumberType = ptr(string(order.Type))
	}
	err = s.db.InTx(ctx, func(ctx context.Context) error {
		if err := s.db.CreatePhoneNumber(ctx, &n); err != nil {
			return err
		}
		return s.db.CreatePhoneNumberOrder(ctx, &store.PhoneNumberOrder{OrganizationID: orgID, E164: n.E164,
			CarrierOrderID: order.OrderID})
	})
	if err != nil {
		// Another request of this team, or another team, got it first: give it back.
		if rerr := s.tel.Release(context.WithoutCancel(ctx), Bought{E164: n.E164, CarrierID: order.CarrierID}); rerr != nil {
			s.log.ErrorContext(ctx, "a number ordered but not recorded could not be released", "phone_number", n.E164,
				"carrier_order_id", order.OrderID, "err", rerr)
		}
		if errors.Is(err, store.ErrConflict) {
			return store.PhoneNumber{}, errNotOnSale(n.E164)
		}
		return store.PhoneNumber{}, err
	}
	return n, nil
}

// Release removes a number from the team: a bought one goes back to the carrier, a verified
// one loses its verification (at the carrier too when no other team uses it). A number still
// assigned to a campaign is refused; the team's agent call configuration using it goes with
// it. When the carrier does not answer nothing is removed.
func (s *Service) Release(ctx context.Context, a auth.Actor, id string) error {
	u, err := s.db.PhoneNumberByID(ctx, a.OrganizationID, id)
	if errors.Is(err, store.ErrNotFound) {
		return errNumberNotFound
	}
	if err != nil {
		return err
	}
	if u.CampaignID != nil {
		return errs.ConflictErr(fmt.Sprintf("%s is assigned to the campaign %q. Give the campaign another number first.",
			u.E164, deref(u.CampaignName)))
	}
	if err := inuse.Check(ctx, s.db, a.OrganizationID, inuse.PhoneNumber, id); err != nil {
		return err
	}
	if u.IsNonTelnyx {
		elsewhere, err := s.db.PhoneNumberHeldElsewhere(ctx, a.OrganizationID, u.E164)
		if err != nil {
			return err
		}
		if !elsewhere {
			if err := s.tel.ForgetVerified(ctx, u.E164); err != nil {
				return s.carrierError(ctx, "forget a verified number", err)
			}
		}
	} else {
		// Its subscription ends at the period end (no refund of the running month).
		if s.billing != nil {
			if err := s.billing.EndNumberSubscription(ctx, a.OrganizationID, u.ID); err != nil {
				return err
			}
		}
		if err := s.tel.Release(ctx, Bought{E164: u.E164, CarrierID: deref(u.CarrierID)}); err != nil {
			return s.carrierError(ctx, "release a number", err)
		}
	}
	if err := s.db.DeletePhoneNumber(ctx, a.OrganizationID, id); errors.Is(err, store.ErrNotFound) {
		return errNumberNotFound
	} else if err != nil {
		return err
	}
	return nil
}

// ---- verification ---------------------------------------------------------------------------

// Verification is an attempt to verify a number as it stands now: a pending one past its
// expiry is expired.
type Verification struct {
	ID, OrganizationID, E164 string
	Status                   store.PhoneVerificationStatus
	Method                   Method
	// AttemptsLeft is how many more codes may be submitted (0 once it has ended).
	AttemptsLeft int
	// ExpiresAt is when a pending verification expires; nil once it has ended.
	ExpiresAt     *time.Time
	VerifiedAt    *time.Time
	PhoneNumberID *string
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// view is a verification as it stands at now.
func view(v store.PhoneVerification, now time.Time) Verification {
	out := Verification{ID: v.ID, OrganizationID: v.OrganizationID, E164: v.E164, Status: v.Status, Method: Method(v.Method),
		VerifiedAt: v.VerifiedAt, PhoneNumberID: v.PhoneNumberID, CreatedAt: v.CreatedAt, UpdatedAt: v.UpdatedAt}
	if out.Status == store.VerificationPending && !now.Before(v.ExpiresAt) {
		out.Status = store.VerificationExpired
	}
	if out.Status == store.VerificationPending {
		at := v.ExpiresAt
		out.ExpiresAt = &at
		out.AttemptsLeft = max(0, MaxWrongCodes-v.WrongCodes)
	}
	return out
}

// RequestVerification asks the carrier to call (or text) a one-time code to a number the team
// says it owns; the code is then submitted with Verify. A new request replaces a pending one.
func (s *Service) RequestVerification(ctx context.Context, a auth.Actor, e164 string, m Method) (Verification, error) {
	if m == "" {
		m = ByCall
	}
	if m != ByCall && m != BySMS {
		return Verification{}, errs.InvalidField("body.method", "method must be call or sms")
	}
	num, ok := Parse(e164)
	if !ok {
		return Verification{}, errUnsupportedNumber(e164)
	}
	if err := s.checkNotHeld(ctx, a.OrganizationID, num.E164); err != nil {
		return Verification{}, err
	}
	// A number bought through this server rings the agent of the team that bought it.
	if bought, err := s.db.BoughtPhoneNumbers(ctx, []string{num.E164}); err != nil {
		return Verification{}, err
	} else if bought[num.E164] {
		return Verification{}, errs.ConflictErr(fmt.Sprintf("%s was bought through this server by another team; "+
			"it cannot be verified as a number of your own.", num.E164))
	}
	now := s.clock()
	recent, err := s.db.PhoneVerificationTimes(ctx, a.OrganizationID, num.E164, now.Add(-VerificationWindow))
	if err != nil {
		return Verification{}, err
	}
	if len(recent) >= MaxVerificationRequests {
		wait := recent[len(recent)-MaxVerificationRequests].Add(VerificationWindow).Sub(now)
		return Verification{}, errs.Retry(errs.TooManyRequests, fmt.Sprintf("%s was sent %d codes in the last hour. "+
			"Wait a while before asking for another.", num.E164, len(recent)), max(wait, time.Second))
	}
	if err := s.tel.SendVerificationCode(ctx, num.E164, m); errors.Is(err, ErrRejected) {
		how := "call"
		if m == BySMS {
			how = "text"
		}
		s.log.InfoContext(ctx, "the carrier refused to send a verification code", "phone_number", num.E164, "method", m, "err", err)
		return Verification{}, errs.UnprocessableErr(fmt.Sprintf("The phone carrier could not %s %s with a code. "+
			"Check the number, or try the other method.", how, num.E164))
	} else if err != nil {
		return Verification{}, s.carrierError(ctx, "send a verification code", err)
	}
	v := store.PhoneVerification{OrganizationID: a.OrganizationID, E164: num.E164, Method: string(m), ExpiresAt: now.Add(VerificationTTL)}
	if err := s.db.StartPhoneVerification(ctx, &v); err != nil {
		return Verification{}, err
	}
	return view(v, now), nil
}

// Verify submits the code sent to a number. When the carrier accepts it the number becomes
// one of the team's (caller id only). A wrong code counts against the verification, which
// fails at the MaxWrongCodes-th.
func (s *Service) Verify(ctx context.Context, a auth.Actor, e164, code string) (Verification, error) {
	stored, err := s.db.LatestPhoneVerification(ctx, a.OrganizationID, e164)
	if errors.Is(err, store.ErrNotFound) {
		return Verification{}, errs.New(errs.NotFound, fmt.Sprintf("Nobody in this team asked to verify %s. Request a code first.", e164))
	}
	if err != nil {
		return Verification{}, err
	}
	now := s.clock()
	v := view(stored, now)
	switch v.Status {
	case store.VerificationVerified:
		return Verification{}, errs.ConflictErr(fmt.Sprintf("%s is verified already.", e164))
	case store.VerificationFailed:
		return Verification{}, errs.UnprocessableErr(fmt.Sprintf("This verification of %s failed after %d wrong codes. Request a new code.",
			e164, MaxWrongCodes))
	case store.VerificationExpired:
		if err := s.expire(ctx, stored); err != nil {
			return Verification{}, err
		}
		return Verification{}, errs.UnprocessableErr(fmt.Sprintf("The code sent to %s has expired (codes last %d minutes). Request a new one.",
			e164, int(VerificationTTL.Minutes())))
	}
	if err := s.checkNotHeld(ctx, a.OrganizationID, e164); err != nil {
		return Verification{}, err
	}
	err = s.tel.CheckVerificationCode(ctx, e164, code)
	switch {
	case errors.Is(err, ErrWrongCode):
		after, err := s.db.CountWrongPhoneCode(ctx, a.OrganizationID, stored.ID, MaxWrongCodes)
		if err != nil {
			return Verification{}, err
		}
		if left := MaxWrongCodes - after.WrongCodes; left > 0 {
			return Verification{}, errs.InvalidField("body.code", fmt.Sprintf("This is not the code sent to %s; %d more tries.", e164, left))
		}
		return Verification{}, errs.InvalidField("body.code", fmt.Sprintf("This is not the code sent to %s, and that was the last try: "+
			"request a new code.", e164))
	case errors.Is(err, ErrNoVerification):
		if err := s.expire(ctx, stored); err != nil {
			return Verification{}, err
		}
		return Verification{}, errs.UnprocessableErr(fmt.Sprintf("The phone carrier has no code waiting for %s any more. Request a new one.", e164))
	case err != nil:
		return Verification{}, s.carrierError(ctx, "check a verification code", err)
	}
	num, _ := Parse(e164) // it was parsed when requested
	n := store.PhoneNumber{OrganizationID: a.OrganizationID, E164: e164, Status: store.PhoneActive, IsNonTelnyx: true,
		CountryCode: string(num.Country), AreaCode: optional(num.AreaCode), VerifiedAt: &now}
	err = s.db.CompletePhoneVerification(ctx, &stored, &n)
	switch {
	case errors.Is(err, store.ErrConflict):
		return Verification{}, errs.ConflictErr(fmt.Sprintf("This team already has %s.", e164))
	case errors.Is(err, store.ErrNotFound):
		// Another request completed or replaced it meanwhile.
		return Verification{}, errs.ConflictErr(fmt.Sprintf("This verification of %s changed meanwhile; look at the team's verifications.", e164))
	case err != nil:
		return Verification{}, err
	}
	return view(stored, now), nil
}

// expire records that a pending verification ended unsubmitted.
func (s *Service) expire(ctx context.Context, v store.PhoneVerification) error {
	err := s.db.EndPhoneVerification(ctx, v.OrganizationID, v.ID, store.VerificationExpired)
	if errors.Is(err, store.ErrNotFound) {
		return nil // not pending any more
	}
	return err
}

// Verifications lists the team's verifications, newest first (the newest 100).
func (s *Service) Verifications(ctx context.Context, a auth.Actor) ([]Verification, error) {
	vs, err := s.db.ListPhoneVerifications(ctx, a.OrganizationID, maxVerificationsListed)
	if err != nil {
		return nil, err
	}
	now := s.clock()
	out := make([]Verification, 0, len(vs))
	for _, v := range vs {
		out = append(out, view(v, now))
	}
	return out, nil
}

// ---- helpers --------------------------------------------------------------------------------

// checkNotHeld refuses a number the team has already (bought or verified).
func (s *Service) checkNotHeld(ctx context.Context, orgID, e164 string) error {
	n, err := s.db.PhoneNumberByNumber(ctx, orgID, e164)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil
	case err != nil:
		return err
	case n.IsNonTelnyx:
		return errs.ConflictErr(fmt.Sprintf("This team has verified %s already.", e164))
	}
	return errs.ConflictErr(fmt.Sprintf("This team has %s already.", e164))
}

// checkOrigin refuses a return URL outside the deployment's dashboard origins.
func (s *Service) checkOrigin(raw string) error { return s.links.CheckReturnURL(raw) }

func errUnsupportedNumber(e164 string) error {
	return errs.UnprocessableErr(fmt.Sprintf("%s is not a valid phone number in a supported country (the US, Canada or the UK).", e164))
}

func errNotOnSale(e164 string) error {
	return errs.ConflictErr(fmt.Sprintf("%s is no longer on sale. Search again.", e164))
}

// carrierError tells people the carrier failed, without its words (they go to the log).
func (s *Service) carrierError(ctx context.Context, doing string, err error) error {
	s.log.WarnContext(ctx, "telephony failed", "carrier", s.tel.Name(), "doing", doing, "err", err)
	switch {
	case errors.Is(err, ErrCarrierAuth):
		return &errs.Error{Kind: errs.Unavailable, RetryAfter: time.Minute, Err: err,
			Message: "The phone carrier refused this server's credentials. An administrator should check its Telnyx settings (--telnyx-api-key)."}
	case errors.Is(err, ErrRejected):
		return &errs.Error{Kind: errs.Unprocessable, Err: err, Message: "The phone carrier refused the request."}
	case errors.Is(err, context.Canceled):
		return err
	}
	return &errs.Error{Kind: errs.Unavailable, RetryAfter: 30 * time.Second, Err: err,
		Message: "The phone carrier did not answer. Try again in a minute."}
}

func carrierName(t Telephony) string {
	if n := t.Name(); n != "" {
		return strings.ToUpper(n[:1]) + n[1:]
	}
	return "the carrier"
}

func ptr[T any](v T) *T { return &v }

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
