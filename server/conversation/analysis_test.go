package conversation_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/llm"
	"github.com/bettyhq/betty/server/workflow"
)

func agentSays(s string) conversation.Turn    { return conversation.Turn{Speaker: "agent", Text: s} }
func customerSays(s string) conversation.Turn { return conversation.Turn{Speaker: "customer", Text: s} }

func field(name string, typ workflow.ValueType, desc string, options ...string) workflow.PostCallField {
	return workflow.PostCallField{Name: name, Type: typ, Description: desc, Options: options}
}

func TestReadValue(t *testing.T) {
	cases := []struct {
		typ     workflow.ValueType
		options []string
		said    string
		want    string // "" when nothing is read
	}{
		{workflow.ValueEmail, nil, "Sure, it's Ann.Lee@Example.com.", "ann.lee@example.com"},
		{workflow.ValueEmail, nil, "my email is ann dot lee at example dot co dot uk", "ann.lee@example.co.uk"},
		{workflow.ValueEmail, nil, "it's ann at example.com", "ann@example.com"},
		{workflow.ValueEmail, nil, "I'll be at home at five", ""},
		{workflow.ValueEmail, nil, "I don't want to give it", ""},
		{workflow.ValuePhone, nil, "call me on +1 (415) 555-0100 please", "+14155550100"},
		{workflow.ValuePhone, nil, "four one five, five five five, oh one two three", "4155550123"},
		{workflow.ValuePhone, nil, "room 12, floor 3", ""},
		{workflow.ValueDate, nil, "next Tuesday at 10 am works", "Next Tuesday at 10 am"},
		{workflow.ValueDate, nil, "how about the 3rd of March", "The 3rd of March"},
		{workflow.ValueDate, nil, "tomorrow morning", "Tomorrow morning"},
		{workflow.ValueDate, nil, "any time after 3:30 pm", "3:30 pm"},
		{workflow.ValueDate, nil, "I'm not sure yet", ""},
		{workflow.ValueDate, nil, "Not today, but Friday is fine", "Friday"},
		{workflow.ValueDate, nil, "I can't do Monday", ""},
		{workflow.ValueYesNo, nil, "Yeah, sure", "yes"},
		{workflow.ValueYesNo, nil, "No thanks", "no"},
		{workflow.ValueYesNo, nil, "I'm not interested", "no"},
		{workflow.ValueYesNo, nil, "I am, very much", "yes"},
		{workflow.ValueYesNo, nil, "what do you mean", ""},
		{workflow.ValueNumber, nil, "we have 25 people", "25"},
		{workflow.ValueNumber, nil, "about twenty-five of us", "25"},
		{workflow.ValueNumber, nil, "a hundred and ten", "110"},
		{workflow.ValueNumber, nil, "lots", ""},
		{workflow.ValueChoice, []string{"Basic", "Pro plan"}, "the pro plan, I think", "Pro plan"},
		{workflow.ValueChoice, []string{"Basic", "Pro plan"}, "basic... no wait, the pro plan", "Pro plan"},
		{workflow.ValueChoice, []string{"Basic", "Pro plan"}, "the enterprise one", ""},
		{workflow.ValueText, nil, "Um, well, the delivery was late", "The delivery was late"},
		{workflow.ValueText, nil, "  ", ""},
	}
	for _, c := range cases {
		got, ok := conversation.ReadValue(field("f", c.typ, "x", c.options...), c.said)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("%s %q = %q, %v; want %q", c.typ, c.said, got, ok, c.want)
		}
	}
}

func TestExtractFields(t *testing.T) {
	turns := []conversation.Turn{
		agentSays("Hi Ann, this is Linda from Acme. Would you like a demo of our product?"), // 0
		customerSays("Yes, I would love one."),                                              // 1
		agentSays("Great. Which day suits you for the demo?"),                               // 2
		customerSays("Hmm, let me think."),                                                  // 3
		customerSays("Tuesday at 10 am."),                                                   // 4
		agentSays("What e-mail address should we send the invitation to?"),                  // 5
		customerSays("ann dot lee at example dot com"),                                      // 6
		agentSays("How many people will join?"),                                             // 7
		customerSays("I'll have to check."),                                                 // 8
		agentSays("Thanks, goodbye."),                                                       // 9
	}
	fields := []workflow.PostCallField{
		field("interested", workflow.ValueYesNo, "Would they like a demo?"),
		field("appointment_day", workflow.ValueDate, "Which day suits them for the demo"),
		field("email", workflow.ValueEmail, "Their e-mail address"),
		field("seats", workflow.ValueNumber, "How many people will join"),
		field("budget", workflow.ValueNumber, "What budget do they have"),
		field("plan", workflow.ValueChoice, "Which plan they want", "Basic", "Pro"),
	}
	got := conversation.ExtractFields(fields, turns)
	want := []conversation.FieldValue{
		{Name: "interested", Value: "yes", Turn: 1},
		{Name: "appointment_day", Value: "Tuesday at 10 am", Turn: 4},
		{Name: "email", Value: "ann.lee@example.com", Turn: 6},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("fields\n got %+v\nwant %+v", got, want)
	}
	// Only the customer's words count: an address the agent reads out fills nothing.
	agentOnly := []conversation.Turn{agentSays("Is your e-mail ann@example.com?"), customerSays("Hmm.")}
	if got := conversation.ExtractFields(fields[2:3], agentOnly); len(got) != 0 {
		t.Fatalf("read from the agent's words: %+v", got)
	}
	// An e-mail said without being asked is still found, in the last turn that gives one.
	unasked := []conversation.Turn{agentSays("Hello!"), customerSays("write to ann@old.example.org"), agentSays("Sure."),
		customerSays("sorry, make that ann@new.example.org")}
	if got := conversation.ExtractFields(fields[2:3], unasked); len(got) != 1 || got[0].Value != "ann@new.example.org" || got[0].Turn != 3 {
		t.Fatalf("unasked e-mail %+v", got)
	}
	// Digits said without the question are a phone number only when they look like a whole one.
	phone := field("callback", workflow.ValuePhone, "A number to call back")
	if got := conversation.ExtractFields([]workflow.PostCallField{phone}, []conversation.Turn{agentSays("Hello!"), customerSays("my order is 4471230")}); len(got) != 0 {
		t.Fatalf("an order number read as a phone number: %+v", got)
	}
	if got := conversation.ExtractFields([]workflow.PostCallField{phone}, []conversation.Turn{agentSays("Hello!"), customerSays("reach me at 415 555 0100")}); len(got) != 1 || got[0].Value != "4155550100" {
		t.Fatalf("a phone number said unasked: %+v", got)
	}
	// A yes-no is read only as an answer to its question, never from any "yes" in the call.
	if got := conversation.ExtractFields(fields[:1], []conversation.Turn{agentSays("Can you hear me?"), customerSays("yes")}); len(got) != 0 {
		t.Fatalf("yes-no read from another question: %+v", got)
	}
}

func TestLocalSummary(t *testing.T) {
	g := renewal()
	g.Fields = []workflow.PostCallField{field("renewal_day", workflow.ValueDate, "Which day should the renewal start")}
	s := setup(g)
	r := conversation.Result{Ended: true, Turns: []conversation.Turn{
		agentSays("Do you want to renew your subscription?"), customerSays("Yes, can it start on Monday?"), agentSays("Done."),
	}, Steps: []conversation.Step{{NodeID: "yes", Kind: "branch", Status: conversation.StepDone}}}
	fields := conversation.ExtractFields(g.Fields, r.Turns)
	got := conversation.LocalSummary(s, r, conversation.OutcomeOf(r), fields)
	want := `Ann asked "Yes, can it start on Monday?"; the flow took "Yes, wants to renew". Renewal day: Monday.`
	if got != want {
		t.Fatalf("summary\n got %q\nwant %q", got, want)
	}
	for _, bad := range []string{"spoke", "time(s)", "turn"} {
		if strings.Contains(got, bad) {
			t.Fatalf("summary counts turns: %q", got)
		}
	}
	silent := conversation.Result{Ended: true, Turns: []conversation.Turn{agentSays("Hello?"), agentSays("Goodbye.")}}
	if got := conversation.LocalSummary(s, silent, conversation.OutcomeOf(silent), nil); got != "Ann said nothing." {
		t.Fatalf("silent summary %q", got)
	}
	early := conversation.Result{Turns: []conversation.Turn{agentSays("Do you want to renew?"), customerSays("Let me think about it")}}
	if got := conversation.LocalSummary(s, early, conversation.OutcomeOf(early), nil); got != `Ann said "Let me think about it". The call ended before the flow did.` {
		t.Fatalf("incomplete summary %q", got)
	}
}

func TestSummarizeReadsFields(t *testing.T) {
	g := renewal()
	g.Fields = []workflow.PostCallField{field("wants_renewal", workflow.ValueYesNo, "Do they want to renew their subscription")}
	s := setup(g)
	e := engine(conversation.Deps{})
	_, st := call(t, e, s, "Yes please")
	r, _ := e.Result(st)
	sum, err := e.Summarize(context.Background(), s, r)
	if err != nil {
		t.Fatal(err)
	}
	a := sum.Analysis
	if len(a.Fields) != 1 || a.Fields[0].Value != "yes" || r.Turns[a.Fields[0].Turn].Text != "Yes please" || a.By != conversation.ByPatterns {
		t.Fatalf("analysis %+v (turns %+v)", a, r.Turns)
	}
	if a.Summary != sum.Summary || a.Outcome != sum.Outcome || !strings.Contains(sum.Summary, "Wants renewal: yes.") {
		t.Fatalf("summary %+v", sum)
	}
}

// extractor is a language model that answers fields as told, or fails.
type extractor struct {
	llm.Model
	answer string
	err    error
	schema map[string]any
}

func (x *extractor) Name() string { return "fake model" }
func (x *extractor) Chat(context.Context, llm.Request, func(string) error) (llm.Reply, error) {
	return llm.Reply{Text: "Ann renewed.", Choice: -1}, nil
}
func (x *extractor) Extract(_ context.Context, _ []llm.Message, _ string, schema map[string]any) (json.RawMessage, error) {
	x.schema = schema
	return json.RawMessage(x.answer), x.err
}

func TestSummarizeWithModelFields(t *testing.T) {
	g := renewal()
	g.Fields = []workflow.PostCallField{field("wants_renewal", workflow.ValueYesNo, "Do they want to renew"),
		field("email", workflow.ValueEmail, "Their e-mail"), field("plan", workflow.ValueChoice, "Plan", "Gold", "Silver")}
	s := setup(g)
	r := conversation.Result{Ended: true, Turns: []conversation.Turn{
		agentSays("Do you want to renew your subscription?"), customerSays("Yes, on the silver plan. Write to ann@example.com"),
	}}
	// The model's answers are kept when they hold: a value from a customer turn, of its type.
	x := &extractor{answer: `{"wants_renewal":{"value":"yes","turn":1},"email":{"value":"ann@example.com","turn":0},"plan":{"value":"Silver","turn":1}}`}
	sum, err := engine(conversation.Deps{Model: x}).Summarize(context.Background(), s, r)
	if err != nil {
		t.Fatal(err)
	}
	want := []conversation.FieldValue{{Name: "wants_renewal", Value: "yes", Turn: 1}, {Name: "plan", Value: "Silver", Turn: 1}}
	if !reflect.DeepEqual(sum.Analysis.Fields, want) || sum.Analysis.By != "fake model" || sum.Summary != "Ann renewed." {
		t.Fatalf("analysis %+v", sum.Analysis)
	}
	props := x.schema["properties"].(map[string]any)
	if enum := props["plan"].(map[string]any)["properties"].(map[string]any)["value"].(map[string]any)["enum"]; !reflect.DeepEqual(enum, []any{"Gold", "Silver", nil}) {
		t.Fatalf("choice schema %v", enum)
	}
	// A model that fails leaves the fields to the patterns.
	x = &extractor{err: errors.New("503")}
	sum, _ = engine(conversation.Deps{Model: x}).Summarize(context.Background(), s, r)
	if sum.Analysis.By != conversation.ByPatterns || len(sum.Analysis.Fields) != 2 {
		t.Fatalf("fallback analysis %+v", sum.Analysis)
	}
}

// A whole call through the engine: the fields are read from what the customer said on it, each
// with its turn, and the summary says what happened.
func TestCallLeavesItsFields(t *testing.T) {
	g := newFlow().
		node("start", workflow.Start, nil).
		node("ask", workflow.Agent, workflow.Data{"instruction": "Ask whether they would like a demo."}).
		node("cp", workflow.ConditionalPath, nil).
		node("yes", workflow.CustomerResponse, workflow.Data{"nodeLabel": "Interested", "description": "Yes, interested in a demo"}).
		node("no", workflow.CustomerResponse, workflow.Data{"nodeLabel": "Not interested", "description": "No, not interested"}).
		node("book", workflow.Agent, workflow.Data{"instruction": "Ask for a good day and time for the demo and their e-mail address."}).
		node("cp2", workflow.ConditionalPath, nil).
		node("gives", workflow.CustomerResponse, workflow.Data{"description": "Gives a day or an e-mail address"}).
		node("other", workflow.CustomerResponse, workflow.Data{"description": "Anything else"}).
		node("end", workflow.EndCall, nil).
		node("end-no", workflow.EndCall, nil).
		edges("start>ask", "ask>cp", "cp>yes", "cp>no", "yes>book", "book>cp2", "cp2>gives", "cp2>other", "gives>end", "other>end", "no>end-no").g
	g.Fields = []workflow.PostCallField{field("demo_day", workflow.ValueDate, "Which day suits them for the demo"),
		field("email", workflow.ValueEmail, "Their e-mail address"), field("phone", workflow.ValuePhone, "A number to call back")}
	s := setup(g)
	e := engine(conversation.Deps{})
	_, st := call(t, e, s, "Yes, I'm interested", "Next Tuesday at 10 am works, and my email is ann dot lee at example dot com")
	r, _ := e.Result(st)
	sum, err := e.Summarize(context.Background(), s, r)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]conversation.FieldValue{}
	for _, f := range sum.Analysis.Fields {
		got[f.Name] = f
	}
	if len(got) != 2 || got["demo_day"].Value != "Next Tuesday at 10 am" || got["email"].Value != "ann.lee@example.com" {
		t.Fatalf("fields %+v (turns %+v)", sum.Analysis.Fields, r.Turns)
	}
	for _, f := range got {
		if turn := r.Turns[f.Turn]; turn.Speaker != "customer" || !strings.Contains(turn.Text, "Next Tuesday") {
			t.Fatalf("%s read from turn %d %+v", f.Name, f.Turn, turn)
		}
	}
	// The words that gave the fields are not quoted again: the branches say what Ann chose.
	if !strings.HasPrefix(sum.Summary, `Ann chose "Interested"`) || strings.Contains(sum.Summary, `said "Next Tuesday`) ||
		!strings.Contains(sum.Summary, "Demo day: Next Tuesday at 10 am; email: ann.lee@example.com.") {
		t.Fatalf("summary %q", sum.Summary)
	}
}
