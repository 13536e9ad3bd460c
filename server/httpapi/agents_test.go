package httpapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/internal/apitest"
)

type agentJSON struct {
	ID, Name, Status, Greeting, Instructions, Language, OrganizationID string
	CampaignID, VoiceID, VoicePresetID                                 *string
	Faq                                                                map[string]string
	AudioFiles, KnowledgeFiles                                         []any
}

func createAgent(t *testing.T, a teamAPI, c apitest.Caller, org string, body map[string]any) agentJSON {
	t.Helper()
	body["organizationId"] = org
	if _, ok := body["name"]; !ok {
		body["name"] = "Ava"
	}
	var out struct{ Data agentJSON }
	a.want(http.StatusCreated, c.Access, "POST", "/v1/agent/create", body, &out)
	return out.Data
}

// Activating an agent makes every other agent of its campaign inactive, in one transaction;
// creating one active does the same; moving an active agent elsewhere makes it inactive.
func TestAgentActivationIsExclusivePerCampaign(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		c1 := createCampaign(t, env, ada, org, map[string]any{"name": "One"})
		c2 := createCampaign(t, env, ada, org, map[string]any{"name": "Two"})
		x := createAgent(t, a, ada, org, map[string]any{"name": "X", "campaignId": c1.ID, "status": "active"})
		y := createAgent(t, a, ada, org, map[string]any{"name": "Y", "campaignId": c1.ID})
		z := createAgent(t, a, ada, org, map[string]any{"name": "Z", "campaignId": c2.ID, "status": "active"})
		loose := createAgent(t, a, ada, org, map[string]any{"name": "Loose", "status": "active"})
		if y.Status != "inactive" || x.Status != "active" || loose.CampaignID != nil || loose.Status != "active" {
			t.Fatalf("created: %+v %+v %+v", x, y, loose)
		}
		statuses := func(campaign string) map[string]string {
			var body struct{ Data []agentJSON }
			a.want(http.StatusOK, ada.Access, "GET", "/v1/agent/list/campaigns/"+campaign+"?organizationId="+org, nil, &body)
			out := map[string]string{}
			for i, ag := range body.Data {
				out[ag.Name] = ag.Status
				if i == 0 && ag.Status != "active" && len(body.Data) > 1 && hasActive(body.Data) {
					t.Errorf("the active agent is not listed first: %+v", body.Data)
				}
			}
			return out
		}
		a.want(http.StatusOK, ada.Access, "PUT", "/v1/agent/activate/"+y.ID+"?organizationId="+org, nil, nil)
		if s := statuses(c1.ID); s["X"] != "inactive" || s["Y"] != "active" || len(s) != 2 {
			t.Fatalf("after activating Y: %v", s)
		}
		if s := statuses(c2.ID); s["Z"] != "active" {
			t.Fatalf("another campaign changed: %v", s)
		}
		// Activating again changes nothing; creating an active agent unseats the active one.
		a.want(http.StatusOK, ada.Access, "PUT", "/v1/agent/activate/"+y.ID+"?organizationId="+org, nil, nil)
		createAgent(t, a, ada, org, map[string]any{"name": "W", "campaignId": c1.ID, "status": "active"})
		if s := statuses(c1.ID); s["Y"] != "inactive" || s["W"] != "active" {
			t.Fatalf("after creating W active: %v", s)
		}
		// Moving the active Z to campaign 1 makes it inactive there, and W stays active.
		var moved struct{ Data agentJSON }
		a.want(http.StatusOK, ada.Access, "PATCH", "/v1/agent/"+z.ID, map[string]any{"organizationId": org, "campaignId": c1.ID}, &moved)
		if moved.Data.Status != "inactive" || *moved.Data.CampaignID != c1.ID || statuses(c1.ID)["W"] != "active" {
			t.Fatalf("moved: %+v", moved.Data)
		}
		a.want(http.StatusOK, ada.Access, "PUT", "/v1/agent/deactivate/"+x.ID+"?organizationId="+org, nil, nil)
		// Another team's agent, or campaign, is not found.
		zed := env.SignUp(t, "zed@example.com")
		zorg := env.Team(t, zed, "Other")
		a.problem(http.StatusNotFound, zed.Access, "PUT", "/v1/agent/activate/"+x.ID+"?organizationId="+zorg, nil)
		a.problem(http.StatusNotFound, zed.Access, "GET", "/v1/agent/list/campaigns/"+c1.ID+"?organizationId="+zorg, nil)
		a.problem(http.StatusNotFound, zed.Access, "POST", "/v1/agent/create", map[string]any{"organizationId": zorg, "name": "Q", "campaignId": c1.ID})
	})
}

func hasActive(ags []agentJSON) bool {
	for _, ag := range ags {
		if ag.Status == "active" {
			return true
		}
	}
	return false
}

func TestAgentFAQAndFields(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		ag := createAgent(t, a, ada, org, map[string]any{"name": " Ava ", "greeting": "Hello, this is Ava.", "instructions": "Be kind.",
			"faq": map[string]string{"[2] Do you deliver?": "Yes.", "[1] Opening hours?": "9 to 5."}})
		if ag.Name != "Ava" || ag.Language != "en-US" || ag.Status != "inactive" || len(ag.Faq) != 2 || ag.AudioFiles == nil || ag.KnowledgeFiles == nil {
			t.Fatalf("created: %+v", ag)
		}
		faq := func(body map[string]any) map[string]string {
			body["organizationId"] = org
			var out struct{ Data agentJSON }
			a.want(http.StatusOK, ada.Access, "POST", "/v1/agent/faq/"+ag.ID, body, &out)
			return out.Data.Faq
		}
		if f := faq(map[string]any{"faq": map[string]string{"[1] Opening hours?": "8 to 6.", "[3] Parking?": "Free."}}); len(f) != 3 || f["[1] Opening hours?"] != "8 to 6." {
			t.Fatalf("merged: %v", f)
		}
		if f := faq(map[string]any{"faq": map[string]string{"Only?": "This."}, "clear": true}); len(f) != 1 || f["Only?"] != "This." {
			t.Fatalf("replaced: %v", f)
		}
		if f := faq(map[string]any{"faq": map[string]string{}, "clear": true}); len(f) != 0 {
			t.Fatalf("emptied: %v", f)
		}
		// At most 200 pairs in all, merged or not.
		many := map[string]string{}
		for i := range 150 {
			many[fmt.Sprintf("Q%d?", i)] = "A"
		}
		faq(map[string]any{"faq": many})
		more := map[string]string{}
		for i := range 60 {
			more[fmt.Sprintf("R%d?", i)] = "B"
		}
		a.problem(http.StatusUnprocessableEntity, ada.Access, "POST", "/v1/agent/faq/"+ag.ID, map[string]any{"organizationId": org, "faq": more})

		// Voices: one or the other, and they must exist.
		a.problem(http.StatusBadRequest, ada.Access, "PATCH", "/v1/agent/"+ag.ID, map[string]any{"organizationId": org, "voiceId": "v", "voicePresetId": "p"})
		a.problem(http.StatusNotFound, ada.Access, "PATCH", "/v1/agent/"+ag.ID, map[string]any{"organizationId": org, "voiceId": "no-such-voice"})
		// A link that is not a file of a knowledge base is refused with the reason, nothing changed.
		p := a.problem(http.StatusUnprocessableEntity, ada.Access, "PATCH", "/v1/agent/"+ag.ID, map[string]any{"organizationId": org,
			"name": "Changed", "knowledgeFiles": []map[string]any{{"fileUrl": "https://example.com/x.pdf", "name": "x.pdf"}}})
		if !strings.Contains(p.Detail, "knowledge bases") {
			t.Fatalf("%+v", p)
		}
		var got struct{ Data agentJSON }
		a.want(http.StatusOK, ada.Access, "GET", "/v1/agent/"+ag.ID+"?organizationId="+org, nil, &got)
		if got.Data.Name != "Ava" {
			t.Fatalf("a refused update wrote: %+v", got.Data)
		}
		var files struct {
			Data []any
			Meta metaJSON
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/agent/list/knowledge-file/"+ag.ID+"?organizationId="+org, nil, &files)
		if len(files.Data) != 0 || files.Meta.Page != 1 {
			t.Fatalf("knowledge files: %+v", files)
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/agent/audio-list?agentId="+ag.ID+"&organizationId="+org, nil, &files)
		var sums struct{ Data []any }
		a.want(http.StatusOK, ada.Access, "GET", "/v1/agent/audio-summary?formIds=a,b&organizationId="+org, nil, &sums)
		if len(sums.Data) != 0 {
			t.Fatalf("unknown ids are left out: %+v", sums)
		}

		// Duplicate: inactive, "Copy of", same FAQ and greeting; then delete.
		var dup struct{ Data agentJSON }
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/agent/duplicate", map[string]any{"organizationId": org, "id": ag.ID}, &dup)
		if dup.Data.Name != "Copy of Ava" || dup.Data.Status != "inactive" || dup.Data.Greeting != "Hello, this is Ava." || len(dup.Data.Faq) != 150 {
			t.Fatalf("copy: %+v", dup.Data)
		}
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/agent/duplicate", map[string]any{"organizationId": org, "id": ag.ID, "name": "Bea"}, &dup)
		if dup.Data.Name != "Bea" {
			t.Fatalf("named copy: %+v", dup.Data)
		}
		a.want(http.StatusOK, ada.Access, "DELETE", "/v1/agent/delete/"+dup.Data.ID+"?organizationId="+org, nil, nil)
		a.problem(http.StatusNotFound, ada.Access, "GET", "/v1/agent/"+dup.Data.ID+"?organizationId="+org, nil)
		var list struct {
			Data []agentJSON
			Meta metaJSON
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/agent/list/"+org+"?page=7", nil, &list)
		if list.Meta.TotalSize != 2 || list.Meta.Page != 1 || list.Data[0].Name != "Copy of Ava" {
			t.Fatalf("list: %+v", list)
		}
	})
}

// The team's one call configuration pairs an active number bought through Betty with an agent,
// and sets up the inbound workflow that answers the number with it: a number without one gets
// "Calls to <number>" from the Answer calls template; a number with its own inbound workflow
// has that workflow's agent set. An agent a workflow speaks with is not deleted (409).
func TestAgentCallConfig(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		ag := createAgent(t, a, ada, org, map[string]any{})
		ag2 := createAgent(t, a, ada, org, map[string]any{"name": "Bea"})
		ag3 := createAgent(t, a, ada, org, map[string]any{"name": "Cy"})
		num := env.PhoneNumber(t, org, "+14155550123")
		own := env.PhoneNumber(t, org, "+14155550124")
		env.Exec(t, "UPDATE phone_numbers SET is_non_telnyx = ? WHERE id = ?", true, own)
		pending := env.PhoneNumber(t, org, "+14155550125")
		env.Exec(t, "UPDATE phone_numbers SET status = 'pending' WHERE id = ?", pending)
		desk := env.PhoneNumber(t, org, "+14155550126")
		zed := env.SignUp(t, "zed@example.com")
		foreign := env.PhoneNumber(t, env.Team(t, zed, "Other"), "+14155550199")
		set := func(status int, phone, agent string) map[string]any {
			var out struct{ Data map[string]any }
			res := a.do(ada.Access, "POST", "/v1/agent/config/call", map[string]any{"organizationId": org, "phoneNumberId": phone, "agentId": agent})
			if res.Status != status {
				t.Fatalf("pair %s with %s: %d %s", phone, agent, res.Status, res.Body)
			}
			if status == 200 {
				res.JSON(t, &out)
			}
			return out.Data
		}
		type flow struct {
			ID, Name, WorkflowType, AgentID, PhoneNumberID string
			Nodes                                          []map[string]any
			Problems                                       []map[string]any
		}
		get := func(id any) flow {
			var w struct{ Data flow }
			a.want(http.StatusOK, ada.Access, "GET", fmt.Sprintf("/v1/workflow/%v?organizationId=%s", id, org), nil, &w)
			return w.Data
		}
		count := func() int {
			var l struct{ Meta struct{ TotalSize int } }
			a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/list?organizationId="+org, nil, &l)
			return l.Meta.TotalSize
		}

		first := set(200, num, ag.ID)
		w := get(first["workflowId"])
		if w.Name != "Calls to +14155550123" || w.WorkflowType != "inbound" || w.AgentID != ag.ID || w.PhoneNumberID != num ||
			len(w.Nodes) == 0 || len(w.Problems) != 0 {
			t.Fatalf("the workflow made for the pairing: %+v", w)
		}
		second := set(200, num, ag2.ID)
		if first["id"] != second["id"] || second["agentId"] != ag2.ID || second["workflowId"] != w.ID || get(w.ID).AgentID != ag2.ID {
			t.Fatalf("one configuration per team, replaced, the same workflow given the agent: %v %v", first, second)
		}
		set(422, own, ag.ID)
		set(422, pending, ag.ID)
		set(404, foreign, ag.ID)
		set(404, num, "no-such-agent")
		if n := count(); n != 1 {
			t.Fatalf("refused pairings made workflows: %d", n)
		}

		// A number with an inbound workflow of its own: that workflow gets the agent.
		var front struct{ Data workflowJSON }
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/workflow/create",
			map[string]any{"organizationId": org, "name": "Front desk", "workflowType": "inbound", "agentId": ag.ID}, &front)
		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/config/phone", map[string]any{"workflowId": front.Data.ID, "phoneNumberId": desk}, nil)
		third := set(200, desk, ag3.ID)
		if third["workflowId"] != front.Data.ID || get(front.Data.ID).AgentID != ag3.ID || count() != 2 {
			t.Fatalf("the number's own workflow: %v, %d workflows", third, count())
		}

		// An agent a workflow speaks with is not deleted; once free, it is, and so is its pairing.
		res := a.do(ada.Access, "DELETE", "/v1/agent/delete/"+ag3.ID+"?organizationId="+org, nil)
		if res.Status != http.StatusConflict || !strings.Contains(res.Problem(t).Detail, `"Front desk"`) {
			t.Fatalf("delete an agent in use: %d %s", res.Status, res.Body)
		}
		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/agent", map[string]any{"workflowId": front.Data.ID, "agentId": ag.ID}, nil)
		a.want(http.StatusOK, ada.Access, "DELETE", "/v1/agent/delete/"+ag3.ID+"?organizationId="+org, nil, nil)
		fourth := set(200, num, ag.ID)
		if fourth["id"] == first["id"] || fourth["workflowId"] != w.ID {
			t.Fatalf("the pairing of a deleted agent survived: %v", fourth)
		}
	})
}
