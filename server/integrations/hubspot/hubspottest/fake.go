// Package hubspottest is a fake HubSpot for tests and end-to-end runs, speaking the wire
// format of HubSpot's documented API as server/integrations/hubspot uses it:
//
//   - GET /oauth/authorize: the authorisation page, with an "Approve" and a "Deny" button
//     (a form POSTing back to it); Approve redirects to redirect_uri with code and state,
//     Deny with error=access_denied;
//   - POST /oauth/v1/token (form-encoded; grant_type authorization_code or refresh_token),
//     checking client_id, client_secret, code and redirect_uri; errors are HubSpot's
//     {status, message, correlationId, error, error_description};
//   - GET /oauth/v1/access-tokens/{token} (hub_id, hub_domain, scopes, expires_in);
//   - DELETE /oauth/v1/refresh-tokens/{token};
//   - POST /crm/v3/objects/contacts/search, GET /crm/v3/objects/contacts (limit, after,
//     properties), GET and PATCH /crm/v3/objects/contacts/{id};
//   - GET /crm/v3/properties/contacts/lifecyclestage (options with label, value,
//     displayOrder, hidden);
//   - GET /crm/v3/lists/{listId} and GET /crm/v3/lists/{listId}/memberships (limit up to
//     250, after; record ids ascending);
//   - GET /_fake/stats: the counters.
//
// Failures are configurable (FailNext: a status for the next requests of a path, 429 with
// Retry-After; SetDelay: slow answers for timeouts; RevokeAll: every token refused), and
// every endpoint is counted (Count).
package hubspottest

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Options shape a fake portal.
type Options struct {
	ClientID, ClientSecret string
	PortalID               int64
	Domain                 string
	// TokenTTL is how long an access token lives (default 30 minutes, HubSpot's).
	TokenTTL time.Duration
}

// Contact is a contact of the fake portal.
type Contact struct {
	ID         string
	Properties map[string]string
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// Stage is a lifecycle stage option.
type Stage struct {
	Label        string `json:"label"`
	Value        string `json:"value"`
	DisplayOrder int    `json:"displayOrder"`
	Hidden       bool   `json:"hidden"`
}

// DefaultStages are HubSpot's built-in lifecycle stages.
var DefaultStages = []Stage{{"Subscriber", "subscriber", 0, false}, {"Lead", "lead", 1, false},
	{"Marketing Qualified Lead", "marketingqualifiedlead", 2, false}, {"Sales Qualified Lead", "salesqualifiedlead", 3, false},
	{"Opportunity", "opportunity", 4, false}, {"Customer", "customer", 5, false}, {"Evangelist", "evangelist", 6, false},
	{"Other", "other", 7, false}}

type failure struct {
	status int
	left   int
}

type access struct {
	refresh string
	expires time.Time
}

// Server is a fake HubSpot portal behind an httptest server.
type Server struct {
	*httptest.Server
	Opts Options

	mu       sync.Mutex
	contacts map[string]*Contact
	order    []string
	nextID   int64
	stages   []Stage
	lists    map[string]*list
	codes    map[string]string // code → redirect_uri
	tokens   map[string]access // access token → its refresh token
	refresh  map[string]bool   // live refresh tokens
	fails    map[string]*failure
	delay    time.Duration
	counts   map[string]int
}

// New starts a fake portal; Close it when done.
func New(o Options) *Server {
	s := NewUnstarted(o)
	s.Start()
	return s
}

// NewUnstarted builds a fake portal whose server is not started (to listen elsewhere).
func NewUnstarted(o Options) *Server {
	if o.ClientID == "" {
		o.ClientID = "fake-client-id"
	}
	if o.ClientSecret == "" {
		o.ClientSecret = "fake-client-secret"
	}
	if o.PortalID == 0 {
		o.PortalID = 24017381
	}
	if o.Domain == "" {
		o.Domain = "acme.hubspot.com"
	}
	if o.TokenTTL == 0 {
		o.TokenTTL = 30 * time.Minute
	}
	s := &Server{Opts: o, contacts: map[string]*Contact{}, nextID: 101, stages: append([]Stage(nil), DefaultStages...),
		lists: map[string]*list{},
		codes: map[string]string{}, tokens: map[string]access{}, refresh: map[string]bool{}, fails: map[string]*failure{},
		counts: map[string]int{}}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(s.serve))
	return s
}

// AddContact adds a contact with properties (firstname, lastname, email, phone,
// lifecyclestage, …) and answers its id.
func (s *Server) AddContact(props map[string]string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := strconv.FormatInt(s.nextID, 10)
	s.nextID++
	p := map[string]string{"hs_object_id": id}
	for k, v := range props {
		p[k] = v
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	s.contacts[id] = &Contact{ID: id, Properties: p, CreatedAt: now, UpdatedAt: now}
	s.order = append(s.order, id)
	return id
}

// Contact answers a contact's properties (nil when it is gone).
func (s *Server) Contact(id string) map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.contacts[id]
	if !ok {
		return nil
	}
	out := map[string]string{}
	for k, v := range c.Properties {
		out[k] = v
	}
	return out
}

// SetProperty changes a contact's property (as a HubSpot user would).
func (s *Server) SetProperty(id, name, value string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.contacts[id]; ok {
		c.Properties[name] = value
	}
}

// DeleteContact removes a contact.
func (s *Server) DeleteContact(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.contacts, id)
	for i, o := range s.order {
		if o == id {
			s.order = append(s.order[:i], s.order[i+1:]...)
			break
		}
	}
}

// AddStage adds a custom lifecycle stage.
func (s *Server) AddStage(st Stage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stages = append(s.stages, st)
}

// FailNext makes the next n requests whose path starts with prefix answer status (429 with
// Retry-After: 1; 0 with a delay: a timeout). n < 0: until changed. A prefix that starts
// with a method ("GET /crm/v3/objects/contacts") matches requests of that method only.
func (s *Server) FailNext(prefix string, status, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fails[prefix] = &failure{status: status, left: n}
}

// ClearFailures ends every configured failure.
func (s *Server) ClearFailures() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fails = map[string]*failure{}
	s.delay = 0
}

// SetDelay delays every answer by d (clients with a shorter timeout time out).
func (s *Server) SetDelay(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.delay = d
}

// RevokeAll revokes every token (as when the portal uninstalls the app).
func (s *Server) RevokeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens, s.refresh = map[string]access{}, map[string]bool{}
}

// ExpireAccessTokens makes every access token expired (the next call must refresh).
func (s *Server) ExpireAccessTokens() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, a := range s.tokens {
		a.expires = time.Now().Add(-time.Second)
		s.tokens[k] = a
	}
}

// Count answers how many requests an endpoint had: "authorize", "token.code",
// "token.refresh", "access-token", "revoke", "search", "list", "get", "batch-read", "patch", "stages".
func (s *Server) Count(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[name]
}

// Counts answers every counter.
func (s *Server) Counts() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]int{}
	for k, v := range s.counts {
		out[k] = v
	}
	return out
}

// Code issues an authorisation code for redirectURI, as approving the authorisation page
// does (tests skip the browser).
func (s *Server) Code(redirectURI string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	code := "code-" + token()
	s.codes[code] = redirectURI
	return code
}

// Approve follows an authorisation URL as a user approving it: it answers the redirect
// (the callback URL with code and state).
func (s *Server) Approve(authorizationURL string) (string, error) {
	u, err := url.Parse(authorizationURL)
	if err != nil {
		return "", err
	}
	q := u.Query()
	if q.Get("client_id") != s.Opts.ClientID {
		return "", fmt.Errorf("hubspottest: client_id %q is not the app's", q.Get("client_id"))
	}
	redirect := q.Get("redirect_uri")
	cb, err := url.Parse(redirect)
	if err != nil || redirect == "" {
		return "", fmt.Errorf("hubspottest: bad redirect_uri %q", redirect)
	}
	cq := cb.Query()
	cq.Set("code", s.Code(redirect))
	cq.Set("state", q.Get("state"))
	cb.RawQuery = cq.Encode()
	return cb.String(), nil
}

func token() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func (s *Server) count(name string) {
	s.mu.Lock()
	s.counts[name]++
	s.mu.Unlock()
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json;charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// apiError answers HubSpot's error body.
func apiError(w http.ResponseWriter, status int, category, msg string) {
	writeJSON(w, status, map[string]string{"status": "error", "message": msg, "correlationId": token(), "category": category})
}

func oauthError(w http.ResponseWriter, status int, code, oauth, msg string) {
	writeJSON(w, status, map[string]string{"status": code, "message": msg, "correlationId": token(), "error": oauth, "error_description": msg})
}

// injected answers a configured failure of the path, if any.
func (s *Server) injected(w http.ResponseWriter, r *http.Request) bool {
	s.mu.Lock()
	delay := s.delay
	var f *failure
	for prefix, cand := range s.fails {
		if (strings.HasPrefix(r.URL.Path, prefix) || strings.HasPrefix(r.Method+" "+r.URL.Path, prefix)) && cand.left != 0 {
			f = cand
			if f.left > 0 {
				f.left--
			}
			break
		}
	}
	s.mu.Unlock()
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return true
		}
	}
	if f == nil {
		return false
	}
	switch {
	case f.status == http.StatusTooManyRequests:
		w.Header().Set("Retry-After", "1")
		apiError(w, f.status, "RATE_LIMITS", "You have reached your secondly limit.")
	case f.status == http.StatusUnauthorized:
		apiError(w, f.status, "INVALID_AUTHENTICATION", "Authentication credentials not found.")
	case f.status == http.StatusForbidden:
		apiError(w, f.status, "MISSING_SCOPES", "This app hasn't been granted all required scopes to make this call.")
	default:
		apiError(w, f.status, "INTERNAL_ERROR", "Something went wrong.")
	}
	return true
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	if p == "/_fake/stats" {
		writeJSON(w, http.StatusOK, s.Counts())
		return
	}
	if p == "/oauth/authorize" {
		s.authorize(w, r)
		return
	}
	if s.injected(w, r) {
		return
	}
	switch {
	case p == "/oauth/v1/token" && r.Method == http.MethodPost:
		s.tokenEndpoint(w, r)
	case strings.HasPrefix(p, "/oauth/v1/access-tokens/") && r.Method == http.MethodGet:
		s.count("access-token")
		tok := strings.TrimPrefix(p, "/oauth/v1/access-tokens/")
		s.mu.Lock()
		a, ok := s.tokens[tok]
		s.mu.Unlock()
		if !ok || time.Now().After(a.expires) {
			oauthError(w, http.StatusNotFound, "BAD_ACCESS_TOKEN", "", "The access token is unknown or expired.")
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"token": tok, "user": "owner@" + s.Opts.Domain, "hub_domain": s.Opts.Domain,
			"scopes": []string{"crm.objects.contacts.read", "crm.objects.contacts.write", "crm.schemas.contacts.read", "crm.lists.read", "oauth"},
			"hub_id": s.Opts.PortalID, "app_id": 1234567, "expires_in": int(time.Until(a.expires).Seconds()), "user_id": 42, "token_type": "access"})
	case strings.HasPrefix(p, "/oauth/v1/refresh-tokens/") && r.Method == http.MethodDelete:
		s.count("revoke")
		tok := strings.TrimPrefix(p, "/oauth/v1/refresh-tokens/")
		s.mu.Lock()
		known := s.refresh[tok]
		delete(s.refresh, tok)
		for k, a := range s.tokens {
			if a.refresh == tok {
				delete(s.tokens, k)
			}
		}
		s.mu.Unlock()
		if !known {
			oauthError(w, http.StatusNotFound, "BAD_REFRESH_TOKEN", "invalid_grant", "The refresh token is unknown.")
			return
		}
		w.WriteHeader(http.StatusNoContent)
	case strings.HasPrefix(p, "/crm/v3/"):
		if !s.authorized(w, r) {
			return
		}
		s.crm(w, r)
	default:
		apiError(w, http.StatusNotFound, "OBJECT_NOT_FOUND", "No route for "+r.Method+" "+p)
	}
}

func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	s.count("authorize")
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	clientID, redirect, state := r.Form.Get("client_id"), r.Form.Get("redirect_uri"), r.Form.Get("state")
	if clientID != s.Opts.ClientID || redirect == "" {
		http.Error(w, "This app is not known to HubSpot (client_id or redirect_uri is wrong).", http.StatusBadRequest)
		return
	}
	cb, err := url.Parse(redirect)
	if err != nil {
		http.Error(w, "bad redirect_uri", http.StatusBadRequest)
		return
	}
	if r.Method == http.MethodPost {
		q := cb.Query()
		if r.Form.Get("action") == "approve" {
			q.Set("code", s.Code(redirect))
		} else {
			q.Set("error", "access_denied")
			q.Set("error_description", "The user denied access.")
		}
		if state != "" {
			q.Set("state", state)
		}
		cb.RawQuery = q.Encode()
		http.Redirect(w, r, cb.String(), http.StatusFound)
		return
	}
	e := html.EscapeString
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, `<!doctype html><html><head><title>Connect to HubSpot (fake)</title></head><body>
<h1>Choose an account</h1><p>Betty wants to access <strong>%s</strong> (portal %d).</p>
<p>Scopes: %s</p>
<form method="post" action="/oauth/authorize">
<input type="hidden" name="client_id" value="%s"><input type="hidden" name="redirect_uri" value="%s">
<input type="hidden" name="state" value="%s"><input type="hidden" name="scope" value="%s">
<button type="submit" name="action" value="approve">Approve</button>
<button type="submit" name="action" value="deny">Deny</button>
</form></body></html>`, e(s.Opts.Domain), s.Opts.PortalID, e(r.Form.Get("scope")), e(clientID), e(redirect), e(state), e(r.Form.Get("scope")))
}

func (s *Server) tokenEndpoint(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "BAD_REQUEST", "invalid_request", "The body is not form-encoded.")
		return
	}
	f := r.PostForm
	if f.Get("client_id") != s.Opts.ClientID || f.Get("client_secret") != s.Opts.ClientSecret {
		s.count("token.bad-client")
		oauthError(w, http.StatusBadRequest, "BAD_CLIENT_ID", "invalid_client", "missing or invalid client_id / client_secret")
		return
	}
	refresh, fail := s.grant(f)
	if fail != nil {
		oauthError(w, http.StatusBadRequest, fail[0], fail[1], fail[2])
		return
	}
	acc := "access-" + token()
	s.mu.Lock()
	s.tokens[acc] = access{refresh: refresh, expires: time.Now().Add(s.Opts.TokenTTL)}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"token_type": "bearer", "refresh_token": refresh, "access_token": acc,
		"expires_in": int(s.Opts.TokenTTL.Seconds())})
}

// grant checks a token request's grant: the refresh token to issue with, or the error
// (status, error, message).
func (s *Server) grant(f url.Values) (string, []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch f.Get("grant_type") {
	case "authorization_code":
		s.counts["token.code"]++
		redirect, ok := s.codes[f.Get("code")]
		if !ok {
			return "", []string{"BAD_AUTH_CODE", "invalid_grant", "missing or unknown auth code"}
		}
		delete(s.codes, f.Get("code"))
		if redirect != f.Get("redirect_uri") {
			return "", []string{"BAD_REDIRECT_URI", "invalid_grant", "redirect_uri does not match the authorisation's"}
		}
		refresh := "refresh-" + token()
		s.refresh[refresh] = true
		return refresh, nil
	case "refresh_token":
		s.counts["token.refresh"]++
		refresh := f.Get("refresh_token")
		if !s.refresh[refresh] {
			return "", []string{"BAD_REFRESH_TOKEN", "invalid_grant", "missing or unknown refresh token"}
		}
		return refresh, nil
	}
	return "", []string{"BAD_GRANT_TYPE", "unsupported_grant_type", "grant_type is authorization_code or refresh_token"}
}

func (s *Server) authorized(w http.ResponseWriter, r *http.Request) bool {
	tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	s.mu.Lock()
	a, ok := s.tokens[tok]
	s.mu.Unlock()
	if !ok || time.Now().After(a.expires) {
		s.count("unauthorized")
		apiError(w, http.StatusUnauthorized, "EXPIRED_AUTHENTICATION", "The OAuth token used to make this call expired or is unknown.")
		return false
	}
	return true
}
