// Package testserver starts a real Betty server, in process on a real listener with a fresh
// SQLite database, for the tests of the SDK and the CLI. Every response it sends is checked
// against openapi.yaml like in the server's own API tests.
package testserver

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/integrations/hubspot/hubspottest"
	"github.com/bettyhq/betty/server/internal/apitest"
	"github.com/bettyhq/betty/server/internal/stripetest"
	"github.com/bettyhq/betty/server/store"
)

// Env is a running server: URL, DB, and helpers such as SignUp, Team and APIKey.
type Env = apitest.Env

// Caller is a signed-up user with a session.
type Caller = apitest.Caller

// Option changes the server (apitest.WithAccessTokenTTL, WithRateLimit, …).
type Option = apitest.Option

// Start runs a server until the test ends.
func Start(t testing.TB, opts ...Option) *Env {
	t.Helper()
	return apitest.New(t, store.SQLite, opts...)
}

// WithAccessTokenTTL makes access tokens expire after d (to exercise refresh).
func WithAccessTokenTTL(d time.Duration) Option { return apitest.WithAccessTokenTTL(d) }

// WithMailDelivery configures an SMTP relay (a fake one): e-mail confirmation is required,
// as on a server that sends e-mail. Messages still land in the outbox.
func WithMailDelivery() Option { return apitest.WithMailDelivery() }

// WithSpeechToText points the server's transcription at an OpenAI-compatible endpoint (a fake
// one in tests: server/speech/openai/openaitest).
func WithSpeechToText(url, key string) Option {
	return apitest.WithConfig(func(c *config.Config) { c.STTURL, c.STTAPIKey = url, key })
}

// WithStripe points the server's payments at stripe-mock (see stripetest) with webhook secret
// secret and trial code trial14.
func WithStripe(url, key, secret string) Option {
	return apitest.WithConfig(func(c *config.Config) {
		c.StripeSecretKey, c.StripeAPIURL, c.StripeWebhookSecret = key, url, secret
		c.TrialCodes = map[string]int{"trial14": 14}
	})
}

// WithZapier points the server's Zapier partner API and OAuth token endpoint at a fake (see
// server/integrations/zapier/zapiertest) with its client id and secret.
func WithZapier(apiURL, tokenURL, clientID, secret string) Option {
	return apitest.WithConfig(func(c *config.Config) {
		c.ZapierAPIURL, c.ZapierTokenURL, c.ZapierClientID, c.ZapierClientSecret = apiURL, tokenURL, clientID, secret
	})
}

// AwakeNumber answers a number ending in last whose local time is within the default calling
// window now (apitest.AwakeNumber): runs outside campaigns dial it at once, at any hour.
func AwakeNumber(t testing.TB, last string) string { return apitest.AwakeNumber(t, last) }

// StripeMockURL answers the address of stripe-mock (BETTY_TEST_STRIPE_URL), skipping the test
// loudly without it (failing in CI).
func StripeMockURL(t testing.TB) string { return stripetest.URL(t) }

// StripeKey is the secret key tests send stripe-mock.
const StripeKey = stripetest.Key

// SignStripe answers the Stripe-Signature header of payload signed now with secret, as
// Stripe signs the events it delivers.
func SignStripe(payload []byte, secret string) string {
	return stripetest.Sign(payload, secret, time.Now())
}

// WithHubSpot points the server's HubSpot app at a fake portal (hubspottest): its client id
// and secret, its API and its authorisation page.
func WithHubSpot(f *hubspottest.Server) Option {
	return apitest.WithConfig(func(c *config.Config) {
		c.HubSpotClientID, c.HubSpotClientSecret = f.Opts.ClientID, f.Opts.ClientSecret
		c.HubSpotAPIURL, c.HubSpotAuthURL = f.URL, f.URL+"/oauth/authorize"
	})
}

// ApproveHubSpot plays the browser of a HubSpot connection made by the signed-in user as: it
// approves authURL (the authorisation URL the server answered) on the fake portal, follows the
// redirect back to the server, which sends it on to the dashboard's callback page, and plays
// that page relaying the code with as's session. It answers the connected app's id.
func ApproveHubSpot(t testing.TB, e *Env, f *hubspottest.Server, as Caller, authURL string) string {
	t.Helper()
	cb, err := f.Approve(authURL)
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(cb)
	if err != nil {
		t.Fatal(err)
	}
	browser := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := browser.Get(e.URL + u.RequestURI())
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	loc, _ := url.Parse(res.Header.Get("Location"))
	if res.StatusCode != http.StatusFound || loc == nil || loc.Path != "/dashboard/apps/hubspot/callback" {
		t.Fatalf("the HubSpot callback: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	q := loc.Query()
	finish := e.Do(apitest.Request{Method: http.MethodPost, Path: "/v1/apps/hubspot/callback", Token: as.Access,
		Body: map[string]any{"organizationId": q.Get("teamId"), "code": q.Get("code"), "state": q.Get("state")}})
	var app struct{ Data struct{ ID string } }
	if finish.Status != http.StatusOK {
		t.Fatalf("finishing the HubSpot connection: %d %s", finish.Status, finish.Body)
	}
	finish.JSON(t, &app)
	return app.Data.ID
}
