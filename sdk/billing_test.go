package betty_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/testserver"
)

// The billing helpers against the real server without Stripe: views, the honest 503 of a
// purchase, and a site admin's grant that WaitForCredits sees.
func TestBillingWithoutStripe(t *testing.T) {
	ctx := context.Background()
	env := testserver.Start(t)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	c, err := betty.New(env.URL, betty.WithTokens(ada.Access, ada.Refresh))
	if err != nil {
		t.Fatal(err)
	}
	if cr, err := c.Credits(ctx, team); err != nil || cr.Balance != 0 || cr.SubscriptionTier != client.SubscriptionTierFree {
		t.Fatalf("credits: %+v %v", cr, err)
	}
	if s, err := c.SubscriptionStatus(ctx, team); err != nil || s.Status != client.SubscriptionStateNone {
		t.Fatalf("status: %+v %v", s, err)
	}
	var apiErr *betty.APIError
	if _, err := c.BuyCredits(ctx, team, 50, "http://betty.test/dashboard/billing"); !errors.As(err, &apiErr) || apiErr.Code != "payments_not_configured" {
		t.Fatalf("buy without Stripe: %v", err)
	}
	if _, err := c.GrantCredits(ctx, team, 5); !errors.Is(err, betty.ErrForbidden) {
		t.Fatalf("a grant by a team owner: %v", err)
	}
	if _, err := env.DB.SetSiteAdmin(ctx, ada.Email, true); err != nil {
		t.Fatal(err)
	}
	if o, err := c.GrantCredits(ctx, team, 5); err != nil || o.Balance != 5 {
		t.Fatalf("grant: %+v %v", o, err)
	}
	wait, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if b, err := c.WaitForCredits(wait, team, 5, 10*time.Millisecond); err != nil || b != 5 {
		t.Fatalf("wait: %v %v", b, err)
	}
	for s, err := range c.PhoneNumberSubscriptions(ctx, team) {
		t.Fatalf("subscriptions of a new team: %+v %v", s, err)
	}
}

// Purchases through stripe-mock: a checkout for credits and a tier, a cancelled report and the
// billing portal.
func TestBillingThroughStripe(t *testing.T) {
	ctx := context.Background()
	env := testserver.Start(t, testserver.WithStripe(testserver.StripeMockURL(t), testserver.StripeKey, "whsec_sdk"))
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	c, err := betty.New(env.URL, betty.WithTokens(ada.Access, ada.Refresh))
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.BuyCredits(ctx, team, 50, "http://betty.test/dashboard/billing")
	if err != nil || s.CheckoutUrl == nil || s.DbPaymentIntentId == nil || s.Status != client.PaymentIntentStatusPending {
		t.Fatalf("buy: %+v %v", s, err)
	}
	in, err := c.ReportPayment(ctx, *s.DbPaymentIntentId, client.UpdatePaymentIntentStatusRequestStatusCancelled)
	if err != nil || in.Status != client.PaymentIntentStatusCancelled || *in.Credits != 50 {
		t.Fatalf("report: %+v %v", in, err)
	}
	if s, err := c.SubscribeTier(ctx, team, client.PaidSubscriptionTierTier2, "trial14", "http://betty.test/dashboard/billing"); err != nil || s.CheckoutUrl == nil {
		t.Fatalf("subscribe: %+v %v", s, err)
	}
	link, err := c.BillingPortal(ctx, team, client.PaymentMethodUpdate)
	if err != nil || !strings.HasPrefix(link.Url, "http") {
		t.Fatalf("portal: %+v %v", link, err)
	}
}
