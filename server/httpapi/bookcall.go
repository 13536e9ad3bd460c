package httpapi

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/integrations/shopify"
	"github.com/bettyhq/betty/server/store"
)

// Shop is the storefront's public book-a-call (server/integrations/shopify).
type Shop struct{ svc *shopify.Service }

// BookCall books one call from the storefront widget.
func (h *Shop) BookCall(ctx context.Context, req api.BookCallRequestObject) (api.BookCallResponseObject, error) {
	b := req.Body
	bk, err := h.svc.BookCall(ctx, shopify.Request{PublicKey: b.PublicKey, PhoneNumber: b.PhoneNumber, Name: deref(b.Name),
		Consent: b.Consent, ConsentText: deref(b.ConsentText), PageURL: deref(b.PageUrl), ClientIP: requestFrom(ctx).client.IP})
	if err != nil {
		return nil, err
	}
	return api.BookCall201JSONResponse{Status: http.StatusCreated, Data: renderCallBooking(bk)}, nil
}

// ListCallBookings lists the calls shoppers asked for, with their consent.
func (h *Shop) ListCallBookings(ctx context.Context, req api.ListCallBookingsRequestObject) (api.ListCallBookingsResponseObject, error) {
	items, meta, err := paged(newPage(req.Params.Page, req.Params.SizePerPage, callPageSize), func(limit, offset int) ([]store.StorefrontBooking, int, error) {
		return h.svc.Bookings(ctx, actor(ctx), limit, offset)
	})
	if err != nil {
		return nil, err
	}
	out := make([]api.StorefrontBooking, len(items))
	for i, b := range items {
		out[i] = api.StorefrontBooking{Id: b.ID, PhoneNumber: b.PhoneNumber, Name: b.Name, WorkflowId: b.WorkflowID, JobId: b.JobID,
			CallLogId: b.CallLogID, CallStatus: b.CallStatus, CreatedAt: b.CreatedAt, Consent: renderConsent(b.CallBooking)}
	}
	return api.ListCallBookings200JSONResponse{Status: http.StatusOK, Data: out, Meta: meta}, nil
}

func renderConsent(b store.CallBooking) api.CallConsent {
	return api.CallConsent{Text: b.ConsentText, PageUrl: b.PageURL, ClientIp: b.ClientIP, GivenAt: b.ConsentGivenAt}
}

func renderCallBooking(b store.CallBooking) api.CallBooking {
	return api.CallBooking{Id: b.ID, OrganizationId: b.OrganizationID, WorkflowId: b.WorkflowID, JobId: b.JobID,
		PhoneNumber: b.PhoneNumber, Status: api.CallBookingStatusQueued, CreatedAt: b.CreatedAt, Consent: renderConsent(b)}
}

// storefrontPaths are what a merchant's storefront, another origin, asks of Betty: the widget
// and the endpoint it posts to.
var storefrontPaths = map[string]bool{"/widget.js": true, "/v1/call/book-a-call": true}

// storefrontCORS lets any origin use the storefront's paths, and nothing else: no credentials
// (the endpoint is public and the widget sends none), JSON bodies only, Retry-After readable
// by the widget. A preflight is answered here, before routing and authentication.
func storefrontCORS() echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			if !storefrontPaths[r.URL.Path] || r.Header.Get("Origin") == "" {
				return next(c)
			}
			h := c.Response().Header()
			h.Set("Access-Control-Allow-Origin", "*")
			h.Set("Access-Control-Expose-Headers", "Retry-After")
			if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
				h.Set("Access-Control-Allow-Methods", "POST, GET, OPTIONS")
				h.Set("Access-Control-Allow-Headers", "Content-Type")
				h.Set("Access-Control-Max-Age", "86400")
				return c.NoContent(http.StatusNoContent)
			}
			return next(c)
		}
	}
}

var widgetETag = func() string {
	sum := sha256.Sum256(shopify.Widget)
	return `"` + hex.EncodeToString(sum[:8]) + `"`
}()

// serveWidget serves /widget.js: a script other sites load (cross-origin, cached for a few
// minutes so an update reaches storefronts soon, revalidated by its ETag).
func serveWidget(c echo.Context) error {
	h := c.Response().Header()
	h.Set("Cache-Control", "public, max-age=300")
	h.Set("ETag", widgetETag)
	h.Set("Cross-Origin-Resource-Policy", "cross-origin")
	if c.Request().Header.Get("If-None-Match") == widgetETag {
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, "text/javascript; charset=utf-8", shopify.Widget)
}
