// Package stripetest gives tests what they need to talk Stripe's wire format: the address of
// a running stripe-mock (Stripe's official API mock) and signed webhook payloads.
//
// BETTY_TEST_STRIPE_URL names stripe-mock (.ci/run installs and starts it; locally:
// go install github.com/stripe/stripe-mock@v0.203.0 && stripe-mock -http-addr 127.0.0.1:12111
// then BETTY_TEST_STRIPE_URL=http://127.0.0.1:12111). Without it a test that calls Stripe is
// skipped with a loud message, unless CI is set, where it fails: CI never passes by skipping.
package stripetest

import (
	"net"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v76/webhook"
)

// EnvURL names stripe-mock's address.
const EnvURL = "BETTY_TEST_STRIPE_URL"

// Key is the secret key tests use (stripe-mock accepts any sk_test_ key).
const Key = "sk_test_betty"

// URL answers stripe-mock's address, or skips (fails in CI) when there is none.
func URL(t testing.TB) string {
	t.Helper()
	u := os.Getenv(EnvURL)
	if u == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not set: CI must run the Stripe tests against stripe-mock", EnvURL)
		}
		t.Skipf("\n*** Stripe tests SKIPPED: %s is not set. Install and start stripe-mock:\n"+
			"***   go install github.com/stripe/stripe-mock@v0.203.0 && stripe-mock -http-addr 127.0.0.1:12111\n"+
			"***   export %s=http://127.0.0.1:12111", EnvURL, EnvURL)
	}
	parsed, err := url.Parse(u)
	if err != nil {
		t.Fatalf("%s=%q: %v", EnvURL, u, err)
	}
	c, err := net.DialTimeout("tcp", parsed.Host, 2*time.Second)
	if err != nil {
		t.Fatalf("%s=%s is set but stripe-mock does not answer: %v", EnvURL, u, err)
	}
	c.Close()
	return strings.TrimRight(u, "/")
}

// Sign answers the Stripe-Signature header of payload signed with secret at time at.
func Sign(payload []byte, secret string, at time.Time) string {
	return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: at}).Header
}
