package conversation_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/llm"
	"github.com/bettyhq/betty/server/llm/openaitest"
	"github.com/bettyhq/betty/server/workflow"
)

// question is a flow that greets, listens, answers and listens again.
func question() workflow.Graph {
	return newFlow().node("start", workflow.Start, nil).
		node("ask", workflow.Agent, workflow.Data{"instruction": "Ask how you can help."}).
		node("cr", workflow.CustomerResponse, workflow.Data{"description": "A question"}).
		node("answer", workflow.Agent, workflow.Data{"instruction": "Answer the question.", "say": "We are open nine to five, {{firstName}}."}).
		node("cr2", workflow.CustomerResponse, workflow.Data{"description": "Anything"}).
		node("end", workflow.EndCall, nil).
		edges("start>ask", "ask>cr", "cr>answer", "answer>cr2", "cr2>end").g
}

// spoken records what SpeakNow was handed and when.
type spoken struct {
	mu    sync.Mutex
	start time.Time
	texts []string
	at    []time.Duration
}

func (s *spoken) hook(a conversation.Action) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.texts = append(s.texts, a.Text)
	s.at = append(s.at, time.Since(s.start))
}

// modelEngine is an engine on the fake model server whose answers to the call's greeting
// are fixed and whose answer to the question is reply.
func modelEngine(t *testing.T, f *openaitest.Server, reply string, timeout time.Duration) *conversation.Engine {
	t.Helper()
	f.Reply(func(r openaitest.Request) string {
		if len(r.Messages) == 2 && strings.Contains(r.Messages[1].Content, "Say your next line") {
			return "Hi Ann, how can I help?"
		}
		return reply
	})
	return engine(conversation.Deps{Model: llm.NewOpenAI(llm.OpenAIConfig{BaseURL: f.BaseURL(), Model: "m", Timeout: timeout, RetryWait: time.Second})})
}

// heard starts a call on the flow without early speech, runs before (when not nil), then
// hands the customer's words to Heard with sp's hook (nil: none).
func heard(t *testing.T, e *conversation.Engine, words string, sp *spoken, before func()) ([]conversation.Action, conversation.State) {
	t.Helper()
	s := setup(question())
	st, _, err := e.Start(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if before != nil {
		before()
	}
	if sp != nil {
		s.SpeakNow = sp.hook
		sp.start = time.Now()
	}
	st, acts, err := e.Heard(context.Background(), s, st, words, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return acts, st
}

// A model's reply is said sentence by sentence, each handed to SpeakNow as it completes: the
// first long before the model is done. The actions are the same with or without the hook.
func TestModelReplySpokenSentenceBySentence(t *testing.T) {
	f := openaitest.New()
	defer f.Close()
	reply := "Sure, Ann. We open at 9 a.m. on weekdays and at ten on Sundays, e.g. this Sunday. Anything else I can help with today?"
	e := modelEngine(t, f, reply, 5*time.Second)
	want := []string{"Sure, Ann.", "We open at 9 a.m. on weekdays and at ten on Sundays, e.g. this Sunday.", "Anything else I can help with today?"}

	plain, _ := heard(t, e, "When do you open?", nil, nil)
	// The step's spoken line, placeholders filled, is the model's example of what to say.
	if reqs := f.Requests(); !strings.Contains(reqs[len(reqs)-1].Messages[0].Content, `"We are open nine to five, Ann."`) {
		t.Fatalf("the example line is not in the prompt: %s", reqs[len(reqs)-1].Messages[0].Content)
	}
	sp := &spoken{}
	acts, st := heard(t, e, "When do you open?", sp, func() { f.TokenDelay(20 * time.Millisecond) }) // 23 pieces: about half a second
	total := time.Since(sp.start)
	if kinds(acts) != "say,say,say,listen" || strings.Join(said(acts), "|") != strings.Join(want, "|") || kinds(plain) != kinds(acts) ||
		strings.Join(said(plain), "|") != strings.Join(want, "|") {
		t.Fatalf("actions %s %q, without the hook %s %q", kinds(acts), said(acts), kinds(plain), said(plain))
	}
	for i, a := range acts {
		if a.Spoken != (a.Kind == conversation.Say) || plain[i].Spoken {
			t.Fatalf("action %d spoken=%v (without the hook %v)", i, a.Spoken, plain[i].Spoken)
		}
	}
	if strings.Join(sp.texts, "|") != strings.Join(want, "|") {
		t.Fatalf("spoken now: %q", sp.texts)
	}
	// "Sure, Ann." is complete when "We" comes: the third of 23 pieces.
	if sp.at[0] > total/3 {
		t.Fatalf("the first sentence went at %v of %v", sp.at[0], total)
	}
	res, _ := e.Result(st)
	if n := len(res.Turns); n < 3 || res.Turns[n-1].Text != want[2] || res.Turns[n-3].Text != want[0] {
		t.Fatalf("turns %+v", res.Turns)
	}
}

// A stream cut after its first sentence leaves that sentence said and nothing more (no
// half sentence, no local wording on top); one cut before it gets the local wording.
func TestModelStreamCut(t *testing.T) {
	f := openaitest.New()
	defer f.Close()
	e := modelEngine(t, f, "Sure thing. We open at nine on weekdays and close at five.", 5*time.Second)
	f.TokenDelay(time.Millisecond)
	s := setup(question())
	st, _, err := e.Start(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	f.CutStream(5) // "Sure ", "thing. ", "We ", "open ", "at "
	st, acts, err := e.Heard(context.Background(), s, st, "When do you open?", 5*time.Second)
	if err != nil || kinds(acts) != "say,listen" || said(acts)[0] != "Sure thing." {
		t.Fatalf("cut after a sentence: %s %q %v", kinds(acts), said(acts), err)
	}
	steps := stepsOf(t, e, st)
	if len(steps) != 1 || steps[0].Status != conversation.StepFailed || !strings.Contains(steps[0].Detail, "broke off after 1 sentence;") {
		t.Fatalf("steps %s", mustJSON(steps))
	}

	f.CutStream(0)
	acts, st = heard(t, e, "When do you open?", nil, func() { f.CutStream(1) })
	local, _ := call(t, engine(conversation.Deps{}), setup(question()), "When do you open?")
	if kinds(acts) != "say,listen" || said(acts)[0] != said(local)[1] {
		t.Fatalf("cut before a sentence: %s %q, local %q", kinds(acts), said(acts), said(local))
	}
	if steps := stepsOf(t, e, st); len(steps) != 1 || steps[0].NodeID != "answer" || !strings.Contains(steps[0].Detail, "used the local wording") {
		t.Fatalf("steps %s", mustJSON(steps))
	}
}

// A model that does not answer in time, or rate-limits for longer than a turn can wait, is
// replaced by the local wording; a short 429 is waited out once and the model's words said.
func TestModelTimeoutAndRateLimit(t *testing.T) {
	f := openaitest.New()
	defer f.Close()
	e := modelEngine(t, f, "We open at nine.", 300*time.Millisecond)
	local, _ := call(t, engine(conversation.Deps{}), setup(question()), "When do you open?")

	var start time.Time
	acts, _ := heard(t, e, "When do you open?", nil, func() { f.Delay(time.Second); start = time.Now() })
	if said(acts)[0] != said(local)[1] || time.Since(start) > time.Second {
		t.Fatalf("timeout: %q after %v", said(acts), time.Since(start))
	}
	f.Delay(0)

	rate := func(f429 openaitest.Failure) func() { return func() { f.Fail(f429) } }
	if acts, _ = heard(t, e, "When do you open?", nil, rate(openaitest.Failure{Status: 429, Message: "Rate limit reached", RetryAfterMs: 50})); said(acts)[0] != "We open at nine." {
		t.Fatalf("a short 429: %q", said(acts))
	}
	if acts, _ = heard(t, e, "When do you open?", nil, rate(openaitest.Failure{Status: 429, Message: "Rate limit reached", RetryAfter: 20})); said(acts)[0] != said(local)[1] {
		t.Fatalf("a long 429: %q", said(acts))
	}
}

// The branch is the model's tool call when it names an option on offer; text, an option out
// of range or a tool not offered fall back to the lexical choice.
func TestModelChoosesByToolCall(t *testing.T) {
	f := openaitest.New()
	defer f.Close()
	var call1 openaitest.Call
	var offered []string
	f.Answer(func(r openaitest.Request) openaitest.Answer {
		if len(r.Tools) == 0 {
			return openaitest.Answer{Text: "Hello."}
		}
		offered = r.ToolNames()
		if call1.Name == "" {
			return openaitest.Answer{Text: "3"}
		}
		return openaitest.Answer{Calls: []openaitest.Call{call1}}
	})
	e := engine(conversation.Deps{Model: llm.NewOpenAI(llm.OpenAIConfig{BaseURL: f.BaseURL(), Model: "m"})})
	branch := func(c openaitest.Call) (string, string) {
		t.Helper()
		call1 = c
		_, st := call(t, e, setup(renewal()), "yes please, renew it")
		for _, s := range stepsOf(t, e, st) {
			if s.Kind == "branch" {
				return s.NodeID, s.Detail
			}
		}
		t.Fatal("no branch chosen")
		return "", ""
	}
	if id, how := branch(openaitest.Call{Name: "choose_branch", Arguments: `{"index": 3}`}); id != "human" || !strings.Contains(how, "choose_branch") {
		t.Fatalf("choose_branch 3: %s (%s)", id, how)
	}
	for _, c := range []openaitest.Call{{}, {Name: "choose_branch", Arguments: `{"index": 9}`}, {Name: "choose_branch", Arguments: `{"index": 1.5}`},
		{Name: "end_call", Arguments: `{"reason": "bye"}`}, {Name: "choose_branch", Arguments: `{"index": 3`}} {
		if id, how := branch(c); id != "yes" || !strings.Contains(how, "lexical similarity") {
			t.Fatalf("%+v: %s (%s)", c, id, how)
		}
	}
	// end_call is offered where exactly one branch ends the call, and takes it.
	g := newFlow().node("start", workflow.Start, nil).
		node("ask", workflow.Agent, workflow.Data{"instruction": "Ask if they want a callback."}).
		node("later", workflow.CustomerResponse, workflow.Data{"description": "Call back later"}).
		node("now", workflow.CustomerResponse, workflow.Data{"description": "Yes, now is fine"}).
		node("bye", workflow.Agent, workflow.Data{"instruction": "Say goodbye."}).
		node("fwd", workflow.ForwardCall, workflow.Data{"destinationPhoneNumber": "+14155550123"}).
		node("end", workflow.EndCall, nil).
		edges("start>ask", "ask>later", "ask>now", "later>bye", "bye>end", "now>fwd").g
	call1 = openaitest.Call{Name: "end_call", Arguments: `{"reason": "The customer is busy."}`}
	acts, st := call(t, e, setup(g), "yes sure")
	if kinds(acts) != "say,listen,say,say,hangup" || strings.Join(offered, ",") != "choose_branch,end_call,transfer_call" {
		t.Fatalf("end_call: %s, offered %q", kinds(acts), offered)
	}
	if s := stepsOf(t, e, st)[0]; s.NodeID != "later" || !strings.Contains(s.Detail, "end_call: The customer is busy)") {
		t.Fatalf("step %+v", s)
	}
}

// The local back-end says what it always said with early speech: the same actions, the
// opening Says handed over at once.
func TestLocalBrainWithEarlySpeech(t *testing.T) {
	e := engine(conversation.Deps{})
	plain, _ := call(t, e, setup(renewal()), "no thanks")
	sp := &spoken{start: time.Now()}
	s := setup(renewal())
	s.SpeakNow = sp.hook
	early, _ := call(t, e, s, "no thanks")
	if kinds(plain) != kinds(early) || strings.Join(said(plain), "|") != strings.Join(said(early), "|") {
		t.Fatalf("%s %q / %s %q", kinds(plain), said(plain), kinds(early), said(early))
	}
	// Start: [say, listen]; Heard: [say, say, hangup]: three Says begin their actions.
	if len(sp.texts) != 3 || sp.texts[0] != said(plain)[0] || sp.texts[2] != said(plain)[2] {
		t.Fatalf("spoken now %q of %q", sp.texts, said(plain))
	}
}
