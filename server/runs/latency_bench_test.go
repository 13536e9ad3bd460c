package runs_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/llm"
	"github.com/bettyhq/betty/server/llm/openaitest"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/store"
)

// firstSentence is how long the fake model takes to complete its first sentence.
const firstSentence = 20 * time.Millisecond

// turnsPerIteration is how many turns make one iteration (about 80 ms each).
const turnsPerIteration = 60

// BenchmarkTurnLatency measures Betty's own part of the wait after the customer's last word,
// through the call driver on SQLite with the conversation engine and a language model (the
// fake server, over HTTP and SSE) whose first sentence is complete firstSentence after it is
// asked: from the call.heard event given to HandleCallEvent to the first Speak command sent
// to the carrier. Betty's overhead is that time less firstSentence: reading the attempt, its
// job and agent, the duplicate check, the branch choice (a tool call the fake answers at
// once), the prompt (profile, FAQ, the call so far), the request, reading the stream and
// cutting the sentence. Each turn starts from the same state (the
// call just greeted), turnsPerIteration turns an iteration; it reports the overhead at p50 and p95 (the
// target: under 50 ms at p95). `make bench` prints it.
func BenchmarkTurnLatency(b *testing.B) {
	ctx := context.Background()
	db := testdb.Open(b, store.SQLite, true)
	tm := newTeam(b, db, 1e9, alwaysOpen)
	graph := fmt.Sprintf(`{"nodes":[
		{"id":"start","type":"start","position":{"x":0,"y":0},"data":{}},
		{"id":"ask","type":"agent","position":{"x":0,"y":200},"data":{"instruction":"Answer the customer's question about opening hours."}},
		{"id":"cr","type":"customer-response","position":{"x":0,"y":400},"data":{"description":"Anything"}},
		{"id":"bye","type":"customer-response","position":{"x":400,"y":400},"data":{"description":"Says goodbye"}},
		{"id":"end","type":"end-call","position":{"x":400,"y":600},"data":{}},
		{"id":%q,"type":"contacts","position":{"x":800,"y":0},"data":{"contactsSource":"csv"}}],
		"edges":[{"id":"e1","source":"start","target":"ask"},{"id":"e2","source":"ask","target":"cr"},{"id":"e3","source":"cr","target":"ask"},
		{"id":"e4","source":"ask","target":"bye"},{"id":"e5","source":"bye","target":"end"}]}`, tm.nodeID)
	must(b, db.SetWorkflowGraph(ctx, tm.org.ID, tm.workflow.ID, graph))

	f := openaitest.New()
	defer f.Close()
	f.Answer(func(r openaitest.Request) openaitest.Answer {
		if len(r.Tools) > 0 { // the branch: the question, not goodbye
			return openaitest.Answer{Calls: []openaitest.Call{{Name: "choose_branch", Arguments: `{"index": 1}`}}}
		}
		return openaitest.Answer{Text: "Sure. We open at ten on Sundays."}
	})
	engine := conversation.New(conversation.Deps{Agents: conversation.StoreAgents{DB: db},
		Model: llm.NewOpenAI(llm.OpenAIConfig{BaseURL: f.BaseURL(), Model: "m"})})
	calls := newFakeCalls(func(string, int) phones.Outcome { return phones.OutcomeAnswer })
	calls.holdEnds = true // the call waits for the greeting to end: the test says the words
	h := newHarnessWith(b, db, calls, fast, engine)
	j := testCallAda(b, h, tm)
	_, _, err := h.svc.Dispatch(ctx, j.ID)
	must(b, err)
	greeted, err := db.AttemptByID(ctx, store.AttemptID(j.ID, 1, 1))
	must(b, err)
	if greeted.State != store.AttemptInCall || greeted.CallControlID == nil {
		b.Fatalf("the call is %s", greeted.State)
	}

	// "Sure. " then "We ": the first sentence is complete after two pieces (the branch
	// choice, not streamed, answers at once).
	f.TokenDelay(firstSentence / 2)
	var start time.Time
	first := time.Duration(-1)
	calls.onSpeak = func(string) {
		if first < 0 {
			first = time.Since(start)
		}
	}
	var overhead []time.Duration
	n := 0
	for b.Loop() {
		for range turnsPerIteration {
			cur, err := db.AttemptByID(ctx, greeted.ID)
			must(b, err)
			cur.Conversation = greeted.Conversation // every turn from the greeted call
			if moved, err := db.MoveAttemptIf(ctx, &cur, cur.Commands, store.AttemptInCall, store.AttemptInCall); err != nil || !moved {
				b.Fatalf("reset: %v %v", moved, err)
			}
			n++
			e := phones.CallEvent{ID: fmt.Sprintf("bench-heard-%d", n), Kind: phones.EventHeard, CallControlID: *greeted.CallControlID,
				AttemptID: greeted.ID, Text: "When are you open on Sunday?", At: time.Now()}
			first, start = -1, time.Now()
			must(b, h.svc.HandleCallEvent(ctx, e))
			if first < 0 {
				b.Fatal("nothing was spoken")
			}
			overhead = append(overhead, first-firstSentence)
		}
	}
	slices.Sort(overhead)
	at := func(p float64) float64 {
		return float64(overhead[int(p*float64(len(overhead)-1))]) / float64(time.Millisecond)
	}
	b.ReportMetric(at(0.50), "overhead-p50-ms")
	b.ReportMetric(at(0.95), "overhead-p95-ms")
	b.ReportMetric(float64(firstSentence.Milliseconds()), "model-first-sentence-ms")
}
