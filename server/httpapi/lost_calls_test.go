package httpapi_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/internal/apitest"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/phones/telnyx/telnyxtest"
)

// A Telnyx account whose hang-up webhooks never arrive (the fake drops every call.hangup):
// with one line, a call that ended on Telnyx's side would hold it for ever and the next run
// would dial nothing. The call sweep asks Telnyx (GET /calls/{id}: is_alive false) once the
// call is silent for --dialer-silent-after, ends it as lost, and the next run dials; both
// runs end, both call logs say why they ended and are charged.
func TestTelnyxLostHangUpsAreSwept(t *testing.T) {
	for _, d := range testdb.Dialects() {
		t.Run(string(d), func(t *testing.T) {
			fake := telnyxtest.Start(t, "KEY-test")
			env := apitest.New(t, d, apitest.WithConfig(func(c *config.Config) {
				c.TelnyxAPIKey, c.TelnyxAPIURL, c.TelnyxConnectionID = "KEY-test", fake.URL(), "1494404757140276705"
				c.TelnyxPublicKey = fake.PublicKey()
				c.DialerSilentAfter = time.Second
			}))
			fake.EnableCalls(telnyxtest.CallsConfig{WebhookURLs: []string{env.URL + "/v1/webhooks/telnyx"}, Answer: 1,
				IdleHangup: 500 * time.Millisecond, DropHangups: true})
			fake.SetURL(fake.URL())
			a := newTeamAPI(t, env)
			ada := env.SignUp(t, "ada@example.com")
			org := env.Team(t, ada, "Acme")
			wf, _, _ := runnable(t, env, ada, org, 1)
			if err := env.DB.SetDialerLimit(context.Background(), org, 1, ""); err != nil {
				t.Fatal(err)
			}
			var jobs []string
			for _, to := range []string{"+13125550111", "+13125550122"} {
				var j struct{ Data jobJSON }
				a.want(http.StatusCreated, ada.Access, "POST", "/v1/workflow/test-run/"+wf, map[string]any{"organizationId": org, "workflowId": wf,
					"customerDescription": "A patient listener", "destinationPhoneNumber": to, "isTestWorkflow": true,
					"nameOrEmail": "Ada", "triggeredBy": "ada@example.com"}, &j)
				jobs = append(jobs, j.Data.ID)
			}
			deadline := time.Now().Add(45 * time.Second)
			for {
				var st struct{ Data []jobJSON }
				a.want(http.StatusOK, ada.Access, "GET", "/v2/jobs/status?ids="+jobs[0]+","+jobs[1], nil, &st)
				if len(st.Data) == 2 && st.Data[0].Status != "in-progress" && st.Data[1].Status != "in-progress" {
					for _, j := range st.Data {
						if j.Status != "success" || j.Progress.Completed != 1 {
							t.Fatalf("a run: %+v", j)
						}
					}
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the runs did not end: %+v; carrier %+v", st.Data, fake.Stats())
				}
				time.Sleep(100 * time.Millisecond)
			}
			if s := fake.Stats(); s.TotalDials != 2 || s.DroppedHangups != 2 || s.StatusRequests < 2 {
				t.Fatalf("carrier: %+v", s)
			}
			var logs struct {
				Data []struct {
					ID, Status, To, StartTime string
					EndTime, EndReason        *string
					Cost                      float64
				}
			}
			a.want(http.StatusOK, ada.Access, "GET", "/v1/call/logs?organizationId="+org, nil, &logs)
			for _, l := range logs.Data {
				if l.Status != "completed" || l.EndTime == nil || l.EndReason == nil || *l.EndReason != "The carrier lost this call; it was ended by Betty." ||
					l.Cost <= 0 {
					t.Fatalf("call log: %+v", l)
				}
			}
			if len(logs.Data) != 2 {
				t.Fatalf("%d call logs", len(logs.Data))
			}
			// The line was held until the call placed first was swept: the other one started
			// after it ended (either run may dial first).
			first, second := logs.Data[0], logs.Data[1]
			at := func(s string) time.Time {
				v, err := time.Parse(time.RFC3339Nano, s)
				if err != nil {
					t.Fatal(err)
				}
				return v
			}
			if at(second.StartTime).Before(at(first.StartTime)) {
				first, second = second, first
			}
			if end, start := at(*first.EndTime), at(second.StartTime); !start.After(end) {
				t.Fatalf("the second call started %s, the first ended %s", start, end)
			}
		})
	}
}
