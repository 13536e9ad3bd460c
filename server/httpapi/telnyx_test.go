package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/internal/apitest"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/phones/telnyx/telnyxtest"
)

func telnyxEvent(kind, clientState string) []byte {
	state := ""
	if clientState != "" {
		state = `"client_state":"` + clientState + `",`
	}
	return []byte(`{"data":{"record_type":"event","event_type":"` + kind + `","id":"` + kind + `-1","occurred_at":"2026-11-23T19:00:00Z",` +
		`"payload":{` + state + `"call_control_id":"v3:abc","from":"+13125550199","to":"+13125550101"}},"meta":{"attempt":1}}`)
}

func postTelnyx(env *apitest.Env, body []byte, ts, sig string) *apitest.Response {
	h := http.Header{}
	if ts != "" {
		h.Set("telnyx-timestamp", ts)
	}
	if sig != "" {
		h.Set("telnyx-signature-ed25519", sig)
	}
	return env.Do(apitest.Request{Method: "POST", Path: "/v1/webhooks/telnyx", Body: body, Header: h})
}

// Telnyx's webhook is verified on the raw body (Ed25519 over "timestamp|body", 5 minutes of
// tolerance): forged, stale and unsigned deliveries are refused, events Betty does not act on
// and calls it did not place are acknowledged.
func TestTelnyxWebhook(t *testing.T) {
	for _, d := range testdb.Dialects() {
		t.Run(string(d), func(t *testing.T) {
			fake := telnyxtest.Start(t, "KEY-test")
			env := apitest.New(t, d, apitest.WithConfig(func(c *config.Config) {
				c.TelnyxAPIKey, c.TelnyxAPIURL, c.TelnyxConnectionID = "KEY-test", fake.URL(), "1494404757140276705"
				c.TelnyxPublicKey = fake.PublicKey()
			}))
			now := time.Now()
			for _, body := range [][]byte{telnyxEvent("call.speak.started", "YXR0LTE="), telnyxEvent("call.answered", ""),
				[]byte(`{"data":{"record_type":"event","event_type":"number_order.complete","id":"o-1","payload":{"id":"x"}}}`)} {
				ts, sig := fake.Sign(body, now)
				if res := postTelnyx(env, body, ts, sig); res.Status != http.StatusOK || !strings.Contains(string(res.Body), "Event received.") {
					t.Fatalf("%s: %d %s", body, res.Status, res.Body)
				}
			}
			body := telnyxEvent("call.hangup", "YXR0LTE=")
			ts, sig := fake.Sign(body, now)
			oldTS, oldSig := fake.Sign(body, now.Add(-6*time.Minute))
			other := telnyxtest.New("x")
			other.EnableCalls(telnyxtest.CallsConfig{Seed: 42})
			forgedTS, forgedSig := other.Sign(body, now)
			junk := []byte(`{"hello":"world"}`)
			junkTS, junkSig := fake.Sign(junk, now)
			for name, tt := range map[string]struct {
				body    []byte
				ts, sig string
				status  int
			}{
				"no signature":        {body, ts, "", http.StatusBadRequest},
				"no timestamp":        {body, "", sig, http.StatusBadRequest},
				"malformed signature": {body, ts, "not-base64!", http.StatusBadRequest},
				"another key":         {body, forgedTS, forgedSig, http.StatusUnauthorized},
				"body changed":        {append(body[:len(body):len(body)], ' '), ts, sig, http.StatusUnauthorized},
				"six minutes old":     {body, oldTS, oldSig, http.StatusUnauthorized},
				"not an event":        {junk, junkTS, junkSig, http.StatusBadRequest},
			} {
				res := postTelnyx(env, tt.body, tt.ts, tt.sig)
				if res.Status != tt.status {
					t.Errorf("%s: %d %s", name, res.Status, res.Body)
					continue
				}
				res.Problem(t)
			}
		})
	}
}

// Without a Telnyx account there is nothing to receive: 503 naming the settings.
func TestTelnyxWebhookWithoutTelnyx(t *testing.T) {
	env := apitest.New(t, testdb.Dialects()[0])
	fake := telnyxtest.New("x")
	body := telnyxEvent("call.answered", "YXR0LTE=")
	ts, sig := fake.Sign(body, time.Now())
	res := postTelnyx(env, body, ts, sig)
	if res.Status != http.StatusServiceUnavailable || !strings.Contains(res.Problem(t).Detail, "--telnyx-public-key") {
		t.Fatalf("%d %s", res.Status, res.Body)
	}
}
