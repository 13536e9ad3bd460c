package httpapi

import (
	"context"
	"net/http"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/phones"
)

// Phones answers the Phone tag (the catalogue, the team's numbers and their verification) and
// the purchase of a number (createPhoneNumberSubscriptionPaymentIntent, tagged Payments).
type Phones struct {
	svc *phones.Service
}

// phonePageSize is the default page of the team's numbers.
const phonePageSize = 10

// ListSupportedCountries lists where numbers are sold, with usual prices.
func (h *Phones) ListSupportedCountries(_ context.Context, _ api.ListSupportedCountriesRequestObject) (api.ListSupportedCountriesResponseObject, error) {
	return api.ListSupportedCountries200JSONResponse{Status: http.StatusOK, Data: mapped(h.svc.SupportedCountries(), renderSupportedCountry)}, nil
}

// SearchAvailablePhoneNumbers searches the carrier's numbers on sale.
func (h *Phones) SearchAvailablePhoneNumbers(ctx context.Context, req api.SearchAvailablePhoneNumbersRequestObject) (api.SearchAvailablePhoneNumbersResponseObject, error) {
	p := req.Params
	q := phones.Query{AreaCode: deref(p.AreaCode)}
	if p.CountryCode != nil {
		q.Country = phones.Country(*p.CountryCode)
	}
	if p.Type != nil {
		q.Type = phones.NumberType(*p.Type)
	}
	if p.Limit != nil {
		q.Limit = *p.Limit
	}
	found, err := h.svc.Search(ctx, q)
	if err != nil {
		return nil, err
	}
	return api.SearchAvailablePhoneNumbers200JSONResponse{Status: http.StatusOK, Data: mapped(found, renderAvailablePhoneNumber)}, nil
}

// ListPhoneNumbers lists the team's numbers, newest first.
func (h *Phones) ListPhoneNumbers(ctx context.Context, req api.ListPhoneNumbersRequestObject) (api.ListPhoneNumbersResponseObject, error) {
	items, meta, err := paged(newPage(req.Params.Page, req.Params.SizePerPage, phonePageSize), func(limit, offset int) ([]phones.Number, int, error) {
		return h.svc.List(ctx, actor(ctx), limit, offset)
	})
	if err != nil {
		return nil, err
	}
	return api.ListPhoneNumbers200JSONResponse{Status: http.StatusOK, Data: mapped(items, renderPhoneNumber), Meta: meta}, nil
}

// DeletePhoneNumber releases one of the team's numbers.
func (h *Phones) DeletePhoneNumber(ctx context.Context, req api.DeletePhoneNumberRequestObject) (api.DeletePhoneNumberResponseObject, error) {
	if err := h.svc.Release(ctx, actor(ctx), req.PhoneNumberId); err != nil {
		return nil, err
	}
	return api.DeletePhoneNumber200JSONResponse{Status: http.StatusOK, Data: api.Deleted{Id: req.PhoneNumberId}}, nil
}

// RequestPhoneNumberVerification has the carrier send a code to a number the team owns.
func (h *Phones) RequestPhoneNumberVerification(ctx context.Context, req api.RequestPhoneNumberVerificationRequestObject) (api.RequestPhoneNumberVerificationResponseObject, error) {
	var m phones.Method
	if req.Body.Method != nil {
		m = phones.Method(*req.Body.Method)
	}
	v, err := h.svc.RequestVerification(ctx, actor(ctx), req.Body.PhoneNumber, m)
	if err != nil {
		return nil, err
	}
	return api.RequestPhoneNumberVerification201JSONResponse{Status: http.StatusCreated, Data: renderPhoneVerification(v)}, nil
}

// VerifyPhoneNumber submits the code the carrier sent.
func (h *Phones) VerifyPhoneNumber(ctx context.Context, req api.VerifyPhoneNumberRequestObject) (api.VerifyPhoneNumberResponseObject, error) {
	v, err := h.svc.Verify(ctx, actor(ctx), req.Body.PhoneNumber, req.Body.Code)
	if err != nil {
		return nil, err
	}
	return api.VerifyPhoneNumber200JSONResponse{Status: http.StatusOK, Data: renderPhoneVerification(v)}, nil
}

// ListVerifiedPhoneNumbers lists the team's verifications, newest first.
func (h *Phones) ListVerifiedPhoneNumbers(ctx context.Context, _ api.ListVerifiedPhoneNumbersRequestObject) (api.ListVerifiedPhoneNumbersResponseObject, error) {
	vs, err := h.svc.Verifications(ctx, actor(ctx))
	if err != nil {
		return nil, err
	}
	return api.ListVerifiedPhoneNumbers200JSONResponse{Status: http.StatusOK, Data: mapped(vs, renderPhoneVerification)}, nil
}

// CreatePhoneNumberSubscriptionPaymentIntent buys a number for the team.
func (h *Phones) CreatePhoneNumberSubscriptionPaymentIntent(ctx context.Context, req api.CreatePhoneNumberSubscriptionPaymentIntentRequestObject) (api.CreatePhoneNumberSubscriptionPaymentIntentResponseObject, error) {
	p, err := h.svc.Buy(ctx, actor(ctx), req.Body.PhoneNumber, req.Body.OriginUrl)
	if err != nil {
		return nil, err
	}
	return api.CreatePhoneNumberSubscriptionPaymentIntent201JSONResponse{Status: http.StatusCreated, Data: renderPurchase(p)}, nil
}

// ---- renderers ------------------------------------------------------------------------------

func renderSupportedCountry(c phones.SupportedCountry) api.SupportedCountry {
	out := api.SupportedCountry{CountryCode: api.CountryCode(c.Code), Name: c.Name, CallingCode: c.CallingCode}
	for _, t := range phones.NumberTypes {
		out.NumberTypes = append(out.NumberTypes, api.SupportedCountryNumberType{Type: api.PhoneNumberType(t), MonthlyPrice: c.Prices[t]})
	}
	return out
}

func renderAvailablePhoneNumber(a phones.Available) api.AvailablePhoneNumber {
	return api.AvailablePhoneNumber{PhoneNumber: a.E164, CountryCode: api.CountryCode(a.Country), Type: api.PhoneNumberType(a.Type),
		AreaCode: optional(a.AreaCode), Locality: optional(a.Locality), Region: optional(a.Region),
		MonthlyPrice: a.MonthlyPrice, UpfrontPrice: a.UpfrontPrice}
}

func renderPhoneNumber(n phones.Number) api.PhoneNumber {
	out := api.PhoneNumber{Id: n.ID, OrganizationId: n.OrganizationID, PhoneNumber: n.E164, Status: api.PhoneNumberStatus(n.Status),
		IsNonTelnyxNumber: n.IsNonTelnyx, CountryCode: api.CountryCode(n.CountryCode), AreaCode: n.AreaCode,
		AgentId: n.AgentID, CampaignId: n.CampaignID, MonthlyPrice: n.MonthlyPrice, VerifiedAt: n.VerifiedAt,
		CreatedAt: n.CreatedAt, UpdatedAt: n.UpdatedAt}
	if n.NumberType != nil {
		t := api.PhoneNumberType(*n.NumberType)
		out.Type = &t
	}
	if n.CallerIDOnly() {
		s := api.PhoneVerificationStatusVerified
		out.VerificationStatus = &s
	}
	return out
}

func renderPhoneVerification(v phones.Verification) api.PhoneNumberVerification {
	return api.PhoneNumberVerification{Id: v.ID, OrganizationId: v.OrganizationID, PhoneNumber: v.E164,
		Status: api.PhoneVerificationStatus(v.Status), Method: api.PhoneVerificationMethod(v.Method), AttemptsLeft: v.AttemptsLeft,
		ExpiresAt: v.ExpiresAt, VerifiedAt: v.VerifiedAt, PhoneNumberId: v.PhoneNumberID, CreatedAt: v.CreatedAt, UpdatedAt: v.UpdatedAt}
}

// renderPurchase answers a purchase: the checkout of its subscription, or, when it needed no
// checkout, succeeded with the number.
func renderPurchase(p phones.Purchase) api.CheckoutSession {
	if p.Checkout != nil {
		return renderCheckout(*p.Checkout)
	}
	n := renderPhoneNumber(p.Number)
	return api.CheckoutSession{Status: api.PaymentIntentStatusSucceeded, PhoneNumber: &n}
}
