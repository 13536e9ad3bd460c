package httpapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/internal/apitest"
)

// A call coming in to a team's number, with the sim carrier: refused with the reason while no
// inbound workflow answers the number; answered once one does, held by the conversation
// engine, and it leaves an inbound call log with its transcript, recording, inbox item and
// charge, and a finished inbound-call job in the workflow's history.
func TestSimulatedInboundCall(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a, ada, org, number, phone := inboundTeam(t, env, "+1415777")
		sim := func(to string) *apitest.Response {
			return a.do(ada.Access, "POST", "/v1/call/simulate-inbound", map[string]any{"organizationId": org, "to": to,
				"from": "+14155550123", "persona": "A customer whose parcel is late"})
		}
		if res := sim(number); res.Status != http.StatusUnprocessableEntity || !strings.Contains(string(res.Body), "no inbound workflow answers") {
			t.Fatalf("no inbound workflow: %d %s", res.Status, res.Body)
		}
		if res := sim("+14155559876"); res.Status != http.StatusUnprocessableEntity || !strings.Contains(string(res.Body), "body.to") {
			t.Fatalf("not a number of the team: %d %s", res.Status, res.Body)
		}

		ag := createAgent(t, a, ada, org, map[string]any{})
		var w struct{ Data workflowJSON }
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/workflow/create",
			map[string]any{"organizationId": org, "name": "Reception", "agentId": ag.ID, "workflowType": "inbound"}, &w)
		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/config/phone", map[string]any{"workflowId": w.Data.ID, "phoneNumberId": phone}, nil)
		a.want(http.StatusOK, ada.Access, "POST", "/v1/workflow/save", map[string]any{"workflowId": w.Data.ID,
			"nodes": []any{node("in-start", "start", nil), node("in-hello", "agent", map[string]any{"instruction": "Greet the caller and ask how you can help."}),
				node("in-wait", "customer-response", map[string]any{"description": "Says what they need"}),
				node("in-help", "agent", map[string]any{"instruction": "Help with what they asked."}), node("in-end", "end-call", nil)},
			"edges": []any{edge("in-e1", "in-start", "in-hello"), edge("in-e2", "in-hello", "in-wait"), edge("in-e3", "in-wait", "in-help"),
				edge("in-e4", "in-help", "in-end")}}, nil)

		var rang struct {
			Data struct{ CallControlID, From, To string }
		}
		a.want(http.StatusAccepted, ada.Access, "POST", "/v1/call/simulate-inbound", map[string]any{"organizationId": org, "to": number,
			"persona": "A customer whose parcel is late"}, &rang)
		if rang.Data.CallControlID == "" || rang.Data.From != "+14155550100" || rang.Data.To != number {
			t.Fatalf("rang: %+v", rang.Data)
		}
		l := endedCall(t, a, ada.Access, org, 1)
		if l.Direction != "inbound" || l.From != "+14155550100" || l.To != number || l.Status != "completed" || !l.HasTranscript ||
			l.Cost != 0 || !l.Simulated || l.CallControlID != rang.Data.CallControlID || l.WorkflowID == nil || *l.WorkflowID != w.Data.ID {
			t.Fatalf("the inbound call's log: %+v", l)
		}
		agentSpokeFirst(t, a, ada.Access, org, l.CallControlID)
		var inbox struct {
			Data []struct {
				CallLogID *string `json:"callLogId"`
			}
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/inbox?organizationId="+org, nil, &inbox)
		if len(inbox.Data) != 1 || inbox.Data[0].CallLogID == nil || *inbox.Data[0].CallLogID != l.ID {
			t.Fatalf("inbox: %+v", inbox.Data)
		}
		var hist struct{ Data []jobJSON }
		deadline := time.Now().Add(60 * time.Second)
		for {
			a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/history/"+w.Data.ID, nil, &hist)
			if len(hist.Data) == 1 && hist.Data[0].Status != "in-progress" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the inbound call's job: %+v", hist.Data)
			}
			time.Sleep(100 * time.Millisecond)
		}
		if j := hist.Data[0]; j.Type != "inbound-call" || j.Status != "success" || j.Progress.Completed != 1 {
			t.Fatalf("the inbound call's job: %+v", j)
		}
		// No credits: a simulated call is free, so it is still answered (credits_test.go: a
		// real carrier's is refused).
		env.Exec(t, `UPDATE organizations SET credits_balance = 0 WHERE id = ?`, org)
		if res := sim(number); res.Status != http.StatusAccepted {
			t.Fatalf("no credits, simulated: %d %s", res.Status, res.Body)
		}
	})
}

// inboundTeam is a team with credits and a number that starts with prefix: its API, owner,
// id, number and the number's id.
func inboundTeam(t *testing.T, env *apitest.Env, prefix string) (teamAPI, apitest.Caller, string, string, string) {
	a := newTeamAPI(t, env)
	ada := env.SignUp(t, "ada@example.com")
	org := env.Team(t, ada, "Acme")
	env.Exec(t, `UPDATE organizations SET credits_balance = 100 WHERE id = ?`, org)
	number := fmt.Sprintf("%s%04d", prefix, time.Now().UnixNano()%10000)
	return a, ada, org, number, env.PhoneNumber(t, org, number)
}

// inboundLog is what the inbound tests read of a call log.
type inboundLog struct {
	ID, Status, Direction, From, To, CallControlID string
	EndTime                                        *time.Time
	HasTranscript, HasRecording, Simulated         bool
	Cost                                           float64
	WorkflowID                                     *string `json:"workflowId"`
}

// endedCall waits for the team's n-th call log to end with its recording, and answers it.
func endedCall(t *testing.T, a teamAPI, token, org string, n int) inboundLog {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		var logs struct{ Data []inboundLog }
		a.want(http.StatusOK, token, "GET", "/v1/call/logs?organizationId="+org, nil, &logs)
		if len(logs.Data) == n && logs.Data[0].EndTime != nil && logs.Data[0].HasRecording {
			return logs.Data[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("the inbound call did not end: %+v", logs.Data)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// agentSpokeFirst checks a call's transcript: the agent, then the customer, then more.
func agentSpokeFirst(t *testing.T, a teamAPI, token, org, callControlID string) {
	t.Helper()
	var tr struct {
		Data struct {
			Entries []struct{ Speaker, Text string }
		}
	}
	a.want(http.StatusOK, token, "GET", "/v1/call/transcripts/"+callControlID+"?organizationId="+org, nil, &tr)
	if len(tr.Data.Entries) < 3 || tr.Data.Entries[0].Speaker != "agent" || tr.Data.Entries[1].Speaker != "customer" {
		t.Fatalf("transcript: %+v", tr.Data.Entries)
	}
}

// The getting-started journey: create an agent, pair it with a number, call the number. The
// pairing made the "Calls to <number>" workflow, and the call follows it: the agent greets the
// caller, answers, and the call ends in a log of that workflow.
func TestPairedNumberAnswers(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a, ada, org, number, phone := inboundTeam(t, env, "+1415666")
		ag := createAgent(t, a, ada, org, map[string]any{})
		var pair struct{ Data struct{ WorkflowID string } }
		a.want(http.StatusOK, ada.Access, "POST", "/v1/agent/config/call", map[string]any{"organizationId": org, "phoneNumberId": phone, "agentId": ag.ID}, &pair)
		a.want(http.StatusAccepted, ada.Access, "POST", "/v1/call/simulate-inbound", map[string]any{"organizationId": org, "to": number,
			"persona": `Asks "What are your opening hours?" and then says "No, that is all, thanks, goodbye."`}, nil)
		l := endedCall(t, a, ada.Access, org, 1)
		if l.Status != "completed" || l.Direction != "inbound" || l.WorkflowID == nil || *l.WorkflowID != pair.Data.WorkflowID {
			t.Fatalf("the call to the paired number: %+v (workflow %s)", l, pair.Data.WorkflowID)
		}
		agentSpokeFirst(t, a, ada.Access, org, l.CallControlID)

		// The team deletes that workflow (once its call's job has ended): the number is still
		// paired, so the next call makes it again rather than being turned down.
		deadline := time.Now().Add(30 * time.Second)
		for {
			res := a.do(ada.Access, "DELETE", "/v1/workflow/"+pair.Data.WorkflowID, nil)
			if res.Status == http.StatusOK {
				break
			}
			if res.Status != http.StatusConflict || time.Now().After(deadline) {
				t.Fatalf("delete the pairing's workflow: %d %s", res.Status, res.Body)
			}
			time.Sleep(100 * time.Millisecond)
		}
		a.want(http.StatusAccepted, ada.Access, "POST", "/v1/call/simulate-inbound", map[string]any{"organizationId": org, "to": number,
			"persona": `Says "No thanks, goodbye."`}, nil)
		again := endedCall(t, a, ada.Access, org, 2)
		var flows struct {
			Data []struct{ ID, Name, AgentID string }
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/workflow/list?organizationId="+org, nil, &flows)
		if len(flows.Data) != 1 || flows.Data[0].Name != "Calls to "+number || flows.Data[0].AgentID != ag.ID ||
			again.Status != "completed" || again.WorkflowID == nil || *again.WorkflowID != flows.Data[0].ID {
			t.Fatalf("the call after the workflow was deleted: %+v, workflows %+v", again, flows.Data)
		}
	})
}
