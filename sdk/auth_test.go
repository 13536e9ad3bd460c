package betty

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/bettyhq/betty/sdk/client"
)

// authServer speaks the session part of the API: sign-in, refresh with rotation (a rotated
// refresh token presented again is refused), sign-out and /v1/auth/me.
type authServer struct {
	mu      sync.Mutex
	access  map[string]bool // live access tokens
	refresh map[string]bool // live refresh tokens
	issued  int

	refreshCalls atomic.Int32
	meCalls      atomic.Int32
	signOuts     atomic.Int32

	// expiredGate, when set, holds every answer to an expired access token until it is closed,
	// so concurrent callers all meet the expiry before anyone renews.
	expiredGate chan struct{}
	expiredSeen chan struct{}

	// echo receives the body of POST /v1/echo, which needs a live access token.
	echo chan string
}

func newAuthServer(access, refresh string) *authServer {
	return &authServer{
		access:  map[string]bool{access: true},
		refresh: map[string]bool{refresh: true},
		echo:    make(chan string, 10),
	}
}

// issue opens a new token pair; the caller holds mu.
func (s *authServer) issue() (string, string) {
	s.issued++
	a, r := fmt.Sprintf("access-%d", s.issued), fmt.Sprintf("refresh-%d", s.issued)
	s.access[a], s.refresh[r] = true, true
	return a, r
}

func (s *authServer) expire(access string) {
	s.mu.Lock()
	delete(s.access, access)
	s.mu.Unlock()
}

func (s *authServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method + " " + r.URL.Path {
	case "POST /v1/auth/sign-in":
		if r.Header.Get("Authorization") != "" {
			writeProblem(w, 400, "bad_request", "sign-in takes no credentials")
			return
		}
		body, _ := io.ReadAll(r.Body)
		if !strings.Contains(string(body), `"password":"hunter2"`) {
			writeProblem(w, 401, "invalid_credentials", "Wrong e-mail or password.")
			return
		}
		s.mu.Lock()
		a, rt := s.issue()
		s.mu.Unlock()
		writeJSON(w, 200, sessionJSON(a, rt), nil)
	case "POST /v1/auth/refresh":
		s.refreshCalls.Add(1)
		if r.Header.Get("Authorization") != "" {
			writeProblem(w, 400, "bad_request", "refresh takes no access token")
			return
		}
		s.mu.Lock()
		old := r.Header.Get("X-RefreshToken")
		if !s.refresh[old] {
			s.mu.Unlock()
			writeProblem(w, 401, "refresh_token_reused", "Sign in again.")
			return
		}
		delete(s.refresh, old)
		a, rt := s.issue()
		s.mu.Unlock()
		writeJSON(w, 200, sessionJSON(a, rt), nil)
	case "POST /v1/auth/sign-out":
		s.signOuts.Add(1)
		if !s.authorized(w, r) {
			return
		}
		s.mu.Lock()
		delete(s.refresh, r.Header.Get("X-RefreshToken"))
		delete(s.access, bearer(r))
		s.mu.Unlock()
		writeJSON(w, 200, map[string]string{"message": "Signed out."}, nil)
	case "GET /v1/auth/me":
		s.meCalls.Add(1)
		if s.authorized(w, r) {
			writeJSON(w, 200, userJSON("ada@example.com"), nil)
		}
	case "POST /v1/echo":
		if s.authorized(w, r) {
			body, _ := io.ReadAll(r.Body)
			s.echo <- string(body)
			writeJSON(w, 200, "ok", nil)
		}
	default:
		writeProblem(w, 404, "not_found", "No such route.")
	}
}

func (s *authServer) authorized(w http.ResponseWriter, r *http.Request) bool {
	s.mu.Lock()
	ok := s.access[bearer(r)]
	s.mu.Unlock()
	if ok {
		return true
	}
	if s.expiredGate != nil {
		s.expiredSeen <- struct{}{}
		<-s.expiredGate
	}
	writeProblem(w, 401, "token_expired", "The access token has expired.")
	return false
}

type savedPairs struct {
	mu    sync.Mutex
	pairs [][2]string
}

func (s *savedPairs) save(access, refresh string) {
	s.mu.Lock()
	s.pairs = append(s.pairs, [2]string{access, refresh})
	s.mu.Unlock()
}

func (s *savedPairs) all() [][2]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][2]string(nil), s.pairs...)
}

func TestTokensAreSent(t *testing.T) {
	var got http.Header
	c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		writeJSON(w, 200, userJSON("ada@example.com"), nil)
	}), WithTokens("acc", "ref"), WithUserAgent("betty-cli/1.2"))

	u, err := c.Me(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if u.Email != "ada@example.com" || u.Id != "0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10" || !u.EmailConfirmed {
		t.Errorf("user = %+v", u)
	}
	if got.Get("Authorization") != "Bearer acc" || got.Get("X-RefreshToken") != "ref" || got.Get("User-Agent") != "betty-cli/1.2" {
		t.Errorf("headers = %v", got)
	}
}

func TestAPIKeyIsSent(t *testing.T) {
	var got http.Header
	c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		writeJSON(w, 200, userJSON("ada@example.com"), nil)
	}), WithTokens("acc", "ref"), WithAPIKey("betty_sk_live"))

	if _, err := c.Me(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got.Get("Authorization") != "Bearer betty_sk_live" || got.Get("X-RefreshToken") != "" || got.Get("User-Agent") != "betty-go-sdk" {
		t.Errorf("headers = %v", got)
	}
	if a, r := c.Tokens(); a != "" || r != "" {
		t.Errorf("Tokens() = %q, %q for an API-key client", a, r)
	}
}

func TestRefreshOnTokenExpired(t *testing.T) {
	srv := newAuthServer("live", "refresh-0")
	srv.expire("live")
	var saved savedPairs
	c, _ := newTestClient(t, srv, WithTokens("live", "refresh-0"), WithTokenSaver(saved.save))

	u, err := c.Me(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if u.Email != "ada@example.com" {
		t.Errorf("user = %+v", u)
	}
	if n := srv.refreshCalls.Load(); n != 1 {
		t.Errorf("refresh calls = %d, want 1", n)
	}
	if a, r := c.Tokens(); a != "access-1" || r != "refresh-1" {
		t.Errorf("Tokens() = %q, %q; want the rotated pair", a, r)
	}
	if got := saved.all(); len(got) != 1 || got[0] != [2]string{"access-1", "refresh-1"} {
		t.Errorf("saver got %v", got)
	}

	// The next call goes out with the new token at once.
	if _, err := c.Me(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n := srv.refreshCalls.Load(); n != 1 {
		t.Errorf("refresh calls = %d after a second call, want 1", n)
	}
}

func TestRefreshIsSharedByConcurrentCalls(t *testing.T) {
	const callers = 10
	srv := newAuthServer("live", "refresh-0")
	srv.expire("live")
	srv.expiredGate = make(chan struct{})
	srv.expiredSeen = make(chan struct{}, callers)
	var saved savedPairs
	c, _ := newTestClient(t, srv, WithTokens("live", "refresh-0"), WithTokenSaver(saved.save))

	var wg sync.WaitGroup
	errs := make(chan error, callers)
	for range callers {
		wg.Go(func() {
			_, err := c.Me(t.Context())
			errs <- err
		})
	}
	// Let every caller meet the expired token before any of them can renew it.
	for range callers {
		<-srv.expiredSeen
	}
	close(srv.expiredGate)
	wg.Wait()
	close(errs)

	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if n := srv.refreshCalls.Load(); n != 1 {
		t.Errorf("refresh calls = %d, want exactly 1 for %d concurrent callers", n, callers)
	}
	if got := saved.all(); len(got) != 1 {
		t.Errorf("saver called %d times, want 1: %v", len(got), got)
	}
	if n := srv.meCalls.Load(); n != 2*callers {
		t.Errorf("GET /v1/auth/me calls = %d, want %d (each caller once expired, once renewed)", n, 2*callers)
	}
}

func TestRefreshReplaysTheBody(t *testing.T) {
	srv := newAuthServer("live", "refresh-0")
	srv.expire("live")
	c, _ := newTestClient(t, srv, WithTokens("live", "refresh-0"))

	err := NoContent(t.Context(), c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.Server()+"/v1/echo", strings.NewReader(`{"n":1}`))
		if err != nil {
			return nil, err
		}
		return api.Client.Do(req)
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := <-srv.echo; got != `{"n":1}` {
		t.Errorf("body after renewal = %q", got)
	}
}

func TestRefreshFailureReturnsThe401(t *testing.T) {
	srv := newAuthServer("live", "refresh-0")
	srv.expire("live")
	var saved savedPairs
	c, _ := newTestClient(t, srv, WithTokens("live", "stolen"), WithTokenSaver(saved.save))

	_, err := c.Me(t.Context())
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("err = %v, want *APIError", err)
	}
	if apiErr.StatusCode != 401 || apiErr.Code != "token_expired" || !errors.Is(err, ErrTokenExpired) || !errors.Is(err, ErrUnauthorized) {
		t.Errorf("err = %+v, want the original 401 token_expired", apiErr)
	}
	if apiErr.Detail != "The access token has expired." {
		t.Errorf("Detail = %q; the original body was not kept", apiErr.Detail)
	}
	if n := srv.refreshCalls.Load(); n != 1 {
		t.Errorf("refresh calls = %d, want 1", n)
	}
	if got := saved.all(); len(got) != 0 {
		t.Errorf("saver called with %v after a failed renewal", got)
	}
	if a, r := c.Tokens(); a != "live" || r != "stolen" {
		t.Errorf("Tokens() = %q, %q; a failed renewal must not change them", a, r)
	}
}

func TestAPIKeyNeverRefreshes(t *testing.T) {
	srv := newAuthServer("live", "refresh-0")
	c, _ := newTestClient(t, srv, WithAPIKey("betty_sk_expired"))

	_, err := c.Me(t.Context())
	if !errors.Is(err, ErrTokenExpired) {
		t.Fatalf("err = %v, want token_expired", err)
	}
	if n := srv.refreshCalls.Load(); n != 0 {
		t.Errorf("refresh calls = %d for an API-key client, want 0", n)
	}
}

func TestOtherUnauthorizedDoesNotRefresh(t *testing.T) {
	var refreshes atomic.Int32
	c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/auth/refresh" {
			refreshes.Add(1)
		}
		writeProblem(w, 401, "invalid_token", "The token is not valid.")
	}), WithTokens("bad", "refresh"))

	_, err := c.Me(t.Context())
	if !errors.Is(err, ErrUnauthorized) || errors.Is(err, ErrTokenExpired) {
		t.Fatalf("err = %v, want 401 invalid_token", err)
	}
	if n := refreshes.Load(); n != 0 {
		t.Errorf("refresh calls = %d, want 0", n)
	}
}

func TestSignInStoresTokens(t *testing.T) {
	srv := newAuthServer("unused", "unused")
	var saved savedPairs
	c, _ := newTestClient(t, srv, WithAPIKey("betty_sk_old"), WithTokenSaver(saved.save))

	s, err := c.SignIn(t.Context(), "ada@example.com", "hunter2")
	if err != nil {
		t.Fatal(err)
	}
	if s.AccessToken != "access-1" || s.RefreshToken != "refresh-1" || s.User.Email != "ada@example.com" {
		t.Errorf("session = %+v", s)
	}
	if a, r := c.Tokens(); a != "access-1" || r != "refresh-1" {
		t.Errorf("Tokens() = %q, %q", a, r)
	}
	if got := saved.all(); len(got) != 1 || got[0] != [2]string{"access-1", "refresh-1"} {
		t.Errorf("saver got %v", got)
	}
	if _, err := c.Me(t.Context()); err != nil {
		t.Errorf("Me after SignIn: %v", err)
	}

	if err := c.SignOut(t.Context()); err != nil {
		t.Fatal(err)
	}
	if a, r := c.Tokens(); a != "" || r != "" {
		t.Errorf("Tokens() = %q, %q after SignOut", a, r)
	}
	if _, err := c.Me(t.Context()); !errors.Is(err, ErrUnauthorized) {
		t.Errorf("Me after SignOut: err = %v, want 401", err)
	}
	if got := saved.all(); len(got) != 1 {
		t.Errorf("saver called on sign-out: %v", got)
	}
}

func TestSignInWrongPassword(t *testing.T) {
	srv := newAuthServer("unused", "unused")
	c, _ := newTestClient(t, srv)

	_, err := c.SignIn(t.Context(), "ada@example.com", "wrong")
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Code != "invalid_credentials" {
		t.Fatalf("err = %v, want invalid_credentials", err)
	}
	if a, r := c.Tokens(); a != "" || r != "" {
		t.Errorf("Tokens() = %q, %q after a failed sign-in", a, r)
	}
}

func TestSignOutFailureKeepsTokens(t *testing.T) {
	c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeProblem(w, 403, "forbidden", "That refresh token belongs to another session.")
	}), WithTokens("acc", "ref"))

	if err := c.SignOut(t.Context()); !errors.Is(err, ErrForbidden) {
		t.Fatalf("err = %v, want 403", err)
	}
	if a, r := c.Tokens(); a != "acc" || r != "ref" {
		t.Errorf("Tokens() = %q, %q after a failed sign-out", a, r)
	}
}

// signUpServer answers sign-up with a session unless confirm is set, and server info.
func signUpServer(t *testing.T, confirm bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			t.Errorf("%s %s sent credentials", r.Method, r.URL.Path)
		}
		switch r.Method + " " + r.URL.Path {
		case "POST /v1/auth/sign-up":
			var req client.SignUpRequest
			if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Email != "ada@example.com" || req.Password != "correct horse" || req.Name == nil {
				t.Errorf("request %+v (%v)", req, err)
			}
			result := map[string]any{"user": userJSON("ada@example.com"), "emailConfirmationRequired": confirm}
			if !confirm {
				result["session"] = sessionJSON("access-1", "refresh-1")
			}
			writeJSON(w, http.StatusCreated, result, nil)
		case "GET /v1/server/info":
			writeJSON(w, http.StatusOK, map[string]any{"version": "v1", "mailDelivery": "smtp", "emailConfirmationRequired": confirm}, nil)
		default:
			writeProblem(w, http.StatusNotFound, "not_found", "no route")
		}
	})
}

func TestSignUp(t *testing.T) {
	name := "Ada"
	req := client.SignUpRequest{Email: "ada@example.com", Password: "correct horse", Name: &name}
	t.Run("signed in at once", func(t *testing.T) {
		var saved savedPairs
		c, _ := newTestClient(t, signUpServer(t, false), WithAPIKey("betty_sk_old"), WithTokenSaver(saved.save))
		r, err := c.SignUp(t.Context(), req)
		if err != nil {
			t.Fatal(err)
		}
		if r.EmailConfirmationRequired || r.Session == nil || r.User.Email != "ada@example.com" {
			t.Errorf("result %+v", r)
		}
		if a, rt := c.Tokens(); a != "access-1" || rt != "refresh-1" {
			t.Errorf("Tokens() = %q, %q", a, rt)
		}
		if got := saved.all(); len(got) != 1 || got[0] != [2]string{"access-1", "refresh-1"} {
			t.Errorf("saver got %v", got)
		}
	})
	t.Run("e-mail to confirm first", func(t *testing.T) {
		var saved savedPairs
		c, _ := newTestClient(t, signUpServer(t, true), WithTokenSaver(saved.save))
		r, err := c.SignUp(t.Context(), req)
		if err != nil {
			t.Fatal(err)
		}
		if !r.EmailConfirmationRequired || r.Session != nil {
			t.Errorf("result %+v", r)
		}
		if a, rt := c.Tokens(); a != "" || rt != "" || len(saved.all()) != 0 {
			t.Errorf("tokens %q %q, saved %v", a, rt, saved.all())
		}
		info, err := c.ServerInfo(t.Context())
		if err != nil || info.MailDelivery != client.Smtp || !info.EmailConfirmationRequired || info.Version != "v1" {
			t.Errorf("server info %+v %v", info, err)
		}
	})
}
