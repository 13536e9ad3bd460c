package billing

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/links"
	"github.com/bettyhq/betty/server/store"
)

// Provider is the payment provider (Stripe, billing/stripepay): hosted checkout pages, the
// billing portal and subscriptions. There is no offline implementation on purpose: nothing
// pretends to charge. Without one, purchases answer 503 payments_not_configured and a site
// admin grants credits and sets tiers by hand.
type Provider interface {
	// CreateCustomer makes the provider's customer record of a team (with its billing address
	// when it has one) and answers its id.
	CreateCustomer(ctx context.Context, orgID, name string, address *Address) (string, error)
	// SetCustomerAddress replaces the billing address on a customer's invoices.
	SetCustomerAddress(ctx context.Context, customerID string, address Address) error
	// CreateCheckout opens a hosted checkout page.
	CreateCheckout(ctx context.Context, c Checkout) (Session, error)
	// SessionPaid says whether a checkout session was paid.
	SessionPaid(ctx context.Context, sessionID string) (bool, error)
	// ExpireSession closes a checkout session nobody will pay.
	ExpireSession(ctx context.Context, sessionID string) error
	// PortalLink opens the billing portal of a customer, on flow when set.
	PortalLink(ctx context.Context, p Portal) (string, error)
	// CancelAtPeriodEnd ends a subscription when its paid period ends.
	CancelAtPeriodEnd(ctx context.Context, subscriptionID string) error
	// RefundSubscription ends a subscription at once and refunds what its latest invoice
	// charged (a paid phone number the carrier could not deliver). Asking again after it
	// succeeded changes nothing; key makes the refund idempotent at the provider.
	RefundSubscription(ctx context.Context, subscriptionID, key string) error
}

// Checkout is a hosted checkout page to open.
type Checkout struct {
	CustomerID string
	// Subscription is true for a monthly subscription, false for a one-time payment.
	Subscription bool
	// Product is the line's name; UnitAmountCents × Quantity is due (per month for a subscription).
	Product         string
	UnitAmountCents int64
	Quantity        int64
	// SetupCents, when set, is a one-time fee added to a subscription's first invoice.
	SetupCents            int64
	TrialDays             int
	SuccessURL, CancelURL string
	// Metadata travels on the session, and on its payment intent or subscription, so that every
	// webhook event finds the team and the Betty payment intent it settles.
	Metadata map[string]string
}

// Session is an opened checkout page.
type Session struct {
	ID, URL   string
	ExpiresAt time.Time
}

// FlowType is a task the billing portal opens on.
type FlowType string

const (
	FlowPaymentMethodUpdate FlowType = "payment_method_update"
	FlowSubscriptionCancel  FlowType = "subscription_cancel"
	FlowSubscriptionUpdate  FlowType = "subscription_update"
)

// Portal is a billing-portal link to open.
type Portal struct {
	CustomerID, ReturnURL string
	Flow                  FlowType
	// SubscriptionID is the tier subscription the cancel and update flows act on.
	SubscriptionID string
}

// Metadata keys on the provider's objects.
const (
	metaOrganization = "betty_organization_id"
	metaIntent       = "betty_payment_intent_id"
	metaKind         = "betty_kind"
	metaTier         = "betty_tier"
	metaNumber       = "betty_phone_number"
)

// TierPricesCents are the monthly prices of the tiers that can be bought at checkout, in US
// cents. The spec names no prices; these are Betty's list prices. tier4 (Custom) is
// negotiated with sales and never sold at checkout.
var TierPricesCents = map[store.SubscriptionTier]int64{store.Tier1: 4900, store.Tier2: 14900, store.Tier3: 39900}

// CreditPriceCents is the price of one credit: one US dollar (the contract's rule).
const CreditPriceCents = 100

// Payments is how the deployment takes payments.
type Payments struct {
	// Provider is nil when no secret key is configured (--stripe-secret-key).
	Provider Provider
	// WebhookSecret verifies provider events (--stripe-webhook-secret); empty refuses them.
	WebhookSecret string
	// TrialDays maps the trial codes a tier subscription may name to their length in days.
	TrialDays map[string]int
	// SalesContact is where tier4 (Custom) buyers are sent.
	SalesContact string
	// Links checks return URLs and builds the portal's return link.
	Links links.Builder
}

// errNotConfigured is the 503 naming the setting payments need.
func errNotConfigured(setting string) error {
	return errs.WithCode(errs.Unavailable, errs.CodePaymentsNotConfigured,
		"Payments are not configured on this server: set "+setting+". A site admin can grant credits and set a tier meanwhile.")
}

// Configured says whether purchases can be made.
func (s *Service) Configured() bool { return s.pay.Provider != nil }

func (s *Service) provider() (Provider, error) {
	if s.pay.Provider == nil {
		return nil, errNotConfigured("--stripe-secret-key (BETTY_STRIPE_SECRET_KEY)")
	}
	return s.pay.Provider, nil
}

// customer answers the team's provider customer, making it on first use.
func (s *Service) customer(ctx context.Context, p Provider, orgID string) (store.BillingAccount, error) {
	acct, err := s.db.BillingAccount(ctx, orgID)
	if err != nil || acct.CustomerID != nil {
		return acct, err
	}
	o, err := s.Team(ctx, orgID)
	if err != nil {
		return acct, err
	}
	addr, _, err := AddressOf(o)
	if err != nil {
		return acct, err
	}
	id, err := p.CreateCustomer(ctx, orgID, o.Name, addr)
	if err != nil {
		return acct, providerError(err)
	}
	acct.CustomerID = &id
	return acct, s.db.SaveBillingAccount(ctx, &acct)
}

// CheckoutStarted is a started purchase: Betty's payment intent and the provider's page.
type CheckoutStarted struct {
	Intent  store.PaymentIntent
	Session Session
}

// BuyCredits opens a checkout for n credits. Decision: a Checkout Session, not a bare
// PaymentIntent: Stripe's hosted page takes the card (Betty never has a card field), handles
// 3-D Secure and wallets, and the same flow serves one-time credits and subscriptions; its
// payment intent carries the same metadata, so payment_intent.succeeded settles it as well as
// checkout.session.completed (whichever comes first; the other finds it settled).
func (s *Service) BuyCredits(ctx context.Context, a auth.Actor, credits int, originURL string) (CheckoutStarted, error) {
	if credits < 5 || credits > 2500 {
		return CheckoutStarted{}, errs.InvalidField("body.credits", "credits must be between 5 and 2500")
	}
	in := store.PaymentIntent{Kind: store.PaymentCredits, Amount: float64(credits * CreditPriceCents / 100), Credits: &credits}
	return s.startCheckout(ctx, a, originURL, in, Checkout{Product: "Betty call credits", UnitAmountCents: CreditPriceCents,
		Quantity: int64(credits)})
}

// SubscribeTier opens a monthly subscription checkout for a tier. tier4 is sales-assisted
// (a 422 with the contact), a team with a running subscription changes it in the portal (409),
// and trialCode asks for the configured trial once per team.
func (s *Service) SubscribeTier(ctx context.Context, a auth.Actor, tier store.SubscriptionTier, trialCode, originURL string) (CheckoutStarted, error) {
	if tier == store.Tier4 {
		return CheckoutStarted{}, errs.UnprocessableErr(fmt.Sprintf("The %s plan is arranged with our sales team: write to %s and a site admin "+
			"sets the plan once agreed.", TierNames[tier], s.pay.SalesContact))
	}
	price, ok := TierPricesCents[tier]
	if !ok {
		return CheckoutStarted{}, errs.InvalidField("body.targetTierType", "targetTierType must be tier1, tier2, tier3 or tier4")
	}
	trial := 0
	if trialCode != "" {
		days, ok := s.pay.TrialDays[trialCode]
		if !ok {
			return CheckoutStarted{}, &errs.Error{Kind: errs.Unprocessable, Message: "Unknown trial code " + strconv.Quote(trialCode) + ".",
				Fields: []errs.Field{{Name: "body.trialPeriodCode", Message: "unknown trial code"}}}
		}
		trial = days
	}
	acct, err := s.db.BillingAccount(ctx, a.OrganizationID)
	if err != nil {
		return CheckoutStarted{}, err
	}
	if acct.SubscriptionID != nil && acct.SubscriptionStatus != store.SubscriptionCancelled && acct.SubscriptionStatus != store.SubscriptionNone {
		return CheckoutStarted{}, errs.ConflictErr("This team already has a tier subscription. Change or cancel it in the billing portal.")
	}
	if acct.TrialUsed {
		trial = 0 // one trial per team
	}
	t := string(tier)
	in := store.PaymentIntent{Kind: store.PaymentTier, Amount: float64(price) / 100, TargetTier: &t}
	if trial > 0 {
		in.TrialDays, in.Amount = &trial, 0
	}
	return s.startCheckout(ctx, a, originURL, in, Checkout{Subscription: true, Product: "Betty " + TierNames[tier],
		UnitAmountCents: price, Quantity: 1, TrialDays: trial})
}

// BuyNumber opens a monthly subscription checkout for a phone number at its monthly price
// (plus its one-time price). The number is ordered when the checkout completes (NumberSeller).
func (s *Service) BuyNumber(ctx context.Context, a auth.Actor, e164 string, monthly, upfront float64, originURL string) (CheckoutStarted, error) {
	n := e164
	in := store.PaymentIntent{Kind: store.PaymentPhoneNumber, Amount: RoundCents(monthly + upfront), PhoneNumber: &n}
	return s.startCheckout(ctx, a, originURL, in, Checkout{Subscription: true, Product: "Phone number " + e164,
		UnitAmountCents: cents(monthly), Quantity: 1, SetupCents: cents(upfront)})
}

func (s *Service) startCheckout(ctx context.Context, a auth.Actor, originURL string, in store.PaymentIntent, c Checkout) (CheckoutStarted, error) {
	p, err := s.provider()
	if err != nil {
		return CheckoutStarted{}, err
	}
	if err := s.pay.Links.CheckReturnURL(originURL); err != nil {
		return CheckoutStarted{}, err
	}
	acct, err := s.customer(ctx, p, a.OrganizationID)
	if err != nil {
		return CheckoutStarted{}, err
	}
	in.OrganizationID, in.Currency = a.OrganizationID, store.CurrencyUSD
	if a.UserID != "" {
		uid := a.UserID
		in.CreatedByUserID = &uid
	}
	if err := s.db.CreatePaymentIntent(ctx, &in); err != nil {
		return CheckoutStarted{}, err
	}
	c.CustomerID = *acct.CustomerID
	c.SuccessURL, c.CancelURL = returnURL(originURL, "success", in.ID), returnURL(originURL, "cancelled", in.ID)
	c.Metadata = map[string]string{metaOrganization: a.OrganizationID, metaIntent: in.ID, metaKind: string(in.Kind)}
	if in.TargetTier != nil {
		c.Metadata[metaTier] = *in.TargetTier
	}
	if in.PhoneNumber != nil {
		c.Metadata[metaNumber] = *in.PhoneNumber
	}
	sess, err := p.CreateCheckout(ctx, c)
	if err != nil {
		_, _ = s.db.MovePaymentIntent(ctx, a.OrganizationID, in.ID, store.PaymentFailed, store.PaymentPending)
		return CheckoutStarted{}, providerError(err)
	}
	if err := s.db.SetPaymentIntentSession(ctx, a.OrganizationID, in.ID, sess.ID); err != nil {
		return CheckoutStarted{}, err
	}
	in.SessionID = &sess.ID
	return CheckoutStarted{Intent: in, Session: sess}, nil
}

// returnURL is originURL with the outcome and the intent id the dashboard reports back.
func returnURL(originURL, outcome, intentID string) string {
	u, err := url.Parse(originURL)
	if err != nil {
		return originURL
	}
	q := u.Query()
	q.Set("paymentStatus", outcome)
	q.Set("dbPaymentIntentId", intentID)
	u.RawQuery = q.Encode()
	return u.String()
}

// ClientStatuses are the only statuses a client may report for a payment intent
// (PATCH /v1/payment/intent/status): the user came back paid, or left the checkout. pending,
// failed and expired are the server's.
var ClientStatuses = []store.PaymentStatus{store.PaymentSucceeded, store.PaymentCancelled}

// ReportIntent records what the user came back with. succeeded is believed only when the
// provider says the session is paid; cancelled expires the session. Only pending intents move;
// the same status again changes nothing. Allowed to the intent's creator and the team's admins.
func (s *Service) ReportIntent(ctx context.Context, a auth.Actor, id string, to store.PaymentStatus) (store.PaymentIntent, error) {
	if !slices.Contains(ClientStatuses, to) {
		return store.PaymentIntent{}, errs.InvalidField("body.status", "status must be succeeded or cancelled")
	}
	in, err := s.db.PaymentIntentByID(ctx, a.OrganizationID, id)
	if errors.Is(err, store.ErrNotFound) {
		return in, errs.NotFoundf("Payment intent")
	}
	if err != nil {
		return in, err
	}
	if !a.Role.AtLeast(auth.Admin) && (in.CreatedByUserID == nil || *in.CreatedByUserID != a.UserID) {
		return in, errs.ForbiddenErr("Only the person who started this payment, or a team admin, can report it.")
	}
	if in.Status == to {
		return in, nil
	}
	if in.Status != store.PaymentPending {
		return in, errs.UnprocessableErr(fmt.Sprintf("This payment is %s already.", in.Status))
	}
	p, err := s.provider()
	if err != nil {
		return in, err
	}
	if in.SessionID == nil {
		return in, errs.UnprocessableErr("This payment has no checkout.")
	}
	switch to {
	case store.PaymentSucceeded:
		paid, err := p.SessionPaid(ctx, *in.SessionID)
		if err != nil {
			return in, providerError(err)
		}
		if !paid {
			return in, errs.UnprocessableErr("The payment provider has not received this payment (yet).")
		}
		if err := s.db.InTx(ctx, func(ctx context.Context) error { return s.settle(ctx, in, nil, nil) }); err != nil {
			return in, err
		}
	case store.PaymentCancelled:
		if err := p.ExpireSession(ctx, *in.SessionID); err != nil {
			return in, providerError(err)
		}
		if _, err := s.db.MovePaymentIntent(ctx, in.OrganizationID, in.ID, store.PaymentCancelled, store.PaymentPending); err != nil {
			return in, err
		}
	}
	return s.db.PaymentIntentByID(ctx, a.OrganizationID, id)
}

// PortalLink opens the billing portal for the team, on flow when set. A team that never paid
// has no customer (422); the cancel and update flows need a running tier subscription.
func (s *Service) PortalLink(ctx context.Context, orgID string, flow FlowType) (string, time.Time, error) {
	p, err := s.provider()
	if err != nil {
		return "", time.Time{}, err
	}
	acct, err := s.db.BillingAccount(ctx, orgID)
	if err != nil {
		return "", time.Time{}, err
	}
	if acct.CustomerID == nil {
		return "", time.Time{}, errs.UnprocessableErr("This team has not paid for anything yet, so there is nothing to manage.")
	}
	port := Portal{CustomerID: *acct.CustomerID, Flow: flow, ReturnURL: s.pay.Links.To("/dashboard/billing", url.Values{"teamId": {orgID}})}
	if flow == FlowSubscriptionCancel || flow == FlowSubscriptionUpdate {
		if acct.SubscriptionID == nil || acct.SubscriptionStatus == store.SubscriptionCancelled || acct.SubscriptionStatus == store.SubscriptionNone {
			return "", time.Time{}, errs.UnprocessableErr("This team has no tier subscription to " +
				map[FlowType]string{FlowSubscriptionCancel: "cancel", FlowSubscriptionUpdate: "change"}[flow] + ".")
		}
		port.SubscriptionID = *acct.SubscriptionID
	}
	link, err := p.PortalLink(ctx, port)
	if err != nil {
		return "", time.Time{}, providerError(err)
	}
	// Stripe's portal sessions last five minutes.
	return link, s.now().Add(5 * time.Minute), nil
}

// NumberSubscriptions lists a page of the team's phone-number subscriptions.
func (s *Service) NumberSubscriptions(ctx context.Context, orgID string, ascending bool, limit, offset int) ([]store.NumberSubscription, int, error) {
	return s.db.NumberSubscriptions(ctx, orgID, ascending, limit, offset)
}

// EndNumberSubscription ends the subscription of a number being released at its period end
// (no refund of the running month). A number without one (the simulator's, bought free) has
// nothing to end.
func (s *Service) EndNumberSubscription(ctx context.Context, orgID, phoneNumberID string) error {
	sub, err := s.db.NumberSubscriptionOfNumber(ctx, orgID, phoneNumberID)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if sub.SubscriptionID != nil && s.pay.Provider != nil {
		if err := s.pay.Provider.CancelAtPeriodEnd(ctx, *sub.SubscriptionID); err != nil {
			return providerError(err)
		}
	}
	return s.db.EndNumberSubscription(ctx, orgID, sub.ID)
}

// GrantCredits adds credits without payment (a site admin's grant), written to the ledger.
func (s *Service) GrantCredits(ctx context.Context, adminUserID, orgID string, credits int) error {
	if credits < 1 || credits > 100000 {
		return errs.InvalidField("query.credits", "credits must be between 1 and 100000")
	}
	if _, err := s.Team(ctx, orgID); err != nil {
		return err
	}
	uid := adminUserID
	return notFound(s.db.AddCredits(ctx, orgID, float64(credits), store.LedgerGrant, nil, &uid))
}

// providerError tells people the payment provider failed without its words in the answer.
func providerError(err error) error {
	if _, ok := errs.As(err); ok {
		return err
	}
	return &errs.Error{Kind: errs.Unavailable, Message: "The payment provider did not answer. Try again in a minute.",
		RetryAfter: 30 * time.Second, Err: err}
}

func cents(v float64) int64 { return int64(math.Round(v * 100)) }

// tierOf reads a tier name from metadata.
func tierOf(s string) (store.SubscriptionTier, bool) {
	t := store.SubscriptionTier(strings.TrimSpace(s))
	_, ok := TierNames[t]
	return t, ok && t != store.TierFree
}

// IntentOrganization answers the team of a payment intent (for the guard).
func (s *Service) IntentOrganization(ctx context.Context, id string) (string, error) {
	return s.db.PaymentIntentOrganization(ctx, id)
}
