// Package telnyx is Betty's carrier through Telnyx's REST API v2 (https://api.telnyx.com/v2),
// over net/http: the number search (GET /available_phone_numbers), number orders
// (POST /number_orders), releases (DELETE /phone_numbers/{id}) and verified numbers
// (POST /verified_numbers, POST /verified_numbers/{phone_number}/actions/verify, DELETE).
//
// Telnyx answers {"data": …, "meta": …}, and errors as {"errors": [{"code", "title", "detail",
// "source": {"pointer"}}]}. Every failure is answered as one of the phones package's errors
// (phones.ErrCarrierDown, ErrCarrierAuth, ErrRejected, ErrNotOnSale, ErrWrongCode,
// ErrNoVerification) wrapping an *Error with Telnyx's own words, which belong in the log and
// not in front of Betty's users.
package telnyx

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/bettyhq/betty/server/phones"
)

// DefaultTimeout bounds one call to Telnyx.
const DefaultTimeout = 15 * time.Second

// Config is the Telnyx account.
type Config struct {
	// APIKey authenticates every call (--telnyx-api-key).
	APIKey string
	// BaseURL is the API's base (--telnyx-api-url), https://api.telnyx.com/v2 by default.
	BaseURL string
	// ConnectionID is the Call Control application bought numbers are attached to
	// (--telnyx-connection-id).
	ConnectionID string
	// HTTPClient sends the calls; nil uses one with Timeout.
	HTTPClient *http.Client
	// Timeout bounds one call when HTTPClient is nil (DefaultTimeout when 0).
	Timeout time.Duration
}

// Client is the Telnyx carrier. It implements phones.Telephony.
type Client struct {
	cfg  Config
	base *url.URL
	http *http.Client
}

var _ phones.Telephony = (*Client)(nil)

// New returns a client of the account; a missing setting is an error naming it.
func New(cfg Config) (*Client, error) {
	if strings.TrimSpace(cfg.APIKey) == "" {
		return nil, errors.New("telnyx: --telnyx-api-key (BETTY_TELNYX_API_KEY) is required")
	}
	if strings.TrimSpace(cfg.ConnectionID) == "" {
		return nil, errors.New("telnyx: --telnyx-connection-id (BETTY_TELNYX_CONNECTION_ID) is required with --telnyx-api-key: " +
			"numbers bought are attached to that Call Control application")
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = "https://api.telnyx.com/v2"
	}
	base, err := url.Parse(strings.TrimRight(cfg.BaseURL, "/"))
	if err != nil || (base.Scheme != "https" && base.Scheme != "http") || base.Host == "" {
		return nil, fmt.Errorf("telnyx: --telnyx-api-url %q is not an http(s) URL", cfg.BaseURL)
	}
	hc := cfg.HTTPClient
	if hc == nil {
		if cfg.Timeout <= 0 {
			cfg.Timeout = DefaultTimeout
		}
		hc = &http.Client{Timeout: cfg.Timeout}
	}
	return &Client{cfg: cfg, base: base, http: hc}, nil
}

// Name is "telnyx".
func (c *Client) Name() string { return "telnyx" }

// FreeNumbers is false: Telnyx charges for numbers.
func (c *Client) FreeNumbers() bool { return false }

// usualPrices are indicative monthly prices in US dollars; a search answers the exact ones.
var usualPrices = map[phones.Country]map[phones.NumberType]float64{
	phones.US: {phones.Local: 1, phones.TollFree: 1},
	phones.CA: {phones.Local: 1, phones.TollFree: 1},
	phones.GB: {phones.Local: 1.5, phones.TollFree: 3},
}

// MonthlyPrice is the usual monthly price of a number type in a country.
func (c *Client) MonthlyPrice(country phones.Country, t phones.NumberType) float64 {
	return usualPrices[country][t]
}

// ---- the wire format ------------------------------------------------------------------------

// ErrorObject is one entry of Telnyx's error body.
type ErrorObject struct {
	Code   string `json:"code"`
	Title  string `json:"title"`
	Detail string `json:"detail"`
	Source struct {
		Pointer   string `json:"pointer,omitempty"`
		Parameter string `json:"parameter,omitempty"`
	} `json:"source"`
}

// Error is an answer of Telnyx that was not a success: its status and what it said.
type Error struct {
	Status int
	Errors []ErrorObject
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "telnyx answered %d", e.Status)
	for _, o := range e.Errors {
		fmt.Fprintf(&b, "; %s %s", o.Code, o.Title)
		if o.Detail != "" {
			b.WriteString(": " + o.Detail)
		}
		if o.Source.Pointer != "" {
			b.WriteString(" (at " + o.Source.Pointer + ")")
		}
	}
	return b.String()
}

// mentions says whether an error entry points at a field containing name.
func (e *Error) mentions(name string) bool {
	for _, o := range e.Errors {
		if strings.Contains(o.Source.Pointer, name) || strings.Contains(o.Source.Parameter, name) {
			return true
		}
	}
	return false
}

// call sends one request and decodes the answer's body into out (nil: ignored). A failure
// is one of phones' errors wrapping what went wrong; a 404 or a 4xx of the request itself
// wraps an *Error callers read with errors.As to tell cases apart.
func (c *Client) call(ctx context.Context, method, path string, query url.Values, body, out any) error {
	target := c.base.String() + path // path segments are escaped by the callers
	if query != nil {
		target += "?" + query.Encode()
	}
	var reader io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return err
		}
		reader = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, reader)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := c.http.Do(req)
	if err != nil {
		if ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return ctx.Err()
		}
		return fmt.Errorf("%w: %s %s: %w", phones.ErrCarrierDown, method, path, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, 4<<20))
	if err != nil {
		return fmt.Errorf("%w: %s %s: reading the answer: %w", phones.ErrCarrierDown, method, path, err)
	}
	if res.StatusCode >= 200 && res.StatusCode < 300 {
		if out == nil || len(bytes.TrimSpace(raw)) == 0 {
			return nil
		}
		if err := json.Unmarshal(raw, out); err != nil {
			return fmt.Errorf("%w: %s %s: an answer that is not Telnyx's JSON: %w", phones.ErrCarrierDown, method, path, err)
		}
		return nil
	}
	apiErr := &Error{Status: res.StatusCode}
	var doc struct {
		Errors []ErrorObject `json:"errors"`
	}
	if json.Unmarshal(raw, &doc) == nil {
		apiErr.Errors = doc.Errors
	}
	switch {
	case res.StatusCode == http.StatusUnauthorized || res.StatusCode == http.StatusForbidden:
		return fmt.Errorf("%w: %w", phones.ErrCarrierAuth, apiErr)
	case res.StatusCode == http.StatusTooManyRequests || res.StatusCode >= 500:
		return fmt.Errorf("%w: %w", phones.ErrCarrierDown, apiErr)
	}
	return fmt.Errorf("%w: %w", phones.ErrRejected, apiErr)
}

// status is the HTTP status of a refused call, 0 for other errors.
func status(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return e.Status
	}
	return 0
}

// rewrap replaces phones.ErrRejected in a refused call's error by a more precise sentinel.
func rewrap(err, sentinel error) error {
	var e *Error
	if errors.As(err, &e) {
		return fmt.Errorf("%w: %w", sentinel, e)
	}
	return err
}

// ---- numbers --------------------------------------------------------------------------------

type availableNumber struct {
	PhoneNumber     string `json:"phone_number"`
	BestEffort      bool   `json:"best_effort"`
	CostInformation struct {
		MonthlyCost string `json:"monthly_cost"`
		UpfrontCost string `json:"upfront_cost"`
		Currency    string `json:"currency"`
	} `json:"cost_information"`
	RegionInformation []struct {
		RegionType string `json:"region_type"`
		RegionName string `json:"region_name"`
	} `json:"region_information"`
}

// Search lists numbers on sale (GET /available_phone_numbers). Best-effort results (numbers
// near, not in, the area asked) are left out.
func (c *Client) Search(ctx context.Context, q phones.Query) ([]phones.Available, error) {
	v := url.Values{}
	v.Set("filter[country_code]", string(q.Country))
	v.Set("filter[phone_number_type]", string(q.Type))
	v.Set("filter[features]", "voice")
	v.Set("filter[limit]", strconv.Itoa(q.Limit))
	if q.AreaCode != "" {
		v.Set("filter[national_destination_code]", q.AreaCode)
	}
	var doc struct {
		Data []availableNumber `json:"data"`
	}
	if err := c.call(ctx, http.MethodGet, "/available_phone_numbers", v, nil, &doc); err != nil {
		return nil, err
	}
	out := []phones.Available{}
	for _, d := range doc.Data {
		if d.BestEffort {
			continue
		}
		p, ok := phones.Parse(d.PhoneNumber)
		if !ok {
			continue // not a number Betty can keep
		}
		a := phones.Available{E164: p.E164, Country: q.Country, Type: q.Type, AreaCode: p.AreaCode,
			MonthlyPrice: price(d.CostInformation.MonthlyCost), UpfrontPrice: price(d.CostInformation.UpfrontCost)}
		for _, r := range d.RegionInformation {
			switch r.RegionType {
			case "rate_center", "location":
				if a.Locality == "" {
					a.Locality = titleCase(r.RegionName)
				}
			case "state":
				a.Region = r.RegionName
			}
		}
		out = append(out, a)
	}
	return out, nil
}

// price reads Telnyx's decimal strings ("1.00000"); unreadable is 0.
func price(s string) float64 {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || f < 0 {
		return 0
	}
	return f
}

// titleCase turns Telnyx's upper-case rate centres ("CHICAGO ZONE 02") into "Chicago Zone 02".
func titleCase(s string) string {
	words := strings.Fields(strings.ToLower(s))
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, " ")
}

type numberOrder struct {
	ID           string `json:"id"`
	Status       string `json:"status"`
	PhoneNumbers []struct {
		ID          string `json:"id"`
		PhoneNumber string `json:"phone_number"`
		Status      string `json:"status"`
	} `json:"phone_numbers"`
}

// Order buys a number (POST /number_orders), attached to the configured Call Control
// application. Telnyx completes orders asynchronously: a number is active when the order
// says success.
func (c *Client) Order(ctx context.Context, e164 string) (phones.Order, error) {
	body := map[string]any{
		"phone_numbers": []map[string]string{{"phone_number": e164}},
		"connection_id": c.cfg.ConnectionID,
	}
	var doc struct {
		Data numberOrder `json:"data"`
	}
	err := c.call(ctx, http.MethodPost, "/number_orders", nil, body, &doc)
	if errors.Is(err, phones.ErrRejected) {
		// Refusing the number itself means it is gone; anything else is Betty's request.
		var e *Error
		if errors.As(err, &e) && (e.Status == http.StatusNotFound || e.mentions("phone_number")) {
			return phones.Order{}, rewrap(err, phones.ErrNotOnSale)
		}
	}
	if err != nil {
		return phones.Order{}, err
	}
	if doc.Data.ID == "" {
		return phones.Order{}, fmt.Errorf("%w: the number order answer has no id", phones.ErrCarrierDown)
	}
	return phones.Order{OrderID: doc.Data.ID, Active: doc.Data.Status == "success"}, nil
}

// Release deletes a number from the account (DELETE /phone_numbers/{id}), finding its id by
// the number first when Betty does not know it.
func (c *Client) Release(ctx context.Context, n phones.Bought) error {
	id := n.CarrierID
	if id == "" {
		v := url.Values{}
		v.Set("filter[phone_number]", strings.TrimPrefix(n.E164, "+"))
		var doc struct {
			Data []struct {
				ID          string `json:"id"`
				PhoneNumber string `json:"phone_number"`
			} `json:"data"`
		}
		if err := c.call(ctx, http.MethodGet, "/phone_numbers", v, nil, &doc); err != nil {
			return err
		}
		for _, d := range doc.Data {
			if d.PhoneNumber == n.E164 {
				id = d.ID
			}
		}
		if id == "" {
			return nil // not on the account any more
		}
	}
	err := c.call(ctx, http.MethodDelete, "/phone_numbers/"+url.PathEscape(id), nil, nil, nil)
	if status(err) == http.StatusNotFound {
		return nil
	}
	return err
}

// ---- verified numbers -----------------------------------------------------------------------

// SendVerificationCode asks Telnyx to call or text a code to a number (POST /verified_numbers).
func (c *Client) SendVerificationCode(ctx context.Context, e164 string, m phones.Method) error {
	return c.call(ctx, http.MethodPost, "/verified_numbers", nil,
		map[string]string{"phone_number": e164, "verification_method": string(m)}, nil)
}

// CheckVerificationCode submits the code typed back
// (POST /verified_numbers/{phone_number}/actions/verify).
func (c *Client) CheckVerificationCode(ctx context.Context, e164, code string) error {
	var doc struct {
		Data struct {
			PhoneNumber string `json:"phone_number"`
			VerifiedAt  string `json:"verified_at"`
		} `json:"data"`
	}
	err := c.call(ctx, http.MethodPost, "/verified_numbers/"+url.PathEscape(e164)+"/actions/verify", nil,
		map[string]string{"verification_code": code}, &doc)
	switch status(err) {
	case http.StatusNotFound:
		return rewrap(err, phones.ErrNoVerification)
	case http.StatusBadRequest, http.StatusUnprocessableEntity:
		return rewrap(err, phones.ErrWrongCode)
	}
	return err
}

// ForgetVerified removes a verified number from the account (DELETE /verified_numbers/{phone_number}).
func (c *Client) ForgetVerified(ctx context.Context, e164 string) error {
	err := c.call(ctx, http.MethodDelete, "/verified_numbers/"+url.PathEscape(e164), nil, nil, nil)
	if status(err) == http.StatusNotFound {
		return nil
	}
	return err
}
