package httpapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/internal/apitest"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/phones/telnyx/telnyxtest"
)

// creditLog is what the credit tests read of a call log.
type creditLog struct {
	ID, Status string
	EndTime    *time.Time
	Cost       float64
	Simulated  bool
	JobID      *string
}

// endedLogs waits until the team has n call logs, all ended, and answers them.
func endedLogs(t *testing.T, a teamAPI, token, org string, n int) []creditLog {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		var all struct{ Data []creditLog }
		a.want(http.StatusOK, token, "GET", "/v1/call/logs?organizationId="+org, nil, &all)
		// The test calls' logs (a run's call, when one was dialled before the run was ended, is not awaited).
		var logs struct{ Data []creditLog }
		for _, l := range all.Data {
			if l.JobID == nil || *l.JobID == "" {
				logs.Data = append(logs.Data, l)
			}
		}
		done := len(logs.Data) == n
		for _, l := range logs.Data {
			done = done && l.EndTime != nil
		}
		if done {
			return logs.Data
		}
		if time.Now().After(deadline) {
			t.Fatalf("the calls did not end: %+v", logs.Data)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// testRunBody is a test call of workflow wf to the number to.
func testRunBody(org, wf, to string) map[string]any {
	return map[string]any{"organizationId": org, "workflowId": wf, "customerDescription": "A patient listener",
		"destinationPhoneNumber": to, "isTestWorkflow": true, "nameOrEmail": "Ada", "triggeredBy": "ada@example.com"}
}

func balance(t *testing.T, a teamAPI, token, org string) float64 {
	t.Helper()
	var body struct{ Data struct{ Balance float64 } }
	a.want(http.StatusOK, token, "GET", "/v1/team/subscription-credits?organizationId="+org, nil, &body)
	return body.Data.Balance
}

// Issue 21: a fresh team has 0 credits, and on a server without a real carrier that must not
// stop its first run. Simulated calls are placed, cost 0, say "simulated", and leave the
// balance at 0.
func TestSimulatedCallsAreFree(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		wf, _, _ := runnable(t, env, ada, org, 2)
		env.Exec(t, `UPDATE organizations SET credits_balance = 0 WHERE id = ?`, org)
		var j struct{ Data jobJSON }
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/workflow/run/"+wf, map[string]any{"organizationId": org}, &j)
		// The run's contacts may wait for their calling window (the clock is real); a test call
		// does not, so the calls are made by two test runs.
		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/end-job/"+wf, nil, nil)
		for _, to := range []string{"+14155550141", "+14155550142"} {
			a.want(http.StatusCreated, ada.Access, "POST", "/v1/workflow/test-run/"+wf, testRunBody(org, wf, to), nil)
		}
		for _, l := range endedLogs(t, a, ada.Access, org, 2) {
			if !l.Simulated || l.Cost != 0 {
				t.Fatalf("a simulated call's log: %+v", l)
			}
			var one struct{ Data creditLog }
			a.want(http.StatusOK, ada.Access, "GET", "/v1/call/log/"+l.ID+"?organizationId="+org, nil, &one)
			if !one.Data.Simulated || one.Data.Cost != 0 {
				t.Fatalf("getCallLog of a simulated call: %+v", one.Data)
			}
		}
		if b := balance(t, a, ada.Access, org); b != 0 {
			t.Fatalf("balance after simulated calls: %v", b)
		}
		// A balance below zero (calls through a carrier before) refuses nothing either.
		env.Exec(t, `UPDATE organizations SET credits_balance = -3 WHERE id = ?`, org)
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/workflow/test-run/"+wf, testRunBody(org, wf, "+14155550143"), nil)
	})
}

// Calls through a real carrier keep the credit rules: with 0 credits a run is refused with
// limit_reached; with credits the call is placed, charged, and not simulated.
func TestCarrierCallsNeedCredits(t *testing.T) {
	for _, d := range testdb.Dialects() {
		t.Run(string(d), func(t *testing.T) {
			fake := telnyxtest.Start(t, "KEY-test")
			env := apitest.New(t, d, apitest.WithConfig(func(c *config.Config) {
				c.TelnyxAPIKey, c.TelnyxAPIURL, c.TelnyxConnectionID = "KEY-test", fake.URL(), "1494404757140276705"
				c.TelnyxPublicKey = fake.PublicKey()
			}))
			fake.EnableCalls(telnyxtest.CallsConfig{WebhookURLs: []string{env.URL + "/v1/webhooks/telnyx"}, Answer: 1,
				IdleHangup: 500 * time.Millisecond})
			a := newTeamAPI(t, env)
			ada := env.SignUp(t, "ada@example.com")
			org := env.Team(t, ada, "Acme")
			wf, _, _ := runnable(t, env, ada, org, 1)
			env.Exec(t, `UPDATE organizations SET credits_balance = 0 WHERE id = ?`, org)
			for path, body := range map[string]any{"/v1/workflow/run/" + wf: map[string]any{"organizationId": org},
				"/v1/workflow/test-run/" + wf: testRunBody(org, wf, "+13125550111")} {
				if p := a.problem(http.StatusUnprocessableEntity, ada.Access, "POST", path, body); p.Code != "limit_reached" {
					t.Fatalf("%s with no credits: %+v", path, p)
				}
			}
			env.Exec(t, `UPDATE organizations SET credits_balance = 10 WHERE id = ?`, org)
			a.want(http.StatusCreated, ada.Access, "POST", "/v1/workflow/test-run/"+wf, testRunBody(org, wf, "+13125550111"), nil)
			l := endedLogs(t, a, ada.Access, org, 1)[0]
			if l.Simulated || l.Cost <= 0 {
				t.Fatalf("a carrier's call log: %+v", l)
			}
			if b := balance(t, a, ada.Access, org); b != 10-l.Cost {
				t.Fatalf("balance %v after a call costing %v", b, l.Cost)
			}
		})
	}
}
