// Package openaitest is a fake OpenAI-compatible chat completions server for tests. It speaks
// the documented wire format: POST /v1/chat/completions with a JSON body {model, messages,
// stream, max_tokens}; a plain answer {id, object: "chat.completion", created, model,
// choices: [{index, message: {role, content}, finish_reason}], usage}; with stream: true a
// text/event-stream of `data: {"object": "chat.completion.chunk", "choices": [{"index",
// "delta": {"content"}, "finish_reason"}]}` events and a final `data: [DONE]`; errors as
// {"error": {"message", "type", "code"}} with the HTTP status.
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
	Stream        bool   `json:"stream"`
	MaxTokens     int    `json:"max_tokens"`
	Authorization string `json:"-"`
}

// Failure makes the next answers errors.
type Failure struct {
	Status  int
	Message string // the provider's words (kept out of what people see)
	Type    string
	Code    string
	// RetryAfter is sent as the Retry-After header (seconds) when > 0.
	RetryAfter int
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

	mu       sync.Mutex
	reply    func(Request) string
	failures []Failure
	delay    time.Duration
	midError bool
	requests []Request
}

// New starts the fake; its base URL is URL+"/v1". Close it.
func New() *Server {
	s := &Server{reply: func(r Request) string {
		if len(r.Messages) == 0 {
			return ""
		}
		return "You said: " + r.Messages[len(r.Messages)-1].Content
	}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// BaseURL is the API's base.
func (s *Server) BaseURL() string { return s.URL + "/v1" }

// Reply sets how the fake answers.
func (s *Server) Reply(f func(Request) string) {
	s.mu.Lock()
	s.reply = f
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
	delay, midError := s.delay, s.midError
	var fail *Failure
	if len(s.failures) > 0 {
		f := s.failures[0]
		s.failures = s.failures[1:]
		fail = &f
	}
	reply := s.reply
	s.mu.Unlock()
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
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
	text := reply(req)
	created := time.Now().Unix()
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-fake", "object": "chat.completion", "created": created, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": text}, "finish_reason": "stop"}},
			"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": len(strings.Fields(text)), "total_tokens": 10 + len(strings.Fields(text))},
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
	for i, piece := range strings.SplitAfter(text, " ") {
		if piece == "" {
			continue
		}
		send(chunk(map[string]any{"content": piece}, nil))
		if midError && i == 0 {
			send(map[string]any{"error": map[string]any{"message": "The server had an error while processing your request.", "type": "server_error", "code": nil}})
			return
		}
	}
	send(chunk(map[string]any{}, "stop"))
	fmt.Fprint(w, "data: [DONE]\n\n")
}

func lastFour(s string) string {
	if len(s) < 4 {
		return s
	}
	return s[len(s)-4:]
}
