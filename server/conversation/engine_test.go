package conversation_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/conversation/timing"
	"github.com/bettyhq/betty/server/llm"
	"github.com/bettyhq/betty/server/llm/openaitest"
	"github.com/bettyhq/betty/server/workflow"
)

func TestBranches(t *testing.T) {
	c := &crm{}
	e := engine(conversation.Deps{CRM: c})
	s := setup(renewal())
	cases := []struct {
		replies []string
		kinds   string
		last    string
		outcome string
	}{
		{[]string{"Yes please, I'd like to renew"}, "say,listen,say,say,hangup", "Goodbye.", conversation.OutcomeCompleted},
		{[]string{"No thanks, I'm not interested"}, "say,listen,say,say,hangup", "Goodbye.", conversation.OutcomeCompleted},
		{[]string{"Can I talk to a real person?"}, "say,listen,say,transfer:+14155550123", "Please hold while I transfer your call.", conversation.OutcomeForwarded},
		{[]string{"What's the weather like?", "yeah sure"}, "say,listen,say,say,listen,say,say,hangup", "Goodbye.", conversation.OutcomeCompleted},
	}
	for _, tc := range cases {
		acts, st := call(t, e, s, tc.replies...)
		if got := kinds(acts); got != tc.kinds {
			t.Errorf("%q: actions %s, want %s (%q)", tc.replies, got, tc.kinds, said(acts))
			continue
		}
		words := said(acts)
		if words[len(words)-1] != tc.last {
			t.Errorf("%q: last words %q, want %q", tc.replies, words[len(words)-1], tc.last)
		}
		if tc.replies[0] == "No thanks, I'm not interested" && words[1] != "Thank you for your time." {
			t.Errorf("no branch said %q", words)
		}
		if words[0] != "Hi Ann, this is Linda from Acme. Do you want to renew your subscription?" {
			t.Errorf("greeting %q", words[0])
		}
		r, _ := e.Result(st)
		sum, err := e.Summarize(context.Background(), s, r)
		if err != nil || sum.Outcome != tc.outcome || sum.Priority != conversation.Priorities[tc.outcome] || !strings.HasPrefix(sum.Title, "Call with Ann Lee: ") {
			t.Errorf("%q: summary %+v %v", tc.replies, sum, err)
		}
	}
	if len(c.set) != 2 || c.set[0] != "+14155550100=customer" {
		t.Fatalf("lifecycle stages set: %v", c.set)
	}
	// A test run skips the lifecycle stage; without a CRM it is skipped too.
	for i, e := range []*conversation.Engine{engine(conversation.Deps{CRM: c}), engine(conversation.Deps{})} {
		ts := s
		ts.IsTest = i == 0
		_, st := call(t, e, ts, "yes")
		var stage conversation.Step
		for _, x := range stepsOf(t, e, st) {
			if x.Kind == string(workflow.LifecycleStage) {
				stage = x
			}
		}
		if stage.Status != conversation.StepSkipped || len(c.set) != 2 {
			t.Fatalf("lifecycle step %+v, set %v", stage, c.set)
		}
	}
}

func TestStateRoundTripAndOffsets(t *testing.T) {
	s := setup(renewal())
	ctx := context.Background()
	st, acts, err := engine(conversation.Deps{}).Start(ctx, s)
	if err != nil || kinds(acts) != "say,listen" {
		t.Fatal(err, acts)
	}
	// A new engine (a restart, another replica) continues from the bytes alone.
	raw := append([]byte(nil), st...)
	var decoded map[string]any
	if err := json.Unmarshal(raw, &decoded); err != nil {
		t.Fatalf("state is not JSON: %v", err)
	}
	at := timing.Next(0, acts[0].Text)
	st2, acts2, err := engine(conversation.Deps{}).Heard(ctx, s, raw, "no", at)
	if err != nil {
		t.Fatal(err)
	}
	st3, acts3, _ := engine(conversation.Deps{}).Heard(ctx, s, st, "no", at)
	if string(st2) != string(st3) || !reflect.DeepEqual(acts2, acts3) {
		t.Fatalf("the same state and words gave different answers")
	}
	r, _ := engine(conversation.Deps{}).Result(st2)
	want := []string{"agent", "customer", "agent", "agent"}
	if len(r.Turns) != len(want) || !r.Ended {
		t.Fatalf("turns %+v", r.Turns)
	}
	for i, tn := range r.Turns {
		if tn.Speaker != want[i] {
			t.Fatalf("turn %d speaker %s", i, tn.Speaker)
		}
	}
	if r.Turns[0].Offset != 0 || r.Turns[1].Offset != at || r.Turns[2].Offset != timing.Next(at, "no") ||
		r.Turns[3].Offset != timing.Next(r.Turns[2].Offset, r.Turns[2].Text) {
		t.Fatalf("offsets %+v", r.Turns)
	}
	if _, _, err := engine(conversation.Deps{}).Heard(ctx, s, conversation.State(`{"v":99}`), "x", 0); err == nil {
		t.Fatal("a state of another version was accepted")
	}
	// After the end, words are kept and no action follows.
	st4, acts4, err := engine(conversation.Deps{}).Heard(ctx, s, st2, "hello?", 20*time.Second)
	if err != nil || len(acts4) != 0 {
		t.Fatalf("after the end: %v %v", acts4, err)
	}
	if r, _ := engine(conversation.Deps{}).Result(st4); len(r.Turns) != 5 {
		t.Fatalf("turns after the end: %d", len(r.Turns))
	}
}

func TestDoNotCall(t *testing.T) {
	for _, words := range []string{"Don't call me again.", "Please remove me from your list", "stop calling me!", "Put me on your do not call list",
		"I don’t want any more calls", "Never call me again"} {
		if !conversation.AsksNotToBeCalled(words) {
			t.Errorf("%q not understood as do-not-call", words)
		}
	}
	for _, words := range []string{"Call me again tomorrow", "yes", "I don't want to renew", "", "please call me back"} {
		if conversation.AsksNotToBeCalled(words) {
			t.Errorf("%q understood as do-not-call", words)
		}
	}
	e := engine(conversation.Deps{})
	s := setup(renewal())
	acts, st := call(t, e, s, "Who is this? Stop calling me.")
	if kinds(acts) != "say,listen,say,hangup" {
		t.Fatalf("actions %s", kinds(acts))
	}
	r, _ := e.Result(st)
	if !r.DoNotCall || !r.Ended {
		t.Fatalf("result %+v", r)
	}
	sum, _ := e.Summarize(context.Background(), s, r)
	if sum.Outcome != conversation.OutcomeDoNotCall || sum.Priority != 1 {
		t.Fatalf("summary %+v", sum)
	}
}

func TestSilenceAndLoops(t *testing.T) {
	e := engine(conversation.Deps{})
	s := setup(renewal())
	acts, st := call(t, e, s, "", "", "")
	if kinds(acts) != "say,listen,say,listen,say,listen,say,hangup" {
		t.Fatalf("silence: %s", kinds(acts))
	}
	r, _ := e.Result(st)
	if sum, _ := e.Summarize(context.Background(), s, r); sum.Outcome != conversation.OutcomeNoResponse || sum.Priority != 0 {
		t.Fatalf("summary %+v", sum)
	}
	// A customer who never answers anything the flow understands loops through "Anything
	// else" until the listen limit ends the call.
	replies := make([]string, conversation.MaxListens)
	for i := range replies {
		replies[i] = "The weather is lovely today"
	}
	acts, st = call(t, e, s, replies...)
	if !strings.HasSuffix(kinds(acts), "say,hangup") {
		t.Fatalf("loop: %s", kinds(acts))
	}
	r, _ = e.Result(st)
	if !r.Ended || r.Steps[len(r.Steps)-1].Kind != "limit" {
		t.Fatalf("loop result %+v", r.Steps[len(r.Steps)-1])
	}
	// A call that is not over is incomplete.
	_, st = call(t, e, s)
	r, _ = e.Result(st)
	if sum, _ := e.Summarize(context.Background(), s, r); sum.Outcome != conversation.OutcomeIncomplete || sum.Priority != 2 {
		t.Fatalf("summary %+v", sum)
	}
}

func TestEveryNodeKind(t *testing.T) {
	g := newFlow().
		node("start", workflow.Start, nil).
		node("contacts", workflow.Contacts, workflow.Data{"contactsSource": "csv"}).
		node("inv", workflow.Invisible, nil).
		node("da", workflow.DataAccess, nil).
		node("greet", workflow.Agent, workflow.Data{"instruction": "Say hello {{firstName}} and ask how you can help.", "say": "Hello {{firstName}}. How can I help?"}).
		node("cr", workflow.CustomerResponse, workflow.Data{"description": "Any answer"}).
		node("stage", workflow.LifecycleStage, workflow.Data{"lifeCycleStage": "lead"}).
		node("fwd", workflow.ForwardCall, workflow.Data{"destinationPhoneNumber": "+442079460958"}).
		edges("start>inv", "inv>da", "da>greet", "greet>cr", "cr>stage", "stage>fwd").g
	k := &knowledge{}
	e := engine(conversation.Deps{Knowledge: k})
	acts, st := call(t, e, setup(g), "I have a question")
	if kinds(acts) != "say,listen,say,transfer:+442079460958" {
		t.Fatalf("actions %s %q", kinds(acts), said(acts))
	}
	// The line's own hello is left out: the greeting has said it.
	if said(acts)[0] != "Hi Ann, this is Linda from Acme. How can I help?" || acts[0].Voice != "espeak-en-us-linda" {
		t.Fatalf("said %q voice %q", said(acts)[0], acts[0].Voice)
	}
	r, _ := e.Result(st)
	var ks []string
	for _, x := range r.Steps {
		ks = append(ks, x.Kind+":"+string(x.Status))
	}
	if strings.Join(ks, " ") != "data-access:done hubspot-lifecycle-stage:skipped forward-call:done" || r.ForwardedTo != "+442079460958" || !r.Ended {
		t.Fatalf("steps %v, result %+v", ks, r)
	}
	if len(k.asked) != 1 || k.asked[0] != "Say hello Ann and ask how you can help." {
		t.Fatalf("knowledge asked %q", k.asked)
	}
	// An End Call with a line says it; a flow that runs out ends politely; no start
	// is refused.
	g2 := newFlow().node("start", workflow.Start, nil).node("a", workflow.Agent, workflow.Data{"instruction": `Say "Bye now."`}).
		node("end", workflow.EndCall, workflow.Data{"say": "See you, {{firstName}}!"}).edges("start>a", "a>end").g
	acts, _ = call(t, e, setup(g2))
	if strings.Join(said(acts), "|") != "Hi Ann, this is Linda from Acme. Bye now.|See you, Ann!" || kinds(acts) != "say,say,hangup" {
		t.Fatalf("end call: %q %s", said(acts), kinds(acts))
	}
	g3 := newFlow().node("start", workflow.Start, nil).node("a", workflow.Agent, workflow.Data{"instruction": "Tell them we are closed."}).edges("start>a").g
	acts, st = call(t, e, setup(g3))
	if kinds(acts) != "say,say,hangup" || stepsOf(t, e, st)[0].Kind != "end" {
		t.Fatalf("ran out: %s", kinds(acts))
	}
	if _, _, err := e.Start(context.Background(), setup(workflow.Graph{})); err == nil {
		t.Fatal("a graph without start was started")
	}
}

func TestKnowledgeAndFAQ(t *testing.T) {
	k := &knowledge{passages: []string{"The premium plan costs 20 dollars a month. It includes support."}}
	e := engine(conversation.Deps{Knowledge: k})
	g := newFlow().node("start", workflow.Start, nil).
		node("ask", workflow.Agent, workflow.Data{"instruction": "Ask if they have questions.", "say": "Do you have any questions?"}).
		node("cr", workflow.CustomerResponse, workflow.Data{"description": "A question"}).
		node("answer", workflow.Agent, workflow.Data{"instruction": "Ask if they want to sign up.", "say": "Do you want to sign up?"}).
		node("cr2", workflow.CustomerResponse, workflow.Data{"description": "Anything"}).
		node("end", workflow.EndCall, nil).
		edges("start>ask", "ask>cr", "cr>answer", "answer>cr2", "cr2>end").g
	acts, _ := call(t, e, setup(g), "How much is the premium plan?", "What are your opening hours?")
	words := said(acts)
	if words[1] != "The premium plan costs 20 dollars a month. It includes support. Do you want to sign up?" {
		t.Fatalf("knowledge answer %q", words[1])
	}
	_ = words
}

func TestOpenAIBackEnd(t *testing.T) {
	f := openaitest.New()
	defer f.Close()
	var offered []string
	f.Answer(func(r openaitest.Request) openaitest.Answer {
		if len(r.Tools) > 0 {
			offered = r.ToolNames()
			return openaitest.Answer{Calls: []openaitest.Call{{Name: "transfer_call", Arguments: `{"reason": "wants a person"}`}}}
		}
		return openaitest.Answer{Text: "Hello from the model."}
	})
	m := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: f.BaseURL(), Model: "m"})
	e := engine(conversation.Deps{Model: m})
	acts, st := call(t, e, setup(renewal()), "whatever")
	if kinds(acts) != "say,listen,say,transfer:+14155550123" || said(acts)[0] != "Hello from the model." {
		t.Fatalf("actions %s %q", kinds(acts), said(acts))
	}
	// Two branches end the call (yes, no), one forwards it (human): end_call names no one
	// branch and is not offered; transfer_call takes the human branch.
	if strings.Join(offered, ",") != "choose_branch,transfer_call" {
		t.Fatalf("tools offered: %q", offered)
	}
	if steps := stepsOf(t, e, st); steps[0].NodeID != "human" || !strings.Contains(steps[0].Detail, "transfer_call: wants a person") {
		t.Fatalf("steps %s", mustJSON(steps))
	}
	reqs := f.Requests()
	if !strings.Contains(reqs[0].Messages[0].Content, "Ask if they want to renew their subscription.") ||
		!strings.Contains(reqs[0].Messages[0].Content, "Hi Ann, this is Linda from Acme.") {
		t.Fatalf("prompt: %s", reqs[0].Messages[0].Content)
	}
	// A failing model does not end the call: the local wording and choice are used.
	f.Fail(openaitest.Failure{Status: 500, Message: "boom"}, openaitest.Failure{Status: 500, Message: "boom"}, openaitest.Failure{Status: 500, Message: "boom"})
	acts, st = call(t, e, setup(renewal()), "no thanks")
	if said(acts)[0] != "Hi Ann, this is Linda from Acme. Do you want to renew your subscription?" || said(acts)[1] != "Thank you for your time." {
		t.Fatalf("fallback %q", said(acts))
	}
	if steps := stepsOf(t, e, st); steps[0].Status != conversation.StepFailed || !strings.Contains(steps[1].Detail, "lexical similarity") {
		t.Fatalf("steps %s", mustJSON(steps))
	}
}

func TestBranchesWithoutConditionalPath(t *testing.T) {
	// An agent step whose handles lead straight to customer responses chooses among them.
	g := newFlow().node("start", workflow.Start, nil).
		node("ask", workflow.Agent, workflow.Data{"instruction": "Ask if they want a callback."}).
		node("later", workflow.CustomerResponse, workflow.Data{"description": "Call back later"}).
		node("now", workflow.CustomerResponse, workflow.Data{"description": "Yes, now is fine"}).
		node("fwd", workflow.ForwardCall, workflow.Data{"destinationPhoneNumber": "+14155550123"}).
		node("end", workflow.EndCall, nil).
		edges("start>ask", "ask>later", "ask>now", "later>end", "now>fwd").g
	e := engine(conversation.Deps{})
	acts, st := call(t, e, setup(g), "I'm busy, call me back tomorrow")
	if kinds(acts) != "say,listen,say,hangup" {
		t.Fatalf("later: %s", kinds(acts))
	}
	steps := stepsOf(t, e, st)
	if steps[0].Kind != "branch" || steps[0].NodeID != "later" || !strings.Contains(steps[0].Detail, "lexical similarity") {
		t.Fatalf("steps %s", mustJSON(steps))
	}
	acts, _ = call(t, e, setup(g), "yes sure")
	if kinds(acts) != "say,listen,say,transfer:+14155550123" {
		t.Fatalf("now: %s", kinds(acts))
	}
}

func TestAgentDeletedDuringTheCall(t *testing.T) {
	ag := agents{"org1/ag1": linda}
	e := conversation.New(conversation.Deps{Agents: ag})
	s := setup(renewal())
	st, _, err := e.Start(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	delete(ag, "org1/ag1")
	st, acts, err := e.Heard(context.Background(), s, st, "no", 5*time.Second)
	if err != nil || kinds(acts) != "say,say,hangup" || acts[0].Voice != "" {
		t.Fatalf("%s %v", kinds(acts), err)
	}
	if steps := stepsOf(t, e, st); steps[0].Kind != "agent-profile" || steps[0].Status != conversation.StepFailed {
		t.Fatalf("steps %s", mustJSON(steps))
	}
}
