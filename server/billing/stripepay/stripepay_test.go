package stripepay_test

import (
	"context"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/billing"
	"github.com/bettyhq/betty/server/billing/stripepay"
	"github.com/bettyhq/betty/server/internal/stripetest"
)

// Every call the provider makes, against stripe-mock: stripe-mock validates each request
// against Stripe's OpenAPI description, so a wrong parameter fails here.
func TestEveryCallAgainstStripeMock(t *testing.T) {
	s := stripepay.New(stripetest.Key, stripetest.URL(t))
	ctx := context.Background()
	ny := "NY"
	addr := billing.Address{Line1: "1 Main St", City: "New York", State: &ny, PostalCode: "10001", Country: "US"}
	cus, err := s.CreateCustomer(ctx, "org-1", "Acme", &addr)
	if err != nil || !strings.HasPrefix(cus, "cus_") {
		t.Fatalf("customer %q: %v", cus, err)
	}
	if err := s.SetCustomerAddress(ctx, cus, addr); err != nil {
		t.Fatalf("address: %v", err)
	}
	meta := map[string]string{"betty_organization_id": "org-1", "betty_payment_intent_id": "pi-1"}
	for _, c := range []billing.Checkout{
		{CustomerID: cus, Product: "Betty call credits", UnitAmountCents: 100, Quantity: 50, SuccessURL: "https://app.example.com/b?x=1", CancelURL: "https://app.example.com/b", Metadata: meta},
		{CustomerID: cus, Subscription: true, Product: "Betty Starter Plan", UnitAmountCents: 4900, Quantity: 1, TrialDays: 14, SuccessURL: "https://app.example.com/b", CancelURL: "https://app.example.com/b", Metadata: meta},
		{CustomerID: cus, Subscription: true, Product: "Phone number +14155550123", UnitAmountCents: 100, Quantity: 1, SetupCents: 100, SuccessURL: "https://app.example.com/b", CancelURL: "https://app.example.com/b", Metadata: meta},
	} {
		sess, err := s.CreateCheckout(ctx, c)
		if err != nil || !strings.HasPrefix(sess.ID, "cs_") || sess.URL == "" {
			t.Fatalf("checkout %s: %+v %v", c.Product, sess, err)
		}
		if _, err := s.SessionPaid(ctx, sess.ID); err != nil {
			t.Fatalf("session: %v", err)
		}
		if err := s.ExpireSession(ctx, sess.ID); err != nil {
			t.Fatalf("expire: %v", err)
		}
	}
	for _, flow := range []billing.FlowType{"", billing.FlowPaymentMethodUpdate, billing.FlowSubscriptionCancel, billing.FlowSubscriptionUpdate} {
		link, err := s.PortalLink(ctx, billing.Portal{CustomerID: cus, ReturnURL: "https://app.example.com/dashboard/billing", Flow: flow, SubscriptionID: "sub_123"})
		if err != nil || link == "" {
			t.Fatalf("portal %q: %q %v", flow, link, err)
		}
	}
	if err := s.CancelAtPeriodEnd(ctx, "sub_123"); err != nil {
		t.Fatalf("cancel: %v", err)
	}
	if err := s.RefundSubscription(ctx, "sub_123", "pi-1"); err != nil {
		t.Fatalf("refund: %v", err)
	}
	if err := s.Refund(ctx, "pi_123", "sub_123", "pi-1"); err != nil {
		t.Fatalf("refund of a payment: %v", err)
	}
}
