package httpapi

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/identity"
)

type requestKey struct{}

// keepRequest lets strict handlers, which only get a context, read the request's headers
// and client address.
func keepRequest() echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			c.SetRequest(r.WithContext(context.WithValue(r.Context(), requestKey{}, requestInfo{
				header: r.Header, client: identity.Client{IP: c.RealIP(), UserAgent: r.UserAgent()}, rawQuery: r.URL.RawQuery,
			})))
			return next(c)
		}
	}
}

type requestInfo struct {
	header   http.Header
	client   identity.Client
	rawQuery string
}

func requestFrom(ctx context.Context) requestInfo {
	r, _ := ctx.Value(requestKey{}).(requestInfo)
	if r.header == nil {
		r.header = http.Header{}
	}
	return r
}

// principal is the authenticated caller; the Guard guarantees one for non-public operations.
func principal(ctx context.Context) auth.Principal {
	p, _ := auth.PrincipalFrom(ctx)
	return p
}

// actor is the caller and their standing in the organisation the operation acts on (the
// Guard established both from the policy table).
func actor(ctx context.Context) auth.Actor {
	g, _ := auth.GrantFrom(ctx)
	return auth.Actor{Principal: principal(ctx), Grant: g}
}

// organizations are the teams the guard granted the caller among the owners of the resources
// a list of ids names (auth.Resource.List).
func organizations(ctx context.Context) []string {
	gs := auth.GrantsFrom(ctx)
	out := make([]string, len(gs))
	for i, g := range gs {
		out[i] = g.OrganizationID
	}
	return out
}

// page turns page and page-size parameters into a limit, an offset and the meta of the
// answer. A page past the last is clamped to the last page (spec: campaign lists; applied to
// every list so clients can always trust meta.page).
type page struct {
	Number, Size int
}

func newPage(number, size *int, defaultSize int) page {
	p := page{Number: 1, Size: defaultSize}
	if number != nil && *number > 0 {
		p.Number = *number
	}
	if size != nil && *size > 0 {
		p.Size = *size
	}
	return p
}

// clamp returns the page to serve for total items.
func (p page) clamp(total int) page {
	last := (total + p.Size - 1) / p.Size
	if last < 1 {
		last = 1
	}
	if p.Number > last {
		p.Number = last
	}
	return p
}

func (p page) offset() int { return (p.Number - 1) * p.Size }

func (p page) meta(total, count int) api.PageMeta {
	pages := (total + p.Size - 1) / p.Size
	m := api.PageMeta{Page: p.Number, TotalSize: total, TotalPages: pages,
		HasPrevious: p.Number > 1, HasNext: p.Number < pages}
	if count > 0 {
		m.Start = p.offset() + 1
		m.End = p.offset() + count
	}
	return m
}

// paged is the one way lists are served: fetch the asked page; when it lies past the last
// page, fetch the last one instead; answer the items and the meta of the page served.
func paged[T any](p page, fetch func(limit, offset int) ([]T, int, error)) ([]T, api.PageMeta, error) {
	items, total, err := fetch(p.Size, p.offset())
	if err != nil {
		return nil, api.PageMeta{}, err
	}
	if c := p.clamp(total); c != p {
		p = c
		if items, total, err = fetch(p.Size, p.offset()); err != nil {
			return nil, api.PageMeta{}, err
		}
	}
	return items, p.meta(total, len(items)), nil
}

// mapped renders each item.
func mapped[T, R any](items []T, render func(T) R) []R {
	out := make([]R, 0, len(items))
	for _, it := range items {
		out = append(out, render(it))
	}
	return out
}
