package betty

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/bettyhq/betty/sdk/client"
)

const (
	retryBase = 200 * time.Millisecond
	retryCap  = 5 * time.Second

	// maxRetryAfter bounds how long the client waits on a server's Retry-After by itself; a
	// longer wait is the caller's decision, so the response is returned (APIError.RetryAfter).
	maxRetryAfter = time.Minute

	// refreshTimeout bounds the renewal call, which does not follow the caller's context.
	refreshTimeout = 30 * time.Second

	// peekLimit bounds how much of a 401 body is read to find its problem code.
	peekLimit = 64 << 10
)

// transport sits under the generated client. Per request it adds the credentials, renews an
// expired access token once, and retries idempotent requests that failed in a way worth
// retrying.
type transport struct {
	c    *Client
	base http.RoundTripper
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	a := &attempts{req: req}
	retryable := isIdempotent(req.Method) && a.replayable()

	for n := 0; ; n++ {
		resp, err := t.sendAuthorized(a)
		if !retryable || n >= t.c.maxRetries {
			return resp, err
		}

		var wait time.Duration
		switch {
		case err != nil:
			if ctx.Err() != nil {
				return nil, err
			}
			wait = backoff(n)
		case isRetryableStatus(resp.StatusCode) && notConfigured(resp):
			return resp, nil
		case isRetryableStatus(resp.StatusCode):
			wait = backoff(n)
			if ra, ok := parseRetryAfter(resp.Header.Get("Retry-After")); ok {
				if ra > maxRetryAfter {
					return resp, nil
				}
				wait = ra
			}
			discard(resp)
		default:
			return resp, nil
		}

		if err := t.c.sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// sendAuthorized sends one attempt with the client's credentials. An access token answered
// 401 token_expired is renewed (once, shared with concurrent calls) and the request is sent
// again with the new token; when renewal fails the original 401 is returned.
func (t *transport) sendAuthorized(a *attempts) (*http.Response, error) {
	req, err := a.next()
	if err != nil {
		return nil, err
	}
	sent := t.authorize(req)

	resp, err := t.base.RoundTrip(req)
	if err != nil || resp.StatusCode != http.StatusUnauthorized || sent == "" || !a.replayable() {
		return resp, err
	}
	if code := peekProblemCode(resp); code != client.ProblemCodeTokenExpired {
		return resp, nil
	}

	access, err := t.c.renew(a.req.Context(), sent, t.base)
	if err != nil {
		if ctxErr := a.req.Context().Err(); ctxErr != nil {
			discard(resp)
			return nil, ctxErr
		}
		return resp, nil
	}
	discard(resp)

	req, err = a.next()
	if err != nil {
		return nil, err
	}
	t.authorize(req)
	req.Header.Set("Authorization", "Bearer "+access)
	return t.base.RoundTrip(req)
}

// authorize adds the client's headers to req. It returns the access token it sent, or ""
// when there is nothing to renew (an API key, no session, or the caller's own Authorization).
func (t *transport) authorize(req *http.Request) string {
	if req.Header.Get("User-Agent") == "" && t.c.userAgent != "" {
		req.Header.Set("User-Agent", t.c.userAgent)
	}
	if isAnonymous(req.Context()) || req.Header.Get("Authorization") != "" {
		return ""
	}
	bearer, refresh := t.c.credentials()
	if bearer == "" {
		return ""
	}
	req.Header.Set("Authorization", "Bearer "+bearer)
	if refresh == "" {
		return ""
	}
	if req.Header.Get("X-RefreshToken") == "" {
		req.Header.Set("X-RefreshToken", refresh)
	}
	return bearer
}

// refreshFlight is one renewal that concurrent callers wait on instead of starting their own:
// the server rotates the refresh token, so a second renewal with the same token would be
// treated as theft and end the session.
type refreshFlight struct {
	done   chan struct{}
	access string
	err    error
}

// renew returns an access token newer than stale, renewing the session if no one else has.
func (c *Client) renew(ctx context.Context, stale string, base http.RoundTripper) (string, error) {
	c.mu.Lock()
	if c.access != stale && c.access != "" {
		access := c.access
		c.mu.Unlock()
		return access, nil
	}
	if f := c.inflight; f != nil {
		c.mu.Unlock()
		select {
		case <-f.done:
			return f.access, f.err
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	refresh := c.refresh
	if refresh == "" {
		c.mu.Unlock()
		return "", errNoSession
	}
	f := &refreshFlight{done: make(chan struct{})}
	c.inflight = f
	c.mu.Unlock()

	// The renewal outlives the caller's cancellation: once the server has rotated the pair,
	// dropping the answer would lose the only refresh token that still works.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), refreshTimeout)
	defer cancel()
	s, err := c.refreshSession(rctx, refresh, base)

	if err == nil {
		c.mu.Lock()
		current := c.refresh == refresh
		if current {
			c.access, c.refresh = s.AccessToken, s.RefreshToken
		}
		c.mu.Unlock()
		// A sign-in or sign-out while renewing owns the tokens now; leave them be.
		if current && c.saver != nil {
			c.saver(s.AccessToken, s.RefreshToken)
		}
		f.access = s.AccessToken
	}
	f.err = err

	c.mu.Lock()
	c.inflight = nil
	c.mu.Unlock()
	close(f.done)
	return f.access, f.err
}

// refreshSession calls POST /v1/auth/refresh directly on the base transport: it must not
// carry the expired access token, and a rotation must not be retried.
func (c *Client) refreshSession(ctx context.Context, refresh string, base http.RoundTripper) (client.Session, error) {
	req, err := client.NewRefreshSessionRequest(c.server)
	if err != nil {
		return client.Session{}, err
	}
	req = req.WithContext(ctx)
	req.Header.Set("X-RefreshToken", refresh)
	req.Header.Set("Accept", "application/json")
	if c.userAgent != "" {
		req.Header.Set("User-Agent", c.userAgent)
	}
	resp, err := base.RoundTrip(req)
	if err != nil {
		return client.Session{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return client.Session{}, err
	}
	if !isSuccess(resp.StatusCode) {
		return client.Session{}, newAPIError(resp, body)
	}
	var env client.SessionResponse
	if err := json.Unmarshal(body, &env); err != nil {
		return client.Session{}, fmt.Errorf("betty: decoding refreshed session: %w", err)
	}
	if env.Data.AccessToken == "" || env.Data.RefreshToken == "" {
		return client.Session{}, errors.New("betty: refreshed session has no tokens")
	}
	return env.Data, nil
}

// attempts hands out copies of one request, each with a fresh body, so it can be sent again.
type attempts struct {
	req  *http.Request
	sent int
}

func (a *attempts) replayable() bool {
	b := a.req.Body
	return b == nil || b == http.NoBody || a.req.GetBody != nil
}

func (a *attempts) next() (*http.Request, error) {
	r := a.req.Clone(a.req.Context())
	if a.sent > 0 && r.Body != nil && r.Body != http.NoBody {
		if a.req.GetBody == nil {
			return nil, errors.New("betty: request body cannot be sent again")
		}
		body, err := a.req.GetBody()
		if err != nil {
			return nil, fmt.Errorf("betty: replaying request body: %w", err)
		}
		r.Body = body
	}
	a.sent++
	return r, nil
}

// peekProblemCode reads the problem code of resp and leaves the body readable again.
func peekProblemCode(resp *http.Response) client.ProblemCode {
	head, err := io.ReadAll(io.LimitReader(resp.Body, peekLimit))
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
	if err != nil {
		return ""
	}
	var p struct {
		Code client.ProblemCode `json:"code"`
	}
	if json.Unmarshal(head, &p) != nil {
		return ""
	}
	return p.Code
}

// discard drains a little of a body that will not be read, so the connection can be reused.
func discard(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
	_ = resp.Body.Close()
}

func isIdempotent(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodPut, http.MethodDelete:
		return true
	}
	return false
}

// isRetryableStatus lists answers that say "try again later". 500 and 501 are not among them:
// the same request would fail the same way.
func isRetryableStatus(code int) bool {
	switch code {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// notConfigured says whether an answer is a server's lasting "this server is not set up for
// that" (a 503 whose problem code ends in _not_configured, such as payments_not_configured):
// asking again cannot help. It peeks at the problem document and leaves the body readable.
func notConfigured(resp *http.Response) bool {
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/problem+json") {
		return false
	}
	head, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
	var p struct{ Code string }
	return json.Unmarshal(head, &p) == nil && strings.HasSuffix(p.Code, "_not_configured")
}

// backoff is the wait before retry n (0-based): exponential from retryBase, capped at
// retryCap, with the upper half jittered so clients that failed together spread out.
func backoff(n int) time.Duration {
	d := retryCap
	if n < 16 {
		d = min(retryBase<<n, retryCap)
	}
	half := d / 2
	return half + rand.N(half+1)
}

// parseRetryAfter reads a Retry-After header in seconds or as an HTTP date.
func parseRetryAfter(v string) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.Atoi(v); err == nil {
		if secs < 0 {
			return 0, false
		}
		return time.Duration(secs) * time.Second, true
	}
	if at, err := http.ParseTime(v); err == nil {
		return max(time.Until(at), 0), true
	}
	return 0, false
}

type anonymousKey struct{}

// anonymous marks a call that must go out without credentials (signing in).
func anonymous(ctx context.Context) context.Context {
	return context.WithValue(ctx, anonymousKey{}, true)
}

func isAnonymous(ctx context.Context) bool {
	v, _ := ctx.Value(anonymousKey{}).(bool)
	return v
}
