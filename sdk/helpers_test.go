package betty

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bettyhq/betty/sdk/client"
)

// writeJSON answers an envelope {status, data[, meta]} the way the server does.
func writeJSON(w http.ResponseWriter, status int, data any, meta *client.PageMeta) {
	body := map[string]any{"status": status, "data": data}
	if meta != nil {
		body["meta"] = meta
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

// writeProblem answers an RFC 9457 problem document.
func writeProblem(w http.ResponseWriter, status int, code, detail string, fields ...client.FieldError) {
	p := map[string]any{
		"type":      "/problems/" + code,
		"title":     http.StatusText(status),
		"status":    status,
		"code":      code,
		"detail":    detail,
		"requestId": "req-" + code,
	}
	if len(fields) > 0 {
		p["errors"] = fields
	}
	w.Header().Set("Content-Type", "application/problem+json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(p)
}

func userJSON(email string) map[string]any {
	return map[string]any{
		"id":              "0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10",
		"email":           email,
		"emailConfirmed":  true,
		"hasNoTeamsOwned": false,
		"isInternal":      false,
		"isSiteAdmin":     false,
		"createdAt":       "2025-01-02T03:04:05Z",
		"profile":         map[string]any{},
	}
}

func sessionJSON(access, refresh string) map[string]any {
	return map[string]any{
		"accessToken":           access,
		"refreshToken":          refresh,
		"tokenType":             "Bearer",
		"expiresAt":             "2030-01-01T00:00:00Z",
		"expiresIn":             900,
		"refreshTokenExpiresAt": "2030-01-31T00:00:00Z",
		"user":                  userJSON("ada@example.com"),
	}
}

// sleeps records the waits between retries instead of sleeping.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleeps) all() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

// newTestClient starts srv and returns a client for it whose retries do not sleep.
func newTestClient(t *testing.T, h http.Handler, opts ...Option) (*Client, *sleeps) {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c, err := New(srv.URL+"/", opts...)
	if err != nil {
		t.Fatal(err)
	}
	s := &sleeps{}
	c.sleep = s.sleep
	return c, s
}

func bearer(r *http.Request) string {
	return strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
}

func getMe(ctx context.Context, api *client.Client) (*http.Response, error) {
	return api.GetCurrentUser(ctx)
}
