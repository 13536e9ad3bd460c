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

// Inbound calls over Telnyx: the fake rings one of the team's numbers with a signed
// call.initiated (direction incoming); Betty answers it (actions/answer with a command_id and
// the attempt as client_state), the conversation goes on over signed webhooks, and the call
// leaves an inbound call log with its transcript and the fetched recording. A call to a number
// no team has is hung up without an answer.
func TestTelnyxInboundCall(t *testing.T) {
	for _, d := range testdb.Dialects() {
		t.Run(string(d), func(t *testing.T) {
			fake := telnyxtest.Start(t, "KEY-test")
			env := apitest.New(t, d, apitest.WithConfig(func(c *config.Config) {
				c.TelnyxAPIKey, c.TelnyxAPIURL, c.TelnyxConnectionID = "KEY-test", fake.URL(), "1494404757140276705"
				c.TelnyxPublicKey = fake.PublicKey()
			}))
			// The caller waits as a person would (the fake's default 20 s of silence): the flow ends
			// the call itself. A 2 s patience made this test fail on a loaded CI machine, where one
			// webhook's transaction can wait seconds on PostgreSQL behind other suites' work.
			fake.EnableCalls(telnyxtest.CallsConfig{WebhookURLs: []string{env.URL + "/v1/webhooks/telnyx"}})
			fake.SetURL(fake.URL())
			a := newTeamAPI(t, env)
			ada := env.SignUp(t, "ada@example.com")
			org := env.Team(t, ada, "Acme")
			env.Exec(t, `UPDATE organizations SET credits_balance = 100 WHERE id = ?`, org)
			number := "+13125550101"
			phone := env.PhoneNumber(t, org, number)
			ag := createAgent(t, a, ada, org, map[string]any{})
			var w struct{ Data workflowJSON }
			a.want(http.StatusCreated, ada.Access, "POST", "/v1/workflow/create",
				map[string]any{"organizationId": org, "name": "Reception", "agentId": ag.ID, "workflowType": "inbound"}, &w)
			a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/config/phone", map[string]any{"workflowId": w.Data.ID, "phoneNumberId": phone}, nil)
			a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/save", map[string]any{"workflowId": w.Data.ID,
				"nodes": []any{node("t-start", "start", nil), node("t-hello", "agent", map[string]any{"instruction": "Greet the caller and ask how you can help."}),
					node("t-wait", "customer-response", map[string]any{"description": "Says what they need"}),
					node("t-help", "agent", map[string]any{"instruction": "Help with what they asked."}), node("t-end", "end-call", nil)},
				"edges": []any{edge("t-e1", "t-start", "t-hello"), edge("t-e2", "t-hello", "t-wait"), edge("t-e3", "t-wait", "t-help"),
					edge("t-e4", "t-help", "t-end")}}, nil)

			stranger := fake.Inbound("+13125550199", "+13125550777")
			call := fake.Inbound("+13125550199", number)
			type callLog struct {
				Status, Direction, From, To, CallControlID string
				EndTime                                    *time.Time
				HasTranscript, HasRecording                bool
			}
			var l callLog
			deadline := time.Now().Add(60 * time.Second)
			for {
				var logs struct{ Data []callLog }
				a.want(http.StatusOK, ada.Access, "GET", "/v1/call/logs?organizationId="+org, nil, &logs)
				if len(logs.Data) == 1 && logs.Data[0].EndTime != nil && logs.Data[0].HasRecording {
					l = logs.Data[0]
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the inbound call did not end: %+v %+v", logs.Data, fake.Stats())
				}
				time.Sleep(100 * time.Millisecond)
			}
			if l.CallControlID != call || l.Direction != "inbound" || l.From != "+13125550199" || l.Status != "completed" || !l.HasTranscript {
				t.Fatalf("the call log: %+v", l)
			}
			var answers, strangerAnswered int
			for _, r := range fake.Requests() {
				if strings.HasSuffix(r.Path, "/actions/answer") {
					answers++
					if r.Body["command_id"] == "" || r.Body["command_id"] == nil || r.Body["client_state"] == nil {
						t.Errorf("answer without command_id or client_state: %v", r.Body)
					}
					if strings.Contains(r.Path, stranger) {
						strangerAnswered++
					}
				}
			}
			st := fake.Stats()
			if answers != 1 || strangerAnswered != 0 || st.Commands["answer"] != 1 || st.Commands["speak"] < 2 || st.Ended != 2 {
				t.Fatalf("answers %d (stranger %d), stats %+v", answers, strangerAnswered, st)
			}
		})
	}
}
