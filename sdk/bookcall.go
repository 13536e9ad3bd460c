package betty

import (
	"context"
	"net/http"

	"github.com/bettyhq/betty/sdk/client"
)

// Book-a-call: what the storefront widget (/widget.js) does, for a storefront of your own. It
// needs no credentials, only the team's publishable key (betty_pk_…); docs/shopify.md has the
// limits and the errors, each with a detail written for the shopper.

// BookCallRequest is a shopper's request for a call.
type BookCallRequest struct {
	PublicKey   string // the team's publishable key
	PhoneNumber string // E.164 expected; spaces and dashes are ignored
	Name        string // optional: the flow's {{firstName}}
	Consent     bool   // must be true
	ConsentText string // optional: the sentence the shopper ticked
	PageURL     string // optional: the page the request came from
}

// BookCall asks for one call with the team's storefront workflow and answers the booking (its
// jobId is the call's job). It is not retried: a 429 carries a Retry-After of up to a day.
func (c *Client) BookCall(ctx context.Context, r BookCallRequest) (client.CallBooking, error) {
	body := client.BookCallRequest{PublicKey: r.PublicKey, PhoneNumber: r.PhoneNumber, Consent: r.Consent}
	for _, f := range []struct {
		v   string
		dst **string
	}{{r.Name, &body.Name}, {r.ConsentText, &body.ConsentText}, {r.PageURL, &body.PageUrl}} {
		if f.v != "" {
			v := f.v
			*f.dst = &v
		}
	}
	return Do[client.CallBooking](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.BookCall(ctx, body)
	})
}
