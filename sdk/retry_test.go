package betty

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bettyhq/betty/sdk/client"
)

// flaky answers the first fails requests with status (and Retry-After when set), then 200.
func flaky(fails int32, status int, retryAfter string, calls *atomic.Int32) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) <= fails {
			if retryAfter != "" {
				w.Header().Set("Retry-After", retryAfter)
			}
			writeProblem(w, status, "unavailable", "Try again.")
			return
		}
		writeJSON(w, 200, userJSON("ada@example.com"), nil)
	})
}

func TestRetryHonoursRetryAfter(t *testing.T) {
	var calls atomic.Int32
	c, s := newTestClient(t, flaky(2, http.StatusServiceUnavailable, "2", &calls))

	if _, err := c.Me(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n := calls.Load(); n != 3 {
		t.Errorf("calls = %d, want 3", n)
	}
	if got := s.all(); len(got) != 2 || got[0] != 2*time.Second || got[1] != 2*time.Second {
		t.Errorf("waits = %v, want [2s 2s] from Retry-After", got)
	}
}

func TestRetryBacksOffWithoutRetryAfter(t *testing.T) {
	for _, status := range []int{429, 502, 503, 504} {
		var calls atomic.Int32
		c, s := newTestClient(t, flaky(100, status, "", &calls))

		_, err := c.Me(t.Context())
		var apiErr *APIError
		if !errors.As(err, &apiErr) || apiErr.StatusCode != status {
			t.Fatalf("HTTP %d: err = %v, want the last answer as *APIError", status, err)
		}
		if n := calls.Load(); n != 1+defaultMaxRetries {
			t.Errorf("HTTP %d: calls = %d, want %d", status, n, 1+defaultMaxRetries)
		}
		waits := s.all()
		if len(waits) != defaultMaxRetries {
			t.Fatalf("HTTP %d: waits = %v", status, waits)
		}
		for i, d := range waits {
			ceil := min(retryBase<<i, retryCap)
			if d < ceil/2 || d > ceil {
				t.Errorf("HTTP %d: wait %d = %v, want within [%v, %v]", status, i, d, ceil/2, ceil)
			}
		}
	}
}

func TestBackoffIsCapped(t *testing.T) {
	for n := range 70 {
		if d := backoff(n); d <= 0 || d > retryCap {
			t.Errorf("backoff(%d) = %v", n, d)
		}
	}
}

func TestWithMaxRetries(t *testing.T) {
	var calls atomic.Int32
	c, _ := newTestClient(t, flaky(100, 503, "", &calls), WithMaxRetries(1))
	if _, err := c.Me(t.Context()); !errors.Is(err, ErrServer) {
		t.Fatalf("err = %v", err)
	}
	if n := calls.Load(); n != 2 {
		t.Errorf("calls = %d, want 2", n)
	}

	calls.Store(0)
	c, _ = newTestClient(t, flaky(100, 503, "", &calls), WithMaxRetries(-1))
	_, _ = c.Me(t.Context())
	if n := calls.Load(); n != 1 {
		t.Errorf("calls = %d with retries off, want 1", n)
	}
}

func TestNoRetryOn500And501(t *testing.T) {
	for _, status := range []int{500, 501} {
		var calls atomic.Int32
		c, s := newTestClient(t, flaky(100, status, "1", &calls))
		if _, err := c.Me(t.Context()); !errors.Is(err, ErrServer) {
			t.Fatalf("err = %v", err)
		}
		if n := calls.Load(); n != 1 || len(s.all()) != 0 {
			t.Errorf("HTTP %d: calls = %d, waits = %v; want 1 call, no wait", status, n, s.all())
		}
	}
}

func TestPostIsNotRetried(t *testing.T) {
	var calls atomic.Int32
	c, s := newTestClient(t, flaky(100, 503, "1", &calls))

	_, err := c.SignIn(t.Context(), "ada@example.com", "hunter2")
	if !errors.Is(err, ErrServer) {
		t.Fatalf("err = %v", err)
	}
	if n := calls.Load(); n != 1 || len(s.all()) != 0 {
		t.Errorf("calls = %d, waits = %v; a POST must go out once", n, s.all())
	}
}

func TestPutIsRetriedWithItsBody(t *testing.T) {
	var bodies []string
	c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies = append(bodies, string(b))
		if len(bodies) < 3 {
			writeProblem(w, 502, "unavailable", "Bad gateway.")
			return
		}
		writeJSON(w, 200, "saved", nil)
	}))

	got, err := Do[string](t.Context(), c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.Server()+"/v1/things/1", strings.NewReader(`{"name":"x"}`))
		if err != nil {
			return nil, err
		}
		return api.Client.Do(req)
	})
	if err != nil || got != "saved" {
		t.Fatalf("Do = %q, %v", got, err)
	}
	if len(bodies) != 3 || bodies[0] != `{"name":"x"}` || bodies[1] != bodies[0] || bodies[2] != bodies[0] {
		t.Errorf("bodies = %q; every attempt must carry the whole body", bodies)
	}
}

func TestRetryOnConnectionError(t *testing.T) {
	var calls atomic.Int32
	c, s := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				_ = conn.Close()
			}
			return
		}
		writeJSON(w, 200, userJSON("ada@example.com"), nil)
	}))

	if _, err := c.Me(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n := calls.Load(); n != 2 || len(s.all()) != 1 {
		t.Errorf("calls = %d, waits = %v; want one retry after the dropped connection", n, s.all())
	}
}

func TestCancelStopsWaiting(t *testing.T) {
	var calls atomic.Int32
	c, _ := newTestClient(t, flaky(100, 503, "30", &calls))
	c.sleep = sleepContext // really wait, so only the cancellation can end it

	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(20*time.Millisecond, cancel)
	start := time.Now()
	_, err := c.Me(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if elapsed := time.Since(start); elapsed > 10*time.Second {
		t.Errorf("returned after %v; the wait ignored the cancellation", elapsed)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("calls = %d, want 1", n)
	}
}

// A server not set up for an operation (payments, transcription) says so for good: no retry.
func TestNoRetryWhenNotConfigured(t *testing.T) {
	var calls atomic.Int32
	c, s := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		writeProblem(w, http.StatusServiceUnavailable, "payments_not_configured", "Set --stripe-secret-key.")
	}))
	_, err := c.Me(t.Context())
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Code != "payments_not_configured" || apiErr.Detail != "Set --stripe-secret-key." {
		t.Fatalf("err = %v", err)
	}
	if n := calls.Load(); n != 1 || len(s.all()) != 0 {
		t.Errorf("calls = %d, waits %v: want one call", n, s.all())
	}
}
