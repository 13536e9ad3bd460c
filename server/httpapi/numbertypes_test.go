package httpapi_test

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/integrations/hubspot/hubspottest"
	"github.com/bettyhq/betty/server/internal/apitest"
)

// The numbers the storefront widget dialled in the attack of issue 20, and the words the
// shopper is told.
var tollFraudNumbers = map[string]string{
	"+19005551234":  "premium-rate", // US 900
	"+449098790000": "premium-rate", // UK 09
	"+447010000000": "personal",     // UK 070
	"+448712345678": "premium-rate", // UK 0871
	"+611900123456": "premium-rate", // Australia 1900
	"+353151234567": "premium-rate", // Ireland 15xx
	"+64900123456":  "premium-rate", // New Zealand 0900
}

// Premium-rate and other costly numbers are refused by the storefront with 422 naming
// phoneNumber, even with an allow-list that includes their countries: no booking, no call.
// Landlines and mobiles still book.
func TestBookCallRefusesCostlyNumbers(t *testing.T) {
	_, all, _ := net.ParseCIDR("0.0.0.0/0")
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Mugs & Co")
		key, _ := storefrontTeam(t, env, ada, org)
		client := 0
		book := func(number string) *apitest.Response {
			client++ // each from its own address: the per-client limit is not under test
			return env.Do(apitest.Request{Method: "POST", Path: "/v1/call/book-a-call",
				Body:   map[string]any{"publicKey": key, "phoneNumber": number, "consent": true},
				Header: http.Header{"X-Forwarded-For": {fmt.Sprintf("203.0.113.%d", client)}}})
		}
		for number, words := range tollFraudNumbers {
			res := book(number)
			if res.Status != http.StatusUnprocessableEntity {
				t.Fatalf("%s: %d %s", number, res.Status, res.Body)
			}
			p := res.Problem(t)
			if len(p.Errors) != 1 || p.Errors[0].Field != "body.phoneNumber" || !strings.Contains(p.Detail, words) ||
				!strings.Contains(p.Detail, "mobile or landline") {
				t.Fatalf("%s: %+v", number, p)
			}
		}
		// A country not on the list still hears about the country first: it is what the
		// shopper can change (a premium number of an allowed country hears about its kind).
		if p := book("+33 8 92 12 34 56").Problem(t); !strings.Contains(p.Detail, "We can only call numbers in") {
			t.Fatalf("a French premium number: %+v", p)
		}
		var list struct{ Meta struct{ TotalSize int } }
		a.want(http.StatusOK, ada.Access, "GET", "/v1/call/bookings?organizationId="+org, nil, &list)
		var logs struct{ Meta struct{ TotalSize int } }
		a.want(http.StatusOK, ada.Access, "GET", "/v1/call/logs?organizationId="+org, nil, &logs)
		if list.Meta.TotalSize != 0 || logs.Meta.TotalSize != 0 {
			t.Fatalf("refused numbers left %d bookings and %d calls", list.Meta.TotalSize, logs.Meta.TotalSize)
		}
		for _, number := range []string{"+447400123456", "+442079460000", "+1 415 555 0142"} { // UK mobile, London, US
			if res := book(number); res.Status != http.StatusCreated {
				t.Fatalf("%s: %d %s", number, res.Status, res.Body)
			}
		}
	}, apitest.WithTrustedProxies(all), apitest.WithConfig(func(c *config.Config) {
		c.BookACallCountries = []string{"US", "GB", "AU", "IE", "NZ"}
	}))
}

// A zap pushing a premium-rate number gets it back failed with the reason, as it gets
// numbers that cannot be read; it joins no run.
func TestZapierPushRefusesCostlyNumbers(t *testing.T) {
	_, opt := newZapierEnv(t)
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		key := env.APIKey(t, org, "member")
		wf, nodeID := zapierWorkflow(t, env, ada, org)
		res := a.do(key, "POST", "/v1/apps/zapier/contacts", map[string]any{"workflowId": wf, "nodeId": nodeID, "contacts": []any{
			map[string]any{"phone": "+19005551234", "firstName": "Premium"}, map[string]any{"phone": "+14155550123", "firstName": "Ada"}}})
		if res.Status != http.StatusCreated {
			t.Fatalf("push: %d %s", res.Status, res.Body)
		}
		var out struct {
			Data struct {
				Added    int
				Contacts []struct {
					Phone string
					Meta  struct {
						Status    string
						LastError *string
					} `json:"betty_metadata"`
				}
			}
		}
		res.JSON(t, &out)
		c := out.Data.Contacts
		if out.Data.Added != 2 || c[0].Meta.Status != "failed" || c[0].Meta.LastError == nil || !strings.Contains(*c[0].Meta.LastError, "premium-rate") ||
			c[1].Meta.Status != "pending" {
			t.Fatalf("pushed: %s", res.Body)
		}
		var started struct{ Data jobJSON }
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/workflow/run/"+wf, map[string]any{"organizationId": org}, &started)
		if started.Data.Progress.Total != 1 {
			t.Fatalf("the run calls the premium number: %+v", started.Data.Progress)
		}
	}, opt)
}

// A HubSpot contact whose number is premium-rate is kept failed with the reason and never
// dialled.
func TestHubSpotCostlyNumbersAreNotCalled(t *testing.T) {
	f := hubspottest.New(hubspottest.Options{})
	defer f.Close()
	good := awakeNumber(t, "0310")
	f.AddContact(map[string]string{"firstname": "Callee", "lastname": "Good", "phone": good})
	f.AddContact(map[string]string{"firstname": "Callee", "lastname": "Premium", "phone": "+19005551234"})
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		owner := env.SignUp(t, "owner@example.com")
		org := env.Team(t, owner, "Acme")
		appID := connectHubSpot(t, env, f, owner, org)
		ag := createAgent(t, a, owner, org, map[string]any{})
		var w struct{ Data workflowJSON }
		a.want(http.StatusCreated, owner.Access, "POST", "/v1/workflow/create",
			map[string]any{"organizationId": org, "name": "HubSpot calls", "agentId": ag.ID, "workflowType": "outbound"}, &w)
		wf, nodeID := w.Data.ID, fmt.Sprintf("contacts-%d", time.Now().UnixNano())
		makeRunnable(t, env, owner, org, wf, nodeID)
		a.want(http.StatusOK, owner.Access, "POST", "/v1/workflow/contacts", map[string]any{"organizationId": org, "workflowId": wf,
			"nodeId": nodeID, "source": "hubspot", "connectedAppId": appID}, nil)
		var found struct {
			Data []struct {
				Phone string
				Meta  struct {
					Status    string
					LastError *string
				} `json:"betty_metadata"`
			}
		}
		a.want(http.StatusOK, owner.Access, "GET", "/v1/apps/hubspot/contacts/search?organizationId="+org+"&connectedAppId="+appID+
			"&workflowId="+wf+"&nodeId="+nodeID+"&match=callee", nil, &found)
		refused := 0
		for _, c := range found.Data {
			if c.Phone == "+19005551234" {
				if c.Meta.Status != "failed" || c.Meta.LastError == nil || !strings.Contains(*c.Meta.LastError, "premium-rate") {
					t.Fatalf("the premium contact: %+v", c)
				}
				refused++
			}
		}
		if refused != 1 || len(found.Data) != 2 {
			t.Fatalf("picked: %+v", found.Data)
		}
		var started struct{ Data jobJSON }
		a.want(http.StatusCreated, owner.Access, "POST", "/v1/workflow/run/"+wf, map[string]any{"organizationId": org}, &started)
		waitJob(t, a, owner.Access, started.Data.ID)
		if to := calledNumbers(t, a, owner.Access, org); len(to) != 1 || !to[good] {
			t.Fatalf("called: %v", to)
		}
	}, withHubSpot(f))
}

// A CSV's premium-rate number is rejected unless the campaign allows premium-rate numbers;
// then it is dialled. A setting changed after the import is applied when the number is
// dialled: the contact ends failed with the reason and is counted as refused.
func TestCSVCostlyNumbersFollowTheCampaign(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		open := map[string]any{"callWindow": map[string]any{"start": "00:00", "end": "23:59",
			"days": []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"}}, "retryAttempts": 0}
		rows := []string{"+14155550140", "+19005551234", "+447010000000"}

		// Without the opt-in: the premium and personal numbers are rejected rows.
		plain := createCampaign(t, env, ada, org, map[string]any{"settings": open})
		wf, nodeID := campaignWorkflow(t, env, ada, org, plain.ID)
		if imported, rejected := importCSV(t, env, ada, org, wf, nodeID, rows); imported != 1 || rejected != 2 {
			t.Fatalf("imported %d, rejected %d", imported, rejected)
		}
		reasons := contactErrors(t, a, ada.Access, wf, nodeID)
		if !strings.Contains(reasons["+19005551234"], "premium-rate") || !strings.Contains(reasons["+447010000000"], "personal") {
			t.Fatalf("reasons: %v", reasons)
		}
		var started struct{ Data jobJSON }
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/workflow/run/"+wf, map[string]any{"organizationId": org}, &started)
		waitJob(t, a, ada.Access, started.Data.ID)
		if to := calledNumbers(t, a, ada.Access, org); len(to) != 1 || !to["+14155550140"] {
			t.Fatalf("called without the opt-in: %v", to)
		}

		// With it: the premium number is dialled; the personal one still is not.
		withPremium := map[string]any{"allowedNumberTypes": []string{"premium-rate"}}
		for k, v := range open {
			withPremium[k] = v
		}
		opted := createCampaign(t, env, ada, org, map[string]any{"settings": withPremium})
		var got struct {
			Data struct {
				Settings struct{ AllowedNumberTypes []string }
			}
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/campaigns/"+opted.ID, nil, &got)
		if s := fmt.Sprint(got.Data.Settings.AllowedNumberTypes); s != "[premium-rate]" {
			t.Fatalf("allowedNumberTypes: %s", s)
		}
		wf2, node2 := campaignWorkflow(t, env, ada, org, opted.ID)
		if imported, rejected := importCSV(t, env, ada, org, wf2, node2, rows); imported != 2 || rejected != 1 {
			t.Fatalf("with the opt-in: imported %d, rejected %d", imported, rejected)
		}
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/workflow/run/"+wf2, map[string]any{"organizationId": org}, &started)
		waitJob(t, a, ada.Access, started.Data.ID)
		if to := calledNumbers(t, a, ada.Access, org); !to["+19005551234"] || to["+447010000000"] {
			t.Fatalf("called with the opt-in: %v", to)
		}

		// The opt-in withdrawn after the import: the number is not dialled.
		third := createCampaign(t, env, ada, org, map[string]any{"settings": withPremium})
		wf3, node3 := campaignWorkflow(t, env, ada, org, third.ID)
		importCSV(t, env, ada, org, wf3, node3, []string{"+19005551234"})
		a.want(http.StatusOK, ada.Access, "PUT", "/v1/campaigns/"+third.ID, map[string]any{"settings": open}, nil)
		before := len(calledNumbers(t, a, ada.Access, org))
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/workflow/run/"+wf3, map[string]any{"organizationId": org}, &started)
		j := waitJob(t, a, ada.Access, started.Data.ID)
		if j.Progress.Failed != 1 || j.Progress.Refused != 1 || len(calledNumbers(t, a, ada.Access, org)) != before {
			t.Fatalf("after the opt-in was withdrawn: %+v", j.Progress)
		}
		if r := contactErrors(t, a, ada.Access, wf3, node3)["+19005551234"]; !strings.Contains(r, "premium-rate") {
			t.Fatalf("the contact's reason: %q", r)
		}

		// A test run to a number the member typed follows the campaign too.
		p := a.problem(http.StatusUnprocessableEntity, ada.Access, "POST", "/v1/workflow/test-run/"+wf, map[string]any{"organizationId": org,
			"workflowId": wf, "customerDescription": "A busy chef", "destinationPhoneNumber": "+19005551234", "isTestWorkflow": true,
			"nameOrEmail": "Ada", "triggeredBy": "ada@example.com"})
		if len(p.Errors) != 1 || p.Errors[0].Field != "body.destinationPhoneNumber" || !strings.Contains(p.Detail, "premium-rate") {
			t.Fatalf("a test run to a premium number: %+v", p)
		}
	})
}

// campaignWorkflow makes a runnable outbound workflow of the campaign (an agent, a number,
// credits, a graph with a Contacts node) and answers it and its Contacts node.
func campaignWorkflow(t *testing.T, env *apitest.Env, owner apitest.Caller, org, campaignID string) (wf, nodeID string) {
	t.Helper()
	var out struct{ Data struct{ ID string } }
	newTeamAPI(t, env).want(http.StatusCreated, owner.Access, "POST", "/v2/campaigns/workflow/create/"+campaignID, map[string]any{}, &out)
	nodeID = fmt.Sprintf("contacts-%d", time.Now().UnixNano())
	makeRunnable(t, env, owner, org, out.Data.ID, nodeID)
	return out.Data.ID, nodeID
}

// makeRunnable gives a workflow an agent, a number, credits and a graph that validates, with
// the Contacts node nodeID.
func makeRunnable(t *testing.T, env *apitest.Env, owner apitest.Caller, org, wf, nodeID string) {
	t.Helper()
	a := newTeamAPI(t, env)
	env.Exec(t, `UPDATE organizations SET credits_balance = 100 WHERE id = ?`, org)
	ag := createAgent(t, a, owner, org, map[string]any{})
	env.Exec(t, `UPDATE workflows SET agent_id = ? WHERE id = ?`, ag.ID, wf)
	phone := env.PhoneNumber(t, org, fmt.Sprintf("+1415777%04d", time.Now().UnixNano()%10000))
	a.want(http.StatusOK, owner.Access, "POST", "/v1/workflow/config/phone", map[string]any{"workflowId": wf, "phoneNumberId": phone}, nil)
	s := fmt.Sprint(time.Now().UnixNano())
	a.want(http.StatusOK, owner.Access, "POST", "/v1/workflow/save", map[string]any{"workflowId": wf,
		"nodes": []any{node(nodeID, "contacts", nil), node("start-"+s, "start", nil),
			node("hello-"+s, "agent", map[string]any{"instruction": "Greet {{firstName}}."}), node("end-"+s, "end-call", nil)},
		"edges": []any{edge("e1-"+s, "start-"+s, "hello-"+s), edge("e2-"+s, "hello-"+s, "end-"+s)}}, nil)
}

// importCSV sets a CSV of these numbers as the node's contacts and waits for the import.
func importCSV(t *testing.T, env *apitest.Env, owner apitest.Caller, org, wf, nodeID string, numbers []string) (imported, rejected int) {
	t.Helper()
	a := newTeamAPI(t, env)
	csv := "phone,firstName\n"
	for i, n := range numbers {
		csv += fmt.Sprintf("%s,Ann%d\n", n, i)
	}
	_, link := finishedUpload(t, env, owner.Access, org, "contacts-csv", "list.csv", []byte(csv))
	var src struct{ Data struct{ JobID *string } }
	a.want(http.StatusOK, owner.Access, "POST", "/v1/workflow/contacts", map[string]any{"organizationId": org, "workflowId": wf,
		"nodeId": nodeID, "source": "csv", "fileUrl": link}, &src)
	deadline := time.Now().Add(20 * time.Second)
	for {
		var st struct{ Data []jobJSON }
		a.want(http.StatusOK, owner.Access, "GET", "/v2/jobs/status?type=contacts-import&ids="+*src.Data.JobID, nil, &st)
		if len(st.Data) == 1 && st.Data[0].Status == "success" {
			return st.Data[0].Progress.Completed, st.Data[0].Progress.Failed
		}
		if time.Now().After(deadline) {
			t.Fatalf("the contacts import did not finish: %+v", st.Data)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// contactErrors answers the lastError of each contact of the node, by number.
func contactErrors(t *testing.T, a teamAPI, token, wf, nodeID string) map[string]string {
	t.Helper()
	var listed struct {
		Data []struct {
			Phone string
			Meta  struct{ LastError *string } `json:"betty_metadata"`
		}
	}
	a.want(http.StatusOK, token, "GET", fmt.Sprintf("/v1/workflow/contacts/data?workflowId=%s&nodeId=%s", wf, nodeID), nil, &listed)
	out := map[string]string{}
	for _, c := range listed.Data {
		out[c.Phone] = ""
		if c.Meta.LastError != nil {
			out[c.Phone] = *c.Meta.LastError
		}
	}
	return out
}

// finishedJob is a job with the counters these tests read.
type finishedJob struct {
	Status   string
	Progress struct{ Total, Completed, Failed, Refused int }
}

// waitJob waits for a job to finish and answers it.
func waitJob(t *testing.T, a teamAPI, token, id string) finishedJob {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		var st struct{ Data []finishedJob }
		a.want(http.StatusOK, token, "GET", "/v2/jobs/status?ids="+id, nil, &st)
		if st.Data[0].Status != "in-progress" {
			return st.Data[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("the job did not finish: %+v", st.Data[0])
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// calledNumbers answers the numbers the team's calls went to.
func calledNumbers(t *testing.T, a teamAPI, token, org string) map[string]bool {
	t.Helper()
	var logs struct{ Data []struct{ To string } }
	a.want(http.StatusOK, token, "GET", "/v1/call/logs?organizationId="+org+"&sizePerPage=100", nil, &logs)
	out := map[string]bool{}
	for _, l := range logs.Data {
		out[l.To] = true
	}
	return out
}
