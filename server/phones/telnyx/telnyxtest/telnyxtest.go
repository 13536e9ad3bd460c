// Package telnyxtest is a fake Telnyx API v2 for tests: the endpoints Betty calls (number
// search, number orders, phone numbers, verified numbers), answering in Telnyx's documented
// shapes ({"data": …, "meta": …}, errors as {"errors": [{"code", "title", "detail",
// "source"}]}), with an inventory, an account and verification codes kept in memory. Fail and
// Stall make the next matching request answer an error or take its time.
package telnyxtest

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Available is a number the fake has on sale.
type Available struct {
	PhoneNumber string
	Country     string // ISO code
	Type        string // local, toll_free
	AreaCode    string // national destination code
	RateCenter  string
	State       string
	Monthly     string // Telnyx's decimal strings, "1.00000"
	Upfront     string
	BestEffort  bool
}

// ErrorObject is one entry of an error body.
type ErrorObject struct {
	Code   string            `json:"code"`
	Title  string            `json:"title"`
	Detail string            `json:"detail,omitempty"`
	Source map[string]string `json:"source,omitempty"`
}

// Request is a request the fake received.
type Request struct {
	Method, Path string
	Query        url.Values
	Body         map[string]any
}

type owned struct {
	ID, PhoneNumber, ConnectionID string
}

type verification struct {
	Method, Code string
	VerifiedAt   *time.Time
}

type trap struct {
	method, path string
	status       int
	errors       []ErrorObject
	stall        time.Duration
	late         time.Duration
}

// Server is a running fake.
type Server struct {
	srv    *httptest.Server
	apiKey string
	calls  *callSim

	mu        sync.Mutex
	available []Available
	owned     map[string]owned // by id
	nextID    int
	verified  map[string]*verification
	requests  []Request
	traps     []trap
	// PendingOrders makes number orders answer pending instead of success.
	pendingOrders bool
}

// Start runs a fake that accepts apiKey, until the test ends. Its calls go as cfg says
// (EnableCalls); with none, every call is answered and no webhook is sent.
func Start(t testing.TB, apiKey string) *Server {
	t.Helper()
	s := New(apiKey)
	s.srv = httptest.NewServer(s)
	s.calls.baseURL = s.srv.URL
	t.Cleanup(func() { s.srv.Close(); s.Close() })
	return s
}

// New is a fake that accepts apiKey, not listening yet: serve it (it is an http.Handler) and
// tell it its own URL with SetURL (cmd/faketelnyx runs it as a process this way).
func New(apiKey string) *Server {
	s := &Server{apiKey: apiKey, owned: map[string]owned{}, verified: map[string]*verification{}, nextID: 1293384261075731400}
	s.calls = newCallSim(CallsConfig{Answer: 1})
	return s
}

// SetURL tells the fake where it is served (recording URLs point there).
func (s *Server) SetURL(u string) { s.calls.baseURL = strings.TrimRight(u, "/") }

// Close stops delivering webhooks.
func (s *Server) Close() { s.calls.close() }

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.serve(w, r) }

// URL is the fake's base URL, as --telnyx-api-url.
func (s *Server) URL() string { return s.srv.URL }

// AddAvailable puts numbers on sale.
func (s *Server) AddAvailable(ns ...Available) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.available = append(s.available, ns...)
}

// PendingOrders makes number orders answer status pending (Telnyx still provisioning).
func (s *Server) PendingOrders(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pendingOrders = on
}

// Fail makes the next request to method and path (a prefix) answer status with errs.
func (s *Server) Fail(method, path string, status int, errs ...ErrorObject) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.traps = append(s.traps, trap{method: method, path: path, status: status, errors: errs})
}

// Stall makes the next request to method and path (a prefix) wait d before it is answered.
func (s *Server) Stall(method, path string, d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.traps = append(s.traps, trap{method: method, path: path, stall: d})
}

// AnswerLate makes the next request to method and path (a prefix) be carried out at once but
// answered only after d: a client that gives up sooner never learns what was done.
func (s *Server) AnswerLate(method, path string, d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.traps = append(s.traps, trap{method: method, path: path, late: d})
}

// Code is the verification code last sent to a number ("" when none).
func (s *Server) Code(e164 string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if v := s.verified[e164]; v != nil {
		return v.Code
	}
	return ""
}

// Verified says whether a number is verified on the account.
func (s *Server) Verified(e164 string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := s.verified[e164]
	return v != nil && v.VerifiedAt != nil
}

// Owned lists the numbers on the account.
func (s *Server) Owned() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []string{}
	for _, o := range s.owned {
		out = append(out, o.PhoneNumber)
	}
	return out
}

// Requests lists what the fake received, oldest first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/_fake/") {
		s.calls.serveFake(w, r)
		return
	}
	req := Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query()}
	if r.Body != nil {
		_ = json.NewDecoder(r.Body).Decode(&req.Body)
	}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	var caught *trap
	for i, t := range s.traps {
		if t.method == r.Method && strings.HasPrefix(r.URL.Path, t.path) {
			caught = &t
			s.traps = append(s.traps[:i], s.traps[i+1:]...)
			break
		}
	}
	s.mu.Unlock()
	if caught != nil && caught.late > 0 {
		rec := httptest.NewRecorder()
		s.handle(rec, r, req)
		select {
		case <-time.After(caught.late):
		case <-r.Context().Done():
			return
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
		return
	}
	if caught != nil && caught.stall > 0 {
		select {
		case <-time.After(caught.stall):
		case <-r.Context().Done():
			return
		}
	} else if caught != nil {
		writeErrors(w, caught.status, caught.errors...)
		return
	}
	s.handle(w, r, req)
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request, req Request) {
	if r.Header.Get("Authorization") != "Bearer "+s.apiKey {
		writeErrors(w, http.StatusUnauthorized, ErrorObject{Code: "10009", Title: "Authentication failed",
			Detail: "The API key looks malformed. Check that you copied it correctly."})
		return
	}
	path := r.URL.Path
	if path == "/calls" || strings.HasPrefix(path, "/calls/") {
		s.calls.serve(w, r.Method, path, req.Body)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case r.Method == http.MethodGet && path == "/available_phone_numbers":
		s.search(w, req.Query)
	case r.Method == http.MethodPost && path == "/number_orders":
		s.order(w, req.Body)
	case r.Method == http.MethodGet && path == "/phone_numbers":
		s.listOwned(w, req.Query)
	case r.Method == http.MethodDelete && strings.HasPrefix(path, "/phone_numbers/"):
		s.release(w, strings.TrimPrefix(path, "/phone_numbers/"))
	case r.Method == http.MethodPost && path == "/verified_numbers":
		s.requestVerification(w, req.Body)
	case r.Method == http.MethodPost && strings.HasPrefix(path, "/verified_numbers/") && strings.HasSuffix(path, "/actions/verify"):
		s.submitCode(w, strings.TrimSuffix(strings.TrimPrefix(path, "/verified_numbers/"), "/actions/verify"), req.Body)
	case (r.Method == http.MethodGet || r.Method == http.MethodDelete) && strings.HasPrefix(path, "/verified_numbers/"):
		s.verifiedNumber(w, r.Method, strings.TrimPrefix(path, "/verified_numbers/"))
	default:
		notFound(w, "The requested resource or URL could not be found.")
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeErrors(w http.ResponseWriter, status int, errs ...ErrorObject) {
	if errs == nil {
		errs = []ErrorObject{}
	}
	writeJSON(w, status, map[string]any{"errors": errs})
}

func notFound(w http.ResponseWriter, detail string) {
	writeErrors(w, http.StatusNotFound, ErrorObject{Code: "10005", Title: "Resource not found", Detail: detail})
}

func invalid(w http.ResponseWriter, pointer, detail string) {
	writeErrors(w, http.StatusUnprocessableEntity, ErrorObject{Code: "10015", Title: "Invalid value", Detail: detail,
		Source: map[string]string{"pointer": pointer}})
}

func (s *Server) search(w http.ResponseWriter, q url.Values) {
	country := q.Get("filter[country_code]")
	if country == "" {
		writeErrors(w, http.StatusBadRequest, ErrorObject{Code: "10015", Title: "Bad Request",
			Detail: "filter[country_code] is required.", Source: map[string]string{"parameter": "filter[country_code]"}})
		return
	}
	limit, err := strconv.Atoi(q.Get("filter[limit]"))
	if err != nil || limit <= 0 {
		limit = 100
	}
	data := []map[string]any{}
	bestEffort := 0
	for _, a := range s.available {
		if a.Country != country || (q.Get("filter[phone_number_type]") != "" && a.Type != q.Get("filter[phone_number_type]")) ||
			(q.Get("filter[national_destination_code]") != "" && a.AreaCode != q.Get("filter[national_destination_code]") && !a.BestEffort) {
			continue
		}
		if len(data) == limit {
			break
		}
		if a.BestEffort {
			bestEffort++
		}
		regions := []map[string]string{{"region_type": "country_code", "region_name": a.Country}}
		if a.State != "" {
			regions = append(regions, map[string]string{"region_type": "state", "region_name": a.State})
		}
		if a.RateCenter != "" {
			regions = append(regions, map[string]string{"region_type": "rate_center", "region_name": a.RateCenter})
		}
		data = append(data, map[string]any{
			"record_type":        "available_phone_number",
			"phone_number":       a.PhoneNumber,
			"vanity_format":      nil,
			"best_effort":        a.BestEffort,
			"quickship":          true,
			"reservable":         false,
			"region_information": regions,
			"cost_information":   map[string]string{"monthly_cost": a.Monthly, "upfront_cost": a.Upfront, "currency": "USD"},
			"features":           []map[string]string{{"name": "voice"}, {"name": "sms"}},
		})
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": data,
		"meta": map[string]int{"total_results": len(data), "best_effort_results": bestEffort}})
}

func (s *Server) order(w http.ResponseWriter, body map[string]any) {
	items, _ := body["phone_numbers"].([]any)
	if len(items) == 0 {
		invalid(w, "/phone_numbers", "At least one phone number is required.")
		return
	}
	connection, _ := body["connection_id"].(string)
	now := time.Now().UTC().Format(time.RFC3339Nano)
	var wanted []string
	for i, it := range items {
		m, _ := it.(map[string]any)
		n, _ := m["phone_number"].(string)
		if s.onSale(n) < 0 {
			invalid(w, fmt.Sprintf("/phone_numbers/%d/phone_number", i), n+" is not available for purchase.")
			return
		}
		wanted = append(wanted, n)
	}
	status := "success"
	if s.pendingOrders {
		status = "pending"
	}
	var numbers []map[string]any
	for _, n := range wanted {
		i := s.onSale(n)
		s.available = append(s.available[:i], s.available[i+1:]...)
		s.nextID++
		id := strconv.Itoa(s.nextID)
		s.owned[id] = owned{ID: id, PhoneNumber: n, ConnectionID: connection}
		numbers = append(numbers, map[string]any{"id": newUUID(), "record_type": "number_order_phone_number",
			"phone_number": n, "regulatory_requirements": []any{}, "requirements_met": true, "status": status})
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": map[string]any{
		"id": newUUID(), "record_type": "number_order", "phone_numbers_count": len(numbers), "connection_id": connection,
		"phone_numbers": numbers, "sub_number_orders_ids": []string{newUUID()}, "status": status,
		"customer_reference": nil, "created_at": now, "updated_at": now, "requirements_met": true,
	}})
}

// onSale is the index of a number in the inventory, -1 when it is not on sale.
func (s *Server) onSale(n string) int {
	for i, a := range s.available {
		if a.PhoneNumber == n {
			return i
		}
	}
	return -1
}

func (s *Server) listOwned(w http.ResponseWriter, q url.Values) {
	filter := q.Get("filter[phone_number]")
	data := []map[string]any{}
	for _, o := range s.owned {
		if filter != "" && (strings.ContainsFunc(filter, func(r rune) bool { return r < '0' || r > '9' }) ||
			!strings.Contains(o.PhoneNumber, filter)) {
			continue
		}
		data = append(data, map[string]any{"id": o.ID, "record_type": "phone_number", "phone_number": o.PhoneNumber,
			"status": "active", "connection_id": o.ConnectionID})
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": data,
		"meta": map[string]int{"page_number": 1, "page_size": 20, "total_pages": 1, "total_results": len(data)}})
}

func (s *Server) release(w http.ResponseWriter, id string) {
	o, ok := s.owned[id]
	if !ok {
		notFound(w, "Phone number "+id+" not found.")
		return
	}
	delete(s.owned, id)
	s.available = append(s.available, Available{PhoneNumber: o.PhoneNumber})
	writeJSON(w, http.StatusOK, map[string]any{"data": map[string]any{"id": o.ID, "record_type": "phone_number",
		"phone_number": o.PhoneNumber, "status": "deleted", "connection_id": o.ConnectionID}})
}

func (s *Server) requestVerification(w http.ResponseWriter, body map[string]any) {
	n, _ := body["phone_number"].(string)
	method, _ := body["verification_method"].(string)
	if !strings.HasPrefix(n, "+") || len(n) < 8 {
		invalid(w, "/phone_number", "The phone number must be in +E.164 format.")
		return
	}
	if method != "sms" && method != "call" {
		invalid(w, "/verification_method", "verification_method must be sms or call.")
		return
	}
	c, _ := rand.Int(rand.Reader, big.NewInt(1_000_000))
	s.verified[n] = &verification{Method: method, Code: fmt.Sprintf("%06d", c.Int64())}
	writeJSON(w, http.StatusOK, map[string]string{"phone_number": n, "verification_method": method})
}

func (s *Server) submitCode(w http.ResponseWriter, rawNumber string, body map[string]any) {
	n, _ := url.PathUnescape(rawNumber)
	v := s.verified[n]
	if v == nil || v.VerifiedAt != nil {
		notFound(w, "No verification is pending for "+n+".")
		return
	}
	if code, _ := body["verification_code"].(string); code != v.Code {
		writeErrors(w, http.StatusBadRequest, ErrorObject{Code: "10015", Title: "Invalid verification code",
			Detail: "The verification code is incorrect.", Source: map[string]string{"pointer": "/verification_code"}})
		return
	}
	at := time.Now().UTC()
	v.VerifiedAt = &at
	writeJSON(w, http.StatusOK, map[string]any{"data": map[string]string{"phone_number": n, "record_type": "verified_number",
		"verified_at": at.Format(time.RFC3339Nano)}})
}

func (s *Server) verifiedNumber(w http.ResponseWriter, method, rawNumber string) {
	n, _ := url.PathUnescape(rawNumber)
	v := s.verified[n]
	if v == nil || v.VerifiedAt == nil {
		notFound(w, n+" is not a verified number of this account.")
		return
	}
	if method == http.MethodDelete {
		delete(s.verified, n)
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": map[string]string{"phone_number": n, "record_type": "verified_number",
		"verified_at": v.VerifiedAt.Format(time.RFC3339Nano)}})
}

func newUUID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
