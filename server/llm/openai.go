package llm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/bettyhq/betty/server/errs"
)

// OpenAIConfig is one OpenAI-compatible chat completions endpoint.
type OpenAIConfig struct {
	// BaseURL is the API's base, such as https://api.openai.com/v1 or
	// http://localhost:11434/v1 (Ollama).
	BaseURL string
	APIKey  string
	Model   string
	// Timeout bounds one request, streaming included (default 30 s).
	Timeout time.Duration
	// RetryWait is the longest Retry-After of a 429 that is waited for, once, before asking
	// again (default 2 s; a longer one answers the 429).
	RetryWait time.Duration
	// Client sends the requests (default: a client of its own).
	Client *http.Client
}

// OpenAI is the adapter: POST {base}/chat/completions with {model, messages, stream,
// max_tokens, tools}, `Authorization: Bearer <key>` when a key is set. Streaming reads the
// server-sent events `data: {chunk}` until `data: [DONE]`, each chunk's
// choices[0].delta.content being the next piece of text and its delta.tool_calls pieces of
// tool calls (joined by index: id and name come first, the arguments JSON in pieces). An error answer ({"error":
// {"message", "type", "code"}}, or an error event in the stream) becomes a 503 naming the
// setting to check; the provider's message goes to the log only (errs.Error.Err).
type OpenAI struct{ c OpenAIConfig }

var _ Model = (*OpenAI)(nil)

// NewOpenAI returns the adapter.
func NewOpenAI(c OpenAIConfig) *OpenAI {
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	if c.Timeout <= 0 {
		c.Timeout = 30 * time.Second
	}
	if c.Client == nil {
		c.Client = &http.Client{}
	}
	if c.RetryWait <= 0 {
		c.RetryWait = 2 * time.Second
	}
	return &OpenAI{c: c}
}

// Name names the back-end and its model.
func (o *OpenAI) Name() string { return "openai-compatible " + o.c.Model }

// maxAnswer bounds a non-streamed answer and each streamed event.
const maxAnswer = 1 << 20

type chatRequest struct {
	Model     string     `json:"model"`
	Messages  []Message  `json:"messages"`
	Stream    bool       `json:"stream"`
	MaxTokens int        `json:"max_tokens,omitempty"`
	Tools     []wireTool `json:"tools,omitempty"`
}

type wireTool struct {
	Type     string `json:"type"` // "function"
	Function struct {
		Name        string         `json:"name"`
		Description string         `json:"description,omitempty"`
		Parameters  map[string]any `json:"parameters"`
	} `json:"function"`
}

// wireCall is a tool call as answered whole (message.tool_calls) or in pieces
// (delta.tool_calls, where index says which call a piece continues and only the first piece
// carries id and name).
type wireCall struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type chatAnswer struct {
	Choices []struct {
		Message struct {
			Content   string     `json:"content"`
			ToolCalls []wireCall `json:"tool_calls"`
		} `json:"message"`
		Delta struct {
			Content   string     `json:"content"`
			ToolCalls []wireCall `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Error *apiError `json:"error"`
}

type apiError struct {
	Message string `json:"message"`
	Type    string `json:"type"`
	Code    any    `json:"code"`
}

// Chat sends the request's Messages (and Tools); for TaskChoose without tools the answer's
// first number picks the choice (counted from 1). A 429 is asked again once, after the
// Retry-After the provider names, when that wait is within RetryWait and the request's
// time: a phone turn cannot wait longer, so a longer limit answers the 429 at once and the
// caller falls back (the conversation engine to its local wording).
func (o *OpenAI) Chat(ctx context.Context, req Request, onDelta func(string) error) (Reply, error) {
	ctx, cancel := context.WithTimeout(ctx, o.c.Timeout)
	defer cancel()
	cr := chatRequest{Model: o.c.Model, Messages: req.Messages, Stream: onDelta != nil, MaxTokens: req.MaxTokens}
	for _, t := range req.Tools {
		var w wireTool
		w.Type, w.Function.Name, w.Function.Description, w.Function.Parameters = "function", t.Name, t.Description, t.Parameters
		cr.Tools = append(cr.Tools, w)
	}
	body, err := json.Marshal(cr)
	if err != nil {
		return Reply{}, err
	}
	for try := 0; ; try++ {
		r, err := o.send(ctx, req, body, onDelta)
		var wait time.Duration
		if e := (*errs.Error)(nil); try == 0 && errors.As(err, &e) && e.RetryAfter > 0 {
			wait = e.RetryAfter
		}
		if wait == 0 || wait > o.c.RetryWait {
			return r, err
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) <= wait {
			return r, err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return r, err
		case <-t.C:
		}
	}
}

func (o *OpenAI) send(ctx context.Context, req Request, body []byte, onDelta func(string) error) (Reply, error) {
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, o.c.BaseURL+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return Reply{}, unavailable("The language model is misconfigured: --llm-url is not a valid URL.", err)
	}
	hr.Header.Set("Content-Type", "application/json")
	if onDelta != nil {
		hr.Header.Set("Accept", "text/event-stream")
	}
	if o.c.APIKey != "" {
		hr.Header.Set("Authorization", "Bearer "+o.c.APIKey)
	}
	res, err := o.c.Client.Do(hr)
	if err != nil {
		return Reply{}, o.transport(ctx, err)
	}
	defer res.Body.Close()
	if res.StatusCode < 200 || res.StatusCode > 299 {
		raw, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
		return Reply{}, o.failure(res, raw)
	}
	var r Reply
	if onDelta != nil && strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		r, err = o.stream(ctx, res, onDelta)
	} else {
		r, err = o.whole(ctx, res)
		if err == nil && onDelta != nil && r.Text != "" {
			err = onDelta(r.Text) // a server that ignored stream: true
		}
	}
	if err != nil {
		return Reply{}, err
	}
	r.Text, r.Choice = strings.TrimSpace(r.Text), -1
	if req.Task == TaskChoose && len(req.Tools) == 0 {
		r.Choice, _ = ParseChoice(r.Text, len(req.Brief.Choices))
	}
	return r, nil
}

func (o *OpenAI) whole(ctx context.Context, res *http.Response) (Reply, error) {
	raw, err := io.ReadAll(io.LimitReader(res.Body, maxAnswer+1))
	if err != nil {
		return Reply{}, o.transport(ctx, err)
	}
	if len(raw) > maxAnswer {
		return Reply{}, unavailable("The language model (--llm-url) answered too much.", fmt.Errorf("answer over %d bytes", maxAnswer))
	}
	var a chatAnswer
	if err := json.Unmarshal(raw, &a); err != nil || len(a.Choices) == 0 {
		if a.Error != nil {
			return Reply{}, unavailable("The language model (--llm-url) failed to answer; try again later.", fmt.Errorf("error: %s", a.Error.Message))
		}
		return Reply{}, unavailable("The language model (--llm-url) did not answer a chat completion.", fmt.Errorf("decode %q: %v", truncate(string(raw), 200), err))
	}
	m := a.Choices[0].Message
	r := Reply{Text: m.Content}
	for _, c := range m.ToolCalls {
		r.ToolCalls = append(r.ToolCalls, ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
	}
	return r, nil
}

// stream reads the server-sent events of a streamed completion: the text pieces go to
// onDelta as they come; tool calls are put together from their pieces by index.
func (o *OpenAI) stream(ctx context.Context, res *http.Response, onDelta func(string) error) (Reply, error) {
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 0, 64<<10), maxAnswer)
	var text strings.Builder
	var calls []ToolCall
	var args []strings.Builder
	slot := map[int]int{} // a call's index in the stream → its place in calls
	done := false
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		data, ok := strings.CutPrefix(line, "data:")
		if !ok {
			continue // comments (": keep-alive"), event:, id:, blank separators
		}
		data = strings.TrimSpace(data)
		if data == "[DONE]" {
			done = true
			break
		}
		var chunk chatAnswer
		if err := json.Unmarshal([]byte(data), &chunk); err != nil {
			return Reply{}, unavailable("The language model (--llm-url) sent a malformed stream.", fmt.Errorf("decode chunk %q: %v", truncate(data, 200), err))
		}
		if chunk.Error != nil {
			return Reply{}, unavailable("The language model (--llm-url) failed while answering; try again later.",
				fmt.Errorf("stream error %v: %s", chunk.Error.Code, truncate(chunk.Error.Message, 500)))
		}
		if len(chunk.Choices) == 0 {
			continue // a usage-only chunk
		}
		d := chunk.Choices[0].Delta
		for _, c := range d.ToolCalls {
			idx := len(calls)
			if c.Index != nil {
				idx = *c.Index
			}
			i, seen := slot[idx]
			if !seen {
				i = len(calls)
				slot[idx] = i
				calls = append(calls, ToolCall{})
				args = append(args, strings.Builder{})
			}
			if c.ID != "" {
				calls[i].ID = c.ID
			}
			if c.Function.Name != "" {
				calls[i].Name = c.Function.Name
			}
			args[i].WriteString(c.Function.Arguments)
		}
		if d.Content != "" {
			text.WriteString(d.Content)
			if err := onDelta(d.Content); err != nil {
				return Reply{}, err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return Reply{}, o.transport(ctx, err)
	}
	if !done {
		return Reply{}, unavailable("The language model (--llm-url) broke off its answer.", errors.New("stream ended without [DONE]"))
	}
	for i := range calls {
		calls[i].Arguments = args[i].String()
	}
	return Reply{Text: text.String(), ToolCalls: calls}, nil
}

func (o *OpenAI) transport(ctx context.Context, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return unavailable(fmt.Sprintf("The language model (--llm-url) did not answer within %s.", o.c.Timeout), err)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return unavailable("The language model (--llm-url) could not be reached.", err)
}

// failure turns an error answer into what people see; the provider's words go to the log.
func (o *OpenAI) failure(res *http.Response, raw []byte) error {
	var body struct {
		Error apiError `json:"error"`
	}
	_ = json.Unmarshal(raw, &body)
	cause := fmt.Errorf("POST %s: %d %v: %s", res.Request.URL.Redacted(), res.StatusCode, body.Error.Code, truncate(body.Error.Message, 500))
	if body.Error.Message == "" {
		cause = fmt.Errorf("POST %s: %d: %s", res.Request.URL.Redacted(), res.StatusCode, truncate(string(raw), 200))
	}
	var msg string
	switch {
	case res.StatusCode == http.StatusUnauthorized || res.StatusCode == http.StatusForbidden:
		msg = fmt.Sprintf("The language model refused Betty's credentials (%d): an operator should check --llm-api-key.", res.StatusCode)
	case res.StatusCode == http.StatusNotFound:
		msg = "The language model answered 404: an operator should check --llm-url (the API's base, such as https://api.openai.com/v1) and --llm-model."
	case res.StatusCode == http.StatusTooManyRequests:
		e := errs.Retry(errs.Unavailable, "The language model is rate limiting Betty (429); try again shortly.", retryAfter(res))
		e.Code, e.Err = errs.CodeUnavailable, cause
		return e
	case res.StatusCode >= 500:
		msg = fmt.Sprintf("The language model (--llm-url) failed (%d); try again later.", res.StatusCode)
	default:
		msg = fmt.Sprintf("The language model refused the request (%d): an operator should check --llm-model.", res.StatusCode)
	}
	return unavailable(msg, cause)
}

// retryAfter is how long a 429 asks to wait: OpenAI's retry-after-ms when sent (finer),
// else Retry-After in seconds, else 5 s.
func retryAfter(res *http.Response) time.Duration {
	if ms, err := strconv.Atoi(strings.TrimSpace(res.Header.Get("Retry-After-Ms"))); err == nil && ms > 0 {
		return time.Duration(ms) * time.Millisecond
	}
	if s, err := strconv.Atoi(strings.TrimSpace(res.Header.Get("Retry-After"))); err == nil && s > 0 {
		return time.Duration(s) * time.Second
	}
	return 5 * time.Second
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
