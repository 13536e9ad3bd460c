// Package testserver starts a real Betty server, in process on a real listener with a fresh
// SQLite database, for the tests of the SDK and the CLI. Every response it sends is checked
// against openapi.yaml like in the server's own API tests.
package testserver

import (
	"testing"
	"time"

	"github.com/bettyhq/betty/server/config"
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
