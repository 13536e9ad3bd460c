package clitest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/bettyhq/betty/sdk/client"
)

// Stub is a fake Betty server: each registered route answers what the API documents (an
// envelope or a problem document); any other request fails the test.
type Stub struct {
	URL string

	t   testing.TB
	mux *http.ServeMux

	mu       sync.Mutex
	requests []Request
}

// Request is a request the stub received.
type Request struct {
	Method string
	Path   string
	Query  url.Values
	Header http.Header
	Body   []byte
}

// Decode unmarshals the request's JSON body.
func (r Request) Decode(t testing.TB, into any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, into); err != nil {
		t.Fatalf("%s %s body %q: %v", r.Method, r.Path, r.Body, err)
	}
}

// NewStub starts a stub for the test's duration.
func NewStub(t testing.TB) *Stub {
	s := &Stub{t: t, mux: http.NewServeMux()}
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("stub: unexpected request %s %s", r.Method, r.URL)
		Problem(http.StatusNotImplemented, client.ProblemCodeNotImplemented, "not stubbed")(w, r)
	})
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

func (s *Stub) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Header: r.Header.Clone(), Body: body})
	s.mu.Unlock()
	r.Body = io.NopCloser(strings.NewReader(string(body)))
	s.mux.ServeHTTP(w, r)
}

// Handle answers requests matching pattern ("GET /v1/team/list") with h.
func (s *Stub) Handle(pattern string, h http.HandlerFunc) { s.mux.HandleFunc(pattern, h) }

// Requests returns what the stub received, in order.
func (s *Stub) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Last returns the last request received; the test fails when there was none.
func (s *Stub) Last() Request {
	s.t.Helper()
	reqs := s.Requests()
	if len(reqs) == 0 {
		s.t.Fatal("stub: no request received")
	}
	return reqs[len(reqs)-1]
}

// Data answers the envelope {status, data}.
func Data(status int, data any) http.HandlerFunc { return Envelope(status, data, nil) }

// Page answers a list that fits on one page: the envelope {status, data, meta}.
func Page[T any](items []T) http.HandlerFunc {
	n := len(items)
	meta := client.PageMeta{Page: 1, TotalSize: n, End: n, TotalPages: min(n, 1)}
	if n > 0 {
		meta.Start = 1
	}
	return Envelope(http.StatusOK, items, &meta)
}

// Envelope answers {status, data, meta}; meta is left out when nil.
func Envelope(status int, data any, meta *client.PageMeta) http.HandlerFunc {
	env := map[string]any{"status": status, "data": data}
	if meta != nil {
		env["meta"] = meta
	}
	return writeJSON("application/json", status, env)
}

// Problem answers an RFC 9457 problem document.
func Problem(status int, code client.ProblemCode, detail string, fields ...client.FieldError) http.HandlerFunc {
	p := client.Problem{Type: "/problems/" + string(code), Title: http.StatusText(status), Status: status, Code: code, Detail: &detail}
	if len(fields) > 0 {
		p.Errors = &fields
	}
	return writeJSON("application/problem+json", status, p)
}

func writeJSON(contentType string, status int, v any) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(v)
	}
}
