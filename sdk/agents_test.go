package betty_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/testserver"
)

// The agent helpers against the real server: create, read, list by team and by campaign,
// change, FAQ, activation, copy, pairing with a number, and delete.
func TestAgentsAgainstTheRealServer(t *testing.T) {
	ctx := context.Background()
	env := testserver.Start(t)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	c, err := betty.New(env.URL, betty.WithTokens(ada.Access, ada.Refresh))
	if err != nil {
		t.Fatal(err)
	}
	name := "Renewals"
	campaign, err := c.CreateCampaign(ctx, client.CreateCampaignRequest{OrganizationId: team, Name: &name})
	if err != nil {
		t.Fatal(err)
	}

	greeting := "Hi, this is Betty from Acme."
	desk, err := c.CreateAgent(ctx, client.CreateAgentRequest{OrganizationId: team, Name: "Front desk", Greeting: &greeting, CampaignId: &campaign.Id})
	if err != nil || desk.Status != client.AgentStatusInactive || desk.Greeting != greeting || desk.CampaignId == nil {
		t.Fatalf("create: %+v %v", desk, err)
	}
	if _, err := c.CreateAgent(ctx, client.CreateAgentRequest{OrganizationId: team}); !errors.Is(err, betty.ErrValidation) {
		t.Fatalf("no name: %v", err)
	}
	lang := "en-GB"
	desk, err = c.UpdateAgent(ctx, desk.Id, client.UpdateAgentRequest{OrganizationId: team, Language: &lang})
	if err != nil || desk.Language != "en-GB" || desk.Name != "Front desk" {
		t.Fatalf("update: %+v %v", desk, err)
	}
	if got, err := c.Agent(ctx, team, desk.Id); err != nil || got.Language != "en-GB" {
		t.Fatalf("get: %+v %v", got, err)
	}

	desk, err = c.SetAgentFAQ(ctx, team, desk.Id, betty.NumberedFAQ([]betty.FAQPair{
		{Question: "What are your hours?", Answer: "9 to 5."}, {Question: "Do you deliver?", Answer: "Yes."}}), false)
	if err != nil || len(desk.Faq) != 2 || desk.Faq["[1] What are your hours?"] != "9 to 5." {
		t.Fatalf("faq: %+v %v", desk.Faq, err)
	}
	desk, err = c.SetAgentFAQ(ctx, team, desk.Id, client.AgentFaq{"Parking?": "Round the back."}, false)
	if pairs := betty.FAQPairs(desk.Faq); err != nil || len(pairs) != 3 || pairs[1].Question != "Do you deliver?" || pairs[2].Key != "Parking?" {
		t.Fatalf("merged faq: %+v %v", pairs, err)
	}
	if desk, err = c.SetAgentFAQ(ctx, team, desk.Id, nil, true); err != nil || len(desk.Faq) != 0 {
		t.Fatalf("cleared faq: %+v %v", desk.Faq, err)
	}

	copied, err := c.DuplicateAgent(ctx, team, desk.Id, "")
	if err != nil || copied.Name != "Copy of Front desk" || copied.Status != client.AgentStatusInactive {
		t.Fatalf("duplicate: %+v %v", copied, err)
	}
	if copied, err = c.ActivateAgent(ctx, team, copied.Id); err != nil || copied.Status != client.AgentStatusActive {
		t.Fatalf("activate: %+v %v", copied, err)
	}
	if desk, err = c.ActivateAgent(ctx, team, desk.Id); err != nil || desk.Status != client.AgentStatusActive {
		t.Fatalf("activate the other: %+v %v", desk, err)
	}
	var inCampaign []client.AgentProfile
	for a, err := range c.CampaignAgents(ctx, team, campaign.Id) {
		if err != nil {
			t.Fatal(err)
		}
		inCampaign = append(inCampaign, a)
	}
	if len(inCampaign) != 2 || inCampaign[0].Id != desk.Id || inCampaign[1].Status != client.AgentStatusInactive {
		t.Fatalf("campaign agents, the active first: %+v", inCampaign)
	}
	if desk, err = c.DeactivateAgent(ctx, team, desk.Id); err != nil || desk.Status != client.AgentStatusInactive {
		t.Fatalf("deactivate: %+v %v", desk, err)
	}
	var ids []string
	for a, err := range c.Agents(ctx, team) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, a.Id)
	}
	if !slices.Equal(ids, []string{copied.Id, desk.Id}) {
		t.Fatalf("team agents, newest first: %v", ids)
	}
	for f, err := range c.AgentKnowledgeFiles(ctx, team, desk.Id) {
		t.Fatalf("knowledge files: %+v %v", f, err)
	}
	for f, err := range c.AgentAudioFiles(ctx, team, desk.Id) {
		t.Fatalf("audio files: %+v %v", f, err)
	}
	if s, err := c.AgentAudioSummaries(ctx, team, []string{desk.Id}); err != nil || len(s) != 0 {
		t.Fatalf("summaries of unknown ids: %+v %v", s, err)
	}

	found, err := c.SearchPhoneNumbers(ctx, client.SearchAvailablePhoneNumbersParams{})
	if err != nil {
		t.Fatal(err)
	}
	bought, err := c.BuyPhoneNumber(ctx, team, found[0].PhoneNumber, "http://betty.test/dashboard")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := c.SetAgentCallConfig(ctx, team, desk.Id, bought.PhoneNumber.Id)
	if err != nil || cfg.AgentId != desk.Id || cfg.PhoneNumberId != bought.PhoneNumber.Id || cfg.WorkflowId == nil {
		t.Fatalf("pair: %+v %v", cfg, err)
	}
	if _, err := c.SetAgentCallConfig(ctx, team, desk.Id, desk.Id); !errors.Is(err, betty.ErrNotFound) {
		t.Fatalf("pair with no number: %v", err)
	}
	// The workflow the pairing made speaks with the agent: the agent stays until it goes.
	if err := c.DeleteAgent(ctx, team, desk.Id); !errors.Is(err, betty.ErrConflict) {
		t.Fatalf("delete an agent in use: %v", err)
	}
	if err := c.DeleteWorkflow(ctx, *cfg.WorkflowId); err != nil {
		t.Fatal(err)
	}

	for _, id := range []string{desk.Id, copied.Id} {
		if err := c.DeleteAgent(ctx, team, id); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.Agent(ctx, team, desk.Id); !errors.Is(err, betty.ErrNotFound) {
		t.Fatalf("after delete: %v", err)
	}
}

// The numbered questions come first, by number; the rest alphabetically.
func TestFAQPairs(t *testing.T) {
	pairs := betty.FAQPairs(client.AgentFaq{"Zebra?": "z", "[10] Ten?": "10", "[2] Two?": "2", "Apple?": "a", "[x] Odd?": "x"})
	var got []string
	for _, p := range pairs {
		got = append(got, p.Question)
	}
	if want := []string{"Two?", "Ten?", "Apple?", "Zebra?", "[x] Odd?"}; !slices.Equal(got, want) {
		t.Fatalf("order %q, want %q", got, want)
	}
	faq := betty.NumberedFAQ([]betty.FAQPair{{Question: "First?", Answer: "1"}, {Question: "[7] Kept?", Answer: "7"}})
	if len(faq) != 2 || faq["[1] First?"] != "1" || faq["[7] Kept?"] != "7" {
		t.Fatalf("numbered: %v", faq)
	}
}

// Speech and teaching audio, against a server answering the contract's shapes (the real one
// does not speak agents' text or summarise audio yet).
func TestAgentSpeechAndAudioAgainstTheContract(t *testing.T) {
	ctx := context.Background()
	var gotQuery, gotBody string
	mux := http.NewServeMux()
	envelope := func(w http.ResponseWriter, status int, data any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(map[string]any{"status": status, "data": data})
	}
	mux.HandleFunc("GET /v1/agent/text-to-speech", func(w http.ResponseWriter, r *http.Request) {
		gotQuery = r.URL.RawQuery
		if r.URL.Query().Get("text") == "mute" {
			envelope(w, http.StatusOK, map[string]any{"audio": "", "mimeType": "audio/mpeg"})
			return
		}
		envelope(w, http.StatusOK, map[string]any{"audio": "SUQzIG1wMw==", "mimeType": "audio/mpeg"}) // "ID3 mp3"
	})
	mux.HandleFunc("POST /v1/agent/summary", func(w http.ResponseWriter, r *http.Request) {
		gotQuery = r.URL.RawQuery
		var b struct{ URL, FileName string }
		_ = json.NewDecoder(r.Body).Decode(&b)
		gotBody = b.URL + " " + b.FileName
		envelope(w, http.StatusCreated, map[string]any{"id": "audio-1", "agentId": "agent-1", "organizationId": "team-1",
			"fileName": b.FileName, "url": b.URL, "summary": nil, "summaryStatus": "in-progress",
			"createdAt": "2026-01-02T03:04:05Z", "updatedAt": "2026-01-02T03:04:05Z"})
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	c, err := betty.New(srv.URL, betty.WithAPIKey("betty_sk_test"))
	if err != nil {
		t.Fatal(err)
	}

	text, agent := "Hello there", "agent-1"
	mp3, err := c.AgentSpeech(ctx, client.SynthesizeAgentSpeechParams{OrganizationId: "team-1", AgentProfileId: &agent, Text: &text})
	if err != nil || string(mp3) != "ID3 mp3" || gotQuery != "organizationId=team-1&agentProfileId=agent-1&text=Hello+there" {
		t.Fatalf("speech: %q %v (query %s)", mp3, err, gotQuery)
	}
	mute := "mute"
	if _, err := c.AgentSpeech(ctx, client.SynthesizeAgentSpeechParams{OrganizationId: "team-1", Text: &mute}); err == nil {
		t.Fatal("no audio was accepted")
	}
	a, err := c.AddAgentAudio(ctx, "team-1", "agent-1", srv.URL+"/v1/uploads/u1/file", "model-call.mp3")
	if err != nil || a.Id != "audio-1" || a.SummaryStatus != client.AgentAudioSummaryStatusInProgress ||
		gotQuery != "organizationId=team-1&agentId=agent-1" || gotBody != srv.URL+"/v1/uploads/u1/file model-call.mp3" {
		t.Fatalf("add audio: %+v %v (query %s, body %s)", a, err, gotQuery, gotBody)
	}
}
