package llm_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/llm"
	"github.com/bettyhq/betty/server/llm/openaitest"
)

var chooseTool = llm.Tool{Name: "choose_branch", Description: "Pick a branch.", Parameters: map[string]any{
	"type": "object", "properties": map[string]any{"index": map[string]any{"type": "integer"}}, "required": []string{"index"}}}

// Tool calls come back whole from a plain answer and put together from their pieces from a
// stream (the fake cuts the arguments JSON into 4-byte pieces, id and name on the first).
func TestOpenAIToolCalls(t *testing.T) {
	f := openaitest.New()
	defer f.Close()
	args := `{"index": 2, "reason": "the customer wants a person"}`
	f.Answer(func(r openaitest.Request) openaitest.Answer {
		return openaitest.Answer{Calls: []openaitest.Call{{Name: "choose_branch", Arguments: args}, {Name: "end_call", Arguments: `{"reason":"done"}`}}}
	})
	o := adapter(f, 5*time.Second)
	req := llm.Request{Task: llm.TaskChoose, Messages: say("a person please").Messages, Tools: []llm.Tool{chooseTool},
		Brief: llm.Brief{Choices: []string{"a", "b", "c"}}}
	for _, stream := range []bool{false, true} {
		var onDelta func(string) error
		var texts []string
		if stream {
			onDelta = func(s string) error { texts = append(texts, s); return nil }
		}
		r, err := o.Chat(context.Background(), req, onDelta)
		if err != nil {
			t.Fatalf("stream %v: %v", stream, err)
		}
		if len(r.ToolCalls) != 2 || r.ToolCalls[0].Name != "choose_branch" || r.ToolCalls[0].Arguments != args || r.ToolCalls[0].ID == "" ||
			r.ToolCalls[1].Name != "end_call" || r.ToolCalls[1].Arguments != `{"reason":"done"}` {
			t.Fatalf("stream %v: tool calls %+v", stream, r.ToolCalls)
		}
		if r.Text != "" || len(texts) != 0 || r.Choice != -1 {
			t.Fatalf("stream %v: a tool call is not text, nor parsed as a choice: %+v %q", stream, r, texts)
		}
	}
	got := f.Requests()[0]
	if len(got.Tools) != 1 || got.Tools[0].Type != "function" || got.Tools[0].Function.Name != "choose_branch" ||
		got.Tools[0].Function.Parameters["type"] != "object" {
		t.Fatalf("tools sent: %+v", got.Tools)
	}
}

// A 429 whose Retry-After fits RetryWait is asked again once; a second 429, or one asking
// for longer, is answered (the engine then falls back to its local wording).
func TestOpenAIRetriesA429Once(t *testing.T) {
	f := openaitest.New()
	defer f.Close()
	f.Reply(func(openaitest.Request) string { return "Fine." })
	o := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: f.BaseURL(), Model: "m", Timeout: 5 * time.Second, RetryWait: 500 * time.Millisecond})
	rate := openaitest.Failure{Status: 429, Message: "Rate limit reached", Type: "requests", Code: "rate_limit_exceeded", RetryAfterMs: 50}
	f.Fail(rate)
	start := time.Now()
	r, err := o.Chat(context.Background(), say("hi"), func(string) error { return nil })
	if err != nil || r.Text != "Fine." || len(f.Requests()) != 2 || time.Since(start) < 50*time.Millisecond {
		t.Fatalf("one 429 then an answer: %+v %v after %d requests", r, err, len(f.Requests()))
	}
	f.Fail(rate, rate)
	_, err = o.Chat(context.Background(), say("hi"), nil)
	if e, ok := errs.As(err); !ok || e.RetryAfter != 50*time.Millisecond || len(f.Requests()) != 4 {
		t.Fatalf("two 429s: %v after %d requests", err, len(f.Requests()))
	}
	f.Fail(openaitest.Failure{Status: 429, Message: "Rate limit reached", RetryAfter: 3})
	start = time.Now()
	_, err = o.Chat(context.Background(), say("hi"), nil)
	if e, ok := errs.As(err); !ok || e.RetryAfter != 3*time.Second || len(f.Requests()) != 5 || time.Since(start) > time.Second {
		t.Fatalf("a wait over RetryWait is not waited: %v after %d requests", err, len(f.Requests()))
	}
	// A wait longer than the request's time left is not waited either.
	f.Fail(openaitest.Failure{Status: 429, RetryAfterMs: 400})
	short := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: f.BaseURL(), Model: "m", Timeout: 200 * time.Millisecond, RetryWait: time.Second})
	if _, err = short.Chat(context.Background(), say("hi"), nil); err == nil || len(f.Requests()) != 6 {
		t.Fatalf("a wait past the deadline: %v after %d requests", err, len(f.Requests()))
	}
}

// A stream whose connection drops mid-answer is an error, after the pieces that came were
// given to onDelta (what the engine spoke of them stays spoken).
func TestOpenAIStreamCut(t *testing.T) {
	f := openaitest.New()
	defer f.Close()
	f.Reply(func(openaitest.Request) string { return "One two three four five." })
	f.CutStream(2)
	var got []string
	_, err := adapter(f, 5*time.Second).Chat(context.Background(), say("hi"), func(s string) error { got = append(got, s); return nil })
	if e, ok := errs.As(err); !ok || e.Kind != errs.Unavailable || strings.Join(got, "") != "One two " {
		t.Fatalf("cut: %v, pieces %q", err, got)
	}
}

// The per-token delay paces the stream: the first piece comes before the whole answer.
func TestOpenAITokenDelay(t *testing.T) {
	f := openaitest.New()
	defer f.Close()
	f.Reply(func(openaitest.Request) string { return "a b c d e" })
	f.TokenDelay(20 * time.Millisecond)
	start := time.Now()
	var first time.Duration
	_, err := adapter(f, 5*time.Second).Chat(context.Background(), say("hi"), func(string) error {
		if first == 0 {
			first = time.Since(start)
		}
		return nil
	})
	total := time.Since(start)
	if err != nil || first < 20*time.Millisecond || total < 100*time.Millisecond || first > total-60*time.Millisecond {
		t.Fatalf("first piece after %v, all after %v: %v", first, total, err)
	}
}
