package httpapi_test

import (
	"encoding/csv"
	"net/http"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/calls"
	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/events"
	"github.com/bettyhq/betty/server/internal/apitest"
	"github.com/bettyhq/betty/server/runs"
)

func init() { resourceFixtures["exportJobCalls"] = jobFixture }

// jobFixture starts a run of a workflow of team A and names the job.
func jobFixture(t *testing.T, env *apitest.Env, owner apitest.Caller, org string) map[string]string {
	return map[string]string{"id": runFixture(t, env, owner, org)["ids"]}
}

type fieldJSON struct {
	Name, Type, Description string
	Options                 []string
}

func TestPostCallFieldsAreSavedWithTheGraph(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		// The shipped templates say which fields their workflows gather.
		var templates struct {
			Data []struct {
				ID             string
				PostCallFields []fieldJSON
			}
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/templates/list?sizePerPage=50", nil, &templates)
		for _, tp := range templates.Data {
			if len(tp.PostCallFields) == 0 {
				t.Fatalf("template %s shows no post-call field", tp.ID)
			}
		}
		ag := createAgent(t, a, ada, org, map[string]any{})
		var w struct{ Data workflowJSON }
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/workflow/create",
			map[string]any{"organizationId": org, "name": "Demo", "agentId": ag.ID, "workflowType": "outbound"}, &w)
		nodes := []any{node("s", "start", nil)}
		fields := []any{
			map[string]any{"name": "email", "type": "email", "description": "Your e-mail address?"},
			map[string]any{"name": "plan", "type": "choice", "description": "Which plan?", "options": []string{"Basic", "Pro"}},
		}
		var saved struct {
			Data struct {
				Version        int
				PostCallFields []fieldJSON
			}
		}
		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/save", map[string]any{"workflowId": w.Data.ID, "nodes": nodes, "edges": []any{},
			"postCallFields": fields}, &saved)
		if len(saved.Data.PostCallFields) != 2 || saved.Data.PostCallFields[1].Options[1] != "Pro" {
			t.Fatalf("saved %+v", saved.Data)
		}
		// A save without them keeps them; an empty list removes them.
		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/save", map[string]any{"workflowId": w.Data.ID, "nodes": nodes, "edges": []any{}}, &saved)
		var got struct {
			Data struct{ PostCallFields []fieldJSON }
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/"+w.Data.ID, nil, &got)
		if len(got.Data.PostCallFields) != 2 || got.Data.PostCallFields[0].Name != "email" {
			t.Fatalf("kept %+v", got.Data)
		}
		// A broken field is refused, naming it, and nothing is saved.
		for _, c := range []struct {
			field  map[string]any
			status int
			name   string
		}{
			{map[string]any{"name": "email", "type": "text", "description": "Again"}, http.StatusUnprocessableEntity, "postCallFields[1].name"},
			{map[string]any{"name": "size", "type": "choice", "description": "Size?", "options": []string{"One"}}, http.StatusUnprocessableEntity, "postCallFields[1].options"},
			{map[string]any{"name": "Bad Name", "type": "text", "description": "x"}, http.StatusBadRequest, "postCallFields"},
		} {
			p := a.problem(c.status, ada.Access, "POST", "/v1/workflow/save", map[string]any{"workflowId": w.Data.ID, "nodes": nodes, "edges": []any{},
				"version": saved.Data.Version, "postCallFields": []any{fields[0], c.field}})
			named := strings.Contains(p.Detail, c.name)
			for _, e := range p.Errors {
				named = named || strings.Contains(e.Field, c.name)
			}
			if !named {
				t.Fatalf("%v: problem %+v does not name %s", c.field, p, c.name)
			}
		}
		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/save", map[string]any{"workflowId": w.Data.ID, "nodes": nodes, "edges": []any{},
			"postCallFields": []any{}}, &saved)
		if len(saved.Data.PostCallFields) != 0 {
			t.Fatalf("emptied %+v", saved.Data)
		}
	})
}

func TestCallAnalysisAndJobExport(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		bob := env.SignUp(t, "bob@example.com")
		other := env.Team(t, bob, "Other")
		wf, _, _ := runnable(t, env, ada, org, 1)
		var graph struct{ Data struct{ Nodes, Edges []any } }
		a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/"+wf, nil, &graph)
		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/save", map[string]any{"workflowId": wf,
			"postCallFields": []any{map[string]any{"name": "email", "type": "email", "description": "Your e-mail?"},
				map[string]any{"name": "note", "type": "text", "description": "Anything else?"}},
			"nodes": graph.Data.Nodes, "edges": graph.Data.Edges}, nil)
		var j struct{ Data jobJSON }
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/workflow/run/"+wf, map[string]any{"organizationId": org}, &j)

		// Two calls of the job, closed as the dialer closes them: one analysed, one not.
		svc := calls.New(env.DB, nil, nil, events.New(env.DB, nil))
		open := func(to, attempt string) string {
			id, err := svc.Open(t.Context(), runs.CallOpened{OrganizationID: org, Direction: "outbound", From: "+14155550100", To: to,
				JobID: j.Data.ID, WorkflowID: wf, AttemptID: attempt})
			if err != nil {
				t.Fatal(err)
			}
			return id
		}
		analysed := open("+14155550123", "attempt-analysed")
		closed := runs.CallClosed{Status: "completed", Title: "Call with Ann", Summary: `Ann asked "=SUM(A1)". Email: ann@example.com.`,
			Turns: []runs.Turn{{Speaker: "agent", Text: "Your e-mail?"}, {Speaker: "customer", Text: "ann@example.com"}},
			Analysis: &conversation.Analysis{Summary: `Ann asked "=SUM(A1)". Email: ann@example.com.`, Outcome: "completed", By: "patterns",
				Fields: []conversation.FieldValue{{Name: "email", Value: "ann@example.com", Turn: 1}}}}
		if err := svc.Close(t.Context(), org, analysed, closed); err != nil {
			t.Fatal(err)
		}
		plain := open("+14155550124", "attempt-plain")

		var log struct {
			Data struct {
				Analysis *struct {
					Summary, Outcome, AnalysedBy string
					Fields                       []struct {
						Name, Value string
						Turn        int
					}
				}
			}
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/call/log/"+analysed+"?organizationId="+org, nil, &log)
		if an := log.Data.Analysis; an == nil || an.Outcome != "completed" || len(an.Fields) != 1 || an.Fields[0].Turn != 1 || an.AnalysedBy != "patterns" {
			t.Fatalf("analysis %+v", log.Data.Analysis)
		}
		var open2 struct{ Data struct{ Analysis any } }
		a.want(http.StatusOK, ada.Access, "GET", "/v1/call/log/"+plain+"?organizationId="+org, nil, &open2)
		if open2.Data.Analysis != nil {
			t.Fatalf("a call that goes on has an analysis: %+v", open2.Data.Analysis)
		}

		res := a.do(ada.Access, "GET", "/v1/workflow/job/"+j.Data.ID+"/calls.csv", nil)
		if res.Status != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/csv") ||
			!strings.Contains(res.Header.Get("Content-Disposition"), "attachment") {
			t.Fatalf("export: %d %v %s", res.Status, res.Header, res.Body)
		}
		rows, err := csv.NewReader(strings.NewReader(string(res.Body))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		byID := map[string][]string{}
		for _, r := range rows[1:] {
			byID[r[0]] = r
		}
		if strings.Join(rows[0], ",") != "call_id,to,status,started_at,duration_seconds,outcome,summary,email,note" {
			t.Fatalf("header %v", rows[0])
		}
		if r := byID[analysed]; len(r) != 9 || r[5] != "completed" || r[7] != "ann@example.com" || r[8] != "" || !strings.HasPrefix(r[6], "Ann asked") {
			t.Fatalf("analysed row %v", r)
		}
		if r := byID[plain]; len(r) != 9 || r[5] != "" || r[7] != "" {
			t.Fatalf("plain row %v", r)
		}
		// Any role of the team may read it; another team finds no such job.
		a.want(http.StatusOK, env.APIKey(t, org, "readonly"), "GET", "/v1/workflow/job/"+j.Data.ID+"/calls.csv", nil, nil)
		a.problem(http.StatusNotFound, bob.Access, "GET", "/v1/workflow/job/"+j.Data.ID+"/calls.csv", nil)
		a.problem(http.StatusNotFound, env.APIKey(t, other, "developer"), "GET", "/v1/workflow/job/"+j.Data.ID+"/calls.csv", nil)
		a.problem(http.StatusNotFound, ada.Access, "GET", "/v1/workflow/job/0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11/calls.csv", nil)
	})
}

// The whole chain as served: a test run's call through the simulator ends with its analysis
// stored and answered with the call log.
func TestATestCallLeavesItsAnalysis(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		wf, _, _ := runnable(t, env, ada, org, 1)
		var graph struct{ Data struct{ Nodes, Edges []any } }
		a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/"+wf, nil, &graph)
		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/save", map[string]any{"workflowId": wf, "nodes": graph.Data.Nodes, "edges": graph.Data.Edges,
			"postCallFields": []any{map[string]any{"name": "email", "type": "email", "description": "Your e-mail?"}}}, nil)
		var test struct{ Data jobJSON }
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/workflow/test-run/"+wf, map[string]any{"organizationId": org, "workflowId": wf,
			"customerDescription": "A busy chef", "destinationPhoneNumber": "+14155550100", "isTestWorkflow": true,
			"nameOrEmail": "Ada", "triggeredBy": "ada@example.com"}, &test)
		waitJob(t, a, ada.Access, test.Data.ID)
		var logs struct{ Data []struct{ ID, To string } }
		a.want(http.StatusOK, ada.Access, "GET", "/v1/call/logs?organizationId="+org, nil, &logs)
		id := ""
		for _, l := range logs.Data {
			if l.To == "+14155550100" {
				id = l.ID
			}
		}
		if id == "" {
			t.Fatalf("no call log of the test call: %+v", logs.Data)
		}
		var log struct {
			Data struct {
				Analysis *struct {
					Summary, Outcome, AnalysedBy string
					Fields                       []any
				}
			}
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/call/log/"+id+"?organizationId="+org, nil, &log)
		an := log.Data.Analysis
		if an == nil || an.Outcome == "" || an.Summary == "" || strings.Contains(an.Summary, "spoke") || an.AnalysedBy != "patterns" || an.Fields == nil {
			t.Fatalf("analysis %+v", an)
		}
	})
}
