// Package apitest runs the real server in process, on a real HTTP listener and a real store,
// and checks every response against openapi.yaml as it is sent: a status the operation does
// not declare, or a body that does not match, fails the test. Operations answered with a 2xx
// are recorded for `make contract-coverage`.
package apitest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/bettyhq/betty/server/app"
	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/httpapi"
	"github.com/bettyhq/betty/server/internal/smtptest"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/jobs"
	"github.com/bettyhq/betty/server/store"
)

// EnvCoverageDir names the folder where exercised operations are recorded.
const EnvCoverageDir = "BETTY_CONTRACT_COVERAGE_DIR"

// Env is one running server and a client for it.
type Env struct {
	t      testing.TB
	URL    string
	DB     *store.DB
	Client *http.Client
	// Logs holds everything the server logged.
	Logs *syncBuffer
	// Relay is the fake SMTP relay of WithMailDelivery (nil without).
	Relay *smtptest.Server
	// Resources is the registry of resource kinds the server's guard resolves.
	Resources auth.Registry
}

// Each runs fn against a fresh server on every dialect.
func Each(t *testing.T, fn func(t *testing.T, env *Env), opts ...Option) {
	t.Helper()
	for _, d := range testdb.Dialects() {
		t.Run(string(d), func(t *testing.T) { fn(t, New(t, d, opts...)) })
	}
}

// Option changes the server a test starts.
type Option func(*settings)

type settings struct {
	cfg           config.Config
	responseCheck bool
	smtp          bool
	app           []app.Option
}

// WithRateLimit turns rate limiting on (it is off in tests by default).
func WithRateLimit(rate float64, burst int) Option {
	return func(s *settings) { s.cfg.RateLimit, s.cfg.RateBurst = rate, burst }
}

// WithAccessTokenTTL makes access tokens expire after d (to exercise refresh and expiry).
func WithAccessTokenTTL(d time.Duration) Option {
	return func(s *settings) { s.cfg.AccessTokenTTL = d }
}

// WithMailDelivery configures an SMTP relay (a fake one, started for the test), so e-mail
// confirmation becomes required. Messages still land in the outbox for tests to read.
func WithMailDelivery() Option { return func(s *settings) { s.smtp = true } }

// WithInternalDomains sets the internal staff e-mail domains.
func WithInternalDomains(domains ...string) Option {
	return func(s *settings) { s.cfg.InternalDomains = domains }
}

// WithTrustedProxies believes X-Forwarded-For from these networks.
func WithTrustedProxies(nets ...*net.IPNet) Option {
	return func(s *settings) { s.cfg.TrustedProxies = nets }
}

// WithBodyTimeout bounds how long a client may take to send a body.
func WithBodyTimeout(d time.Duration) Option { return func(s *settings) { s.cfg.BodyTimeout = d } }

// WithConfig changes any setting.
func WithConfig(fn func(*config.Config)) Option { return func(s *settings) { fn(&s.cfg) } }

// WithPasswordHashing bounds password hashing to slots at once and a queue of wait.
func WithPasswordHashing(slots int, wait time.Duration) Option {
	return func(s *settings) { s.app = append(s.app, app.WithPasswordHasher(auth.NewHasher(slots, wait))) }
}

// NamedAdmin is the site administrator's e-mail (--admin-email) of a test server: an account
// no test signs up with unless it means to.
const NamedAdmin = "site-admin@betty.test"

// WithFirstAccountAdmin starts the server as `betty serve` starts by default: the first
// account to sign up becomes site administrator.
func WithFirstAccountAdmin() Option { return func(s *settings) { s.cfg.AdminEmail = "" } }

// WithoutResponseCheck skips validating responses against the contract: for benchmarks,
// which measure the server and not the validator.
func WithoutResponseCheck() Option { return func(s *settings) { s.responseCheck = false } }

// New starts a server on a fresh database of dialect d, built by app.New exactly as
// `betty serve` builds it, on a real listener; it stops when the test ends.
func New(t testing.TB, d store.Dialect, opts ...Option) *Env {
	t.Helper()
	dbOpts := testdb.Options(t, d)
	s := settings{cfg: config.Default(), responseCheck: true}
	s.cfg.DataDir, s.cfg.DatabaseURL = dbOpts.DataDir, dbOpts.DatabaseURL
	if s.cfg.DataDir == "" { // PostgreSQL: uploaded files still need a folder
		s.cfg.DataDir = t.TempDir()
	}
	s.cfg.BaseURL = "http://betty.test"
	s.cfg.RateLimit = 0
	s.cfg.RefreshTokenTTL = 24 * time.Hour
	s.cfg.ShutdownTimeout = 5 * time.Second
	// Nobody becomes site administrator by signing up first (tests grant it where they need
	// it, env.DB.SetSiteAdmin); WithFirstAccountAdmin keeps the server's default rule.
	s.cfg.AdminEmail = NamedAdmin
	for _, o := range opts {
		o(&s)
	}
	var relay *smtptest.Server
	if s.smtp {
		relay = smtptest.Start(t)
		s.cfg.SMTPURL, s.cfg.MailFrom = relay.URL(), "betty@betty.test"
	}
	logs := &syncBuffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	var appOpts []app.Option
	if s.responseCheck {
		appOpts = append(appOpts, app.WithResponseCheck(checkResponse(t)))
	}
	appOpts = append(appOpts, app.WithJobs(jobs.Config{PollInterval: 50 * time.Millisecond}))
	appOpts = append(appOpts, s.app...)
	a, err := app.New(context.Background(), s.cfg, log, nil, "test", appOpts...)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		a.Close()
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if err := a.Start(ctx); err != nil {
		cancel()
		a.Close()
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- a.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
		a.Close()
	})
	return &Env{t: t, URL: "http://" + ln.Addr().String(), DB: a.DB(), Client: &http.Client{Timeout: time.Minute, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}, Logs: logs, Relay: relay, Resources: a.Resources()}
}

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String is everything logged so far.
func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// anyOperationMay are the statuses any operation may answer without declaring them, through
// its `default` response (docs/contract.md). 499 is the answer to a client that went away
// (the request's context was cancelled, as when a CLI stops following an event stream): it
// is written into a closed connection and never read, so no operation declares it.
var anyOperationMay = map[int]bool{408: true, 499: true, 500: true, 501: true, 503: true}

// checkResponse validates one response against its operation.
func checkResponse(t testing.TB) func(*httpapi.Operation, *http.Request, map[string]string, int, http.Header, []byte) {
	return func(op *httpapi.Operation, req *http.Request, params map[string]string, status int, header http.Header, body []byte) {
		if op.Route.Operation.Responses.Status(status) == nil && !anyOperationMay[status] {
			t.Errorf("contract: %s %s answered %d, which %s does not declare; body: %s", req.Method, req.URL.Path, status, op.ID, body)
			return
		}
		in := &openapi3filter.ResponseValidationInput{
			RequestValidationInput: &openapi3filter.RequestValidationInput{
				Request: req, PathParams: params, Route: op.Route,
			},
			Status: status,
			Header: header,
			Body:   io.NopCloser(bytes.NewReader(body)),
			Options: &openapi3filter.Options{
				MultiError:            true,
				IncludeResponseStatus: true,
			},
		}
		if req.Method == http.MethodHead {
			in.Options.ExcludeResponseBody = true
		}
		if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
			t.Errorf("contract: %s %s → %d does not match %s: %v\nbody: %s", req.Method, req.URL.Path, status, op.ID, err, body)
		}
		// An operation is exercised when it answered one of its successes: 2xx, or the 3xx a
		// redirecting operation (an OAuth callback) declares.
		if status >= 200 && status < 400 {
			record(op.ID)
		}
	}
}

var coverageMu sync.Mutex

func record(opID string) {
	dir := os.Getenv(EnvCoverageDir)
	if dir == "" {
		return
	}
	coverageMu.Lock()
	defer coverageMu.Unlock()
	_ = os.MkdirAll(dir, 0o755)
	f, err := os.OpenFile(filepath.Join(dir, fmt.Sprintf("%d.txt", os.Getpid())), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintln(f, opID)
}

// Response is an answer, read whole.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into v, failing the test when it cannot.
func (r *Response) JSON(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %s: %v", r.Body, err)
	}
}

// Problem is a decoded problem+json body.
type Problem struct {
	Type, Title, Detail, Code, RequestID string
	Status                               int
	Errors                               []struct{ Field, Message string }
}

// Problem decodes a problem body, failing unless the content type is problem+json.
func (r *Response) Problem(t testing.TB) Problem {
	t.Helper()
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/problem+json") {
		t.Fatalf("content type %q, want application/problem+json; body %s", ct, r.Body)
	}
	var p Problem
	r.JSON(t, &p)
	return p
}

// Request is one request to send.
type Request struct {
	Method string
	Path   string
	// Body is sent as JSON unless it is a string or []byte (sent as is).
	Body   any
	Header http.Header
	// Token, when set, is sent as Authorization: Bearer (an access token or an API key).
	Token string
}

// Do sends a request and reads the whole answer.
func (e *Env) Do(r Request) *Response {
	e.t.Helper()
	var body io.Reader
	switch b := r.Body.(type) {
	case nil:
	case string:
		body = strings.NewReader(b)
	case []byte:
		body = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		body = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(r.Method, e.URL+r.Path, body)
	if err != nil {
		e.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, vs := range r.Header {
		req.Header[k] = vs
	}
	if r.Token != "" {
		req.Header.Set("Authorization", "Bearer "+r.Token)
	}
	res, err := e.Client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	if strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		// An event stream stays open: keep what the server sent at once, then hang up.
		return &Response{Status: res.StatusCode, Header: res.Header, Body: firstChunk(res.Body)}
	}
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return &Response{Status: res.StatusCode, Header: res.Header, Body: raw}
}

// firstChunk is what one read of r answers within 5 seconds.
func firstChunk(r io.Reader) []byte {
	got := make(chan []byte, 1)
	go func() {
		buf := make([]byte, 64<<10)
		n, _ := r.Read(buf)
		got <- buf[:n]
	}()
	select {
	case b := <-got:
		return b
	case <-time.After(5 * time.Second):
		return nil
	}
}

// Get is Do for a GET.
func (e *Env) Get(path string) *Response {
	e.t.Helper()
	return e.Do(Request{Method: http.MethodGet, Path: path})
}
