package httpapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/internal/apitest"
)

func init() {
	campaign := func(t *testing.T, env *apitest.Env, owner apitest.Caller, org string) map[string]string {
		return map[string]string{"id": createCampaign(t, env, owner, org, map[string]any{"name": "A's"}).ID}
	}
	for _, op := range []string{"getCampaign", "updateCampaign", "deleteCampaign", "duplicateCampaign"} {
		resourceFixtures[op] = campaign
	}
	resourceFixtures["listCampaignPhoneNumberAssignments"] = func(t *testing.T, env *apitest.Env, _ apitest.Caller, org string) map[string]string {
		return map[string]string{"id": env.PhoneNumber(t, org, "+14155550100")}
	}
}

type campaignJSON struct {
	ID, Name, Type, Status, Priority, Purpose, OrganizationID string
	WorkflowID, PhoneNumberID, PhoneNumber                    *string
	Settings                                                  struct {
		MaxConcurrentCalls, RetryAttempts, RetryDelayMinutes int
		Timezone, VoicemailAction                            string
		VoicemailMessage                                     *string
		RecordCalls                                          bool
		CallWindow                                           struct {
			Start, End string
			Days       []string
		}
	}
	Agents []struct{ ID, Name, Status string }
}

func createCampaign(t *testing.T, env *apitest.Env, c apitest.Caller, org string, body map[string]any) campaignJSON {
	t.Helper()
	body["organizationId"] = org
	res := env.Do(apitest.Request{Method: "POST", Path: "/v1/campaigns/create", Body: body, Token: c.Access})
	if res.Status != http.StatusCreated {
		t.Fatalf("create campaign: %d %s", res.Status, res.Body)
	}
	var out struct{ Data campaignJSON }
	res.JSON(t, &out)
	return out.Data
}

func TestCampaignDefaultsAndSettings(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		c := createCampaign(t, env, ada, org, map[string]any{})
		s := c.Settings
		if c.Name != "Untitled campaign" || c.Type != "outbound" || c.Status != "draft" || c.Priority != "medium" || c.Purpose != "Other" ||
			c.WorkflowID != nil || c.PhoneNumberID != nil || len(c.Agents) != 0 || s.MaxConcurrentCalls != 5 || s.Timezone != "UTC" ||
			s.CallWindow.Start != "09:00" || len(s.CallWindow.Days) != 5 || s.RetryAttempts != 2 || s.VoicemailAction != "hang-up" || !s.RecordCalls {
			t.Fatalf("defaults: %+v", c)
		}
		// Settings the schema cannot check are checked by the domain, naming the field.
		for body, field := range map[string]string{
			`{"settings":{"timezone":"Mars/Olympus"}}`:                                   "body.settings.timezone",
			`{"settings":{"callWindow":{"start":"18:00","end":"09:00","days":["mon"]}}}`: "body.settings.callWindow",
			`{"settings":{"voicemailAction":"leave-message"}}`:                           "body.settings.voicemailMessage",
		} {
			p := a.problem(http.StatusBadRequest, ada.Access, "PUT", "/v1/campaigns/"+c.ID, body)
			if len(p.Errors) != 1 || p.Errors[0].Field != field {
				t.Errorf("%s: %+v", body, p)
			}
		}
		var updated struct{ Data campaignJSON }
		a.want(http.StatusOK, ada.Access, "PUT", "/v1/campaigns/"+c.ID, map[string]any{"name": "  Spring renewals ", "priority": "urgent",
			"settings": map[string]any{"voicemailAction": "leave-message", "voicemailMessage": "Hi {{firstName}}", "timezone": "Europe/London"}}, &updated)
		u := updated.Data
		if u.Name != "Spring renewals" || u.Priority != "urgent" || u.Settings.Timezone != "Europe/London" || u.Settings.VoicemailMessage == nil ||
			u.Settings.MaxConcurrentCalls != 5 || u.Type != "outbound" {
			t.Fatalf("updated: %+v", u)
		}
		// A campaign cannot be created active, nor activated without a workflow and a number.
		a.problem(http.StatusUnprocessableEntity, ada.Access, "POST", "/v1/campaigns/create", map[string]any{"organizationId": org, "status": "active"})
		a.problem(http.StatusUnprocessableEntity, ada.Access, "PUT", "/v1/campaigns/"+c.ID, map[string]any{"status": "active"})
		// error is the server's to set.
		a.problem(http.StatusBadRequest, ada.Access, "PUT", "/v1/campaigns/"+c.ID, map[string]any{"status": "error"})
		// The product's message for a missing organisation.
		if p := a.problem(http.StatusBadRequest, ada.Access, "POST", "/v1/campaigns/create", map[string]any{}); p.Detail != "Organization ID is required to create a campaign" {
			t.Fatalf("%+v", p)
		}
		// A read-only member may read but not write.
		ro := env.SignUp(t, "ro@example.com")
		a.join(ada, org, ro, "readonly")
		a.want(http.StatusOK, ro.Access, "GET", "/v1/campaigns/"+c.ID, nil, nil)
		a.problem(http.StatusForbidden, ro.Access, "PUT", "/v1/campaigns/"+c.ID, map[string]any{"name": "x"})
		a.problem(http.StatusForbidden, ro.Access, "POST", "/v1/campaigns/create", map[string]any{"organizationId": org})
	})
}

func TestCampaignListFiltersAndClamps(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		for i := range 7 {
			name := fmt.Sprintf("Renewals %d", i)
			if i%2 == 1 {
				name = fmt.Sprintf("Ümlaut Welcome %d", i)
			}
			c := createCampaign(t, env, ada, org, map[string]any{"name": name})
			if i == 6 {
				a.want(http.StatusOK, ada.Access, "PUT", "/v1/campaigns/"+c.ID, map[string]any{"status": "paused"}, nil)
			}
		}
		zoe := env.SignUp(t, "zoe@example.com")
		createCampaign(t, env, zoe, env.Team(t, zoe, "Other"), map[string]any{"name": "Renewals of another team"})
		list := func(query string) ([]campaignJSON, metaJSON) {
			var body struct {
				Data []campaignJSON
				Meta metaJSON
			}
			a.want(http.StatusOK, ada.Access, "GET", "/v1/campaigns/list?organizationId="+org+query, nil, &body)
			return body.Data, body.Meta
		}
		got, meta := list("")
		if len(got) != 5 || meta.TotalSize != 7 || meta.TotalPages != 2 || !meta.HasNext || got[0].Name != "Renewals 6" {
			t.Fatalf("page 1 (5 a page, newest first): %+v %+v", names(got), meta)
		}
		got, meta = list("&page=99")
		if meta.Page != 2 || len(got) != 2 || got[1].Name != "Renewals 0" {
			t.Fatalf("clamped: %+v %+v", names(got), meta)
		}
		if got, meta = list("&name=üMLAUT"); meta.TotalSize != 3 || !strings.HasPrefix(got[0].Name, "Ümlaut") {
			t.Fatalf("name filter ignores case: %v %+v", names(got), meta)
		}
		if got, meta = list("&status=paused"); meta.TotalSize != 1 || got[0].Status != "paused" {
			t.Fatalf("status filter: %v", names(got))
		}
		if _, meta = list("&status=all&name=renewals&sizePerPage=2"); meta.TotalSize != 4 || meta.TotalPages != 2 {
			t.Fatalf("both filters: %+v", meta)
		}
		if got, meta = list("&name=%25"); meta.TotalSize != 0 || len(got) != 0 || meta.Page != 1 {
			t.Fatalf("a %% is a character, not a wildcard: %v %+v", names(got), meta)
		}
	})
}

func names(cs []campaignJSON) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Name
	}
	return out
}

// A number answers one inbound campaign at a time; it must be the team's; removing it pauses an
// active campaign.
func TestCampaignPhoneNumbers(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		zed := env.SignUp(t, "zed@example.com")
		foreign := env.PhoneNumber(t, env.Team(t, zed, "Other"), "+14155550199")
		num := env.PhoneNumber(t, org, "+14155550123")
		in1 := createCampaign(t, env, ada, org, map[string]any{"name": "Support line", "type": "inbound", "phoneNumberId": num})
		if in1.PhoneNumberID == nil || *in1.PhoneNumber != "+14155550123" {
			t.Fatalf("assigned: %+v", in1)
		}
		if p := a.problem(http.StatusConflict, ada.Access, "POST", "/v1/campaigns/create",
			map[string]any{"organizationId": org, "type": "inbound", "phoneNumberId": num}); !strings.Contains(p.Detail, "Support line") {
			t.Fatalf("%+v", p)
		}
		// Outbound campaigns may share it (it is their caller id).
		out := createCampaign(t, env, ada, org, map[string]any{"name": "Renewals", "phoneNumberId": num})
		// Turning the outbound one inbound would make two answer the number.
		a.problem(http.StatusConflict, ada.Access, "PUT", "/v1/campaigns/"+out.ID, map[string]any{"type": "inbound"})
		a.problem(http.StatusNotFound, ada.Access, "PUT", "/v1/campaigns/"+out.ID, map[string]any{"phoneNumberId": foreign})
		a.problem(http.StatusNotFound, ada.Access, "PUT", "/v1/campaigns/"+out.ID, map[string]any{"phoneNumberId": "nope"})

		var assign struct {
			Data []struct{ CampaignID, CampaignName, CampaignType string }
			Meta metaJSON
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/campaigns/phone-number/"+num+"?limit=2&campaignType=inbound", nil, &assign)
		if len(assign.Data) != 1 || assign.Data[0].CampaignID != in1.ID || assign.Meta.TotalSize != 1 {
			t.Fatalf("inbound assignments: %+v", assign)
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/campaigns/phone-number/"+num+"?limit=1", nil, &assign)
		if len(assign.Data) != 1 || assign.Meta.TotalSize != 2 || assign.Data[0].CampaignID != out.ID {
			t.Fatalf("all assignments, newest first: %+v", assign)
		}
		a.problem(http.StatusNotFound, ada.Access, "GET", "/v1/campaigns/phone-number/"+foreign, nil)

		// null removes the number; absent keeps it.
		var updated struct{ Data campaignJSON }
		a.want(http.StatusOK, ada.Access, "PUT", "/v1/campaigns/"+in1.ID, map[string]any{"name": "Still answering"}, &updated)
		if updated.Data.PhoneNumberID == nil {
			t.Fatal("an absent phoneNumberId removed the number")
		}
		a.want(http.StatusOK, ada.Access, "PUT", "/v1/campaigns/"+in1.ID, `{"phoneNumberId":null}`, &updated)
		if updated.Data.PhoneNumberID != nil || updated.Data.PhoneNumber != nil {
			t.Fatalf("null kept the number: %+v", updated.Data)
		}
		// Now another inbound campaign may take it.
		createCampaign(t, env, ada, org, map[string]any{"type": "inbound", "phoneNumberId": num})
		// An active campaign that loses its number is paused (made active straight in the store:
		// activation needs a workflow, which comes later).
		env.Exec(t, "UPDATE campaigns SET status = 'active', workflow_id = 'wf' WHERE id = ?", out.ID)
		a.want(http.StatusOK, ada.Access, "PUT", "/v1/campaigns/"+out.ID, `{"phoneNumberId":null}`, &updated)
		if updated.Data.Status != "paused" {
			t.Fatalf("active without a number: %+v", updated.Data)
		}
	})
}

func TestDuplicateAndDeleteCampaign(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		num := env.PhoneNumber(t, org, "+14155550123")
		long := strings.Repeat("é", 100)
		orig := createCampaign(t, env, ada, org, map[string]any{"name": long, "type": "inbound", "priority": "high",
			"purpose": "Reminders", "phoneNumberId": num, "settings": map[string]any{"maxConcurrentCalls": 9}})
		for i, status := range []string{"inactive", "active"} {
			a.want(http.StatusCreated, ada.Access, "POST", "/v1/agent/create", map[string]any{"organizationId": org,
				"name": fmt.Sprintf("Agent %d", i), "campaignId": orig.ID, "status": status, "faq": map[string]string{"Q?": "A."}}, nil)
		}
		var dup struct{ Data campaignJSON }
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/campaigns/duplicate/"+orig.ID, nil, &dup)
		d := dup.Data
		if d.ID == orig.ID || d.Name != "Copy of "+strings.Repeat("é", 92) || d.Status != "draft" || d.Type != "inbound" ||
			d.Priority != "high" || d.Purpose != "Reminders" || d.Settings.MaxConcurrentCalls != 9 || d.PhoneNumberID != nil ||
			len(d.Agents) != 2 || d.Agents[0].Status != "active" || d.Agents[0].Name != "Agent 1" || d.Agents[1].Status != "inactive" {
			t.Fatalf("copy: %+v", d)
		}
		var agents struct{ Data []struct{ ID string } }
		a.want(http.StatusOK, ada.Access, "GET", "/v1/agent/list/"+org, nil, &agents)
		if len(agents.Data) != 4 {
			t.Fatalf("agents were copied, not moved: %d", len(agents.Data))
		}

		// Deleting keeps the agents, unlinked, and frees the number.
		var del struct{ Data struct{ ID string } }
		a.want(http.StatusOK, ada.Access, "DELETE", "/v1/campaigns/"+orig.ID, nil, &del)
		a.problem(http.StatusNotFound, ada.Access, "GET", "/v1/campaigns/"+orig.ID, nil)
		var assign struct{ Meta metaJSON }
		a.want(http.StatusOK, ada.Access, "GET", "/v1/campaigns/phone-number/"+num, nil, &assign)
		if assign.Meta.TotalSize != 0 {
			t.Fatalf("number still assigned: %+v", assign.Meta)
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/agent/list/"+org, nil, &agents)
		if len(agents.Data) != 4 {
			t.Fatalf("agents deleted with the campaign: %d", len(agents.Data))
		}
		// Another team's campaign is not found, for every verb.
		zed := env.SignUp(t, "zed@example.com")
		env.Team(t, zed, "Other")
		for _, m := range []string{"GET", "DELETE"} {
			a.problem(http.StatusNotFound, zed.Access, m, "/v1/campaigns/"+d.ID, nil)
		}
		a.problem(http.StatusNotFound, zed.Access, "POST", "/v1/campaigns/duplicate/"+d.ID, nil)
	})
}
