// Package zapiertest is a fake Zapier for tests: the partner API (GET /v2/zap-templates,
// GET /v2/zaps, GET /v2/profiles/me), the OAuth token endpoint (POST /oauth/token/, with
// failures on demand) and the revoke endpoint, in Zapier's documented wire formats; and a
// REST-hook receiver (an https server) that counts the deliveries it gets per URL path and
// can answer 410, 5xx or slowly on demand.
package zapiertest

import (
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Credentials the fake accepts.
const (
	ClientID     = "betty-client"
	ClientSecret = "betty-secret"
	GoodCode     = "good-code"
	AccountID    = "7001"
	AccountEmail = "ops@example.com"
)

// Zap is a zap the fake lists.
type Zap struct {
	ID, Title string
	Enabled   bool
	UpdatedAt time.Time
	Apps      []string
}

// Server is the fake partner API and OAuth server.
type Server struct {
	*httptest.Server
	mu sync.Mutex
	// Zaps and Templates are what the API lists.
	Zaps      []Zap
	Templates int
	// FailAPI makes the API and the token endpoint answer this status (0: none).
	FailAPI int
	// RefuseGrant makes the token endpoint answer 400 invalid_grant.
	RefuseGrant bool
	// ExpiresIn is the lifetime of issued access tokens, in seconds.
	ExpiresIn int
	tokens    map[string]bool // access tokens issued and not revoked
	refreshes map[string]bool
	n         int
	Revoked   []string
	Refreshed int
}

// New starts the fake with two templates and no zaps.
func New() *Server {
	s := &Server{Templates: 2, ExpiresIn: 3600, tokens: map[string]bool{}, refreshes: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v2/zap-templates", s.templates)
	mux.HandleFunc("GET /v2/zaps", s.zaps)
	mux.HandleFunc("GET /v2/profiles/me", s.me)
	mux.HandleFunc("POST /oauth/token/", s.token)
	mux.HandleFunc("POST /oauth/revoke_token/", s.revoke)
	s.Server = httptest.NewServer(mux)
	return s
}

// ForgetAccessTokens refuses every access token issued so far (401), as Zapier does to a
// token revoked before its time; refresh tokens still work.
func (s *Server) ForgetAccessTokens() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens = map[string]bool{}
}

// TokenURL is the fake's OAuth token endpoint.
func (s *Server) TokenURL() string { return s.URL + "/oauth/token/" }

// Set changes the fake under its lock.
func (s *Server) Set(fn func(s *Server)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fn(s)
}

func apiError(w http.ResponseWriter, status int, code, detail string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"errors": []map[string]any{{"status": status, "code": code,
		"title": http.StatusText(status), "detail": detail, "source": nil, "meta": map[string]any{"source": "ZAPIER"}}}})
}

func (s *Server) failing(w http.ResponseWriter) bool {
	s.mu.Lock()
	code := s.FailAPI
	s.mu.Unlock()
	if code != 0 {
		apiError(w, code, "error", "The fake was told to fail.")
		return true
	}
	return false
}

func (s *Server) templates(w http.ResponseWriter, r *http.Request) {
	if s.failing(w) {
		return
	}
	if r.URL.Query().Get("client_id") != ClientID {
		apiError(w, http.StatusBadRequest, "invalid_client", "Unknown client_id.")
		return
	}
	s.mu.Lock()
	n := s.Templates
	s.mu.Unlock()
	data := []map[string]any{}
	for i := 1; i <= n; i++ {
		data = append(data, map[string]any{"id": 1000 + i, "title": fmt.Sprintf("Call new Google Sheets rows %d", i), "slug": "call-rows",
			"status": "published", "description_plain": "When a row is added, Betty calls it.", "description_raw": "When a row is added…",
			"url": fmt.Sprintf("https://zapier.com/app/editor/template/%d", 1000+i),
			"steps": []map[string]any{
				{"id": 1, "title": "Google Sheets", "slug": "google-sheets", "image": "https://cdn.zapier.com/sheets.png",
					"images": map[string]any{"url_64x64": "https://cdn.zapier.com/sheets-64.png"}},
				{"id": 2, "title": "Betty", "slug": "betty", "image": ""},
			}})
	}
	writeJSON(w, map[string]any{"data": data, "meta": map[string]any{"count": len(data), "limit": 50, "offset": 0}, "links": map[string]any{"next": nil, "prev": nil}})
}

func (s *Server) authorized(r *http.Request) bool {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	s.mu.Lock()
	defer s.mu.Unlock()
	return ok && s.tokens[tok]
}

func (s *Server) zaps(w http.ResponseWriter, r *http.Request) {
	if s.failing(w) {
		return
	}
	if !s.authorized(r) {
		apiError(w, http.StatusUnauthorized, "not_authenticated", "Authentication credentials were not provided.")
		return
	}
	limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
	if limit <= 0 {
		limit = 10
	}
	s.mu.Lock()
	all := append([]Zap(nil), s.Zaps...)
	s.mu.Unlock()
	data := []map[string]any{}
	for i := offset; i < len(all) && i < offset+limit; i++ {
		z := all[i]
		steps := []map[string]any{}
		for _, a := range z.Apps {
			steps = append(steps, map[string]any{"action": map[string]any{"id": "uag:" + a, "type": "action",
				"app": map[string]any{"id": "app-" + a, "title": a, "image": "https://cdn.zapier.com/" + strings.ToLower(a) + ".png"}},
				"inputs": map[string]any{}, "authentication": nil})
		}
		data = append(data, map[string]any{"id": z.ID, "type": "zap", "title": z.Title, "is_enabled": z.Enabled,
			"updated_at": z.UpdatedAt.UTC().Format(time.RFC3339), "last_successful_run_date": nil, "steps": steps,
			"links": map[string]any{"html_editor": "https://zapier.com/webintent/edit-zap/" + z.ID}})
	}
	writeJSON(w, map[string]any{"data": data, "meta": map[string]any{"count": len(all), "limit": limit, "offset": offset},
		"links": map[string]any{"next": nil, "prev": nil}})
}

func (s *Server) me(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(r) {
		apiError(w, http.StatusUnauthorized, "not_authenticated", "Authentication credentials were not provided.")
		return
	}
	writeJSON(w, map[string]any{"id": AccountID, "email": AccountEmail, "first_name": "Ops", "last_name": "Team"})
}

func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	if s.failing(w) {
		return
	}
	id, secret, ok := r.BasicAuth()
	if err := r.ParseForm(); err != nil || !ok || id != ClientID || secret != ClientSecret {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = io.WriteString(w, `{"error":"invalid_client"}`)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	grant := func() {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, `{"error":"invalid_grant","error_description":"Invalid grant."}`)
	}
	if s.RefuseGrant {
		grant()
		return
	}
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		if r.PostForm.Get("code") != GoodCode {
			grant()
			return
		}
	case "refresh_token":
		if !s.refreshes[r.PostForm.Get("refresh_token")] {
			grant()
			return
		}
		delete(s.refreshes, r.PostForm.Get("refresh_token"))
		s.Refreshed++
	default:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, `{"error":"unsupported_grant_type"}`)
		return
	}
	s.n++
	access, refresh := fmt.Sprintf("access-%d", s.n), fmt.Sprintf("refresh-%d", s.n)
	s.tokens[access], s.refreshes[refresh] = true, true
	writeJSON(w, map[string]any{"access_token": access, "refresh_token": refresh, "expires_in": s.ExpiresIn,
		"token_type": "Bearer", "scope": "zap zap:all profile"})
}

func (s *Server) revoke(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	s.mu.Lock()
	defer s.mu.Unlock()
	tok := r.PostForm.Get("token")
	delete(s.tokens, tok)
	s.Revoked = append(s.Revoked, tok)
	w.WriteHeader(http.StatusOK)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// Receiver is a REST-hook receiver: an https server counting deliveries per path.
type Receiver struct {
	*httptest.Server
	mu       sync.Mutex
	bodies   map[string][][]byte
	attempts map[string]int
	behave   map[string]Behaviour
}

// Behaviour is how the receiver answers a path: Status (default 200), Fail answers 503 for
// the first Fail attempts, Delay waits before answering.
type Behaviour struct {
	Status int
	Fail   int
	Delay  time.Duration
}

// NewReceiver starts a hook receiver.
func NewReceiver() *Receiver {
	rv := &Receiver{bodies: map[string][][]byte{}, attempts: map[string]int{}, behave: map[string]Behaviour{}}
	rv.Server = httptest.NewTLSServer(http.HandlerFunc(rv.serve))
	return rv
}

// URL of a hook path on the receiver ("/hooks/a").
func (rv *Receiver) Hook(path string) string { return rv.URL + path }

// Behave sets how path answers.
func (rv *Receiver) Behave(path string, b Behaviour) {
	rv.mu.Lock()
	defer rv.mu.Unlock()
	rv.behave[path] = b
}

func (rv *Receiver) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rv.mu.Lock()
	rv.attempts[r.URL.Path]++
	n := rv.attempts[r.URL.Path]
	b := rv.behave[r.URL.Path]
	rv.mu.Unlock()
	if b.Delay > 0 {
		select {
		case <-time.After(b.Delay):
		case <-r.Context().Done():
			return
		}
	}
	switch {
	case b.Status != 0:
		w.WriteHeader(b.Status)
		return
	case n <= b.Fail:
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	rv.mu.Lock()
	rv.bodies[r.URL.Path] = append(rv.bodies[r.URL.Path], body)
	rv.mu.Unlock()
	w.WriteHeader(http.StatusOK)
	_, _ = io.WriteString(w, `{"status":"success"}`)
}

// Delivered answers the bodies path accepted, in order.
func (rv *Receiver) Delivered(path string) [][]byte {
	rv.mu.Lock()
	defer rv.mu.Unlock()
	return append([][]byte(nil), rv.bodies[path]...)
}

// Attempts answers how many requests path got (accepted or not).
func (rv *Receiver) Attempts(path string) int {
	rv.mu.Lock()
	defer rv.mu.Unlock()
	return rv.attempts[path]
}

// Client is an HTTP client that trusts the receiver's certificate, dials nothing else and
// gives up after timeout (the deliveries' client in tests).
func (rv *Receiver) Client(timeout time.Duration) *http.Client {
	c := rv.Server.Client()
	tr := c.Transport.(*http.Transport).Clone()
	tr.TLSClientConfig = &tls.Config{RootCAs: tr.TLSClientConfig.RootCAs, MinVersion: tls.VersionTLS12}
	return &http.Client{Transport: tr, Timeout: timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// Allow accepts only the receiver's own address (the tests' stand-in for "public").
func (rv *Receiver) Allow() func(netip.Addr) bool {
	host, _, _ := net.SplitHostPort(rv.Listener.Addr().String())
	own := netip.MustParseAddr(host)
	return func(a netip.Addr) bool { return a.Unmap() == own }
}
