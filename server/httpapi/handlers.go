package httpapi

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/problem"
)

// handlers is what every tag's handler type shares.
type handlers struct {
	Deps
	guard    *Guard
	throttle *auth.Throttle
	resends  *cooldown
}

type requestKey struct{}

// keepRequest lets strict handlers, which only get a context, read the request's headers
// and client address.
func keepRequest() echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			c.SetRequest(r.WithContext(context.WithValue(r.Context(), requestKey{}, requestInfo{
				header: r.Header, ip: c.RealIP(), userAgent: r.UserAgent(),
			})))
			return next(c)
		}
	}
}

type requestInfo struct {
	header    http.Header
	ip        string
	userAgent string
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

// grant is the caller's standing in the organisation the operation acts on.
func grant(ctx context.Context) auth.Grant {
	g, _ := auth.GrantFrom(ctx)
	return g
}

// cooldown allows one action per key per interval (resending e-mails).
type cooldown struct {
	every time.Duration
	mu    sync.Mutex
	last  map[string]time.Time
}

func newCooldown(every time.Duration) *cooldown {
	return &cooldown{every: every, last: map[string]time.Time{}}
}

// take says whether key may act now, and if so records it.
func (c *cooldown) take(key string) (time.Duration, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	if t, ok := c.last[key]; ok && now.Sub(t) < c.every {
		return c.every - now.Sub(t), false
	}
	c.last[key] = now
	return 0, true
}

func tooManyRequests(detail string, wait time.Duration) *problem.Error {
	secs := int(wait.Seconds() + 0.999)
	if secs < 1 {
		secs = 1
	}
	return &problem.Error{Status: http.StatusTooManyRequests, Code: api.ProblemCodeRateLimited, Detail: detail, RetryAfter: secs}
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
