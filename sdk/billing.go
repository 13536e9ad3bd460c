package betty

import (
	"context"
	"iter"
	"net/http"
	"time"

	"github.com/bettyhq/betty/sdk/client"
)

// Billing: a team's credits and tier, buying credits and tiers through the payment provider's
// hosted checkout, the billing portal and phone-number subscriptions. A server without Stripe
// answers purchases with a 503 *APIError whose code is payments_not_configured.

// Credits answers a team's credit balance, tier and paid period.
func (c *Client) Credits(ctx context.Context, team string) (client.TeamCredits, error) {
	return Do[client.TeamCredits](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.GetTeamSubscriptionCredits(ctx, &client.GetTeamSubscriptionCreditsParams{OrganizationId: team})
	})
}

// SubscriptionStatus answers the state of a team's tier subscription (past_due: a payment
// failed and is being retried).
func (c *Client) SubscriptionStatus(ctx context.Context, team string) (client.TeamSubscriptionStatus, error) {
	return Do[client.TeamSubscriptionStatus](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.GetTeamSubscriptionStatus(ctx, &client.GetTeamSubscriptionStatusParams{OrganizationId: team})
	})
}

// BuyCredits opens a checkout for n credits (one credit is one US dollar); send the person to
// CheckoutUrl. The credits are added when the provider confirms the payment (WaitForCredits).
func (c *Client) BuyCredits(ctx context.Context, team string, n int, originURL string) (client.CheckoutSession, error) {
	return Do[client.CheckoutSession](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.CreateCreditsPaymentIntent(ctx, client.CreateCreditsPaymentIntentRequest{OrganizationId: team, Credits: n, OriginUrl: originURL})
	})
}

// SubscribeTier opens a monthly subscription checkout for a tier; trialCode ("" for none) asks
// for a trial the server configures.
func (c *Client) SubscribeTier(ctx context.Context, team string, tier client.PaidSubscriptionTier, trialCode, originURL string) (client.CheckoutSession, error) {
	monthly := client.Monthly
	req := client.CreateTierSubscriptionPaymentIntentRequest{OrganizationId: team, TargetTierType: tier, OriginUrl: originURL, IntervalType: &monthly}
	if trialCode != "" {
		req.TrialPeriodCode = &trialCode
	}
	return Do[client.CheckoutSession](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.CreateTierSubscriptionPaymentIntent(ctx, req)
	})
}

// ReportPayment tells the server how a checkout ended (succeeded or cancelled, the only
// statuses a client may report); a success is believed only once the provider confirms it.
func (c *Client) ReportPayment(ctx context.Context, intentID string, status client.UpdatePaymentIntentStatusRequestStatus) (client.PaymentIntent, error) {
	return Do[client.PaymentIntent](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.UpdatePaymentIntentStatus(ctx, client.UpdatePaymentIntentStatusRequest{DbPaymentIntentId: intentID, Status: status})
	})
}

// BillingPortal answers a short-lived link to the provider's billing portal, opened on flow
// ("" for the portal's home).
func (c *Client) BillingPortal(ctx context.Context, team string, flow client.BillingPortalFlowType) (client.BillingPortalLink, error) {
	p := &client.GetSubscriptionManagementLinkParams{OrganizationId: team}
	if flow != "" {
		p.FlowType = &flow
	}
	return Do[client.BillingPortalLink](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.GetSubscriptionManagementLink(ctx, p)
	})
}

// PhoneNumberSubscriptions walks a team's phone-number subscriptions, newest first.
func (c *Client) PhoneNumberSubscriptions(ctx context.Context, team string) iter.Seq2[client.PhoneNumberSubscription, error] {
	size := 100
	return All[client.PhoneNumberSubscription](ctx, c, func(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
		return api.ListPhoneNumberSubscriptions(ctx, &client.ListPhoneNumberSubscriptionsParams{OrganizationId: team, Page: &page, SizePerPage: &size})
	})
}

// WaitForCredits polls a team's balance every interval until it reaches at least atLeast (the
// balance before a purchase plus the credits bought: the provider's webhook has been handled)
// and answers the balance; ctx bounds the wait.
func (c *Client) WaitForCredits(ctx context.Context, team string, atLeast float64, interval time.Duration) (float64, error) {
	for {
		cr, err := c.Credits(ctx, team)
		if err != nil {
			return 0, err
		}
		if cr.Balance >= atLeast {
			return cr.Balance, nil
		}
		select {
		case <-ctx.Done():
			return cr.Balance, ctx.Err()
		case <-time.After(interval):
		}
	}
}

// GrantCredits adds credits to any team without a payment (site admins only).
func (c *Client) GrantCredits(ctx context.Context, team string, n int) (client.AdminOrganization, error) {
	return Do[client.AdminOrganization](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.GrantAdminOrganizationCredits(ctx, &client.GrantAdminOrganizationCreditsParams{OrganizationId: team, Credits: n})
	})
}

// Tiers answers the server's tier catalogue: each tier's name, monthly price and limits, the
// price of a credit and of a call minute, and whether the server takes payments.
func (c *Client) Tiers(ctx context.Context) (client.TierCatalog, error) {
	return Do[client.TierCatalog](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.ListTiers(ctx)
	})
}
