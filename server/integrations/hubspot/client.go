// Package hubspot is Betty's HubSpot integration (issue 13): the adapter speaking HubSpot's
// documented wire format (OAuth v1 token endpoints, CRM v3 contacts and the lifecycle-stage
// property), the OAuth round trip of a connected app, the contacts of Contacts nodes whose
// source is HubSpot, the lifecycle-stage write-back after a call, and HubSpot's v3-signed
// webhooks. hubspottest is a fake HubSpot speaking the same format, for tests and e2e.
package hubspot

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

	"github.com/bettyhq/betty/server/integrations"
)

// Scopes are what Betty asks a portal for: read and write contacts, read contact schemas
// (lifecycle stages), read lists (a Contacts node may call a HubSpot list), and oauth
// (required of every HubSpot app).
var Scopes = []string{"crm.objects.contacts.read", "crm.objects.contacts.write", "crm.schemas.contacts.read", "crm.lists.read", "oauth"}

// ContactProperties are the contact properties Betty reads.
var ContactProperties = []string{"firstname", "lastname", "email", "phone", "mobilephone", "lifecyclestage"}

// PageSize is how many contacts one HubSpot fetch answers (CRM v3's most).
const PageSize = 100

// Config is a HubSpot app's credentials and HubSpot's addresses.
type Config struct {
	ClientID, ClientSecret string
	// APIURL is HubSpot's API (default https://api.hubapi.com); AuthURL its authorisation
	// page (default https://app.hubspot.com/oauth/authorize). Tests point both at a fake.
	APIURL, AuthURL string
	// HTTP sends the requests (default: a client with a 15 s timeout).
	HTTP *http.Client
}

// Client speaks to HubSpot.
type Client struct {
	cfg Config
	now func() time.Time
}

// NewClient builds the client.
func NewClient(cfg Config) *Client {
	if cfg.APIURL == "" {
		cfg.APIURL = "https://api.hubapi.com"
	}
	if cfg.AuthURL == "" {
		cfg.AuthURL = "https://app.hubspot.com/oauth/authorize"
	}
	cfg.APIURL = strings.TrimRight(cfg.APIURL, "/")
	if cfg.HTTP == nil {
		cfg.HTTP = &http.Client{Timeout: 15 * time.Second}
	}
	return &Client{cfg: cfg, now: time.Now}
}

// Configured says the HubSpot app's credentials are set.
func (c *Client) Configured() bool {
	return c != nil && c.cfg.ClientID != "" && c.cfg.ClientSecret != ""
}

// MissingSettings are the serve flags an operator still has to set for teams to connect
// HubSpot (none when Configured).
func (c *Client) MissingSettings() []string {
	var cfg Config
	if c != nil {
		cfg = c.cfg
	}
	return integrations.Missing(map[string]string{"--hubspot-client-id": cfg.ClientID, "--hubspot-client-secret": cfg.ClientSecret})
}

// APIError is an error answer of HubSpot: {status, message, correlationId, category}, or for
// the OAuth endpoints {status, message, error, error_description}.
type APIError struct {
	HTTPStatus    int           `json:"-"`
	Status        string        `json:"status"`
	Message       string        `json:"message"`
	CorrelationID string        `json:"correlationId"`
	Category      string        `json:"category"`
	OAuthError    string        `json:"error"`
	RetryAfter    time.Duration `json:"-"`
}

func (e *APIError) Error() string {
	return fmt.Sprintf("hubspot: %d %s %s: %s", e.HTTPStatus, e.Status, e.Category, e.Message)
}

// Temporary says trying again later may work: HubSpot's rate limit or its own failure.
func (e *APIError) Temporary() bool {
	return e.HTTPStatus == http.StatusTooManyRequests || e.HTTPStatus >= 500
}

// ErrUnreachable wraps a HubSpot that could not be reached, timed out or failed (5xx, 429).
var ErrUnreachable = errors.New("hubspot: HubSpot is unreachable")

// ErrUnauthorized is an access token HubSpot refuses (revoked, expired).
var ErrUnauthorized = errors.New("hubspot: HubSpot refused the access token")

// AuthorizeURL is the portal's authorisation page for Betty's app.
func (c *Client) AuthorizeURL(redirectURI, state string) string {
	q := url.Values{"client_id": {c.cfg.ClientID}, "redirect_uri": {redirectURI}, "scope": {strings.Join(Scopes, " ")}, "state": {state}}
	sep := "?"
	if strings.Contains(c.cfg.AuthURL, "?") {
		sep = "&"
	}
	return c.cfg.AuthURL + sep + q.Encode()
}

type tokenAnswer struct {
	TokenType    string `json:"token_type"`
	AccessToken  string `json:"access_token"`
	RefreshToken string `json:"refresh_token"`
	ExpiresIn    int64  `json:"expires_in"`
}

// Exchange trades an authorisation code for tokens.
func (c *Client) Exchange(ctx context.Context, code, redirectURI string) (integrations.Tokens, error) {
	return c.token(ctx, url.Values{"grant_type": {"authorization_code"}, "client_id": {c.cfg.ClientID},
		"client_secret": {c.cfg.ClientSecret}, "redirect_uri": {redirectURI}, "code": {code}})
}

// Refresh trades a refresh token for a new access token; a refresh token HubSpot refuses
// (invalid_grant: revoked, the app uninstalled) is integrations.ErrRefreshRefused.
func (c *Client) Refresh(ctx context.Context, refreshToken string) (integrations.Tokens, error) {
	t, err := c.token(ctx, url.Values{"grant_type": {"refresh_token"}, "client_id": {c.cfg.ClientID},
		"client_secret": {c.cfg.ClientSecret}, "refresh_token": {refreshToken}})
	var ae *APIError
	if errors.As(err, &ae) && (ae.OAuthError == "invalid_grant" || ae.Status == "BAD_REFRESH_TOKEN") {
		return t, fmt.Errorf("%w: %v", integrations.ErrRefreshRefused, err)
	}
	return t, err
}

func (c *Client) token(ctx context.Context, form url.Values) (integrations.Tokens, error) {
	var a tokenAnswer
	if err := c.do(ctx, http.MethodPost, "/oauth/v1/token", "", "application/x-www-form-urlencoded",
		strings.NewReader(form.Encode()), &a); err != nil {
		return integrations.Tokens{}, err
	}
	if a.AccessToken == "" {
		return integrations.Tokens{}, errors.New("hubspot: the token answer has no access_token")
	}
	t := integrations.Tokens{AccessToken: a.AccessToken, RefreshToken: a.RefreshToken, Scopes: Scopes}
	if a.ExpiresIn > 0 {
		t.ExpiresAt = c.now().Add(time.Duration(a.ExpiresIn) * time.Second).UTC()
	}
	return t, nil
}

// Revoke deletes the refresh token at HubSpot (the access token lapses on its own).
func (c *Client) Revoke(ctx context.Context, t integrations.Tokens) error {
	if t.RefreshToken == "" {
		return nil
	}
	err := c.do(ctx, http.MethodDelete, "/oauth/v1/refresh-tokens/"+url.PathEscape(t.RefreshToken), "", "", nil, nil)
	var ae *APIError
	if errors.As(err, &ae) && ae.HTTPStatus == http.StatusNotFound || errors.As(err, &ae) && ae.HTTPStatus == http.StatusBadRequest {
		return nil // already gone
	}
	return err
}

// Portal is the HubSpot account an access token belongs to.
type Portal struct {
	HubID     int64  `json:"hub_id"`
	HubDomain string `json:"hub_domain"`
	User      string `json:"user"`
}

// Portal reads the portal of an access token.
func (c *Client) Portal(ctx context.Context, accessToken string) (Portal, error) {
	var p Portal
	err := c.do(ctx, http.MethodGet, "/oauth/v1/access-tokens/"+url.PathEscape(accessToken), "", "", nil, &p)
	if err == nil && p.HubID == 0 {
		err = errors.New("hubspot: the access-token answer has no hub_id")
	}
	return p, err
}

// Contact is a CRM v3 contact object.
type Contact struct {
	ID         string            `json:"id"`
	Properties map[string]string `json:"properties"`
	CreatedAt  time.Time         `json:"createdAt"`
	UpdatedAt  time.Time         `json:"updatedAt"`
	Archived   bool              `json:"archived"`
}

// Page is a page of contacts: After is the cursor of the next page ("" at the end); Total
// is the count of all matches (searches only).
type Page struct {
	Contacts []Contact
	After    string
	Total    int
}

type pageAnswer struct {
	Total   int       `json:"total"`
	Results []Contact `json:"results"`
	Paging  *struct {
		Next *struct {
			After string `json:"after"`
		} `json:"next"`
	} `json:"paging"`
}

func (a pageAnswer) page() Page {
	p := Page{Contacts: a.Results, Total: a.Total}
	if a.Paging != nil && a.Paging.Next != nil {
		p.After = a.Paging.Next.After
	}
	if p.Contacts == nil {
		p.Contacts = []Contact{}
	}
	return p
}

// SearchContacts searches the portal's contacts for query (HubSpot's default searchable
// properties: names, e-mail, phone numbers, company), 100 a page from after.
func (c *Client) SearchContacts(ctx context.Context, accessToken, query, after string) (Page, error) {
	body := map[string]any{"filterGroups": []any{}, "properties": ContactProperties, "limit": PageSize,
		"sorts": []map[string]string{{"propertyName": "createdate", "direction": "ASCENDING"}}}
	if query != "" {
		body["query"] = query
	}
	if after != "" {
		body["after"] = after
	}
	b, _ := json.Marshal(body)
	var a pageAnswer
	err := c.do(ctx, http.MethodPost, "/crm/v3/objects/contacts/search", accessToken, "application/json", bytes.NewReader(b), &a)
	return a.page(), err
}

// ListContacts lists the portal's contacts, 100 a page from after.
func (c *Client) ListContacts(ctx context.Context, accessToken, after string) (Page, error) {
	q := url.Values{"limit": {strconv.Itoa(PageSize)}, "properties": {strings.Join(ContactProperties, ",")}, "archived": {"false"}}
	if after != "" {
		q.Set("after", after)
	}
	var a pageAnswer
	err := c.do(ctx, http.MethodGet, "/crm/v3/objects/contacts?"+q.Encode(), accessToken, "", nil, &a)
	return a.page(), err
}

// GetContact reads one contact (ErrNotFound-like APIError 404 when deleted).
func (c *Client) GetContact(ctx context.Context, accessToken, id string) (Contact, error) {
	q := url.Values{"properties": {strings.Join(ContactProperties, ",")}}
	var out Contact
	err := c.do(ctx, http.MethodGet, "/crm/v3/objects/contacts/"+url.PathEscape(id)+"?"+q.Encode(), accessToken, "", nil, &out)
	return out, err
}

// SetLifecycleStage writes a contact's lifecycle stage (its internal value).
func (c *Client) SetLifecycleStage(ctx context.Context, accessToken, contactID, stage string) error {
	b, _ := json.Marshal(map[string]any{"properties": map[string]string{"lifecyclestage": stage}})
	return c.do(ctx, http.MethodPatch, "/crm/v3/objects/contacts/"+url.PathEscape(contactID), accessToken, "application/json", bytes.NewReader(b), nil)
}

// Stage is an option of the lifecyclestage contact property.
type Stage struct {
	Label        string `json:"label"`
	Value        string `json:"value"`
	DisplayOrder int    `json:"displayOrder"`
	Hidden       bool   `json:"hidden"`
}

// LifecycleStages answers the portal's contact lifecycle stages (the lifecyclestage
// property's options, hidden ones left out), in display order.
func (c *Client) LifecycleStages(ctx context.Context, accessToken string) ([]Stage, error) {
	var a struct {
		Options []Stage `json:"options"`
	}
	if err := c.do(ctx, http.MethodGet, "/crm/v3/properties/contacts/lifecyclestage", accessToken, "", nil, &a); err != nil {
		return nil, err
	}
	out := make([]Stage, 0, len(a.Options))
	for _, o := range a.Options {
		if !o.Hidden && o.Value != "" {
			out = append(out, o)
		}
	}
	sortStages(out)
	return out, nil
}

func sortStages(s []Stage) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].DisplayOrder < s[j-1].DisplayOrder; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// do sends one request and decodes the answer into out (when not nil). Transport failures,
// 5xx and 429 wrap ErrUnreachable; 401 wraps ErrUnauthorized; other 4xx are *APIError.
func (c *Client) do(ctx context.Context, method, path, token, contentType string, body io.Reader, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, c.cfg.APIURL+path, body)
	if err != nil {
		return err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.cfg.HTTP.Do(req)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrUnreachable, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return fmt.Errorf("%w: reading the answer: %v", ErrUnreachable, err)
	}
	if resp.StatusCode >= 300 {
		ae := &APIError{HTTPStatus: resp.StatusCode}
		_ = json.Unmarshal(raw, ae)
		if ae.Message == "" {
			ae.Message = strings.TrimSpace(string(raw[:min(len(raw), 200)]))
		}
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
			ae.RetryAfter = time.Duration(s) * time.Second
		}
		switch {
		case ae.Temporary():
			return fmt.Errorf("%w: %w", ErrUnreachable, ae)
		case resp.StatusCode == http.StatusUnauthorized:
			return fmt.Errorf("%w: %w", ErrUnauthorized, ae)
		}
		return ae
	}
	if out == nil || len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("%w: the answer is not JSON: %v", ErrUnreachable, err)
	}
	return nil
}

// ReadContacts reads contacts by id (CRM v3 batch read, at most 100); deleted ones are absent.
func (c *Client) ReadContacts(ctx context.Context, accessToken string, ids []string) ([]Contact, error) {
	inputs := make([]map[string]string, 0, len(ids))
	for _, id := range ids {
		inputs = append(inputs, map[string]string{"id": id})
	}
	b, _ := json.Marshal(map[string]any{"inputs": inputs, "properties": ContactProperties})
	var a pageAnswer
	err := c.do(ctx, http.MethodPost, "/crm/v3/objects/contacts/batch/read", accessToken, "application/json", bytes.NewReader(b), &a)
	return a.page().Contacts, err
}

// CountContacts answers how many contacts the portal has (a search's total).
func (c *Client) CountContacts(ctx context.Context, accessToken string) (int, error) {
	b, _ := json.Marshal(map[string]any{"filterGroups": []any{}, "properties": []string{"hs_object_id"}, "limit": 1})
	var a pageAnswer
	err := c.do(ctx, http.MethodPost, "/crm/v3/objects/contacts/search", accessToken, "application/json", bytes.NewReader(b), &a)
	return a.Total, err
}

// ContactObjectType is HubSpot's object type id of contacts (a list of contacts has it).
const ContactObjectType = "0-1"

// List is a HubSpot list (CRM v3 lists).
type List struct {
	ID           string `json:"listId"`
	Name         string `json:"name"`
	ObjectTypeID string `json:"objectTypeId"`
	// ProcessingType is MANUAL, SNAPSHOT or DYNAMIC (active lists).
	ProcessingType string `json:"processingType"`
}

// GetList reads a list (an APIError 404 when the portal has none with that id; 403 when the
// connection was granted before Betty asked for crm.lists.read).
func (c *Client) GetList(ctx context.Context, accessToken, id string) (List, error) {
	var a struct {
		List List `json:"list"`
	}
	err := c.do(ctx, http.MethodGet, "/crm/v3/lists/"+url.PathEscape(id), accessToken, "", nil, &a)
	return a.List, err
}

// MembersPage is how many memberships one fetch answers (the lists API's most).
const MembersPage = 250

// ListMembers answers one page of a list's members (record ids, ascending) from after, and
// the cursor of the next page ("" after the last).
func (c *Client) ListMembers(ctx context.Context, accessToken, id, after string) ([]string, string, error) {
	q := url.Values{"limit": {strconv.Itoa(MembersPage)}}
	if after != "" {
		q.Set("after", after)
	}
	var a struct {
		Results []struct {
			RecordID string `json:"recordId"`
		} `json:"results"`
		Paging *struct {
			Next *struct {
				After string `json:"after"`
			} `json:"next"`
		} `json:"paging"`
	}
	if err := c.do(ctx, http.MethodGet, "/crm/v3/lists/"+url.PathEscape(id)+"/memberships?"+q.Encode(), accessToken, "", nil, &a); err != nil {
		return nil, "", err
	}
	ids := make([]string, 0, len(a.Results))
	for _, r := range a.Results {
		ids = append(ids, r.RecordID)
	}
	next := ""
	if a.Paging != nil && a.Paging.Next != nil {
		next = a.Paging.Next.After
	}
	return ids, next, nil
}
