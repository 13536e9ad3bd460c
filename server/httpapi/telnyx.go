package httpapi

import (
	"context"
	"net/http"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/errs"
)

// TelnyxWebhooks verifies a Telnyx webhook on its raw body and hands its call event on
// (phones/telnyx.Calls): nil once handled, errs errors otherwise.
type TelnyxWebhooks interface {
	Receive(ctx context.Context, raw []byte, signature, timestamp string) error
}

// Telnyx implements Telnyx's webhook: the raw body and the signature headers in, one call,
// 200 out. Telnyx delivers again whatever is not acknowledged with a 2xx.
type Telnyx struct{ hooks TelnyxWebhooks }

// ReceiveTelnyxWebhook verifies and hands on a Telnyx event.
func (h *Telnyx) ReceiveTelnyxWebhook(ctx context.Context, req api.ReceiveTelnyxWebhookRequestObject) (api.ReceiveTelnyxWebhookResponseObject, error) {
	if h.hooks == nil {
		return nil, errs.WithCode(errs.Unavailable, errs.CodeUnavailable,
			"Telnyx is not configured on this server: an operator must set --telnyx-api-key, --telnyx-connection-id and --telnyx-public-key.")
	}
	raw, _ := ctx.Value(rawBodyKey{}).([]byte)
	if err := h.hooks.Receive(ctx, raw, req.Params.TelnyxSignatureEd25519, req.Params.TelnyxTimestamp); err != nil {
		return nil, err
	}
	return api.ReceiveTelnyxWebhook200JSONResponse{Status: http.StatusOK, Data: api.Message{Message: "Event received."}}, nil
}
