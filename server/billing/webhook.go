package billing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v76"
	"github.com/stripe/stripe-go/v76/webhook"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/store"
)

// WebhookTolerance is how far a signed event's timestamp may be from the server's clock.
const WebhookTolerance = 300 * time.Second

// HandleEvent verifies a Stripe event on its raw body and applies it. Handled types:
// checkout.session.completed and payment_intent.succeeded (settle), checkout.session.expired,
// invoice.paid, invoice.payment_failed and customer.subscription.deleted; others are
// acknowledged. Each event is recorded
// by id in the same transaction as its effect, so a retried event changes nothing, and every
// effect is written so that events may come in any order: settling a payment intent happens
// once whichever event gets there first, and a paid period only ever grows.
func (s *Service) HandleEvent(ctx context.Context, payload []byte, signature string) error {
	if s.pay.WebhookSecret == "" {
		return errNotConfigured("--stripe-webhook-secret (BETTY_STRIPE_WEBHOOK_SECRET)")
	}
	// stripe-go refuses only timestamps too far in the past, on its own clock: the window is
	// checked here, both ways and on the service's clock, once the signature holds (as the
	// Telnyx webhook does).
	ev, err := webhook.ConstructEventWithOptions(payload, signature, s.pay.WebhookSecret,
		webhook.ConstructEventOptions{IgnoreTolerance: true, IgnoreAPIVersionMismatch: true})
	switch {
	case errors.Is(err, webhook.ErrNotSigned), errors.Is(err, webhook.ErrInvalidHeader):
		return errs.InvalidField("header.Stripe-Signature", "Stripe-Signature is missing or malformed")
	case errors.Is(err, webhook.ErrNoValidSignature):
		return errs.New(errs.Unauthenticated, "The Stripe signature does not match.")
	case err != nil:
		return errs.InvalidField("body", "not a Stripe event")
	}
	if d := s.now().Sub(signedAt(signature)); d > WebhookTolerance || d < -WebhookTolerance {
		return errs.New(errs.Unauthenticated, "The Stripe signature is more than 300 seconds from the server's clock.")
	}
	if ev.ID == "" || ev.Data == nil {
		return errs.InvalidField("body", "not a Stripe event")
	}
	return s.db.InTx(ctx, func(ctx context.Context) error {
		fresh, err := s.db.RecordPaymentEvent(ctx, ev.ID, string(ev.Type))
		if err != nil || !fresh {
			return err
		}
		return s.apply(ctx, ev)
	})
}

func (s *Service) apply(ctx context.Context, ev stripe.Event) error {
	raw := ev.Data.Raw
	switch ev.Type {
	case "checkout.session.completed":
		var cs stripe.CheckoutSession
		if err := json.Unmarshal(raw, &cs); err != nil {
			return badEvent(err)
		}
		if cs.PaymentStatus != stripe.CheckoutSessionPaymentStatusPaid && cs.PaymentStatus != stripe.CheckoutSessionPaymentStatusNoPaymentRequired {
			return nil // an asynchronous payment method: its payment_intent.succeeded settles it
		}
		in, ok, err := s.intentOf(ctx, cs.Metadata)
		if err != nil || !ok {
			return err
		}
		var sub *string
		if cs.Subscription != nil && cs.Subscription.ID != "" {
			sub = &cs.Subscription.ID
		}
		return s.settle(ctx, in, sub, nil)
	case "checkout.session.expired":
		var cs stripe.CheckoutSession
		if err := json.Unmarshal(raw, &cs); err != nil {
			return badEvent(err)
		}
		in, ok, err := s.intentOf(ctx, cs.Metadata)
		if err != nil || !ok {
			return err
		}
		_, err = s.db.MovePaymentIntent(ctx, in.OrganizationID, in.ID, store.PaymentExpired, store.PaymentPending)
		return err
	case "payment_intent.succeeded":
		var pi stripe.PaymentIntent
		if err := json.Unmarshal(raw, &pi); err != nil {
			return badEvent(err)
		}
		in, ok, err := s.intentOf(ctx, pi.Metadata)
		if err != nil || !ok || in.Kind != store.PaymentCredits {
			return err
		}
		return s.settle(ctx, in, nil, nil)
	case "invoice.paid", "invoice.payment_failed":
		var inv stripe.Invoice
		if err := json.Unmarshal(raw, &inv); err != nil {
			return badEvent(err)
		}
		if inv.Subscription == nil || inv.Subscription.ID == "" || inv.SubscriptionDetails == nil {
			return nil
		}
		end := periodEnd(inv)
		if ev.Type == "invoice.paid" {
			return s.invoicePaid(ctx, inv.Subscription.ID, inv.SubscriptionDetails.Metadata, end)
		}
		return s.invoiceFailed(ctx, inv.Subscription.ID, inv.SubscriptionDetails.Metadata, end)
	case "customer.subscription.deleted":
		var sub stripe.Subscription
		if err := json.Unmarshal(raw, &sub); err != nil {
			return badEvent(err)
		}
		return s.subscriptionEnded(ctx, sub)
	}
	return nil
}

// intentOf finds the Betty payment intent an event's metadata names (false: not Betty's).
func (s *Service) intentOf(ctx context.Context, meta map[string]string) (store.PaymentIntent, bool, error) {
	org, id := meta[metaOrganization], meta[metaIntent]
	if org == "" || id == "" {
		return store.PaymentIntent{}, false, nil
	}
	in, err := s.db.PaymentIntentByID(ctx, org, id)
	if errors.Is(err, store.ErrNotFound) {
		return in, false, nil // a deleted team, or another deployment's event
	}
	return in, err == nil, err
}

// settle fulfils a paid intent once: credits to the ledger, the tier, or the number.
// subscriptionID and end (the paid period's end) are set when the event knows them.
func (s *Service) settle(ctx context.Context, in store.PaymentIntent, subscriptionID *string, end *time.Time) error {
	if in.Kind == store.PaymentPhoneNumber {
		return s.settleNumber(ctx, in, subscriptionID, end)
	}
	moved, err := s.db.MovePaymentIntent(ctx, in.OrganizationID, in.ID, store.PaymentSucceeded,
		store.PaymentPending, store.PaymentCancelled, store.PaymentExpired)
	if err != nil || !moved {
		return err
	}
	switch in.Kind {
	case store.PaymentCredits:
		err := s.db.AddCredits(ctx, in.OrganizationID, float64(deref(in.Credits)), store.LedgerPurchase, &in.ID, in.CreatedByUserID)
		if errors.Is(err, store.ErrConflict) {
			return nil // the ledger has it already
		}
		return err
	case store.PaymentTier:
		tier, ok := tierOf(deref(in.TargetTier))
		if !ok {
			return fmt.Errorf("payment intent %s: unknown tier %q", in.ID, deref(in.TargetTier))
		}
		acct, err := s.db.BillingAccount(ctx, in.OrganizationID)
		if err != nil {
			return err
		}
		if subscriptionID != nil {
			acct.SubscriptionID = subscriptionID
		}
		if acct.SubscriptionStatus == store.SubscriptionNone || acct.SubscriptionStatus == store.SubscriptionCancelled {
			acct.SubscriptionStatus = store.SubscriptionActive
		}
		if days := deref(in.TrialDays); days > 0 {
			t := s.now().UTC().AddDate(0, 0, days)
			acct.TrialUsed, acct.TrialEndsAt, acct.SubscriptionStatus = true, &t, store.SubscriptionTrialing
			if end == nil {
				end = &t
			}
		}
		if err := s.db.SaveBillingAccount(ctx, &acct); err != nil {
			return err
		}
		return s.extend(ctx, in.OrganizationID, tier, end)
	}
	return nil
}

// settleNumber orders a paid number and records its subscription. When the carrier cannot
// sell it any more the intent ends failed (the refund is made in Stripe's dashboard: Betty
// does not issue refunds itself).
func (s *Service) settleNumber(ctx context.Context, in store.PaymentIntent, subscriptionID *string, end *time.Time) error {
	if in.Status == store.PaymentSucceeded || in.Status == store.PaymentFailed {
		return nil
	}
	if s.seller == nil {
		return errors.New("billing: no number seller wired")
	}
	id, price, err := s.seller.OrderPaidNumber(ctx, in.OrganizationID, deref(in.PhoneNumber))
	if err != nil {
		// Sold to someone else (or not a number any more): the intent fails for good. A carrier
		// that does not answer fails the event instead, and Stripe delivers it again.
		if errs.Is(err, errs.Conflict) || errs.Is(err, errs.Unprocessable) {
			moved, err := s.db.MovePaymentIntent(ctx, in.OrganizationID, in.ID, store.PaymentFailed, store.PaymentPending, store.PaymentCancelled, store.PaymentExpired)
			if err != nil || !moved {
				return err
			}
			return s.refundLater(ctx, in.OrganizationID, in.ID, subscriptionID)
		}
		return err
	}
	if _, err := s.db.MovePaymentIntent(ctx, in.OrganizationID, in.ID, store.PaymentSucceeded, store.PaymentPending, store.PaymentCancelled, store.PaymentExpired); err != nil {
		return err
	}
	return s.db.CreateNumberSubscription(ctx, &store.NumberSubscription{OrganizationID: in.OrganizationID, E164: deref(in.PhoneNumber),
		PhoneNumberID: &id, Status: store.SubscriptionActive, MonthlyPrice: price, Currency: store.CurrencyUSD,
		SubscriptionID: subscriptionID, CurrentPeriodEnd: end})
}

// extend sets the tier and grows its paid period to end (never shrinks it).
func (s *Service) extend(ctx context.Context, orgID string, tier store.SubscriptionTier, end *time.Time) error {
	o, err := s.db.OrganizationByID(ctx, orgID)
	if err != nil {
		return err
	}
	to := o.SubscriptionEndAt
	if end != nil && (to == nil || end.After(*to)) {
		to = end
	}
	return s.db.SetSubscriptionPeriod(ctx, orgID, tier, to)
}

// invoicePaid settles the intent the subscription was bought with (if the checkout event has
// not yet) and extends the tier or the number's period.
func (s *Service) invoicePaid(ctx context.Context, subID string, meta map[string]string, end *time.Time) error {
	in, ok, err := s.intentOf(ctx, meta)
	if err != nil || !ok {
		return err
	}
	if err := s.settle(ctx, in, &subID, end); err != nil {
		return err
	}
	switch in.Kind {
	case store.PaymentTier:
		acct, err := s.db.BillingAccount(ctx, in.OrganizationID)
		if err != nil {
			return err
		}
		if acct.SubscriptionID != nil && *acct.SubscriptionID != subID {
			return nil // an older subscription's invoice
		}
		if acct.SubscriptionStatus == store.SubscriptionCancelled {
			return nil // ended already: an invoice arriving late does not bring it back
		}
		if acct.SubscriptionStatus == store.SubscriptionPastDue || acct.SubscriptionStatus == store.SubscriptionUnpaid ||
			(acct.SubscriptionStatus == store.SubscriptionTrialing && acct.TrialEndsAt != nil && !acct.TrialEndsAt.After(s.now())) {
			acct.SubscriptionStatus, acct.PastDueSince = store.SubscriptionActive, nil
		}
		acct.SubscriptionID = &subID
		if err := s.db.SaveBillingAccount(ctx, &acct); err != nil {
			return err
		}
		tier, _ := tierOf(meta[metaTier])
		return s.extend(ctx, in.OrganizationID, tier, end)
	case store.PaymentPhoneNumber:
		err := s.db.UpdateNumberSubscription(ctx, subID, store.SubscriptionActive, end, false)
		if errors.Is(err, store.ErrNotFound) {
			return nil // the number could not be ordered
		}
		return err
	}
	return nil
}

// invoiceFailed marks the team (or the number) past due, unless the period that invoice bills
// is paid already (a late event of a failure a retry fixed).
func (s *Service) invoiceFailed(ctx context.Context, subID string, meta map[string]string, end *time.Time) error {
	in, ok, err := s.intentOf(ctx, meta)
	if err != nil || !ok {
		return err
	}
	switch in.Kind {
	case store.PaymentTier:
		o, err := s.db.OrganizationByID(ctx, in.OrganizationID)
		if err != nil {
			return err
		}
		if end != nil && o.SubscriptionEndAt != nil && !end.After(*o.SubscriptionEndAt) {
			return nil
		}
		acct, err := s.db.BillingAccount(ctx, in.OrganizationID)
		if err != nil {
			return err
		}
		if acct.SubscriptionStatus == store.SubscriptionCancelled || (acct.SubscriptionID != nil && *acct.SubscriptionID != subID) {
			return nil
		}
		t := s.now().UTC()
		acct.SubscriptionID, acct.SubscriptionStatus, acct.PastDueSince = &subID, store.SubscriptionPastDue, &t
		return s.db.SaveBillingAccount(ctx, &acct)
	case store.PaymentPhoneNumber:
		err := s.db.UpdateNumberSubscription(ctx, subID, store.SubscriptionPastDue, nil, false)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		return err
	}
	return nil
}

// subscriptionEnded ends a tier subscription (the team drops to free) or a number's.
func (s *Service) subscriptionEnded(ctx context.Context, sub stripe.Subscription) error {
	in, ok, err := s.intentOf(ctx, sub.Metadata)
	if err != nil || !ok {
		return err
	}
	var end *time.Time
	if t := sub.EndedAt; t > 0 {
		e := time.Unix(t, 0).UTC()
		end = &e
	}
	switch in.Kind {
	case store.PaymentTier:
		acct, err := s.db.BillingAccount(ctx, in.OrganizationID)
		if err != nil {
			return err
		}
		if acct.SubscriptionID != nil && *acct.SubscriptionID != sub.ID {
			return nil // not the team's current subscription
		}
		acct.SubscriptionID, acct.SubscriptionStatus, acct.CancelAtPeriodEnd, acct.PastDueSince = &sub.ID, store.SubscriptionCancelled, false, nil
		if err := s.db.SaveBillingAccount(ctx, &acct); err != nil {
			return err
		}
		return s.db.SetSubscriptionPeriod(ctx, in.OrganizationID, store.TierFree, nil)
	case store.PaymentPhoneNumber:
		err := s.db.UpdateNumberSubscription(ctx, sub.ID, store.SubscriptionCancelled, end, false)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		return err
	}
	return nil
}

// periodEnd is when the period an invoice bills ends.
func periodEnd(inv stripe.Invoice) *time.Time {
	var end int64
	if inv.Lines != nil {
		for _, l := range inv.Lines.Data {
			if l.Period != nil && l.Period.End > end {
				end = l.Period.End
			}
		}
	}
	if end == 0 {
		return nil
	}
	t := time.Unix(end, 0).UTC()
	return &t
}

func badEvent(err error) error {
	return &errs.Error{Kind: errs.Invalid, Message: "The event's object could not be read.", Err: err,
		Fields: []errs.Field{{Name: "body.data.object", Message: "not the object this event type carries"}}}
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// signedAt reads the time a Stripe-Signature header was signed at ("t=<unix seconds>,v1=…"),
// the last t as stripe-go reads it, or the zero time (which no window accepts).
func signedAt(header string) time.Time {
	var at time.Time
	for _, pair := range strings.Split(header, ",") {
		if v, ok := strings.CutPrefix(pair, "t="); ok {
			secs, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return time.Time{}
			}
			at = time.Unix(secs, 0)
		}
	}
	return at
}
