package llm_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/llm"
	"github.com/bettyhq/betty/server/llm/openaitest"
)

func TestChooseVectors(t *testing.T) {
	cases := []struct {
		said    string
		choices []string
		want    int
	}{
		{"Yes, I'd love to renew", []string{"Yes", "No"}, 0},
		{"Yeah sure", []string{"Yes", "No"}, 0},
		{"Nope.", []string{"Yes", "No"}, 1},
		{"I don't think so", []string{"Yes", "No"}, 1},
		{"No, I'm not interested", []string{"Interested", "Not interested"}, 1},
		{"Sounds good, I'm interested", []string{"Interested", "Not interested"}, 0},
		{"Can I talk to a real person?", []string{"Wants a human representative", "Asks about pricing", "Anything else"}, 0},
		{"How much does it cost?", []string{"Wants a human representative", "Asks about pricing", "Anything else"}, 1},
		{"The weather is nice", []string{"Wants a human representative", "Asks about pricing", "Anything else"}, 2},
		{"I'm busy, call me back tomorrow", []string{"Yes", "Call back later", "No"}, 1},
		{"Sorry, could you repeat that?", []string{"Yes", "Repeat please"}, 1},
		{"The weather is nice", []string{"Yes", "No"}, -1},
		{"", []string{"Yes", "No"}, -1},
		{"Yes, I'm interested", []string{"Yes, wants to renew", "No, not interested"}, 0},
		{"No, I'm not interested", []string{"Yes, wants to renew", "No, not interested"}, 1},
		{"Nope, not for me.", []string{"Yes, wants to renew", "No, not interested"}, 1},
	}
	for _, c := range cases {
		if got := llm.Choose(c.said, c.choices); got != c.want {
			t.Errorf("Choose(%q, %q) = %d, want %d (terms %q)", c.said, c.choices, got, c.want, llm.Terms(c.said))
		}
	}
}

// The local brain never reads an instruction: it says the step's line, the instruction's
// quoted lines, or a neutral line; it greets once and answers questions or says it does not know.
func TestUtterance(t *testing.T) {
	instr := "Tell Shafi the status of their order and the expected delivery date, and ask whether they have questions."
	cases := []struct {
		name string
		b    llm.Brief
		want string
	}{
		{"the line, not the instruction", llm.Brief{Instruction: instr, Say: "Your order ships on Friday. Any questions?"},
			"Your order ships on Friday. Any questions?"},
		{"no line: neutral, never the instruction", llm.Brief{Instruction: instr}, "Thank you."},
		{"greeting once", llm.Brief{First: true, Greeting: "Hi Ann, this is Linda from Acme.", Say: "Hi Ann, this is Linda. I'm calling about your appointment."},
			"Hi Ann, this is Linda from Acme. I'm calling about your appointment."},
		{"a line that is only a greeting stays", llm.Brief{First: true, Greeting: "Hello.", Say: "Hi Ann!"}, "Hello. Hi Ann!"},
		{"answered question", llm.Brief{CustomerSaid: "What are your opening hours?", Answers: []string{"We open at nine. We close at five."},
			Say: "Anything else?"}, "We open at nine. We close at five. Anything else?"}, // answers come spoken: said as they are
		{"unanswered question: honest", llm.Brief{CustomerSaid: "Do you deliver on Sundays?", Say: "Anything else?"},
			llm.DontKnow + " Anything else?"},
		{"a request is not a question for the knowledge base", llm.Brief{CustomerSaid: "Could we move it to Friday?", Say: "The office will confirm."},
			"The office will confirm."},
	}
	for _, c := range cases {
		if got := llm.Utterance(c.b); got != c.want {
			t.Errorf("%s: Utterance = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestNeutral(t *testing.T) {
	cases := map[string]string{
		"Order status":               "Now, about the order status.",
		"Give the update":            "Now, about the update.",
		"Confirm the booking":        "Now, about the booking.",
		"Ask for feedback":           "Now, about the feedback.",
		"Book a demo":                "Now, about a demo.",
		"Remind them of their visit": "Now, about your visit.",
		"Check the caller's address": "Now, about your address.",
		"Greet the caller":           "Hello, this is Linda.",
		"Close politely":             "Thank you for your time.",
		"Thank":                      "Thank you for your time.",
		"Help":                       "Thank you.",
		"":                           "Thank you.",
	}
	for in, want := range cases {
		if got := llm.Neutral(in, "Linda"); got != want {
			t.Errorf("Neutral(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAsksToKnow(t *testing.T) {
	for s, want := range map[string]bool{
		"What are your opening hours?": true, "Do you deliver on Sundays?": true, "is there parking": true,
		"Can I move it to Friday?": false, "Yes, could you call me back tomorrow?": false, "How about Tuesday?": false,
		"Yes, I'll be there.": false, "": false, "Could you tell me when you open?": true,
		"No, I can't come, can we do another time?": false, "Yes, I'm interested. Can I see a demo?": false,
		"When will it arrive, in the morning?": true, "Yes, and do you deliver on Sundays?": true, "I'll be there, at three?": false,
	} {
		if got := llm.AsksToKnow(s); got != want {
			t.Errorf("AsksToKnow(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestLocalChat(t *testing.T) {
	m := llm.NewLocal()
	ctx := context.Background()
	b := llm.Brief{AgentName: "Linda", Greeting: "Hi Ann, this is Linda from Acme.", Instruction: "Ask if they want to renew.",
		Say: "Would you like to renew your subscription?", First: true}
	r, err := m.Chat(ctx, llm.Request{Task: llm.TaskSay, Brief: b}, nil)
	if err != nil || r.Text != "Hi Ann, this is Linda from Acme. Would you like to renew your subscription?" {
		t.Fatalf("say = %q, %v", r.Text, err)
	}
	var streamed strings.Builder
	r2, err := m.Chat(ctx, llm.Request{Task: llm.TaskSay, Brief: b}, func(s string) error { streamed.WriteString(s); return nil })
	if err != nil || streamed.String() != r.Text || r2.Text != r.Text {
		t.Fatalf("streamed %q / %q, %v", streamed.String(), r2.Text, err)
	}
	b = llm.Brief{Instruction: "Ask if they want to renew.", Say: "Would you like to renew?", CustomerSaid: "What are your opening hours?",
		Answers: []string{"We open at 9 a.m. and close at 5 p.m. On Sundays we rest."}}
	r, _ = m.Chat(ctx, llm.Request{Task: llm.TaskSay, Brief: b}, nil)
	if r.Text != "We open at 9 a.m. and close at 5 p.m. On Sundays we rest. Would you like to renew?" { // the answer comes spoken (conversation.answers)
		t.Fatalf("answer = %q", r.Text)
	}
	r, _ = m.Chat(ctx, llm.Request{Task: llm.TaskChoose, Brief: llm.Brief{CustomerSaid: "nope", Choices: []string{"Yes", "No"}}}, nil)
	if r.Choice != 1 || r.Text != "2" {
		t.Fatalf("choose = %+v", r)
	}
	stop := errors.New("stop")
	if _, err := m.Chat(ctx, llm.Request{Task: llm.TaskSay, Brief: b}, func(string) error { return stop }); !errors.Is(err, stop) {
		t.Fatalf("onDelta error = %v", err)
	}
}

func TestOpen(t *testing.T) {
	m, err := llm.Open(llm.Config{})
	if err != nil || m.Name() != "local" {
		t.Fatalf("no URL: %v %v", m, err)
	}
	if _, err := llm.Open(llm.Config{URL: "http://x/v1"}); err == nil || !strings.Contains(err.Error(), "--llm-model") {
		t.Fatalf("URL without model: %v", err)
	}
	m, err = llm.Open(llm.Config{URL: "http://x/v1", Model: "m"})
	if err != nil || m.Name() != "openai-compatible m" {
		t.Fatalf("adapter: %v %v", m, err)
	}
}

func TestParseChoice(t *testing.T) {
	for in, want := range map[string]int{"2": 1, "Option 1.": 0, "3) no": 2, "7": -1, "none": -1, "": -1} {
		if got, _ := llm.ParseChoice(in, 3); got != want {
			t.Errorf("ParseChoice(%q) = %d, want %d", in, got, want)
		}
	}
}

func adapter(f *openaitest.Server, timeout time.Duration) *llm.OpenAI {
	return llm.NewOpenAI(llm.OpenAIConfig{BaseURL: f.BaseURL(), APIKey: "sk-test", Model: "gpt-test", Timeout: timeout})
}

func say(text string) llm.Request {
	return llm.Request{Task: llm.TaskSay, Messages: []llm.Message{{Role: llm.System, Content: "You are Linda."}, {Role: llm.User, Content: text}}}
}

func TestOpenAIPlainAndStream(t *testing.T) {
	f := openaitest.New()
	defer f.Close()
	f.Key, f.Model = "sk-test", "gpt-test"
	f.Reply(func(r openaitest.Request) string { return "Hello there, how can I help?" })
	o := adapter(f, 5*time.Second)
	ctx := context.Background()
	r, err := o.Chat(ctx, say("hi"), nil)
	if err != nil || r.Text != "Hello there, how can I help?" || r.Choice != -1 {
		t.Fatalf("plain: %+v %v", r, err)
	}
	var pieces []string
	r, err = o.Chat(ctx, say("hi"), func(s string) error { pieces = append(pieces, s); return nil })
	if err != nil || r.Text != "Hello there, how can I help?" || len(pieces) != 6 || strings.Join(pieces, "") != r.Text {
		t.Fatalf("stream: %+v %q %v", r, pieces, err)
	}
	reqs := f.Requests()
	if len(reqs) != 2 || reqs[0].Stream || !reqs[1].Stream || reqs[0].Authorization != "Bearer sk-test" || reqs[0].Model != "gpt-test" ||
		len(reqs[0].Messages) != 2 || reqs[0].Messages[0].Role != "system" {
		t.Fatalf("requests: %+v", reqs)
	}
	f.Reply(func(openaitest.Request) string { return "2" })
	r, err = o.Chat(ctx, llm.Request{Task: llm.TaskChoose, Messages: say("x").Messages, Brief: llm.Brief{Choices: []string{"a", "b"}}}, nil)
	if err != nil || r.Choice != 1 {
		t.Fatalf("choose: %+v %v", r, err)
	}
}

func TestOpenAIErrors(t *testing.T) {
	f := openaitest.New()
	defer f.Close()
	f.Key, f.Model = "sk-right", "gpt-test"
	ctx := context.Background()
	secret := "Incorrect API key provided"
	check := func(name string, err error, want string, retry bool) {
		t.Helper()
		e, ok := errs.As(err)
		if !ok || e.Kind != errs.Unavailable || !strings.Contains(e.Message, want) {
			t.Fatalf("%s: %v", name, err)
		}
		if strings.Contains(e.Message, secret) || strings.Contains(e.Message, "The server had an error") {
			t.Fatalf("%s: provider words leaked: %q", name, e.Message)
		}
		if retry != (e.RetryAfter > 0) {
			t.Fatalf("%s: retry after %v", name, e.RetryAfter)
		}
	}
	_, err := adapter(f, time.Second).Chat(ctx, say("hi"), nil)
	check("bad key", err, "--llm-api-key", false)
	if e, _ := errs.As(err); e.Err == nil || !strings.Contains(e.Err.Error(), secret) {
		t.Fatalf("the provider's words should be kept for the log: %v", e.Err)
	}
	f.Key = "sk-test"
	f.Model = "other"
	_, err = adapter(f, time.Second).Chat(ctx, say("hi"), nil)
	check("unknown model", err, "--llm-model", false)
	f.Model = ""
	f.Fail(openaitest.Failure{Status: 429, Message: "Rate limit reached", Type: "requests", Code: "rate_limit_exceeded", RetryAfter: 7})
	_, err = adapter(f, time.Second).Chat(ctx, say("hi"), nil)
	check("429", err, "rate limiting", true)
	if e, _ := errs.As(err); e.RetryAfter != 7*time.Second {
		t.Fatalf("retry after = %v", e.RetryAfter)
	}
	f.Fail(openaitest.Failure{Status: 503, Raw: "upstream connect error"})
	_, err = adapter(f, time.Second).Chat(ctx, say("hi"), nil)
	check("503", err, "failed (503)", false)
	f.Fail(openaitest.Failure{Status: 500, Message: "The server had an error", Type: "server_error"})
	_, err = adapter(f, time.Second).Chat(ctx, say("hi"), func(string) error { return nil })
	check("500 streaming", err, "failed (500)", false)
	f.BreakStream()
	_, err = adapter(f, time.Second).Chat(ctx, say("hi there friend"), func(string) error { return nil })
	check("error event", err, "failed while answering", false)
	f.Delay(500 * time.Millisecond)
	_, err = adapter(f, 100*time.Millisecond).Chat(ctx, say("hi"), nil)
	check("timeout", err, "did not answer within", false)
	_, err = llm.NewOpenAI(llm.OpenAIConfig{BaseURL: "http://127.0.0.1:1/v1", Model: "m"}).Chat(ctx, say("hi"), nil)
	check("unreachable", err, "could not be reached", false)
}
