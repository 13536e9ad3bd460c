package httpapi_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/calls"
	"github.com/bettyhq/betty/server/internal/apitest"
	"github.com/bettyhq/betty/server/runs"
)

// sseEvent is one event read from a stream.
type sseEvent struct {
	ID, Name, Data string
}

// stream is a client of GET /v1/events over a real connection.
type stream struct {
	t      *testing.T
	cancel context.CancelFunc
	events chan sseEvent
	retry  chan string
}

func openStream(t *testing.T, env *apitest.Env, token, query, lastEventID string) *stream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", env.URL+"/v1/events"+query, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if lastEventID != "" {
		req.Header.Set("Last-Event-ID", lastEventID)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/event-stream" || res.Header.Get("Cache-Control") != "no-cache" {
		cancel()
		t.Fatalf("stream: %d %v", res.StatusCode, res.Header)
	}
	s := &stream{t: t, cancel: cancel, events: make(chan sseEvent, 100), retry: make(chan string, 1)}
	go func() {
		defer res.Body.Close()
		r := bufio.NewReader(res.Body)
		var ev sseEvent
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				close(s.events)
				return
			}
			line = strings.TrimSuffix(line, "\n")
			switch {
			case line == "":
				if ev.Name != "" {
					s.events <- ev
				}
				ev = sseEvent{}
			case strings.HasPrefix(line, "retry: "):
				s.retry <- strings.TrimPrefix(line, "retry: ")
			case strings.HasPrefix(line, "id: "):
				ev.ID = strings.TrimPrefix(line, "id: ")
			case strings.HasPrefix(line, "event: "):
				ev.Name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				ev.Data = strings.TrimPrefix(line, "data: ")
			}
		}
	}()
	select {
	case r := <-s.retry:
		if r != "5000" {
			t.Fatalf("retry: %s", r)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stream did not start")
	}
	t.Cleanup(cancel)
	return s
}

// next answers the next event, failing after 10 seconds.
func (s *stream) next() sseEvent {
	s.t.Helper()
	select {
	case ev, ok := <-s.events:
		if !ok {
			s.t.Fatal("the stream ended")
		}
		return ev
	case <-time.After(10 * time.Second):
		s.t.Fatal("no event within 10 seconds")
	}
	return sseEvent{}
}

// until reads events up to the first of name whose data has this id, and answers it.
func (s *stream) until(name, id string) sseEvent {
	s.t.Helper()
	for {
		ev := s.next()
		var data struct{ ID string }
		if err := json.Unmarshal([]byte(ev.Data), &data); err != nil {
			s.t.Fatalf("event data %q: %v", ev.Data, err)
		}
		if ev.Name == name && data.ID == id {
			return ev
		}
	}
}

func TestEventStreamLiveResumableAndPerTeam(t *testing.T) {
	callsEnv(t, func(t *testing.T, env *apitest.Env, svc *calls.Service) {
		api := newTeamAPI(t, env)
		ctx := context.Background()
		owner := env.SignUp(t, "owner@example.com")
		org := env.Team(t, owner, "Acme")
		other := env.SignUp(t, "other@example.com")
		orgB := env.Team(t, other, "Other")

		live := openStream(t, env, owner.Access, "?organizationId="+org, "")
		theirs := openStream(t, env, other.Access, "?organizationId="+orgB, "")
		call := placeCall(t, svc, org, "+14155550123", "v3:live", runs.CallClosed{Status: "completed", Title: "Done", Summary: "All good."})
		// Each change is an event; each renders the call log as it is when sent, so the last
		// (at the latest) shows the call completed.
		for {
			ev := live.until("call.updated", call)
			var log callLogJSON
			if err := json.Unmarshal([]byte(ev.Data), &log); err != nil || log.OrganizationID != org {
				t.Fatalf("call.updated: %s %v", ev.Data, err)
			}
			if log.Status == "completed" {
				break
			}
		}
		var list struct{ Data []inboxJSON }
		api.want(http.StatusOK, owner.Access, "GET", "/v1/inbox?organizationId="+org, nil, &list)
		item := list.Data[0].ID
		seen := live.until("inbox.updated", item)
		live.cancel()

		// Team B's stream saw nothing of team A: its first event is its own.
		theirCall, err := svc.Open(ctx, runs.CallOpened{OrganizationID: orgB, Direction: "outbound", From: "+14155550100", To: "+14155550177"})
		if err != nil {
			t.Fatal(err)
		}
		if ev := theirs.next(); ev.Name != "call.updated" || !strings.Contains(ev.Data, theirCall) {
			t.Fatalf("team B's first event: %+v", ev)
		}

		// While A is away: its item changes and a call starts.
		api.want(http.StatusOK, owner.Access, "POST", "/v1/inbox/item/"+item, map[string]any{"organizationId": org, "priority": 7}, nil)
		missed, err := svc.Open(ctx, runs.CallOpened{OrganizationID: org, Direction: "outbound", From: "+14155550100", To: "+14155550124"})
		if err != nil {
			t.Fatal(err)
		}
		back := openStream(t, env, owner.Access, "?organizationId="+org, seen.ID)
		ev := back.next()
		var it inboxJSON
		if err := json.Unmarshal([]byte(ev.Data), &it); ev.Name != "inbox.updated" || err != nil || it.ID != item || it.Priority != 7 {
			t.Fatalf("first replayed event: %+v %v", ev, err)
		}
		if ev := back.next(); ev.Name != "call.updated" || !strings.Contains(ev.Data, missed) {
			t.Fatalf("second replayed event: %+v", ev)
		}

		// Only the types asked for.
		inboxOnly := openStream(t, env, owner.Access, "?organizationId="+org+"&types=inbox.updated", seen.ID)
		if ev := inboxOnly.next(); ev.Name != "inbox.updated" {
			t.Fatalf("types=inbox.updated: %+v", ev)
		}
		if _, err := svc.Open(ctx, runs.CallOpened{OrganizationID: org, Direction: "inbound", From: "+14155550125", To: "+14155550100"}); err != nil {
			t.Fatal(err)
		}
		api.want(http.StatusOK, owner.Access, "DELETE", "/v1/inbox/item/"+item+"?organizationId="+org, nil, nil)
		if ev := inboxOnly.next(); ev.Name != "inbox.updated" || !strings.Contains(ev.Data, `"deleted":true`) {
			t.Fatalf("types=inbox.updated after a call and a delete: %+v", ev)
		}

		// An id no longer kept (or never given) cannot be resumed: one reset.
		for _, id := range []string{"999999999", "nonsense"} {
			lost := openStream(t, env, owner.Access, "?organizationId="+org, id)
			if ev := lost.next(); ev.Name != "reset" || ev.Data != "{}" || ev.ID == "" {
				t.Fatalf("resuming from %s: %+v", id, ev)
			}
		}

		// A member of another team cannot subscribe to this one.
		res := api.do(other.Access, "GET", "/v1/events?organizationId="+org, nil)
		if res.Status != http.StatusNotFound && res.Status != http.StatusForbidden {
			t.Fatalf("another team's stream: %d", res.Status)
		}
		// Through the harness, the stream's start is validated against the contract.
		if res := api.do(owner.Access, "GET", "/v1/events?organizationId="+org, nil); res.Status != http.StatusOK || !strings.HasPrefix(string(res.Body), "retry: 5000") {
			t.Fatalf("stream through the harness: %d %q", res.Status, res.Body)
		}
	})
}

// campaign.updated and knowledge.updated: a campaign created, changed and deleted, and a FAQ
// added, are published in their transaction and rendered as the API renders them.
func TestCampaignAndKnowledgeEvents(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		s := openStream(t, env, ada.Access, "?organizationId="+org+"&types=campaign.updated,knowledge.updated", "")
		c := createCampaign(t, env, ada, org, map[string]any{"name": "Spring"})
		ev := s.until("campaign.updated", c.ID)
		var got struct{ ID, Name, Status string }
		if err := json.Unmarshal([]byte(ev.Data), &got); err != nil || got.Name != "Spring" || got.Status != "draft" {
			t.Fatalf("campaign.updated: %s %v", ev.Data, err)
		}
		a.want(http.StatusOK, ada.Access, "PUT", "/v1/campaigns/"+c.ID, map[string]any{"name": "Summer"}, nil)
		ev = s.until("campaign.updated", c.ID)
		if !strings.Contains(ev.Data, `"Summer"`) {
			t.Fatalf("after the rename: %s", ev.Data)
		}
		a.want(http.StatusOK, ada.Access, "DELETE", "/v1/campaigns/"+c.ID, nil, nil)
		if ev = s.until("campaign.updated", c.ID); !strings.Contains(ev.Data, `"deleted":true`) {
			t.Fatalf("after the delete: %s", ev.Data)
		}
		values := knowledgeFAQFixture(t, env, ada, org)
		if ev = s.until("knowledge.updated", values["id"]); !strings.Contains(ev.Data, `"FAQ"`) {
			t.Fatalf("knowledge.updated: %s", ev.Data)
		}
	})
}

// A burst of updates of a call (its transcript growing turn by turn) reaches a stream as a
// few call.updated, the call's end last and always.
func TestCallUpdatesAreCoalesced(t *testing.T) {
	callsEnv(t, func(t *testing.T, env *apitest.Env, svc *calls.Service) {
		ctx := context.Background()
		owner := env.SignUp(t, "owner@example.com")
		org := env.Team(t, owner, "Acme")
		live := openStream(t, env, owner.Access, "?organizationId="+org+"&types=call.updated", "")
		id := placeCall(t, svc, org, "+14155550123", "v3:burst", runs.CallClosed{})
		at := time.Now()
		if err := svc.Progress(ctx, org, id, runs.CallProgress{CallControlID: "v3:burst", Status: "in-progress", At: at}); err != nil {
			t.Fatal(err)
		}
		var turns []runs.Turn
		for i := 0; i < 30; i++ {
			turns = append(turns, runs.Turn{Speaker: "agent", Text: "Hello again.", Offset: time.Duration(i) * time.Second})
			if err := svc.Said(ctx, org, id, turns); err != nil {
				t.Fatal(err)
			}
		}
		if err := svc.Close(ctx, org, id, runs.CallClosed{Status: "completed", AnsweredAt: &at, EndedAt: at.Add(time.Minute), Turns: turns,
			Title: "Done", Summary: "All good."}); err != nil {
			t.Fatal(err)
		}
		n := 0
		for {
			ev := live.until("call.updated", id)
			n++
			var log callLogJSON
			if err := json.Unmarshal([]byte(ev.Data), &log); err != nil {
				t.Fatal(err)
			}
			if log.Status == "completed" {
				break
			}
		}
		if n > 6 {
			t.Errorf("%d call.updated for 33 updates of one call", n)
		}
	})
}
