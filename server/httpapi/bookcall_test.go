package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/integrations/shopify"
	"github.com/bettyhq/betty/server/internal/apitest"
)

// storefrontTeam makes a team whose storefront workflow can place calls (an agent, a number,
// credits, a valid graph, attached with configureWorkflowShopify) and answers its publishable
// key and the workflow's id.
func storefrontTeam(t *testing.T, env *apitest.Env, owner apitest.Caller, org string) (key, wf string) {
	t.Helper()
	a := newTeamAPI(t, env)
	env.Exec(t, `UPDATE organizations SET credits_balance = 100 WHERE id = ?`, org)
	ag := createAgent(t, a, owner, org, map[string]any{})
	phone := env.PhoneNumber(t, org, fmt.Sprintf("+1415777%04d", time.Now().UnixNano()%10000))
	var w struct{ Data workflowJSON }
	a.want(http.StatusCreated, owner.Access, "POST", "/v1/workflow/create",
		map[string]any{"organizationId": org, "name": "Storefront calls", "agentId": ag.ID, "workflowType": "outbound"}, &w)
	a.want(http.StatusOK, owner.Access, "POST", "/v1/workflow/config/phone", map[string]any{"workflowId": w.Data.ID, "phoneNumberId": phone}, nil)
	s := fmt.Sprint(time.Now().UnixNano())
	a.want(http.StatusOK, owner.Access, "POST", "/v1/workflow/save", map[string]any{"workflowId": w.Data.ID,
		"nodes": []any{node("start-"+s, "start", nil), node("hello-"+s, "agent", map[string]any{"instruction": "Greet {{firstName}} and help."}),
			node("end-"+s, "end-call", nil)},
		"edges": []any{edge("e1-"+s, "start-"+s, "hello-"+s), edge("e2-"+s, "hello-"+s, "end-"+s)}}, nil)
	a.want(http.StatusOK, owner.Access, "POST", "/v1/workflow/config/shopify", map[string]any{"workflowId": w.Data.ID, "organizationId": org}, nil)
	return publicKey(t, env, org), w.Data.ID
}

// publicKey answers the team's publishable key (the dashboard shows it in the team's settings).
func publicKey(t *testing.T, env *apitest.Env, org string) string {
	t.Helper()
	o, err := env.DB.OrganizationByID(context.Background(), org)
	if err != nil || !strings.HasPrefix(o.PublicAPIKey, "betty_pk_") {
		t.Fatalf("publishable key: %+v %v", o, err)
	}
	return o.PublicAPIKey
}

// awakeNumber is apitest.AwakeNumber.
func awakeNumber(t *testing.T, last string) string { return apitest.AwakeNumber(t, last) }

func TestBookCallAPI(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Mugs & Co")
		key, wf := storefrontTeam(t, env, ada, org)
		number := awakeNumber(t, "0142")

		book := func(body map[string]any) *apitest.Response {
			return env.Do(apitest.Request{Method: "POST", Path: "/v1/call/book-a-call", Body: body,
				Header: http.Header{"Origin": {"https://mugs.example"}}})
		}
		res := book(map[string]any{"publicKey": key, "phoneNumber": number, "name": "Grace", "consent": true,
			"consentText": shopify.DefaultConsentText, "pageUrl": "https://mugs.example/products/big-mug"})
		if res.Status != http.StatusCreated {
			t.Fatalf("book: %d %s", res.Status, res.Body)
		}
		if res.Header.Get("Access-Control-Allow-Origin") != "*" || res.Header.Get("Access-Control-Allow-Credentials") != "" {
			t.Fatalf("CORS on the answer: %v", res.Header)
		}
		var out struct {
			Data struct {
				ID, OrganizationID, WorkflowID, JobID, PhoneNumber, Status string
				Consent                                                    struct {
					Text     string
					ClientIP string  `json:"clientIp"`
					PageURL  *string `json:"pageUrl"`
				}
			}
		}
		res.JSON(t, &out)
		b := out.Data
		if b.OrganizationID != org || b.WorkflowID != wf || b.PhoneNumber != number || b.Status != "queued" ||
			b.Consent.Text != shopify.DefaultConsentText || b.Consent.ClientIP == "" || b.Consent.PageURL == nil {
			t.Fatalf("booking: %+v", b)
		}

		// The booking is a job of the workflow; the simulator places the call and it is logged.
		var st struct{ Data []jobJSON }
		deadline := time.Now().Add(60 * time.Second)
		for {
			a.want(http.StatusOK, ada.Access, "GET", "/v2/jobs/status?ids="+b.JobID, nil, &st)
			if st.Data[0].Status != "in-progress" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the booked call did not finish: %+v", st.Data[0])
			}
			time.Sleep(100 * time.Millisecond)
		}
		j := st.Data[0]
		if j.Status != "success" || j.IsTest || j.Progress.Total != 1 || j.TriggeredBy != shopify.TriggeredBy || j.WorkflowID != wf {
			t.Fatalf("the booking's job: %+v", j)
		}
		var logs struct {
			Data []struct {
				ID, To, WorkflowID, Status string
				JobID                      *string `json:"jobId"`
			}
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/call/logs?organizationId="+org, nil, &logs)
		if len(logs.Data) != 1 || logs.Data[0].To != number || logs.Data[0].JobID == nil || *logs.Data[0].JobID != b.JobID {
			t.Fatalf("call logs: %+v", logs.Data)
		}

		// The team's record of the booking: the consent with the call's log and status; a
		// read-only member sees it, another team does not.
		type booking struct {
			ID, PhoneNumber, WorkflowID, JobID string
			Name                               *string
			CallLogID                          *string `json:"callLogId"`
			CallStatus                         *string
			Consent                            struct {
				Text     string
				ClientIP string  `json:"clientIp"`
				PageURL  *string `json:"pageUrl"`
			}
		}
		var list struct {
			Data []booking
			Meta struct{ TotalSize int }
		}
		a.want(http.StatusOK, env.APIKey(t, org, "readonly"), "GET", "/v1/call/bookings?organizationId="+org, nil, &list)
		if len(list.Data) != 1 || list.Meta.TotalSize != 1 {
			t.Fatalf("bookings: %+v", list)
		}
		if g := list.Data[0]; g.ID != b.ID || g.PhoneNumber != number || g.Name == nil || *g.Name != "Grace" || g.JobID != b.JobID ||
			g.WorkflowID != wf || g.CallLogID == nil || *g.CallLogID != logs.Data[0].ID || g.CallStatus == nil || *g.CallStatus != logs.Data[0].Status ||
			g.Consent.Text != shopify.DefaultConsentText || g.Consent.ClientIP != b.Consent.ClientIP || g.Consent.PageURL == nil {
			t.Fatalf("booking listed: %+v", g)
		}
		zed := env.SignUp(t, "zed@example.com")
		theirs := env.Team(t, zed, "Other")
		a.want(http.StatusOK, zed.Access, "GET", "/v1/call/bookings?organizationId="+theirs, nil, &list)
		if len(list.Data) != 0 {
			t.Fatalf("another team's bookings: %+v", list.Data)
		}
		a.problem(http.StatusNotFound, zed.Access, "GET", "/v1/call/bookings?organizationId="+org, nil)

		// Refusals, in the shopper's words.
		cases := []struct {
			body   map[string]any
			status int
			detail string
			field  string
		}{
			{map[string]any{"publicKey": "betty_pk_unknown", "phoneNumber": number, "consent": true}, 404, "This store cannot take call requests right now.", ""},
			{map[string]any{"publicKey": key, "phoneNumber": number, "consent": false}, 422, "tick the box", "body.consent"},
			{map[string]any{"publicKey": key, "phoneNumber": "12345", "consent": true}, 422, "valid phone number", "body.phoneNumber"},
			{map[string]any{"publicKey": key, "phoneNumber": "+33 6 12 34 56 78", "consent": true}, 422, "We can only call numbers in", "body.phoneNumber"},
			{map[string]any{"publicKey": key, "consent": true}, 400, "", ""},
		}
		for _, c := range cases {
			res := book(c.body)
			if res.Status != c.status {
				t.Fatalf("%v: %d %s", c.body, res.Status, res.Body)
			}
			p := res.Problem(t)
			if !strings.Contains(p.Detail, c.detail) || (c.field != "" && (len(p.Errors) == 0 || p.Errors[0].Field != c.field)) {
				t.Fatalf("%v: %+v", c.body, p)
			}
		}
		// The client has made PerClientPerHour requests: the next is 429 with Retry-After.
		res = book(map[string]any{"publicKey": key, "phoneNumber": number, "consent": true})
		if res.Status != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" ||
			!strings.Contains(res.Problem(t).Detail, "too many times") {
			t.Fatalf("sixth request: %d %v %s", res.Status, res.Header, res.Body)
		}
	})
}

// The do-not-call list and a storefront workflow that cannot run, through the API.
func TestBookCallAPIRefusesForTheTeam(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Mugs & Co")
		key, _ := storefrontTeam(t, env, ada, org)
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/do-not-call", map[string]any{"organizationId": org, "phoneNumber": "+14155550177"}, nil)
		res := env.Do(apitest.Request{Method: "POST", Path: "/v1/call/book-a-call",
			Body: map[string]any{"publicKey": key, "phoneNumber": "+1 415 555 0177", "consent": true}})
		if res.Status != http.StatusUnprocessableEntity || res.Problem(t).Detail != "We cannot call this number." {
			t.Fatalf("a listed number: %d %s", res.Status, res.Body)
		}
		// A workflow that cannot run (here: no agent; simulated calls need no credits) is the
		// team's problem, not the shopper's: it is logged, the shopper reads a plain refusal.
		env.Exec(t, `UPDATE workflows SET agent_id = NULL WHERE organization_id = ?`, org)
		res = env.Do(apitest.Request{Method: "POST", Path: "/v1/call/book-a-call",
			Body: map[string]any{"publicKey": key, "phoneNumber": "+14155550178", "consent": true}})
		if res.Status != http.StatusUnprocessableEntity || res.Problem(t).Detail != "This store cannot take call requests right now." {
			t.Fatalf("a workflow without an agent: %d %s", res.Status, res.Body)
		}
		if !strings.Contains(env.Logs.String(), "has no agent") {
			t.Fatal("the team's reason is not logged")
		}
		// A team without a storefront workflow.
		other := env.Team(t, ada, "Empty shop")
		res = env.Do(apitest.Request{Method: "POST", Path: "/v1/call/book-a-call",
			Body: map[string]any{"publicKey": publicKey(t, env, other), "phoneNumber": "+14155550179", "consent": true}})
		if res.Status != http.StatusNotFound {
			t.Fatalf("no storefront workflow: %d %s", res.Status, res.Body)
		}
	})
}

// Storefronts are other origins: the book-a-call endpoint and the widget answer CORS for any
// origin without credentials; the rest of the API does not.
func TestStorefrontCORSAndWidget(t *testing.T) {
	env := apitest.New(t, "sqlite")
	pre := env.Do(apitest.Request{Method: "OPTIONS", Path: "/v1/call/book-a-call", Header: http.Header{
		"Origin": {"https://mugs.example"}, "Access-Control-Request-Method": {"POST"}, "Access-Control-Request-Headers": {"content-type"}}})
	h := pre.Header
	if pre.Status != http.StatusNoContent || h.Get("Access-Control-Allow-Origin") != "*" || !strings.Contains(h.Get("Access-Control-Allow-Methods"), "POST") ||
		!strings.EqualFold(h.Get("Access-Control-Allow-Headers"), "Content-Type") || h.Get("Access-Control-Allow-Credentials") != "" {
		t.Fatalf("preflight: %d %v", pre.Status, h)
	}
	other := env.Do(apitest.Request{Method: "OPTIONS", Path: "/v1/team/list", Header: http.Header{
		"Origin": {"https://mugs.example"}, "Access-Control-Request-Method": {"GET"}}})
	if other.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("CORS beyond the storefront's paths: %v", other.Header)
	}

	w := env.Do(apitest.Request{Method: "GET", Path: "/widget.js", Header: http.Header{"Origin": {"https://mugs.example"}}})
	if w.Status != http.StatusOK || !strings.HasPrefix(w.Header.Get("Content-Type"), "text/javascript") ||
		!strings.Contains(w.Header.Get("Cache-Control"), "max-age") || w.Header.Get("Access-Control-Allow-Origin") != "*" ||
		w.Header.Get("Cross-Origin-Resource-Policy") != "cross-origin" || string(w.Body) != string(shopify.Widget) {
		t.Fatalf("widget: %d %v", w.Status, w.Header)
	}
	again := env.Do(apitest.Request{Method: "GET", Path: "/widget.js", Header: http.Header{"If-None-Match": {w.Header.Get("ETag")}}})
	if again.Status != http.StatusNotModified {
		t.Fatalf("revalidation: %d", again.Status)
	}
}
