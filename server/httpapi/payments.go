package httpapi

import (
	"bytes"
	"context"
	"io"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/billing"
	"github.com/bettyhq/betty/server/store"
)

// Payments implements the Payments tag and Stripe's webhook: bind, one billing call, render.
type Payments struct{ svc *billing.Service }

const numberSubscriptionPageSize = 10

// CreateCreditsPaymentIntent opens a checkout for credits.
func (h *Payments) CreateCreditsPaymentIntent(ctx context.Context, req api.CreateCreditsPaymentIntentRequestObject) (api.CreateCreditsPaymentIntentResponseObject, error) {
	c, err := h.svc.BuyCredits(ctx, actor(ctx), req.Body.Credits, req.Body.OriginUrl)
	if err != nil {
		return nil, err
	}
	return api.CreateCreditsPaymentIntent201JSONResponse{Status: http.StatusCreated, Data: renderCheckout(c)}, nil
}

// CreateTierSubscriptionPaymentIntent opens a subscription checkout for a tier.
func (h *Payments) CreateTierSubscriptionPaymentIntent(ctx context.Context, req api.CreateTierSubscriptionPaymentIntentRequestObject) (api.CreateTierSubscriptionPaymentIntentResponseObject, error) {
	trial := ""
	if req.Body.TrialPeriodCode != nil {
		trial = *req.Body.TrialPeriodCode
	}
	c, err := h.svc.SubscribeTier(ctx, actor(ctx), store.SubscriptionTier(req.Body.TargetTierType), trial, req.Body.OriginUrl)
	if err != nil {
		return nil, err
	}
	return api.CreateTierSubscriptionPaymentIntent201JSONResponse{Status: http.StatusCreated, Data: renderCheckout(c)}, nil
}

// UpdatePaymentIntentStatus records what the user came back from checkout with.
func (h *Payments) UpdatePaymentIntentStatus(ctx context.Context, req api.UpdatePaymentIntentStatusRequestObject) (api.UpdatePaymentIntentStatusResponseObject, error) {
	in, err := h.svc.ReportIntent(ctx, actor(ctx), req.Body.DbPaymentIntentId, store.PaymentStatus(req.Body.Status))
	if err != nil {
		return nil, err
	}
	return api.UpdatePaymentIntentStatus200JSONResponse{Status: http.StatusOK, Data: renderPaymentIntent(in)}, nil
}

// GetSubscriptionManagementLink opens the billing portal.
func (h *Payments) GetSubscriptionManagementLink(ctx context.Context, req api.GetSubscriptionManagementLinkRequestObject) (api.GetSubscriptionManagementLinkResponseObject, error) {
	var flow billing.FlowType
	if req.Params.FlowType != nil {
		flow = billing.FlowType(*req.Params.FlowType)
	}
	url, exp, err := h.svc.PortalLink(ctx, actor(ctx).OrganizationID, flow)
	if err != nil {
		return nil, err
	}
	return api.GetSubscriptionManagementLink200JSONResponse{Status: http.StatusOK, Data: api.BillingPortalLink{Url: url, ExpiresAt: exp}}, nil
}

// ListPhoneNumberSubscriptions lists the team's number subscriptions.
func (h *Payments) ListPhoneNumberSubscriptions(ctx context.Context, req api.ListPhoneNumberSubscriptionsRequestObject) (api.ListPhoneNumberSubscriptionsResponseObject, error) {
	asc := req.Params.OrderByDate != nil && *req.Params.OrderByDate == api.ListPhoneNumberSubscriptionsParamsOrderByDateAsc
	items, meta, err := paged(newPage(req.Params.Page, req.Params.SizePerPage, numberSubscriptionPageSize), func(limit, offset int) ([]store.NumberSubscription, int, error) {
		return h.svc.NumberSubscriptions(ctx, actor(ctx).OrganizationID, asc, limit, offset)
	})
	if err != nil {
		return nil, err
	}
	return api.ListPhoneNumberSubscriptions200JSONResponse{Status: http.StatusOK, Data: mapped(items, renderNumberSubscription), Meta: meta}, nil
}

// ReceiveStripeWebhook verifies and applies a Stripe event, on the raw body as received.
func (h *Payments) ReceiveStripeWebhook(ctx context.Context, req api.ReceiveStripeWebhookRequestObject) (api.ReceiveStripeWebhookResponseObject, error) {
	raw, _ := ctx.Value(rawBodyKey{}).([]byte)
	if err := h.svc.HandleEvent(ctx, raw, req.Params.StripeSignature); err != nil {
		return nil, err
	}
	return api.ReceiveStripeWebhook200JSONResponse{Status: http.StatusOK, Data: api.Message{Message: "Event received."}}, nil
}

type rawBodyKey struct{}

// keepRawBody keeps the body of signed webhooks as received, for the signature check: the
// strict wrapper hands handlers the decoded JSON, whose bytes differ.
func keepRawBody(paths ...string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			for _, p := range paths {
				if r.URL.Path != p || r.Body == nil {
					continue
				}
				raw, err := io.ReadAll(r.Body)
				if err != nil {
					return err
				}
				r.Body = io.NopCloser(bytes.NewReader(raw))
				c.SetRequest(r.WithContext(context.WithValue(r.Context(), rawBodyKey{}, raw)))
			}
			return next(c)
		}
	}
}

// ListTiers answers the tier catalogue.
func (h *Payments) ListTiers(ctx context.Context, _ api.ListTiersRequestObject) (api.ListTiersResponseObject, error) {
	return api.ListTiers200JSONResponse{Status: http.StatusOK, Data: renderCatalog(h.svc.Catalog())}, nil
}

// ---- renderers ------------------------------------------------------------------------------

func renderCheckout(c billing.CheckoutStarted) api.CheckoutSession {
	id, url, exp := c.Session.ID, c.Session.URL, c.Session.ExpiresAt
	return api.CheckoutSession{Id: &id, DbPaymentIntentId: &c.Intent.ID, CheckoutUrl: &url, ExpiresAt: &exp,
		Status: api.PaymentIntentStatus(c.Intent.Status)}
}

func renderPaymentIntent(p store.PaymentIntent) api.PaymentIntent {
	out := api.PaymentIntent{Id: p.ID, OrganizationId: p.OrganizationID, Kind: api.PaymentIntentKind(p.Kind),
		Status: api.PaymentIntentStatus(p.Status), Amount: p.Amount, Currency: p.Currency, Credits: p.Credits,
		PhoneNumber: p.PhoneNumber, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt}
	if p.TargetTier != nil {
		t := api.PaidSubscriptionTier(*p.TargetTier)
		out.TargetTierType = &t
	}
	return out
}

func renderNumberSubscription(s store.NumberSubscription) api.PhoneNumberSubscription {
	return api.PhoneNumberSubscription{Id: s.ID, OrganizationId: s.OrganizationID, PhoneNumber: s.E164, PhoneNumberId: s.PhoneNumberID,
		Status: api.SubscriptionState(s.Status), MonthlyPrice: s.MonthlyPrice, Currency: s.Currency, IntervalType: api.Monthly,
		CurrentPeriodEnd: s.CurrentPeriodEnd, CancelAtPeriodEnd: s.CancelAtPeriodEnd, CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt}
}

func renderCatalog(c billing.Catalog) api.TierCatalog {
	out := api.TierCatalog{CreditPriceUsd: c.CreditPrice, CallMinuteRateUsd: c.CallRate, PaymentsConfigured: c.PaymentsConfigured,
		Tiers: make([]api.TierOffer, 0, len(c.Offers))}
	for _, o := range c.Offers {
		out.Tiers = append(out.Tiers, api.TierOffer{Tier: api.SubscriptionTier(o.Tier), Name: o.Name, MonthlyPriceUsd: o.MonthlyPrice,
			Purchasable: o.Purchasable, Limits: api.TierLimits{
				CustomVoiceProfiles: o.Limits[billing.LimitCustomVoices], ConcurrentCalls: o.Limits[billing.LimitConcurrentCalls],
				PhoneNumbers: o.Limits[billing.LimitPhoneNumbers], TeamMembers: o.Limits[billing.LimitTeamMembers]}})
	}
	return out
}
