package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/internal/apitest"
)

// sharedNodes are the node ids every workflow of these tests uses, as an exported flow
// imported into several workflows would.
var sharedNodes = []any{node("contacts", "contacts", nil), node("start", "start", nil)}

// workflowWithCSV makes an outbound workflow of org whose graph uses sharedNodes, with a CSV
// source of one callable contact named first and one rejected row ("Bad"), read in full.
func workflowWithCSV(t *testing.T, env *apitest.Env, owner apitest.Caller, org, first, phone string) string {
	t.Helper()
	a := newTeamAPI(t, env)
	ag := createAgent(t, a, owner, org, map[string]any{})
	var w struct{ Data workflowJSON }
	a.want(http.StatusCreated, owner.Access, "POST", "/v1/workflow/create",
		map[string]any{"organizationId": org, "name": "Calls of " + first, "agentId": ag.ID, "workflowType": "outbound"}, &w)
	a.want(http.StatusOK, owner.Access, "POST", "/v1/workflow/save", map[string]any{"workflowId": w.Data.ID, "nodes": sharedNodes, "edges": []any{}}, nil)
	_, link := finishedUpload(t, env, owner.Access, org, "contacts-csv", first+".csv", []byte("phone,firstName\n"+phone+","+first+"\nnope,Bad\n"))
	a.want(http.StatusOK, owner.Access, "POST", "/v1/workflow/contacts", map[string]any{"organizationId": org, "workflowId": w.Data.ID,
		"nodeId": "contacts", "source": "csv", "fileUrl": link}, nil)
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if csvOf(t, a, owner.Access, "?workflowId="+w.Data.ID).Status != "parsing" || time.Now().After(deadline) {
			break
		}
	}
	return w.Data.ID
}

type csvJSON struct {
	Status string
	Rows   []contactJSON
}

// csvOf answers the CSV of node "contacts" asked with query (naming the workflow or not).
func csvOf(t *testing.T, a teamAPI, token, query string) csvJSON {
	t.Helper()
	var out struct{ Data csvJSON }
	a.want(http.StatusOK, token, "GET", "/v1/workflow/csv/contacts"+query, nil, &out)
	return out.Data
}

func firstNames(c csvJSON) string {
	var names []string
	for _, r := range c.Rows {
		names = append(names, *r.FirstName)
	}
	return strings.Join(names, ",")
}

// Node ids are unique per workflow only: two teams' workflows, and two workflows of one team,
// use the same node ids, each with its own contacts. Without workflowId a node is looked for
// among the caller's own workflows: another team's never answers, and one the caller's
// workflows share is refused naming query.workflowId.
func TestNodeIDsAreUniquePerWorkflowOnly(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		acme := env.Team(t, ada, "Acme")
		bob := env.SignUp(t, "bob@example.com")
		bobs := env.Team(t, bob, "Bob's")
		bobKey := env.APIKey(t, bobs, "developer")
		cy := env.SignUp(t, "cy@example.com")
		env.Team(t, cy, "Cy's")

		mine := workflowWithCSV(t, env, ada, acme, "Ada", "+14155550101")
		// Another team saves a graph with the same node ids (it answered 409 "already used by
		// another workflow", telling Bob that some team had them).
		theirs := workflowWithCSV(t, env, bob, bobs, "Bob", "+14155550102")

		for who, token := range map[string]string{"Bob": bob.Access, "Bob's API key": bobKey} {
			if got := firstNames(csvOf(t, a, token, "")); got != "Bob,Bad" {
				t.Errorf("%s without workflowId got %q, want his own node's contacts", who, got)
			}
			if got := firstNames(csvOf(t, a, token, "?workflowId="+theirs)); got != "Bob,Bad" {
				t.Errorf("%s with his workflow got %q", who, got)
			}
			for _, path := range []string{"/v1/workflow/csv/contacts?workflowId=" + mine, "/v1/workflow/csv/contacts/rejected?workflowId=" + mine} {
				if p := a.problem(http.StatusNotFound, token, "GET", path, nil); p.Detail != "Node not found." {
					t.Errorf("%s naming Ada's workflow: %s", who, p.Detail)
				}
			}
			if p := a.problem(http.StatusNotFound, token, "DELETE", "/v1/workflow/csv/contacts?workflowId="+mine, nil); p.Detail != "Node not found." {
				t.Errorf("%s deleting Ada's CSV: %s", who, p.Detail)
			}
		}
		if got := firstNames(csvOf(t, a, ada.Access, "")); got != "Ada,Bad" {
			t.Errorf("Ada without workflowId got %q", got)
		}
		// A caller none of whose workflows has the node is told it does not exist.
		if p := a.problem(http.StatusNotFound, cy.Access, "GET", "/v1/workflow/csv/contacts", nil); p.Detail != "Node not found." {
			t.Errorf("a team without the node: %s", p.Detail)
		}

		// A second workflow of Ada's team with the same node ids and its own contacts.
		copyOf := workflowWithCSV(t, env, ada, acme, "Cleo", "+14155550103")
		for _, path := range []string{"/v1/workflow/csv/contacts", "/v1/workflow/csv/contacts/rejected"} {
			p := a.problem(http.StatusBadRequest, ada.Access, "GET", path, nil)
			if len(p.Errors) != 1 || p.Errors[0].Field != "query.workflowId" {
				t.Errorf("%s shared by two of Ada's workflows: %+v", path, p)
			}
		}
		a.problem(http.StatusBadRequest, ada.Access, "DELETE", "/v1/workflow/csv/contacts", nil)
		if got := firstNames(csvOf(t, a, ada.Access, "?workflowId="+mine)); got != "Ada,Bad" {
			t.Errorf("the first workflow's contacts: %q", got)
		}
		if got := firstNames(csvOf(t, a, ada.Access, "?workflowId="+copyOf)); got != "Cleo,Bad" {
			t.Errorf("the second workflow's contacts: %q", got)
		}
		res := a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/csv/contacts/rejected?workflowId="+copyOf, nil, nil)
		if string(res.Body) != "phone,firstName,reason\nnope,Bad,Invalid phone number\n" || !strings.Contains(res.Header.Get("Content-Disposition"), "Cleo-rejected.csv") {
			t.Errorf("the second workflow's rejected rows: %q %s", res.Body, res.Header.Get("Content-Disposition"))
		}
		// Removing one workflow's CSV leaves the other's, and its file.
		a.want(http.StatusOK, ada.Access, "DELETE", "/v1/workflow/csv/contacts?workflowId="+copyOf, nil, nil)
		if p := a.problem(http.StatusNotFound, ada.Access, "GET", "/v1/workflow/csv/contacts?workflowId="+copyOf, nil); p.Detail != "CSV file not found." {
			t.Errorf("the removed CSV: %s", p.Detail)
		}
		if got := firstNames(csvOf(t, a, ada.Access, "?workflowId="+mine)); got != "Ada,Bad" {
			t.Errorf("after the second's CSV was removed, the first's: %q", got)
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/csv/contacts/rejected?workflowId="+mine, nil, nil)
		// Deleting a workflow takes its node: the id is then unique again in the team.
		a.want(http.StatusOK, ada.Access, "DELETE", "/v1/workflow/"+copyOf, nil, nil)
		if got := firstNames(csvOf(t, a, ada.Access, "")); got != "Ada,Bad" {
			t.Errorf("after the second workflow was deleted: %q", got)
		}
		if got := firstNames(csvOf(t, a, bob.Access, "")); got != "Bob,Bad" {
			t.Errorf("Bob's contacts after all that: %q", got)
		}
	})
}
