package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/bettyhq/betty/server/internal/apitest"
)

// An agent made on the Agents page (no campaign) can be activated there, and attached to a
// campaign from the campaign's "Add agent" (PATCH with campaignId): it then answers for that
// campaign once activated. Another team's agent or campaign is not found (issue 21).
func TestAnAgentMadeAloneIsActivatedAndAttachedToACampaign(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		c := createCampaign(t, env, ada, org, map[string]any{"name": "Spring"})
		alone := createAgent(t, a, ada, org, map[string]any{"name": "Alone"})
		if alone.Status != "inactive" || alone.CampaignID != nil {
			t.Fatalf("created: %+v", alone)
		}
		var got struct{ Data agentJSON }
		a.want(http.StatusOK, ada.Access, "PUT", "/v1/agent/activate/"+alone.ID+"?organizationId="+org, nil, &got)
		if got.Data.Status != "active" {
			t.Fatalf("activated: %+v", got.Data)
		}
		a.want(http.StatusOK, ada.Access, "PUT", "/v1/agent/deactivate/"+alone.ID+"?organizationId="+org, nil, &got)
		if got.Data.Status != "inactive" {
			t.Fatalf("deactivated: %+v", got.Data)
		}

		a.want(http.StatusOK, ada.Access, "PATCH", "/v1/agent/"+alone.ID, map[string]any{"organizationId": org, "campaignId": c.ID}, &got)
		if got.Data.CampaignID == nil || *got.Data.CampaignID != c.ID {
			t.Fatalf("attached: %+v", got.Data)
		}
		var list struct{ Data []agentJSON }
		a.want(http.StatusOK, ada.Access, "GET", "/v1/agent/list/campaigns/"+c.ID+"?organizationId="+org, nil, &list)
		if len(list.Data) != 1 || list.Data[0].ID != alone.ID {
			t.Fatalf("the campaign's agents: %+v", list.Data)
		}

		zed := env.SignUp(t, "zed@example.com")
		zorg := env.Team(t, zed, "Other")
		theirs := createAgent(t, a, zed, zorg, map[string]any{"name": "Theirs"})
		theirCampaign := createCampaign(t, env, zed, zorg, map[string]any{"name": "Theirs"})
		a.problem(http.StatusNotFound, ada.Access, "PATCH", "/v1/agent/"+theirs.ID, map[string]any{"organizationId": org, "campaignId": c.ID})
		a.problem(http.StatusNotFound, ada.Access, "PATCH", "/v1/agent/"+alone.ID, map[string]any{"organizationId": org, "campaignId": theirCampaign.ID})
		a.problem(http.StatusNotFound, ada.Access, "PUT", "/v1/agent/activate/"+theirs.ID+"?organizationId="+org, nil)
	})
}
