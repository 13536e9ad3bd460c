package runs_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/runs"
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
		j, err := h.svc.TestRun(ctx, tm.actor(), runs.TestInput{WorkflowID: tm.workflow.ID, Destination: "+14155559999",
			NameOrEmail: "Ada", TriggeredBy: "tester@example.com", IsTest: true})
		must(t, err)
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
