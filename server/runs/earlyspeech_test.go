package runs_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/llm"
	"github.com/bettyhq/betty/server/llm/openaitest"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/phones/sim"
	"github.com/bettyhq/betty/server/store"
)

// earlyConversation greets and answers the customer in two sentences, each Say handed to
// SpeakNow as the engine does when the driver asks for early speech, then hangs up.
type earlyConversation struct{ fakeConversation }

func (c earlyConversation) Start(ctx context.Context, s conversation.Setup) (conversation.State, []conversation.Action, error) {
	st, acts, err := c.fakeConversation.Start(ctx, s)
	if err == nil && s.SpeakNow != nil {
		acts[0].Spoken = true
		s.SpeakNow(acts[0])
	}
	return st, acts, err
}

var sentences = []string{"Thank you.", "Goodbye."}

func (earlyConversation) Heard(_ context.Context, s conversation.Setup, raw conversation.State, text string, at time.Duration) (conversation.State, []conversation.Action, error) {
	var st fakeState
	if err := json.Unmarshal(raw, &st); err != nil {
		return nil, nil, err
	}
	st.Turns = append(st.Turns, conversation.Turn{Speaker: "customer", Text: text, Offset: at})
	var acts []conversation.Action
	for _, t := range sentences {
		st.Turns = append(st.Turns, conversation.Turn{Speaker: "agent", Text: t})
		a := conversation.Action{Kind: conversation.Say, Text: t}
		if s.SpeakNow != nil {
			a.Spoken = true
			s.SpeakNow(a)
		}
		acts = append(acts, a)
	}
	st.Done = true
	b, _ := json.Marshal(st)
	return b, append(acts, conversation.Action{Kind: conversation.Hangup}), nil
}

// On call.answered and call.heard the driver sends each early Say at once, keyed by the attempt and its
// counter in a form of its own; the recorded state holds them as its outbox and the hang-up
// waits for the end of the last of them. A duplicate of the words says nothing again; words
// whose transaction failed are handled again with the same keys.
func TestEarlySpeech(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tm := newTeam(t, db, 10, alwaysOpen)
		calls := newFakeCalls(func(string, int) phones.Outcome { return phones.OutcomeAnswer })
		calls.holdEnds = true
		h := newHarnessWith(t, db, calls, fast, earlyConversation{})
		j := testCallAda(t, h, tm)
		att := store.AttemptID(j.ID, 1, 1)
		if _, _, err := h.svc.Dispatch(ctx, j.ID); err != nil {
			t.Fatal(err)
		}
		log := func() string {
			calls.mu.Lock()
			defer calls.mu.Unlock()
			return strings.ReplaceAll(strings.Join(calls.log, ", "), att, "a")
		}
		send := func() error { // the next held EventSpeakEnded
			calls.mu.Lock()
			e := calls.ends[0]
			calls.ends = calls.ends[1:]
			calls.mu.Unlock()
			return calls.emit([]phones.CallEvent{e})
		}
		release := func() { t.Helper(); must(t, send()) }
		state := func() (cs struct {
			Pending     []conversation.Action
			Outbox      []conversation.Action
			OutboxFirst int
			OutboxEarly bool
			Speaking    int
		}) {
			t.Helper()
			a, err := db.AttemptByID(ctx, att)
			must(t, err)
			must(t, json.Unmarshal([]byte(*a.Conversation), &cs))
			return cs
		}
		if got := log(); got != "speak a:0.1" {
			t.Fatalf("the greeting: %s", got)
		}
		// The greeting ends: listen; the words come, their handling fails once after the
		// early Says went out, and the carrier delivers them again.
		// The end of the first early Say comes while the words are still being handled (the
		// second is being sent): nothing records it yet, so it is refused, to come again.
		var early error
		calls.onSpeak = func(key string) {
			if strings.HasSuffix(key, ":2.2") && early == nil {
				calls.mu.Lock()
				e := calls.ends[len(calls.ends)-1]
				calls.mu.Unlock()
				early = h.svc.HandleCallEvent(ctx, e)
			}
		}
		calls.reply = func(string) string { // the words' transaction fails once
			h.logs.mu.Lock()
			h.logs.failSaid = 1
			h.logs.mu.Unlock()
			calls.reply = func(string) string { return "yes please" }
			return "yes please"
		}
		if err := send(); err == nil || !strings.Contains(err.Error(), "went away") {
			t.Fatalf("the words' handling should fail once: %v", err)
		}
		if got := log(); got != "speak a:0.1, listen a:2, speak a:2.1, speak a:2.2" {
			t.Fatalf("early speech: %s", got)
		}
		if cs := state(); cs.Speaking != 0 || len(cs.Pending) != 0 {
			t.Fatalf("a failed handling recorded %+v", cs)
		}
		if early == nil || !strings.Contains(early.Error(), "deliver it again") {
			t.Fatalf("an early end before its words were recorded: %v", early)
		}
		calls.mu.Lock()
		heard := calls.heard
		calls.mu.Unlock()
		must(t, h.svc.HandleCallEvent(ctx, heard))
		must(t, h.svc.HandleCallEvent(ctx, heard)) // and once more: a duplicate does nothing
		if got := log(); got != "speak a:0.1, listen a:2, speak a:2.1, speak a:2.2, speak a:2.1, speak a:2.2" {
			t.Fatalf("handled again: %s", got)
		}
		cs := state()
		if cs.Speaking != 2 || !cs.OutboxEarly || cs.OutboxFirst != 2 || len(cs.Outbox) != 2 || cs.Outbox[1].Text != "Goodbye." ||
			len(cs.Pending) != 1 || cs.Pending[0].Kind != conversation.Hangup {
			t.Fatalf("recorded %+v", cs)
		}
		// The hang-up waits for the end of both (the carrier carried out each key once).
		if len(calls.ends) != 2 {
			t.Fatalf("%d ends", len(calls.ends))
		}
		release()
		if got := log(); strings.Contains(got, "hangup") {
			t.Fatalf("the hang-up went before the last early Say ended: %s", got)
		}
		release()
		if got := log(); !strings.HasSuffix(got, "speak a:2.2, hangup a:5") {
			t.Fatalf("after the last end: %s", got)
		}
		h.drive(t, j.ID, 10*time.Second)
		closed := h.logs.closed["log-"+att]
		var words []string
		for _, tu := range closed.Turns {
			words = append(words, tu.Text)
		}
		if strings.Join(words, "|") != "Hello Ada|yes please|Thank you.|Goodbye." {
			t.Fatalf("transcript %q", words)
		}
	})
}

// asker is a simulated customer who asks a question, then says no more.
type asker struct{}

func (asker) Reply(_ context.Context, _ string, call []phones.SpokenTurn) (phones.CustomerReply, error) {
	heard := 0
	for _, t := range call {
		if t.Agent {
			heard++
		}
	}
	if heard < 3 {
		return phones.CustomerReply{Text: "When are you open on Sunday?"}, nil
	}
	return phones.CustomerReply{Text: "No, that's all, thanks."}, nil
}

// A call with a language model through the simulator: the model's replies streamed and said
// sentence by sentence (early), each once, in order, the call ending as the flow says.
func TestModelCallThroughTheSimulator(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tm := newTeam(t, db, 10, alwaysOpen)
		graph := fmt.Sprintf(`{"nodes":[
			{"id":"start","type":"start","position":{"x":0,"y":0},"data":{}},
			{"id":"ask","type":"agent","position":{"x":0,"y":200},"data":{"instruction":"Greet the customer and ask how you can help."}},
			{"id":"cr","type":"customer-response","position":{"x":0,"y":400},"data":{"description":"A question"}},
			{"id":"answer","type":"agent","position":{"x":0,"y":600},"data":{"instruction":"Answer the question."}},
			{"id":"cr2","type":"customer-response","position":{"x":0,"y":800},"data":{"description":"Anything"}},
			{"id":"end","type":"end-call","position":{"x":0,"y":1000},"data":{"instruction":"Goodbye."}},
			{"id":%q,"type":"contacts","position":{"x":400,"y":0},"data":{"contactsSource":"csv"}}],
			"edges":[{"id":"e1","source":"start","target":"ask"},{"id":"e2","source":"ask","target":"cr"},{"id":"e3","source":"cr","target":"answer"},
			{"id":"e4","source":"answer","target":"cr2"},{"id":"e5","source":"cr2","target":"end"}]}`, tm.nodeID)
		must(t, db.SetWorkflowGraph(ctx, tm.org.ID, tm.workflow.ID, graph))
		f := openaitest.New()
		defer f.Close()
		f.TokenDelay(2 * time.Millisecond)
		f.Reply(func(r openaitest.Request) string {
			if strings.Contains(r.Messages[0].Content, "Greet the customer") {
				return "Hi Ada, this is Ava. How can I help you today?"
			}
			return "Sure. We open at ten on Sundays. Is there anything else?"
		})
		engine := conversation.New(conversation.Deps{Agents: conversation.StoreAgents{DB: db},
			Model: llm.NewOpenAI(llm.OpenAIConfig{BaseURL: f.BaseURL(), Model: "m"})})
		calls := sim.NewCalls(sim.CallOptions{Seed: 1, RetryBase: time.Millisecond})
		defer calls.Close()
		calls.SetCustomer(asker{})
		h := newHarnessWith(t, db, calls, fast, engine)
		calls.SetHandler(h.svc)
		j := testCallAda(t, h, tm)
		id := "log-" + store.AttemptID(j.ID, 1, 1)
		h.drive(t, j.ID, 20*time.Second)
		deadline := time.Now().Add(10 * time.Second)
		for {
			h.logs.mu.Lock()
			c, ok := h.logs.closed[id]
			h.logs.mu.Unlock()
			if ok {
				var words []string
				for _, tu := range c.Turns {
					words = append(words, tu.Speaker+": "+tu.Text)
				}
				want := []string{"agent: Hi Ada, this is Ava.", "agent: How can I help you today?", "customer: When are you open on Sunday?",
					"agent: Sure.", "agent: We open at ten on Sundays.", "agent: Is there anything else?", "customer: No, that's all, thanks.",
					"agent: Thank you for your time. Goodbye."} // a goodbye the flow does not wait for ends the call politely (conversation/heard.go)
				if strings.Join(words, "|") != strings.Join(want, "|") {
					t.Fatalf("transcript:\n%s", strings.Join(words, "\n"))
				}
				return
			}
			if time.Now().After(deadline) {
				t.Fatal("the call log was not closed")
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}
