// Package openaitest is a fake OpenAI-compatible chat completions server for tests. It speaks
// the documented wire format: POST /v1/chat/completions with a JSON body {model, messages,
// stream, max_tokens, tools: [{type: "function", function: {name, description,
// parameters}}]}; a plain answer {id, object: "chat.completion", created, model, choices:
// [{index, message: {role, content, tool_calls: [{id, type: "function", function: {name,
// arguments}}]}, finish_reason}], usage}; with stream: true a text/event-stream of `data:
// {"object": "chat.completion.chunk", "choices": [{"index", "delta": {…}, "finish_reason"}]}`
// events and a final `data: [DONE]`, where a delta carries either a piece of content or
// pieces of tool calls (delta.tool_calls[{index, id, type, function: {name, arguments}}]: id,
// type and name on a call's first piece only, its arguments JSON cut across several pieces),
// and the last chunk's finish_reason is "stop" or "tool_calls"; errors as {"error":
// {"message", "type", "code"}} with the HTTP status.
//
// The fake's failures are the ones a phone turn meets: a per-token delay (TokenDelay) and a
// delay before the answer (Delay: with a short client timeout, a timeout), an error answer
// such as a 429 with Retry-After (Fail), an error event in the stream (BreakStream) and a
// connection cut in the middle of a stream (CutStream).
package openaitest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// Request is what the fake received.
type Request struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
	Stream    bool `json:"stream"`
	MaxTokens int  `json:"max_tokens"`
	Tools     []struct {
		Type     string `json:"type"`
		Function struct {
			Name        string         `json:"name"`
			Description string         `json:"description"`
			Parameters  map[string]any `json:"parameters"`
		} `json:"function"`
	} `json:"tools"`
	Authorization string `json:"-"`
}

// ToolNames are the names of the tools the request offered.
func (r Request) ToolNames() []string {
	var out []string
	for _, t := range r.Tools {
		out = append(out, t.Function.Name)
	}
	return out
}

// Answer is what the fake answers a request: text, tool calls or both.
type Answer struct {
	Text  string
	Calls []Call
}

// Call is a tool call the fake makes; Arguments is JSON text.
type Call struct {
	Name, Arguments string
}

// Failure makes the next answers errors.
type Failure struct {
	Status  int
	Message string // the provider's words (kept out of what people see)
	Type    string
	Code    string
	// RetryAfter is sent as the Retry-After header (seconds) when > 0.
	RetryAfter int
	// RetryAfterMs is sent as the retry-after-ms header (OpenAI's, in milliseconds) when > 0.
	RetryAfterMs int
	// Raw, when set, is sent as the body instead of the JSON error.
	Raw string
}

// Server is the fake.
type Server struct {
	*httptest.Server
	// Key is the API key the fake expects ("" accepts any).
	Key string
	// Model is the model the fake knows ("" accepts any).
	Model string

	mu         sync.Mutex
	answer     func(Request) Answer
	failures   []Failure
	delay      time.Duration
	tokenDelay time.Duration
	midError   bool
	cutAfter   int // pieces sent before the connection is cut (0: never)
	requests   []Request
}

// New starts the fake; its base URL is URL+"/v1". Close it.
func New() *Server {
	s := &Server{answer: func(r Request) Answer {
		if len(r.Messages) == 0 {
			return Answer{}
		}
		return Answer{Text: "You said: " + r.Messages[len(r.Messages)-1].Content}
	}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// BaseURL is the API's base.
func (s *Server) BaseURL() string { return s.URL + "/v1" }

// Reply sets how the fake answers: text only.
func (s *Server) Reply(f func(Request) string) {
	s.Answer(func(r Request) Answer { return Answer{Text: f(r)} })
}

// Answer sets how the fake answers: text, tool calls or both.
func (s *Server) Answer(f func(Request) Answer) {
	s.mu.Lock()
	s.answer = f
	s.mu.Unlock()
}

// TokenDelay makes a streamed answer wait d before each piece (a word of the text, a piece
// of a tool call), as a model generating tokens does.
func (s *Server) TokenDelay(d time.Duration) {
	s.mu.Lock()
	s.tokenDelay = d
	s.mu.Unlock()
}

// CutStream makes streamed answers lose their connection after n pieces: no error event, no
// [DONE], the connection closed in the middle (n <= 0: never).
func (s *Server) CutStream(n int) {
	s.mu.Lock()
	s.cutAfter = n
	s.mu.Unlock()
}

// Fail queues failures, answered one per request before normal answers resume.
func (s *Server) Fail(f ...Failure) {
	s.mu.Lock()
	s.failures = append(s.failures, f...)
	s.mu.Unlock()
}

// Delay makes every answer wait d first.
func (s *Server) Delay(d time.Duration) {
	s.mu.Lock()
	s.delay = d
	s.mu.Unlock()
}

// BreakStream makes streamed answers send an error event after their first chunk.
func (s *Server) BreakStream() {
	s.mu.Lock()
	s.midError = true
	s.mu.Unlock()
}

// Requests answers what the fake received.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

func writeError(w http.ResponseWriter, f Failure) {
	if f.RetryAfter > 0 {
		w.Header().Set("Retry-After", fmt.Sprint(f.RetryAfter))
	}
	if f.RetryAfterMs > 0 {
		w.Header().Set("Retry-After-Ms", fmt.Sprint(f.RetryAfterMs))
	}
	if f.Raw != "" {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(f.Status)
		_, _ = w.Write([]byte(f.Raw))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(f.Status)
	var code any
	if f.Code != "" {
		code = f.Code
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": f.Message, "type": f.Type, "code": code}})
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		writeError(w, Failure{Status: 404, Message: "Unknown request URL: " + r.Method + " " + r.URL.Path, Type: "invalid_request_error", Code: "unknown_url"})
		return
	}
	var req Request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeError(w, Failure{Status: 400, Message: "We could not parse the JSON body of your request.", Type: "invalid_request_error"})
		return
	}
	req.Authorization = r.Header.Get("Authorization")
	s.mu.Lock()
	s.requests = append(s.requests, req)
	delay, tokenDelay, midError, cutAfter := s.delay, s.tokenDelay, s.midError, s.cutAfter
	var fail *Failure
	if len(s.failures) > 0 {
		f := s.failures[0]
		s.failures = s.failures[1:]
		fail = &f
	}
	answer := s.answer
	s.mu.Unlock()
	if !wait(r, delay) {
		return
	}
	switch {
	case fail != nil:
		writeError(w, *fail)
		return
	case s.Key != "" && req.Authorization != "Bearer "+s.Key:
		writeError(w, Failure{Status: 401, Message: "Incorrect API key provided: sk-…" + lastFour(req.Authorization), Type: "invalid_request_error", Code: "invalid_api_key"})
		return
	case s.Model != "" && req.Model != s.Model:
		writeError(w, Failure{Status: 404, Message: fmt.Sprintf("The model `%s` does not exist or you do not have access to it.", req.Model), Type: "invalid_request_error", Code: "model_not_found"})
		return
	case len(req.Messages) == 0:
		writeError(w, Failure{Status: 400, Message: "[] is too short - 'messages'", Type: "invalid_request_error"})
		return
	}
	a := answer(req)
	finish := "stop"
	if len(a.Calls) > 0 {
		finish = "tool_calls"
	}
	created := time.Now().Unix()
	if !req.Stream {
		msg := map[string]any{"role": "assistant", "content": a.Text}
		if len(a.Calls) > 0 {
			var calls []any
			for i, c := range a.Calls {
				calls = append(calls, map[string]any{"id": callID(i), "type": "function", "function": map[string]any{"name": c.Name, "arguments": c.Arguments}})
			}
			msg["tool_calls"] = calls
			if a.Text == "" {
				msg["content"] = nil
			}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-fake", "object": "chat.completion", "created": created, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
			"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": len(strings.Fields(a.Text)), "total_tokens": 10 + len(strings.Fields(a.Text))},
		})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	fl, _ := w.(http.Flusher)
	send := func(v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "data: %s\n\n", b)
		if fl != nil {
			fl.Flush()
		}
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": created, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	fmt.Fprint(w, ": keep-alive\n\n")
	send(chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	var pieces []map[string]any
	for _, p := range strings.SplitAfter(a.Text, " ") {
		if p != "" {
			pieces = append(pieces, map[string]any{"content": p})
		}
	}
	for i, c := range a.Calls {
		first := map[string]any{"index": i, "id": callID(i), "type": "function", "function": map[string]any{"name": c.Name, "arguments": ""}}
		pieces = append(pieces, map[string]any{"tool_calls": []any{first}})
		for _, part := range cut(c.Arguments, 4) {
			pieces = append(pieces, map[string]any{"tool_calls": []any{map[string]any{"index": i, "function": map[string]any{"arguments": part}}}})
		}
	}
	for i, p := range pieces {
		if !wait(r, tokenDelay) {
			return
		}
		if cutAfter > 0 && i == cutAfter {
			panic(http.ErrAbortHandler) // the connection drops: no error event, no [DONE]
		}
		send(chunk(p, nil))
		if midError && i == 0 {
			send(map[string]any{"error": map[string]any{"message": "The server had an error while processing your request.", "type": "server_error", "code": nil}})
			return
		}
	}
	send(chunk(map[string]any{}, finish))
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// wait sleeps d unless the client goes away first (false).
func wait(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	}
}

func callID(i int) string { return fmt.Sprintf("call_fake%d", i) }

// cut splits s into pieces of n bytes, as a model streams a call's arguments.
func cut(s string, n int) []string {
	var out []string
	for len(s) > n {
		out = append(out, s[:n])
		s = s[n:]
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}

func lastFour(s string) string {
	if len(s) < 4 {
		return s
	}
	return s[len(s)-4:]
}
