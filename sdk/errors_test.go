package betty

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/sdk/client"
)

func TestProblemBecomesAPIError(t *testing.T) {
	c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeProblem(w, http.StatusBadRequest, "validation_failed", "The campaign is not valid.",
			client.FieldError{Field: "body.name", Message: "is required"},
			client.FieldError{Field: "query.page", Message: "must be at least 1"},
		)
	}), WithAPIKey("betty_sk_test"))

	_, err := c.Me(t.Context())
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("err = %v (%T), want *APIError", err, err)
	}
	want := &APIError{
		StatusCode: 400,
		Code:       "validation_failed",
		Title:      "Bad Request",
		Detail:     "The campaign is not valid.",
		RequestID:  "req-validation_failed",
		Fields: []FieldError{
			{Field: "body.name", Message: "is required"},
			{Field: "query.page", Message: "must be at least 1"},
		},
	}
	if fmt.Sprint(*apiErr) != fmt.Sprint(*want) {
		t.Errorf("APIError = %+v\nwant       %+v", *apiErr, *want)
	}
	if got, want := err.Error(), "The campaign is not valid. (validation_failed, HTTP 400, request req-validation_failed)"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestNonProblemBodyBecomesAPIError(t *testing.T) {
	page := "<html><body>" + strings.Repeat("é", 600) + "</body></html>"
	c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/auth/me":
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("X-Request-Id", "proxy-1")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(page))
		default:
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusTeapot)
			_, _ = w.Write([]byte(`{"message":"short and stout"}`))
		}
	}))

	_, err := c.Me(t.Context())
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("err = %v, want *APIError", err)
	}
	if apiErr.StatusCode != 400 || apiErr.Code != "" || apiErr.RequestID != "proxy-1" || apiErr.Title != "Bad Request" {
		t.Errorf("APIError = %+v", apiErr)
	}
	if !strings.HasPrefix(apiErr.Detail, "<html><body>éé") || !strings.HasSuffix(apiErr.Detail, "…") || len(apiErr.Detail) > maxDetail+len("…") {
		t.Errorf("Detail not truncated on a character boundary: %q", apiErr.Detail)
	}
	if !strings.HasSuffix(err.Error(), "… (HTTP 400, request proxy-1)") {
		t.Errorf("Error() = %q", err.Error())
	}

	// JSON that is not a problem document is kept as text too.
	err = NoContent(t.Context(), c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.GetHealth(ctx)
	})
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 418 || apiErr.Detail != `{"message":"short and stout"}` {
		t.Errorf("err = %#v", err)
	}
}

func TestErrorsIs(t *testing.T) {
	sentinels := map[string]error{
		"unauthorized":    ErrUnauthorized,
		"token_expired":   ErrTokenExpired,
		"forbidden":       ErrForbidden,
		"not_found":       ErrNotFound,
		"conflict":        ErrConflict,
		"validation":      ErrValidation,
		"rate_limited":    ErrRateLimited,
		"not_implemented": ErrNotImplemented,
		"server":          ErrServer,
	}
	tests := []struct {
		status int
		code   string
		want   []string // the sentinels that match; every other must not
	}{
		{401, "unauthorized", []string{"unauthorized"}},
		{401, "token_expired", []string{"unauthorized", "token_expired"}},
		{401, "invalid_credentials", []string{"unauthorized"}},
		{403, "forbidden", []string{"forbidden"}},
		{404, "not_found", []string{"not_found"}},
		{409, "conflict", []string{"conflict"}},
		{400, "validation_failed", []string{"validation"}},
		{422, "unprocessable", []string{"validation"}},
		{429, "rate_limited", []string{"rate_limited"}},
		{501, "not_implemented", []string{"not_implemented", "server"}},
		{500, "internal", []string{"server"}},
		{503, "unavailable", []string{"server"}},
		{413, "payload_too_large", nil},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d_%s", tt.status, tt.code), func(t *testing.T) {
			c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				writeProblem(w, tt.status, tt.code, "nope")
			}), WithAPIKey("betty_sk_test"), WithMaxRetries(0))
			_, err := c.Me(t.Context())
			// Wrapped by a caller, the kinds must still be found.
			err = fmt.Errorf("loading profile: %w", err)
			for name, sentinel := range sentinels {
				want := false
				for _, w := range tt.want {
					want = want || w == name
				}
				if got := errors.Is(err, sentinel); got != want {
					t.Errorf("errors.Is(err, %v) = %v, want %v", sentinel, got, want)
				}
			}
		})
	}
}

func TestAPIErrorRetryAfter(t *testing.T) {
	c, s := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "3600")
		writeProblem(w, http.StatusTooManyRequests, "rate_limited", "Slow down.")
	}), WithAPIKey("betty_sk_test"))

	_, err := c.Me(t.Context())
	var apiErr *APIError
	if !errors.As(err, &apiErr) || !errors.Is(err, ErrRateLimited) {
		t.Fatalf("err = %v, want a rate-limit *APIError", err)
	}
	if apiErr.RetryAfter != time.Hour {
		t.Errorf("RetryAfter = %v, want 1h", apiErr.RetryAfter)
	}
	if got := s.all(); len(got) != 0 {
		t.Errorf("waited %v for a Retry-After longer than the client waits by itself", got)
	}
}

func TestParseRetryAfter(t *testing.T) {
	date := time.Now().Add(90 * time.Second).UTC().Format(http.TimeFormat)
	tests := []struct {
		in   string
		ok   bool
		want time.Duration
	}{
		{"", false, 0},
		{"2", true, 2 * time.Second},
		{" 0 ", true, 0},
		{"-1", false, 0},
		{"soon", false, 0},
		{"Mon, 01 Jan 2001 00:00:00 GMT", true, 0},
	}
	for _, tt := range tests {
		got, ok := parseRetryAfter(tt.in)
		if ok != tt.ok || got != tt.want {
			t.Errorf("parseRetryAfter(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
	if got, ok := parseRetryAfter(date); !ok || got < 80*time.Second || got > 90*time.Second {
		t.Errorf("parseRetryAfter(%q) = %v, %v", date, got, ok)
	}
}

// roundTripFunc is a transport made of a function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// A call that gets no answer says which server it could not reach; other transport failures
// and the caller's cancellation are left as they are.
func TestUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()

	failing := func(err error) Option {
		return WithHTTPClient(&http.Client{Transport: roundTripFunc(func(*http.Request) (*http.Response, error) { return nil, err })})
	}
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	tests := []struct {
		name   string
		server string
		opts   []Option
		ctx    context.Context
		want   bool
	}{
		{name: "connection refused", server: closed, want: true},
		{name: "unknown host", server: "http://betty.invalid", opts: []Option{failing(&net.DNSError{Err: "no such host", Name: "betty.invalid", IsNotFound: true})}, want: true},
		{name: "timeout", server: "http://betty.test", opts: []Option{WithHTTPClient(&http.Client{Timeout: time.Nanosecond,
			Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) { <-r.Context().Done(); return nil, r.Context().Err() })})}, want: true},
		{name: "reset after sending", server: "http://betty.test", opts: []Option{failing(&net.OpError{Op: "read", Net: "tcp", Err: errors.New("connection reset by peer")})}},
		{name: "cancelled by the caller", server: closed, ctx: cancelled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := New(tt.server, append(tt.opts, WithMaxRetries(0))...)
			if err != nil {
				t.Fatal(err)
			}
			ctx := tt.ctx
			if ctx == nil {
				ctx = t.Context()
			}
			_, err = c.Me(ctx)
			var u *UnreachableError
			if got := errors.As(err, &u); got != tt.want || errors.Is(err, ErrUnreachable) != tt.want {
				t.Fatalf("err = %v (%T), unreachable %v, want %v", err, err, got, tt.want)
			}
			if tt.want && (u.Server != tt.server || !strings.HasPrefix(err.Error(), "betty: cannot reach "+tt.server+": ")) {
				t.Errorf("server %q, message %q", u.Server, err)
			}
			if tt.ctx != nil && !errors.Is(err, context.Canceled) {
				t.Errorf("cancellation lost: %v", err)
			}
		})
	}
}
