package betty

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/bettyhq/betty/sdk/client"
)

// Client talks to one Betty server. It is safe for concurrent use; the tokens it holds are
// shared by every call made through it, including calls made through Raw and RawClient.
type Client struct {
	server     string
	userAgent  string
	maxRetries int
	httpClient *http.Client
	saver      func(access, refresh string)

	// sleep waits between retries; tests replace it to keep retries fast.
	sleep func(ctx context.Context, d time.Duration) error

	mu       sync.Mutex
	apiKey   string
	access   string
	refresh  string
	inflight *refreshFlight

	api *client.Client
	raw *client.ClientWithResponses
}

// Option configures a Client in New.
type Option func(*Client)

const (
	defaultMaxRetries = 3
	defaultUserAgent  = "betty-go-sdk"
)

// New returns a client for the server at the given base URL, such as "http://localhost:8080".
// A trailing slash is ignored. Without WithAPIKey, WithTokens or SignIn the client only
// reaches public operations.
func New(server string, opts ...Option) (*Client, error) {
	server = strings.TrimRight(strings.TrimSpace(server), "/")
	u, err := url.Parse(server)
	if err != nil {
		return nil, fmt.Errorf("betty: server %q: %w", server, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("betty: server %q: want an http:// or https:// URL with a host", server)
	}

	c := &Client{
		server:     server,
		userAgent:  defaultUserAgent,
		maxRetries: defaultMaxRetries,
		sleep:      sleepContext,
	}
	for _, opt := range opts {
		opt(c)
	}

	// Copy the caller's http.Client so its Timeout, Jar and redirect policy are kept while
	// the transport underneath gains auth, refresh and retries, without changing theirs.
	hc := &http.Client{}
	if c.httpClient != nil {
		*hc = *c.httpClient
	}
	base := hc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	hc.Transport = &transport{c: c, base: base}
	c.httpClient = hc

	c.api, err = client.NewClient(server, client.WithHTTPClient(hc))
	if err != nil {
		return nil, fmt.Errorf("betty: %w", err)
	}
	c.raw = &client.ClientWithResponses{ClientInterface: c.api}
	return c, nil
}

// WithAPIKey authenticates every call with an organisation API key (betty_sk_…), sent as
// `Authorization: Bearer <key>`. API keys do not expire, so such a client never refreshes.
// It replaces tokens given earlier.
func WithAPIKey(key string) Option {
	return func(c *Client) {
		c.apiKey, c.access, c.refresh = key, "", ""
	}
}

// WithTokens authenticates every call with a user session: the access token is sent as
// `Authorization: Bearer <access>` and the refresh token as `X-RefreshToken`. When the access
// token expires the client renews the pair once and retries. It replaces an API key given
// earlier.
func WithTokens(access, refresh string) Option {
	return func(c *Client) {
		c.apiKey, c.access, c.refresh = "", access, refresh
	}
}

// WithTokenSaver registers fn to be called with the new pair after every successful sign-in
// and refresh, so the caller can persist rotated tokens: a refresh token works only once, so
// one that is not saved is lost. fn may be called from any goroutine making a call, and is
// called before that call is retried.
func WithTokenSaver(fn func(access, refresh string)) Option {
	return func(c *Client) { c.saver = fn }
}

// WithHTTPClient uses hc's settings (timeout, cookie jar, transport). The client adds its own
// transport on top of hc's; hc itself is not modified.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *Client) { c.httpClient = hc }
}

// WithMaxRetries sets how many times a failed idempotent call is retried (3 by default; 0
// turns retries off).
func WithMaxRetries(n int) Option {
	return func(c *Client) { c.maxRetries = max(n, 0) }
}

// WithUserAgent sets the User-Agent header ("betty-go-sdk" by default).
func WithUserAgent(ua string) Option {
	return func(c *Client) { c.userAgent = ua }
}

// Server returns the base URL of the server, without a trailing slash.
func (c *Client) Server() string { return c.server }

// Raw returns the generated client with typed responses, wired with the same auth, refresh
// and retries as c.
func (c *Client) Raw() *client.ClientWithResponses { return c.raw }

// RawClient returns the generated client that answers plain *http.Response values, for use
// with Do, DoPage, All and NoContent.
func (c *Client) RawClient() *client.Client { return c.api }

// Tokens returns the session tokens the client holds now, which differ from those given to
// WithTokens after a refresh. Both are empty for API-key clients and after SignOut.
func (c *Client) Tokens() (access, refresh string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.access, c.refresh
}

// credentials returns what the transport sends: the bearer value and the refresh token.
func (c *Client) credentials() (bearer, refresh string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.apiKey != "" {
		return c.apiKey, ""
	}
	return c.access, c.refresh
}

// setTokens stores a new session pair (which replaces an API key) and hands it to the saver.
func (c *Client) setTokens(access, refresh string) {
	c.mu.Lock()
	c.apiKey, c.access, c.refresh = "", access, refresh
	c.mu.Unlock()
	if c.saver != nil {
		c.saver(access, refresh)
	}
}

func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

var errNoSession = errors.New("betty: no session to renew")
