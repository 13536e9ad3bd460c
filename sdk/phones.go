package betty

import (
	"context"
	"iter"
	"net/http"

	"github.com/bettyhq/betty/sdk/client"
)

// Phone numbers: search the carrier's numbers on sale, buy and release a team's numbers, and
// verify a number the team owns elsewhere (the carrier calls or texts it a code, which is then
// submitted with VerifyPhoneNumber).

// SupportedCountries lists the countries where numbers are sold and verified, with the usual
// monthly price of each number type.
func (c *Client) SupportedCountries(ctx context.Context) ([]client.SupportedCountry, error) {
	return Do[[]client.SupportedCountry](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.ListSupportedCountries(ctx)
	})
}

// SearchPhoneNumbers lists numbers on sale; nil fields of p take the server's defaults (US,
// local, 20). No match is an empty list.
func (c *Client) SearchPhoneNumbers(ctx context.Context, p client.SearchAvailablePhoneNumbersParams) ([]client.AvailablePhoneNumber, error) {
	return Do[[]client.AvailablePhoneNumber](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.SearchAvailablePhoneNumbers(ctx, &p)
	})
}

// PhoneNumbers walks a team's numbers, newest first.
func (c *Client) PhoneNumbers(ctx context.Context, team string) iter.Seq2[client.PhoneNumber, error] {
	size := 100
	return All[client.PhoneNumber](ctx, c, func(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
		return api.ListPhoneNumbers(ctx, &client.ListPhoneNumbersParams{OrganizationId: team, Page: &page, SizePerPage: &size})
	})
}

// BuyPhoneNumber buys a number found by SearchPhoneNumbers for a team; originURL is the
// dashboard page to come back to after a checkout. When no payment is needed (the server's
// offline simulator) the purchase completes at once: Status is succeeded, CheckoutUrl is nil
// and PhoneNumber is the team's new number. Otherwise send the person to CheckoutUrl. A server
// without payments configured answers a 503 *APIError with code payments_not_configured.
func (c *Client) BuyPhoneNumber(ctx context.Context, team, number, originURL string) (client.CheckoutSession, error) {
	return Do[client.CheckoutSession](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.CreatePhoneNumberSubscriptionPaymentIntent(ctx, client.CreatePhoneNumberSubscriptionPaymentIntentRequest{
			OrganizationId: team, PhoneNumber: number, OriginUrl: originURL})
	})
}

// ReleasePhoneNumber removes one of a team's numbers (a bought one goes back to the carrier).
// A number assigned to a campaign is refused with a 409 *APIError (ErrConflict).
func (c *Client) ReleasePhoneNumber(ctx context.Context, team, id string) error {
	return NoContent(ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.DeletePhoneNumber(ctx, id, &client.DeletePhoneNumberParams{OrganizationId: team})
	})
}

// RequestPhoneNumberVerification has the carrier call (or text, with method sms) a one-time
// code to a number the team owns; "" is a call. The answer is the pending verification.
func (c *Client) RequestPhoneNumberVerification(ctx context.Context, team, number string, method client.PhoneVerificationMethod) (client.PhoneNumberVerification, error) {
	req := client.RequestPhoneNumberVerificationRequest{OrganizationId: team, PhoneNumber: number}
	if method != "" {
		req.Method = &method
	}
	return Do[client.PhoneNumberVerification](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.RequestPhoneNumberVerification(ctx, req)
	})
}

// VerifyPhoneNumber submits the code the carrier sent. A wrong code is a 400 *APIError naming
// body.code (ErrValidation); on success the number is one of the team's.
func (c *Client) VerifyPhoneNumber(ctx context.Context, team, number, code string) (client.PhoneNumberVerification, error) {
	return Do[client.PhoneNumberVerification](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.VerifyPhoneNumber(ctx, client.VerifyPhoneNumberRequest{OrganizationId: team, PhoneNumber: number, Code: code})
	})
}

// PhoneNumberVerifications lists a team's verifications, newest first.
func (c *Client) PhoneNumberVerifications(ctx context.Context, team string) ([]client.PhoneNumberVerification, error) {
	return Do[[]client.PhoneNumberVerification](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.ListVerifiedPhoneNumbers(ctx, team)
	})
}
