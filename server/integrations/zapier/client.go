// Package zapier is Betty's side of Zapier (issue 13): the adapter for Zapier's partner API
// (Zap templates, the team's zaps, the OAuth client that authorises it; Client), and the REST
// hooks a team's zaps subscribe with its API key (Hooks: subscriptions, the events delivered
// to them as River jobs, samples). The contacts action lives with the contacts it adds, in
// server/workflows (zapier.go).
//
// Wire formats (Zapier's documented partner API, which zapiertest fakes):
//   - GET {api}/v2/zap-templates?client_id=…&limit=…&offset=… answers {data: [template],
//     meta, links} (a bare array, v1's shape, is read too); a template has id, title,
//     description_plain, url and steps (apps: title, image / images.url_64x64).
//   - GET {api}/v2/zaps?limit=…&offset=…&expand=steps.action with the user's bearer token
//     answers {data: [zap], meta: {count, limit, offset}, links}; a zap has id, title,
//     is_enabled (state "draft" when Zapier says so), updated_at, links.html_editor and steps
//     whose action (expanded) names its app.
//   - POST {token url} (form: grant_type authorization_code with code and redirect_uri, or
//     refresh_token; client id and secret as HTTP basic auth) answers {access_token,
//     refresh_token, expires_in, scope, token_type}; a refused grant is 400
//     {error: "invalid_grant"}.
//   - Errors of the API are {errors: [{status, code, title, detail}]}.
package zapier

import (
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

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/integrations"
)

// Config configures the partner-API adapter.
type Config struct {
	// APIURL is Zapier's API (https://api.zapier.com); tests point it at zapiertest.
	APIURL string
	// TokenURL is Zapier's OAuth token endpoint (https://zapier.com/oauth/token/).
	TokenURL string
	// ClientID and ClientSecret are the OAuth client of the team's published Zapier app.
	ClientID, ClientSecret string
	// RedirectURI is the dashboard's callback page the code was sent to.
	RedirectURI string
	// HTTP sends the requests (default: a client with a 15 s timeout).
	HTTP *http.Client
}

// Client speaks to Zapier's partner API. It is the integrations.Provider of Zapier.
type Client struct{ cfg Config }

var _ integrations.Provider = (*Client)(nil)

// New returns the adapter; nil when the server has no Zapier OAuth client (Configured says).
func New(cfg Config) *Client {
	cfg.APIURL = strings.TrimRight(cfg.APIURL, "/")
	if cfg.HTTP == nil {
		cfg.HTTP = &http.Client{Timeout: 15 * time.Second}
	}
	return &Client{cfg: cfg}
}

// ErrNotConfigured is an operation that needs Zapier's OAuth client on a server without one.
var ErrNotConfigured = errs.New(errs.Unavailable,
	"Zapier is not configured on this server: set --zapier-client-id and --zapier-client-secret (BETTY_ZAPIER_CLIENT_ID, BETTY_ZAPIER_CLIENT_SECRET).")

// Configured says whether the server has Zapier's OAuth client.
func (c *Client) Configured() bool {
	return c != nil && c.cfg.ClientID != "" && c.cfg.ClientSecret != ""
}

// MissingSettings are the serve flags an operator still has to set for teams to connect
// Zapier (none when Configured); ErrNotConfigured names the same ones.
func (c *Client) MissingSettings() []string {
	var cfg Config
	if c != nil {
		cfg = c.cfg
	}
	return integrations.Missing(map[string]string{"--zapier-client-id": cfg.ClientID, "--zapier-client-secret": cfg.ClientSecret})
}

// unreachable is Zapier failing to answer (network, 5xx, 429).
func unreachable(err error) error {
	e := errs.Retry(errs.Unavailable, "Zapier is unreachable right now; try again in a minute.", time.Minute)
	e.Err = err
	return e
}

// Step is one app of a zap or template.
type Step struct {
	Title    string
	ImageURL *string
}

// Template is a Zap template that uses Betty's app.
type Template struct {
	ID, Title, Description, URL string
	Steps                       []Step
}

// Zap is a zap of the connected account.
type Zap struct {
	ID, Title, State, URL string
	Steps                 []Step
	ModifiedAt            *time.Time
}

type apiStep struct {
	Title  string `json:"title"`
	Image  string `json:"image"`
	Images struct {
		URL64 string `json:"url_64x64"`
	} `json:"images"`
	App    *apiStep        `json:"app"`
	Action json.RawMessage `json:"action"`
}

func (s apiStep) step() Step {
	if s.App != nil {
		return s.App.step()
	}
	if len(s.Action) > 0 && s.Action[0] == '{' {
		var a apiStep
		if json.Unmarshal(s.Action, &a) == nil && (a.App != nil || a.Title != "") {
			return a.step()
		}
	}
	st := Step{Title: s.Title}
	img := s.Images.URL64
	if img == "" {
		img = s.Image
	}
	if u, err := url.Parse(img); err == nil && img != "" && u.IsAbs() {
		st.ImageURL = &img
	}
	return st
}

func steps(in []apiStep) []Step {
	out := make([]Step, 0, len(in))
	for _, s := range in {
		out = append(out, s.step())
	}
	return out
}

// flexID reads an id Zapier sends as a number or a string.
type flexID string

func (f *flexID) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*f = flexID(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return err
	}
	*f = flexID(n.String())
	return nil
}

// Templates answers up to 50 Zap templates that use Betty's app.
func (c *Client) Templates(ctx context.Context) ([]Template, error) {
	if !c.Configured() {
		return nil, ErrNotConfigured
	}
	q := url.Values{"client_id": {c.cfg.ClientID}, "limit": {"50"}, "offset": {"0"}}
	raw, err := c.get(ctx, "/v2/zap-templates?"+q.Encode(), "")
	if err != nil {
		return nil, err
	}
	type tpl struct {
		ID          flexID    `json:"id"`
		Title       string    `json:"title"`
		Description string    `json:"description_plain"`
		URL         string    `json:"url"`
		Steps       []apiStep `json:"steps"`
	}
	var list []tpl
	if len(raw) > 0 && raw[0] == '[' {
		err = json.Unmarshal(raw, &list)
	} else {
		var env struct {
			Data []tpl `json:"data"`
		}
		err = json.Unmarshal(raw, &env)
		list = env.Data
	}
	if err != nil {
		return nil, unreachable(fmt.Errorf("zapier: templates answer: %w", err))
	}
	out := make([]Template, 0, len(list))
	for _, t := range list {
		if t.ID == "" || !absolute(t.URL) || len(out) == 50 {
			continue
		}
		out = append(out, Template{ID: string(t.ID), Title: t.Title, Description: t.Description, URL: t.URL, Steps: steps(t.Steps)})
	}
	return out, nil
}

// Zaps answers a page of the account's zaps (limit from offset) and how many there are.
func (c *Client) Zaps(ctx context.Context, accessToken string, limit, offset int) ([]Zap, int, error) {
	if !c.Configured() {
		return nil, 0, ErrNotConfigured
	}
	q := url.Values{"limit": {strconv.Itoa(limit)}, "offset": {strconv.Itoa(offset)}, "expand": {"steps.action"}}
	raw, err := c.get(ctx, "/v2/zaps?"+q.Encode(), accessToken)
	if err != nil {
		return nil, 0, err
	}
	var env struct {
		Data []struct {
			ID        flexID    `json:"id"`
			Title     string    `json:"title"`
			IsEnabled bool      `json:"is_enabled"`
			State     string    `json:"state"`
			UpdatedAt *string   `json:"updated_at"`
			Steps     []apiStep `json:"steps"`
			Links     struct {
				Editor string `json:"html_editor"`
			} `json:"links"`
		} `json:"data"`
		Meta struct {
			Count *int `json:"count"`
		} `json:"meta"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		return nil, 0, unreachable(fmt.Errorf("zapier: zaps answer: %w", err))
	}
	out := make([]Zap, 0, len(env.Data))
	for _, z := range env.Data {
		if z.ID == "" {
			continue
		}
		st := "off"
		switch {
		case z.State == "draft":
			st = "draft"
		case z.IsEnabled:
			st = "on"
		}
		link := z.Links.Editor
		if !absolute(link) {
			link = "https://zapier.com/editor/" + url.PathEscape(string(z.ID))
		}
		zp := Zap{ID: string(z.ID), Title: z.Title, State: st, URL: link, Steps: steps(z.Steps)}
		if z.UpdatedAt != nil {
			if t, err := time.Parse(time.RFC3339, *z.UpdatedAt); err == nil {
				zp.ModifiedAt = &t
			}
		}
		out = append(out, zp)
	}
	total := offset + len(out)
	if env.Meta.Count != nil {
		total = *env.Meta.Count
	}
	return out, total, nil
}

// Scopes are what Betty asks Zapier for: the zaps (to list them) and who the account is.
const Scopes = "zap zap:all profile"

// AuthorizeURL is Zapier's authorise page for Betty's OAuth client, carrying state.
func (c *Client) AuthorizeURL(state string) (string, error) {
	if !c.Configured() {
		return "", ErrNotConfigured
	}
	q := url.Values{"response_type": {"code"}, "client_id": {c.cfg.ClientID}, "scope": {Scopes}, "state": {state},
		"response_mode": {"query"}}
	if c.cfg.RedirectURI != "" {
		q.Set("redirect_uri", c.cfg.RedirectURI)
	}
	return c.cfg.APIURL + "/v2/authorize?" + q.Encode(), nil
}

// Exchange trades an authorisation code for a credential. A code Zapier refuses is 422.
func (c *Client) Exchange(ctx context.Context, code string) (integrations.Tokens, error) {
	if !c.Configured() {
		return integrations.Tokens{}, ErrNotConfigured
	}
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}}
	if c.cfg.RedirectURI != "" {
		form.Set("redirect_uri", c.cfg.RedirectURI)
	}
	t, err := c.token(ctx, form)
	if errors.Is(err, integrations.ErrRefreshRefused) {
		return t, &errs.Error{Kind: errs.Unprocessable, Message: "Zapier refused this authorisation code (invalid, used or expired): connect Zapier again.",
			Fields: []errs.Field{{Name: "body.code", Message: "invalid, used or expired"}}}
	}
	return t, err
}

// Refresh exchanges a refresh token (integrations.Provider); invalid_grant is
// integrations.ErrRefreshRefused.
func (c *Client) Refresh(ctx context.Context, refreshToken string) (integrations.Tokens, error) {
	if !c.Configured() {
		return integrations.Tokens{}, ErrNotConfigured
	}
	return c.token(ctx, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refreshToken}})
}

// Revoke asks Zapier to revoke the credential (best effort: integrations.Provider).
func (c *Client) Revoke(ctx context.Context, t integrations.Tokens) error {
	if !c.Configured() || t.AccessToken == "" {
		return nil
	}
	u := c.revokeURL()
	form := url.Values{"token": {t.AccessToken}, "token_type_hint": {"access_token"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(c.cfg.ClientID, c.cfg.ClientSecret)
	res, err := c.cfg.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	if res.StatusCode >= 300 {
		return fmt.Errorf("zapier: revoke answered %d", res.StatusCode)
	}
	return nil
}

// revokeURL is the token endpoint's sibling (Zapier's OAuth server: /oauth/revoke_token/).
func (c *Client) revokeURL() string {
	u := strings.TrimRight(c.cfg.TokenURL, "/")
	if i := strings.LastIndex(u, "/"); i >= 0 {
		return u[:i] + "/revoke_token/"
	}
	return u
}

// Profile is the Zapier account a credential belongs to.
type Profile struct{ ID, Email string }

// Me answers the account of a credential (GET /v2/profiles/me).
func (c *Client) Me(ctx context.Context, accessToken string) (Profile, error) {
	raw, err := c.get(ctx, "/v2/profiles/me", accessToken)
	if err != nil {
		return Profile{}, err
	}
	var p struct {
		ID    flexID `json:"id"`
		Email string `json:"email"`
		Data  *struct {
			ID    flexID `json:"id"`
			Email string `json:"email"`
		} `json:"data"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return Profile{}, unreachable(err)
	}
	if p.Data != nil {
		return Profile{ID: string(p.Data.ID), Email: p.Data.Email}, nil
	}
	return Profile{ID: string(p.ID), Email: p.Email}, nil
}

func (c *Client) token(ctx context.Context, form url.Values) (integrations.Tokens, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.cfg.TokenURL, strings.NewReader(form.Encode()))
	if err != nil {
		return integrations.Tokens{}, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.SetBasicAuth(c.cfg.ClientID, c.cfg.ClientSecret)
	res, err := c.cfg.HTTP.Do(req)
	if err != nil {
		return integrations.Tokens{}, unreachable(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return integrations.Tokens{}, unreachable(err)
	}
	if res.StatusCode >= 400 && res.StatusCode < 500 && res.StatusCode != http.StatusTooManyRequests {
		var e struct {
			Error       string `json:"error"`
			Description string `json:"error_description"`
		}
		_ = json.Unmarshal(body, &e)
		if e.Error == "invalid_grant" {
			return integrations.Tokens{}, fmt.Errorf("%w: %s", integrations.ErrRefreshRefused, e.Description)
		}
		return integrations.Tokens{}, errs.New(errs.Unprocessable,
			fmt.Sprintf("Zapier refused the request (%s): check --zapier-client-id and --zapier-client-secret.", orText(e.Error, res.Status)))
	}
	if res.StatusCode >= 300 {
		return integrations.Tokens{}, unreachable(fmt.Errorf("zapier: token endpoint answered %d", res.StatusCode))
	}
	var t struct {
		AccessToken  string `json:"access_token"`
		RefreshToken string `json:"refresh_token"`
		ExpiresIn    int64  `json:"expires_in"`
		Scope        string `json:"scope"`
	}
	if err := json.Unmarshal(body, &t); err != nil || t.AccessToken == "" {
		return integrations.Tokens{}, unreachable(fmt.Errorf("zapier: token answer without access_token"))
	}
	out := integrations.Tokens{AccessToken: t.AccessToken, RefreshToken: t.RefreshToken, Scopes: strings.Fields(t.Scope)}
	if t.ExpiresIn > 0 {
		out.ExpiresAt = time.Now().Add(time.Duration(t.ExpiresIn) * time.Second).UTC()
	}
	return out, nil
}

// errRejected is the API refusing a user's credential (401): the connection needs renewing.
var errRejected = errors.New("zapier: the credential was refused")

func (c *Client) get(ctx context.Context, path, bearer string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.cfg.APIURL+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	res, err := c.cfg.HTTP.Do(req)
	if err != nil {
		return nil, unreachable(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 4<<20))
	if err != nil {
		return nil, unreachable(err)
	}
	switch {
	case res.StatusCode == http.StatusUnauthorized && bearer != "":
		return nil, &errs.Error{Kind: errs.Unprocessable, Message: "Zapier refused the team's connection: reconnect Zapier.", Err: errRejected}
	case res.StatusCode >= 500 || res.StatusCode == http.StatusTooManyRequests:
		return nil, unreachable(fmt.Errorf("zapier: %s answered %d: %s", path, res.StatusCode, apiError(body)))
	case res.StatusCode >= 400:
		return nil, errs.UnprocessableErr(fmt.Sprintf("Zapier refused the request: %s", orText(apiError(body), res.Status)))
	}
	return body, nil
}

// apiError reads Zapier's {errors: [{detail, title}]}.
func apiError(body []byte) string {
	var e struct {
		Errors []struct {
			Title  string `json:"title"`
			Detail string `json:"detail"`
		} `json:"errors"`
	}
	if json.Unmarshal(body, &e) == nil && len(e.Errors) > 0 {
		return orText(e.Errors[0].Detail, e.Errors[0].Title)
	}
	return ""
}

func orText(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func absolute(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.IsAbs() && u.Host != ""
}
