package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/internal/apitest"
)

// A paired agent (answering a number, in no campaign) answers from the knowledge base it
// names (issue 21: it answered from none). The knowledge base must be the team's; null
// removes it.
func TestAPairedAgentAnswersFromItsKnowledgeBase(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a, ada, org, number, phone := inboundTeam(t, env, "+1415667")
		kb := createKB(t, a, ada, org, map[string]any{"name": "Deliveries"})
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/campaigns/knowledge-base/faq",
			map[string]any{"knowledgeBaseId": kb.ID, "name": "Weekend deliveries", "faq": "Q: Do you deliver on weekends?\nA: Our vans deliver on Saturdays until noon."}, nil)
		ag := createAgent(t, a, ada, org, map[string]any{"knowledgeBaseId": kb.ID})
		var got struct {
			Data struct{ KnowledgeBaseID *string }
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/agent/"+ag.ID+"?organizationId="+org, nil, &got)
		if got.Data.KnowledgeBaseID == nil || *got.Data.KnowledgeBaseID != kb.ID {
			t.Fatalf("the agent's knowledge base: %+v", got.Data)
		}

		a.want(http.StatusOK, ada.Access, "POST", "/v1/agent/config/call", map[string]any{"organizationId": org, "phoneNumberId": phone, "agentId": ag.ID}, nil)
		a.want(http.StatusAccepted, ada.Access, "POST", "/v1/call/simulate-inbound", map[string]any{"organizationId": org, "to": number,
			"persona": `Asks "Do you deliver on weekends?" and then says "No, that is all, thanks, goodbye."`}, nil)
		l := endedCall(t, a, ada.Access, org, 1)
		var tr struct {
			Data struct {
				Entries []struct{ Speaker, Text string }
			}
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/call/transcripts/"+l.CallControlID+"?organizationId="+org, nil, &tr)
		answered := false
		for _, e := range tr.Data.Entries {
			answered = answered || (e.Speaker == "agent" && strings.Contains(e.Text, "Saturdays until noon"))
		}
		if !answered {
			t.Fatalf("the agent did not answer from its knowledge base: %+v", tr.Data.Entries)
		}

		// Another team's knowledge base is not found; null removes the agent's.
		zed := env.SignUp(t, "zed@example.com")
		zorg := env.Team(t, zed, "Other")
		theirs := createKB(t, a, zed, zorg, map[string]any{"name": "Theirs"})
		a.problem(http.StatusNotFound, ada.Access, "PATCH", "/v1/agent/"+ag.ID, map[string]any{"organizationId": org, "knowledgeBaseId": theirs.ID})
		a.problem(http.StatusNotFound, ada.Access, "POST", "/v1/agent/create", map[string]any{"organizationId": org, "name": "X", "knowledgeBaseId": theirs.ID})
		a.want(http.StatusOK, ada.Access, "PATCH", "/v1/agent/"+ag.ID, map[string]any{"organizationId": org, "knowledgeBaseId": nil}, &got)
		if got.Data.KnowledgeBaseID != nil {
			t.Fatalf("null did not remove the knowledge base: %+v", got.Data)
		}
	})
}
