// Package stripepay is billing's payment provider on Stripe's API through stripe-go
// (github.com/stripe/stripe-go/v76). Prices are sent inline (price_data) so a deployment needs
// no products or prices set up in Stripe beforehand; only a secret key and a webhook secret.
// APIURL points it at stripe-mock in tests.
package stripepay

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/stripe/stripe-go/v76"
	"github.com/stripe/stripe-go/v76/client"

	"github.com/bettyhq/betty/server/billing"
)

// Stripe is the provider.
type Stripe struct{ api *client.API }

var _ billing.Provider = (*Stripe)(nil)

// New returns the provider for secret key key; apiURL overrides Stripe's API address
// (stripe-mock), empty for Stripe's own.
func New(key, apiURL string) *Stripe {
	cfg := &stripe.BackendConfig{HTTPClient: &http.Client{Timeout: 30 * time.Second}, MaxNetworkRetries: stripe.Int64(2),
		LeveledLogger: &stripe.LeveledLogger{Level: stripe.LevelError}}
	if apiURL != "" {
		cfg.URL = stripe.String(apiURL)
	}
	backends := &stripe.Backends{API: stripe.GetBackendWithConfig(stripe.APIBackend, cfg),
		Connect: stripe.GetBackendWithConfig(stripe.ConnectBackend, cfg), Uploads: stripe.GetBackendWithConfig(stripe.UploadsBackend, cfg)}
	return &Stripe{api: client.New(key, backends)}
}

// CreateCustomer makes the team's customer record.
func (s *Stripe) CreateCustomer(ctx context.Context, orgID, name string, address *billing.Address) (string, error) {
	p := &stripe.CustomerParams{Name: stripe.String(name), Metadata: map[string]string{"betty_organization_id": orgID}}
	if address != nil {
		p.Address = addressParams(*address)
	}
	// Two first purchases of a team at once make one customer, not two: Stripe answers a
	// repeated idempotency key (for 24 hours) with the first answer.
	p.SetIdempotencyKey("betty-customer-" + orgID)
	p.Context = ctx
	c, err := s.api.Customers.New(p)
	if err != nil {
		return "", err
	}
	return c.ID, nil
}

// CreateCheckout opens a hosted Checkout Session.
func (s *Stripe) CreateCheckout(ctx context.Context, c billing.Checkout) (billing.Session, error) {
	price := &stripe.CheckoutSessionLineItemPriceDataParams{Currency: stripe.String("usd"),
		ProductData: &stripe.CheckoutSessionLineItemPriceDataProductDataParams{Name: stripe.String(c.Product)},
		UnitAmount:  stripe.Int64(c.UnitAmountCents)}
	p := &stripe.CheckoutSessionParams{Customer: stripe.String(c.CustomerID), SuccessURL: stripe.String(c.SuccessURL),
		CancelURL: stripe.String(c.CancelURL), Metadata: c.Metadata,
		LineItems: []*stripe.CheckoutSessionLineItemParams{{PriceData: price, Quantity: stripe.Int64(c.Quantity)}}}
	if c.Subscription {
		price.Recurring = &stripe.CheckoutSessionLineItemPriceDataRecurringParams{Interval: stripe.String(string(stripe.PriceRecurringIntervalMonth))}
		p.Mode = stripe.String(string(stripe.CheckoutSessionModeSubscription))
		p.SubscriptionData = &stripe.CheckoutSessionSubscriptionDataParams{Metadata: c.Metadata}
		if c.TrialDays > 0 {
			p.SubscriptionData.TrialPeriodDays = stripe.Int64(int64(c.TrialDays))
		}
		if c.SetupCents > 0 {
			p.LineItems = append(p.LineItems, &stripe.CheckoutSessionLineItemParams{Quantity: stripe.Int64(1),
				PriceData: &stripe.CheckoutSessionLineItemPriceDataParams{Currency: stripe.String("usd"), UnitAmount: stripe.Int64(c.SetupCents),
					ProductData: &stripe.CheckoutSessionLineItemPriceDataProductDataParams{Name: stripe.String(c.Product + " (set-up)")}}})
		}
	} else {
		p.Mode = stripe.String(string(stripe.CheckoutSessionModePayment))
		p.PaymentIntentData = &stripe.CheckoutSessionPaymentIntentDataParams{Metadata: c.Metadata}
	}
	p.Context = ctx
	cs, err := s.api.CheckoutSessions.New(p)
	if err != nil {
		return billing.Session{}, err
	}
	return billing.Session{ID: cs.ID, URL: cs.URL, ExpiresAt: time.Unix(cs.ExpiresAt, 0).UTC()}, nil
}

// SessionPaid says whether a Checkout Session was paid.
func (s *Stripe) SessionPaid(ctx context.Context, id string) (bool, error) {
	p := &stripe.CheckoutSessionParams{}
	p.Context = ctx
	cs, err := s.api.CheckoutSessions.Get(id, p)
	if err != nil {
		return false, err
	}
	return cs.PaymentStatus == stripe.CheckoutSessionPaymentStatusPaid || cs.PaymentStatus == stripe.CheckoutSessionPaymentStatusNoPaymentRequired, nil
}

// ExpireSession closes an open Checkout Session.
func (s *Stripe) ExpireSession(ctx context.Context, id string) error {
	p := &stripe.CheckoutSessionExpireParams{}
	p.Context = ctx
	_, err := s.api.CheckoutSessions.Expire(id, p)
	return err
}

// PortalLink opens a billing-portal session.
func (s *Stripe) PortalLink(ctx context.Context, in billing.Portal) (string, error) {
	p := &stripe.BillingPortalSessionParams{Customer: stripe.String(in.CustomerID), ReturnURL: stripe.String(in.ReturnURL)}
	if in.Flow != "" {
		p.FlowData = &stripe.BillingPortalSessionFlowDataParams{Type: stripe.String(string(in.Flow))}
		switch in.Flow {
		case billing.FlowSubscriptionCancel:
			p.FlowData.SubscriptionCancel = &stripe.BillingPortalSessionFlowDataSubscriptionCancelParams{Subscription: stripe.String(in.SubscriptionID)}
		case billing.FlowSubscriptionUpdate:
			p.FlowData.SubscriptionUpdate = &stripe.BillingPortalSessionFlowDataSubscriptionUpdateParams{Subscription: stripe.String(in.SubscriptionID)}
		}
	}
	p.Context = ctx
	ps, err := s.api.BillingPortalSessions.New(p)
	if err != nil {
		return "", err
	}
	return ps.URL, nil
}

// CancelAtPeriodEnd ends a subscription when its paid period ends.
func (s *Stripe) CancelAtPeriodEnd(ctx context.Context, id string) error {
	p := &stripe.SubscriptionParams{CancelAtPeriodEnd: stripe.Bool(true)}
	p.Context = ctx
	_, err := s.api.Subscriptions.Update(id, p)
	return err
}

// RefundSubscription cancels a subscription now (unless it is over already) and refunds the
// payment of its latest invoice, once: the idempotency key makes a repeated refund Stripe's
// first answer, and a charge refunded already counts as done.
func (s *Stripe) RefundSubscription(ctx context.Context, id, key string) error {
	get := &stripe.SubscriptionParams{}
	get.Context = ctx
	get.AddExpand("latest_invoice")
	sub, err := s.api.Subscriptions.Get(id, get)
	if err != nil {
		return err
	}
	if sub.Status != stripe.SubscriptionStatusCanceled {
		cancel := &stripe.SubscriptionCancelParams{}
		cancel.Context = ctx
		if _, err := s.api.Subscriptions.Cancel(id, cancel); err != nil {
			return err
		}
	}
	inv := sub.LatestInvoice
	if inv == nil || inv.PaymentIntent == nil || inv.PaymentIntent.ID == "" || inv.AmountPaid == 0 {
		return nil // nothing was charged (a trial, or a free first period)
	}
	return s.refund(ctx, inv.PaymentIntent.ID, id, key)
}

// refund gives back a payment, once.
func (s *Stripe) refund(ctx context.Context, paymentIntentID, subscriptionID, key string) error {
	r := &stripe.RefundParams{PaymentIntent: stripe.String(paymentIntentID),
		Reason: stripe.String(string(stripe.RefundReasonRequestedByCustomer)), Metadata: map[string]string{"betty_subscription_id": subscriptionID}}
	r.Context = ctx
	r.SetIdempotencyKey("betty-refund-" + key)
	_, err := s.api.Refunds.New(r)
	var se *stripe.Error
	if errors.As(err, &se) && se.Code == stripe.ErrorCodeChargeAlreadyRefunded {
		return nil
	}
	return err
}

// SetCustomerAddress replaces a customer's billing address.
func (s *Stripe) SetCustomerAddress(ctx context.Context, customerID string, a billing.Address) error {
	p := &stripe.CustomerParams{Address: addressParams(a)}
	p.Context = ctx
	_, err := s.api.Customers.Update(customerID, p)
	return err
}

func addressParams(a billing.Address) *stripe.AddressParams {
	return &stripe.AddressParams{Line1: stripe.String(a.Line1), Line2: a.Line2, City: stripe.String(a.City), State: a.State,
		PostalCode: stripe.String(a.PostalCode), Country: stripe.String(a.Country)}
}
