package httpapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/internal/apitest"
	"github.com/bettyhq/betty/server/store"
)

func init() {
	wf := func(t *testing.T, env *apitest.Env, owner apitest.Caller, org string) map[string]string {
		return workflowFixture(t, env, owner, org)
	}
	for _, op := range []string{"getWorkflow", "deleteWorkflow", "saveWorkflow", "updateWorkflow", "setWorkflowAgent",
		"setWorkflowPhoneNumber", "updateWorkflowNode", "configureWorkflowShopify", "listWorkflowsByPhoneNumber"} {
		resourceFixtures[op] = wf
	}
	cw := func(t *testing.T, env *apitest.Env, owner apitest.Caller, org string) map[string]string {
		values := workflowFixture(t, env, owner, org)
		c := createCampaign(t, env, owner, org, map[string]any{"name": "Campaign of A"})
		var out struct{ Data workflowJSON }
		newTeamAPI(t, env).want(http.StatusCreated, owner.Access, "POST", "/v2/campaigns/workflow/create/"+c.ID, map[string]any{}, &out)
		values["campaignId"], values["id"], values["workflowId"] = c.ID, out.Data.ID, out.Data.ID
		return values
	}
	for _, op := range []string{"createCampaignWorkflow", "toggleCampaignWorkflow", "duplicateCampaignWorkflow", "listCampaignWorkflows"} {
		resourceFixtures[op] = cw
	}
}

type workflowJSON struct {
	ID, Name, WorkflowType, ReadablePromptStatus string
	OrganizationID                               string  `json:"organizationId"`
	AgentID                                      *string `json:"agentId"`
	CampaignID                                   *string `json:"campaignId"`
	PhoneNumberID                                *string `json:"phoneNumberId"`
	ReadablePrompt                               *string
	Active, ShopifyEnabled                       bool
	Version                                      int
	Nodes                                        []map[string]any
	Edges                                        []map[string]any
	Normalization                                []struct{ Rule, NodeID, EdgeID string }
	Problems                                     []struct{ Field, Message string }
	Warnings                                     []struct{ Field, Message string }
}

// workflowFixture makes an agent, a phone number and a workflow with a saved graph in org.
// fixtureNumbers numbers the fixtures' phone numbers: each is another (drawing them from the
// clock made two fixtures of one test collide now and then).
var fixtureNumbers atomic.Int64

func workflowFixture(t *testing.T, env *apitest.Env, owner apitest.Caller, org string) map[string]string {
	t.Helper()
	a := newTeamAPI(t, env)
	ag := createAgent(t, a, owner, org, map[string]any{})
	phone := env.PhoneNumber(t, org, fmt.Sprintf("+1415555%04d", fixtureNumbers.Add(1)%10000))
	var out struct{ Data workflowJSON }
	a.want(http.StatusCreated, owner.Access, "POST", "/v1/workflow/create",
		map[string]any{"organizationId": org, "name": "Fixture flow", "agentId": ag.ID, "workflowType": "outbound"}, &out)
	suffix := fmt.Sprint(time.Now().UnixNano())
	a.want(http.StatusOK, owner.Access, "POST", "/v1/workflow/save", map[string]any{"workflowId": out.Data.ID,
		"nodes": []any{node("start-"+suffix, "start", nil), node("agent-"+suffix, "agent", map[string]any{"instruction": "Hello"})},
		"edges": []any{edge("e-"+suffix, "start-"+suffix, "agent-"+suffix)}}, nil)
	return map[string]string{"id": out.Data.ID, "workflowId": out.Data.ID, "agentId": ag.ID, "phoneNumberId": phone, "nodeId": "agent-" + suffix}
}

func node(id, kind string, data map[string]any) map[string]any {
	if data == nil {
		data = map[string]any{}
	}
	return map[string]any{"id": id, "type": kind, "position": map[string]any{"x": 0, "y": 0}, "data": data}
}

func edge(id, source, target string) map[string]any {
	return map[string]any{"id": id, "source": source, "target": target, "type": "add-step"}
}

// waitForPrompt polls a workflow until its readable prompt is no longer being compiled.
func waitForPrompt(t *testing.T, a teamAPI, token, id string) workflowJSON {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var out struct{ Data workflowJSON }
		a.want(http.StatusOK, token, "GET", "/v1/workflow/"+id+"?withoutNodesAndEdges=true", nil, &out)
		if out.Data.ReadablePromptStatus != "in-progress" || time.Now().After(deadline) {
			return out.Data
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A new agent or name recompiles the prompt even while a compilation is under way (that one
// read the old agent and name, so it is not recorded): the prompt ends with the latest ones.
func TestPromptFollowsAgentAndName(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		ava := createAgent(t, a, ada, org, map[string]any{"name": "Ava"})
		bo := createAgent(t, a, ada, org, map[string]any{"name": "Bo"})
		var w struct{ Data workflowJSON }
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/workflow/create", map[string]any{"organizationId": org,
			"name": "Renewals", "agentId": ava.ID, "workflowType": "outbound"}, &w)
		if done := waitForPrompt(t, a, ada.Access, w.Data.ID); done.ReadablePromptStatus != "success" {
			t.Fatalf("first prompt: %+v", done)
		}
		// As if a compilation were under way when the agent changes, then the name.
		env.Exec(t, `UPDATE workflows SET readable_prompt_status = 'in-progress' WHERE id = ?`, w.Data.ID)
		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/agent", map[string]any{"workflowId": w.Data.ID, "agentId": bo.ID}, nil)
		done := waitForPrompt(t, a, ada.Access, w.Data.ID)
		if done.ReadablePromptStatus != "success" || done.ReadablePrompt == nil || !strings.Contains(*done.ReadablePrompt, "Bo calls") {
			t.Fatalf("after the agent change: %s %v", done.ReadablePromptStatus, done.ReadablePrompt)
		}
		env.Exec(t, `UPDATE workflows SET readable_prompt_status = 'in-progress' WHERE id = ?`, w.Data.ID)
		a.want(http.StatusOK, ada.Access, "PATCH", "/v1/workflow/update?workflowId="+w.Data.ID+"&name=Winbacks", nil, nil)
		done = waitForPrompt(t, a, ada.Access, w.Data.ID)
		if done.ReadablePromptStatus != "success" || done.ReadablePrompt == nil || !strings.Contains(*done.ReadablePrompt, "Winbacks") {
			t.Fatalf("after the rename: %s %v", done.ReadablePromptStatus, done.ReadablePrompt)
		}
	})
}

// A workflow from the customer-support template, edited, saved under the version guard and
// compiled; every Workflows operation built so far answers 2xx.
func TestWorkflowLifecycle(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		ag := createAgent(t, a, ada, org, map[string]any{"name": "Ava"})

		var templates struct {
			Data []struct {
				ID, Name, WorkflowType string
				Placeholders           []struct{ Key, Label string }
			}
			Meta struct{ TotalSize, TotalPages int }
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/templates/list", nil, &templates)
		if len(templates.Data) != 6 || templates.Meta.TotalSize != 8 || templates.Meta.TotalPages != 2 {
			t.Fatalf("templates page 1: %d of %d", len(templates.Data), templates.Meta.TotalSize)
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/templates/list?type=inbound", nil, &templates)
		var support string
		for _, tp := range templates.Data {
			if tp.WorkflowType != "inbound" {
				t.Errorf("inbound filter answered %s", tp.WorkflowType)
			}
			if tp.Name == "Customer support" {
				support = tp.ID
				if len(tp.Placeholders) != 7 {
					t.Errorf("customer support placeholders: %+v", tp.Placeholders)
				}
			}
		}

		values := map[string]any{"companyName": "Acme", "supportEmail": "help@acme.example", "operatingHours": "9 to 5",
			"businessAddress": "1 Main St", "commonIssue1": "password resets", "commonIssue2": "billing", "commonIssue3": "shipping"}
		// A template of the other type, and a value for a placeholder the template lacks, are refused.
		a.problem(http.StatusUnprocessableEntity, ada.Access, "POST", "/v1/workflow/create", map[string]any{"organizationId": org,
			"name": "Support", "agentId": ag.ID, "workflowType": "outbound", "workflowTemplate": support})
		p := a.problem(http.StatusBadRequest, ada.Access, "POST", "/v1/workflow/create", map[string]any{"organizationId": org,
			"name": "Support", "agentId": ag.ID, "workflowType": "inbound", "workflowTemplate": support, "templateValues": map[string]any{"nope": "x"}})
		if len(p.Errors) == 0 || p.Errors[0].Field != "body.templateValues.nope" {
			t.Errorf("unknown placeholder: %+v", p)
		}
		var created struct{ Data workflowJSON }
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/workflow/create", map[string]any{"organizationId": org,
			"name": "  Support  ", "agentId": ag.ID, "workflowType": "inbound", "workflowTemplate": support, "templateValues": values}, &created)
		w := created.Data
		if w.Name != "Support" || w.Version != 1 || len(w.Nodes) != 15 || len(w.Problems) != 0 || w.Warnings == nil || len(w.Warnings) != 0 {
			t.Fatalf("created: %+v", w)
		}
		text := fmt.Sprint(w.Nodes)
		if strings.Contains(text, "{{companyName}}") || !strings.Contains(text, "Acme support") || !strings.Contains(text, "password resets") {
			t.Errorf("placeholders not filled: %s", text)
		}
		done := waitForPrompt(t, a, ada.Access, w.ID)
		if done.ReadablePromptStatus != "success" || done.ReadablePrompt == nil || !strings.Contains(*done.ReadablePrompt, "Ava: Thank the caller for calling Acme support") {
			t.Fatalf("prompt: %s %v", done.ReadablePromptStatus, done.ReadablePrompt)
		}

		// A save normalises and reports; the version moves on and the prompt recompiles.
		nodes := append(w.Nodes, node("lonely-"+w.ID, "agent", map[string]any{"instruction": "Offer a discount."}))
		var saved struct{ Data workflowJSON }
		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/save", map[string]any{"workflowId": w.ID, "version": 1, "nodes": nodes, "edges": w.Edges}, &saved)
		if saved.Data.Version != 2 || len(saved.Data.Normalization) != 1 || saved.Data.Normalization[0].Rule != "placeholder-added" ||
			len(saved.Data.Nodes) != 17 || len(saved.Data.Problems) != 1 || saved.Data.Problems[0].Field != "nodes[lonely-"+w.ID+"]" {
			t.Fatalf("saved: v%d %+v %+v", saved.Data.Version, saved.Data.Normalization, saved.Data.Problems)
		}
		// Without a language model, a step without a spoken line is warned about (not a problem).
		if len(saved.Data.Warnings) != 1 || saved.Data.Warnings[0].Field != "nodes[lonely-"+w.ID+"].say" {
			t.Fatalf("warnings: %+v", saved.Data.Warnings)
		}
		// A stale editor gets 409 with the current version.
		res := a.do(ada.Access, "POST", "/v1/workflow/save", map[string]any{"workflowId": w.ID, "version": 1, "nodes": w.Nodes, "edges": w.Edges})
		var stale struct{ CurrentVersion int }
		res.JSON(t, &stale)
		if res.Status != http.StatusConflict || stale.CurrentVersion != 2 {
			t.Fatalf("stale save: %d %s", res.Status, res.Body)
		}
		// A hard rule answers 422, one error per node.
		bad := append([]map[string]any{}, saved.Data.Nodes...)
		bad = append(bad, node("fw-"+w.ID, "forward-call", map[string]any{"destinationPhoneNumber": "+19995550123"}), node("start2-"+w.ID, "start", nil))
		p = a.problem(http.StatusUnprocessableEntity, ada.Access, "POST", "/v1/workflow/save", map[string]any{"workflowId": w.ID, "nodes": bad, "edges": saved.Data.Edges})
		if len(p.Errors) != 1 || p.Errors[0].Field != "nodes[start2-"+w.ID+"].type" {
			t.Errorf("two starts: %+v", p.Errors)
		}
		bad = bad[:len(bad)-1]
		p = a.problem(http.StatusUnprocessableEntity, ada.Access, "POST", "/v1/workflow/save", map[string]any{"workflowId": w.ID, "nodes": bad, "edges": saved.Data.Edges})
		if len(p.Errors) != 1 || p.Errors[0].Field != "nodes[fw-"+w.ID+"].destinationPhoneNumber" {
			t.Errorf("bad number: %+v", p.Errors)
		}

		// One node's data; a data-access node cannot be edited.
		var upd struct{ Data workflowJSON }
		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/node/lonely-"+w.ID, map[string]any{"workflowId": w.ID,
			"params": map[string]any{"instruction": "Offer 10% off.", "nodeLabel": "Discount"}}, &upd)
		if upd.Data.Version != 3 || !strings.Contains(fmt.Sprint(upd.Data.Nodes), "Offer 10% off.") {
			t.Errorf("node update: v%d", upd.Data.Version)
		}
		a.problem(http.StatusNotFound, ada.Access, "POST", "/v1/workflow/node/ghost", map[string]any{"workflowId": w.ID, "params": map[string]any{}})

		// Rename, agent, phone number, storefront, lists.
		var ren struct{ Data workflowJSON }
		a.want(http.StatusOK, ada.Access, "PATCH", "/v1/workflow/update?workflowId="+w.ID+"&name=Helpdesk", nil, &ren)
		if ren.Data.Name != "Helpdesk" || ren.Data.Version != 3 || ren.Data.Nodes != nil {
			t.Errorf("rename: %+v", ren.Data)
		}
		other := createAgent(t, a, ada, org, map[string]any{"name": "Bo"})
		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/agent", map[string]any{"workflowId": w.ID, "agentId": other.ID}, &upd)
		if upd.Data.AgentID == nil || *upd.Data.AgentID != other.ID {
			t.Errorf("agent: %+v", upd.Data)
		}
		if done := waitForPrompt(t, a, ada.Access, w.ID); done.ReadablePrompt == nil || !strings.Contains(*done.ReadablePrompt, "Bo: ") {
			t.Errorf("prompt after agent change: %v", done.ReadablePrompt)
		}
		phone := env.PhoneNumber(t, org, "+14155550111")
		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/config/phone", map[string]any{"workflowId": w.ID, "phoneNumberId": phone}, &upd)
		var second struct{ Data workflowJSON }
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/workflow/create", map[string]any{"organizationId": org,
			"name": "Night line", "agentId": ag.ID, "workflowType": "inbound"}, &second)
		a.problem(http.StatusConflict, ada.Access, "POST", "/v1/workflow/config/phone", map[string]any{"workflowId": second.Data.ID, "phoneNumberId": phone})
		var byPhone struct {
			Data []workflowJSON
			Meta struct{ TotalSize int }
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/phone-number/"+phone+"?workflowType=inbound", nil, &byPhone)
		if len(byPhone.Data) != 1 || byPhone.Data[0].ID != w.ID || byPhone.Meta.TotalSize != 1 {
			t.Errorf("by phone: %+v", byPhone)
		}
		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/config/phone", map[string]any{"workflowId": w.ID, "phoneNumberId": nil}, &upd)
		if upd.Data.PhoneNumberID != nil {
			t.Errorf("phone not removed")
		}
		a.problem(http.StatusUnprocessableEntity, ada.Access, "POST", "/v1/workflow/config/shopify", map[string]any{"workflowId": w.ID, "organizationId": org})
		var out1, out2 struct{ Data workflowJSON }
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/workflow/create", map[string]any{"organizationId": org, "name": "Shop 1", "agentId": ag.ID, "workflowType": "outbound"}, &out1)
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/workflow/create", map[string]any{"organizationId": org, "name": "Shop 2", "agentId": ag.ID, "workflowType": "outbound"}, &out2)
		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/config/shopify", map[string]any{"workflowId": out1.Data.ID, "organizationId": org}, &upd)
		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/config/shopify", map[string]any{"workflowId": out2.Data.ID, "organizationId": org}, &upd)
		a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/"+out1.Data.ID, nil, &out1)
		if !upd.Data.ShopifyEnabled || out1.Data.ShopifyEnabled {
			t.Errorf("storefront flag: %v %v", upd.Data.ShopifyEnabled, out1.Data.ShopifyEnabled)
		}
		var list struct {
			Data []workflowJSON
			Meta struct{ TotalSize int }
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/list?organizationId="+org+"&workflowType=inbound", nil, &list)
		if list.Meta.TotalSize != 2 || list.Data[0].Nodes != nil {
			t.Errorf("list inbound: %+v", list)
		}
		a.want(http.StatusOK, ada.Access, "DELETE", "/v1/workflow/"+second.Data.ID, nil, nil)
		a.problem(http.StatusNotFound, ada.Access, "GET", "/v1/workflow/"+second.Data.ID, nil)

		// Readonly members read, they do not write.
		reader := env.SignUp(t, "reader@example.com")
		addMember(t, env, org, store.User{ID: reader.UserID, Email: reader.Email}, "readonly")
		a.want(http.StatusOK, reader.Access, "GET", "/v1/workflow/"+w.ID, nil, nil)
		a.problem(http.StatusForbidden, reader.Access, "POST", "/v1/workflow/save", map[string]any{"workflowId": w.ID, "nodes": []any{}, "edges": []any{}})
	})
}

// Campaign workflows: created inactive with the campaign's type and agent, toggled (one active
// per campaign), listed five a page with filters, duplicated with new node ids.
func TestWorkflowsOfCampaigns(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		c := createCampaign(t, env, ada, org, map[string]any{"name": "Renewals", "type": "outbound"})
		ag := createAgent(t, a, ada, org, map[string]any{"name": "Ava", "campaignId": c.ID, "status": "active"})
		type summary struct {
			ID, Name, CampaignID, WorkflowType string
			AgentID                            *string
			Active                             bool
			Version                            int
		}
		var one struct{ Data summary }
		a.want(http.StatusCreated, ada.Access, "POST", "/v2/campaigns/workflow/create/"+c.ID, map[string]any{}, &one)
		if one.Data.Name != "Renewals workflow" || one.Data.WorkflowType != "outbound" || one.Data.Active || one.Data.AgentID == nil || *one.Data.AgentID != ag.ID {
			t.Fatalf("created: %+v", one.Data)
		}
		first := one.Data.ID
		suffix := fmt.Sprint(time.Now().UnixNano())
		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/save", map[string]any{"workflowId": first,
			"nodes": []any{node("s"+suffix, "start", nil), node("c"+suffix, "contacts", map[string]any{"contacts_source": "csv"}), node("e"+suffix, "end-call", nil)},
			"edges": []any{edge("x"+suffix, "s"+suffix, "e"+suffix)}}, nil)
		for i := 0; i < 5; i++ {
			a.want(http.StatusCreated, ada.Access, "POST", "/v2/campaigns/workflow/create/"+c.ID, map[string]any{"name": fmt.Sprintf("Variant %d", i)}, nil)
		}
		var camp struct {
			Data struct {
				WorkflowID *string `json:"workflowId"`
				Workflows  []summary
			}
		}
		a.want(http.StatusOK, ada.Access, "PATCH", "/v2/campaigns/workflow/toggle/"+first, map[string]any{"campaignId": c.ID, "active": true}, &camp)
		if camp.Data.WorkflowID == nil || *camp.Data.WorkflowID != first || len(camp.Data.Workflows) != 6 {
			t.Fatalf("toggle on: %+v", camp.Data)
		}
		// Duplicating the campaign copies its workflows: new ids, the copied agent, the copy of
		// the active one active.
		var dupCamp struct {
			Data struct {
				ID         string  `json:"id"`
				WorkflowID *string `json:"workflowId"`
				Workflows  []summary
				Agents     []struct{ ID string }
			}
		}
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/campaigns/duplicate/"+c.ID, nil, &dupCamp)
		if len(dupCamp.Data.Workflows) != 6 || dupCamp.Data.WorkflowID == nil || *dupCamp.Data.WorkflowID == first || len(dupCamp.Data.Agents) != 1 {
			t.Fatalf("duplicated campaign: %+v", dupCamp.Data)
		}
		for _, w := range dupCamp.Data.Workflows {
			if w.AgentID == nil || *w.AgentID != dupCamp.Data.Agents[0].ID || w.CampaignID != dupCamp.Data.ID || w.Version != 1 {
				t.Errorf("copied workflow: %+v", w)
			}
		}
		var activeCopy struct{ Data workflowJSON }
		a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/"+*dupCamp.Data.WorkflowID, nil, &activeCopy)
		if !activeCopy.Data.Active || len(activeCopy.Data.Nodes) != 3 || strings.Contains(fmt.Sprint(activeCopy.Data.Nodes), suffix) ||
			strings.Contains(fmt.Sprint(activeCopy.Data.Nodes), "contactsSource") {
			t.Errorf("active copy: %+v", activeCopy.Data.Nodes)
		}
		var page struct {
			Data []summary
			Meta struct{ TotalSize, TotalPages int }
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v2/campaigns/workflow/list/"+c.ID+"?sizePerPage=5", nil, &page)
		if len(page.Data) != 5 || page.Meta.TotalSize != 6 || page.Meta.TotalPages != 2 {
			t.Errorf("page: %+v", page.Meta)
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v2/campaigns/workflow/list/"+c.ID+"?filters=active:true", nil, &page)
		if len(page.Data) != 1 || page.Data[0].ID != first || !page.Data[0].Active {
			t.Errorf("active filter: %+v", page.Data)
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v2/campaigns/workflow/list/"+c.ID+"?filters=name:VARIANT,active:false", nil, &page)
		if page.Meta.TotalSize != 5 {
			t.Errorf("name filter: %+v", page.Meta)
		}
		var dup struct{ Data summary }
		a.want(http.StatusCreated, ada.Access, "POST", "/v2/campaigns/workflow/duplicate/"+first, nil, &dup)
		var copied struct{ Data workflowJSON }
		a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/"+dup.Data.ID, nil, &copied)
		if dup.Data.Name != "Copy of Renewals workflow" || dup.Data.Active || dup.Data.Version != 1 || len(copied.Data.Nodes) != 3 {
			t.Fatalf("duplicate: %+v", dup.Data)
		}
		for _, n := range copied.Data.Nodes {
			if strings.HasSuffix(n["id"].(string), suffix) {
				t.Errorf("copied node keeps its id %v", n["id"])
			}
			if d, _ := n["data"].(map[string]any); d["contactsSource"] != nil {
				t.Errorf("copied contacts source: %v", d)
			}
		}
		a.want(http.StatusOK, ada.Access, "PATCH", "/v2/campaigns/workflow/toggle/"+dup.Data.ID, map[string]any{"campaignId": c.ID, "active": false}, &camp)
		if camp.Data.WorkflowID == nil || *camp.Data.WorkflowID != first {
			t.Errorf("toggling off another workflow changed the campaign")
		}
		a.want(http.StatusOK, ada.Access, "PATCH", "/v2/campaigns/workflow/toggle/"+first, map[string]any{"campaignId": c.ID, "active": false}, &camp)
		if camp.Data.WorkflowID != nil {
			t.Errorf("toggle off: %+v", camp.Data)
		}
		other := createCampaign(t, env, ada, org, map[string]any{"name": "Other"})
		a.problem(http.StatusNotFound, ada.Access, "PATCH", "/v2/campaigns/workflow/toggle/"+first, map[string]any{"campaignId": other.ID, "active": true})
		a.problem(http.StatusBadRequest, ada.Access, "GET", "/v2/campaigns/workflow/list/"+c.ID+"?filters=active:true,active:false", nil)
	})
}
