// Package openaitest is a fake OpenAI-compatible speech API for tests: POST /v1/audio/speech
// and POST /v1/audio/transcriptions, speaking exactly their wire format — JSON and multipart
// requests checked field by field, MP3 and JSON answers, and error answers with the body
// {"error": {"message", "type", "param", "code"}}. Failures and delays are set per test.
package openaitest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Key is the API key the fake accepts.
const Key = "sk-test-betty"

// Server is a running fake.
type Server struct {
	// URL is the API's base, ending in /v1.
	URL string

	mu         sync.Mutex
	requests   []Request
	failures   []Failure
	delay      time.Duration
	transcript string
}

// Request is one call the fake received.
type Request struct {
	Path   string
	Auth   string
	Model  string
	Input  string // speech
	Voice  string // speech
	Format string // response_format
	File   string // transcription: the file's name
	Audio  []byte // transcription: its bytes
}

// Failure is an error answer to send instead of the next success.
type Failure struct {
	Status     int
	Type, Code string
	Message    string
	RetryAfter string
}

// Start runs a fake until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{transcript: "Hello, I would like to book an appointment for Tuesday."}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/audio/speech", s.speech)
	mux.HandleFunc("POST /v1/audio/transcriptions", s.transcriptions)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "invalid_request_error", "", fmt.Sprintf("Invalid URL (%s %s)", r.Method, r.URL.Path))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	s.URL = srv.URL + "/v1"
	return s
}

// Fail makes the next call answer f.
func (s *Server) Fail(f Failure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failures = append(s.failures, f)
}

// Delay makes every answer wait d first.
func (s *Server) Delay(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.delay = d
}

// SetTranscript sets what transcriptions answer.
func (s *Server) SetTranscript(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.transcript = text
}

// Requests are the calls received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// begin records r, waits the delay and answers a queued failure or a missing key; it says
// whether to go on.
func (s *Server) begin(w http.ResponseWriter, r *http.Request, rec Request) bool {
	s.mu.Lock()
	s.requests = append(s.requests, rec)
	delay := s.delay
	var fail *Failure
	if len(s.failures) > 0 {
		fail = &s.failures[0]
		s.failures = s.failures[1:]
	}
	s.mu.Unlock()
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return false
		}
	}
	if fail != nil {
		if fail.RetryAfter != "" {
			w.Header().Set("Retry-After", fail.RetryAfter)
		}
		writeError(w, fail.Status, fail.Type, fail.Code, fail.Message)
		return false
	}
	if rec.Auth != "Bearer "+Key {
		writeError(w, http.StatusUnauthorized, "invalid_request_error", "invalid_api_key",
			"Incorrect API key provided: sk-***. You can find your API key at https://platform.openai.com/account/api-keys.")
		return false
	}
	return true
}

func (s *Server) speech(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Model          string `json:"model"`
		Input          string `json:"input"`
		Voice          string `json:"voice"`
		ResponseFormat string `json:"response_format"`
	}
	rec := Request{Path: r.URL.Path, Auth: r.Header.Get("Authorization")}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	decodeErr := dec.Decode(&body)
	rec.Model, rec.Input, rec.Voice, rec.Format = body.Model, body.Input, body.Voice, body.ResponseFormat
	if !s.begin(w, r, rec) {
		return
	}
	switch {
	case ct != "application/json" || decodeErr != nil:
		writeError(w, http.StatusBadRequest, "invalid_request_error", "", "We could not parse the JSON body of your request.")
	case body.Model == "" || body.Input == "" || body.Voice == "":
		writeError(w, http.StatusBadRequest, "invalid_request_error", "", "model, input and voice are required.")
	case len([]rune(body.Input)) > 4096:
		writeError(w, http.StatusBadRequest, "invalid_request_error", "string_above_max_length", "input is longer than 4096 characters.")
	case body.ResponseFormat != "mp3":
		writeError(w, http.StatusBadRequest, "invalid_request_error", "", "this fake answers mp3 only.")
	default:
		w.Header().Set("Content-Type", "audio/mpeg")
		_, _ = w.Write(SilentMP3(len(body.Input)))
	}
}

func (s *Server) transcriptions(w http.ResponseWriter, r *http.Request) {
	rec := Request{Path: r.URL.Path, Auth: r.Header.Get("Authorization")}
	err := r.ParseMultipartForm(32 << 20)
	if err == nil {
		rec.Model, rec.Format = r.FormValue("model"), r.FormValue("response_format")
		if f, h, ferr := r.FormFile("file"); ferr == nil {
			rec.File = h.Filename
			rec.Audio, _ = io.ReadAll(f)
			f.Close()
		}
	}
	if !s.begin(w, r, rec) {
		return
	}
	s.mu.Lock()
	text := s.transcript
	s.mu.Unlock()
	switch {
	case err != nil:
		writeError(w, http.StatusBadRequest, "invalid_request_error", "", "Could not parse multipart form.")
	case rec.Model == "":
		writeError(w, http.StatusBadRequest, "invalid_request_error", "", "you must provide a model parameter")
	case rec.File == "" || len(rec.Audio) == 0:
		writeError(w, http.StatusBadRequest, "invalid_request_error", "", "file is required")
	case !strings.Contains(rec.File, "."):
		writeError(w, http.StatusBadRequest, "invalid_request_error", "", "Unrecognized file format.")
	default:
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]string{"text": text})
	}
}

func writeError(w http.ResponseWriter, status int, typ, code, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	var c any
	if code != "" {
		c = code
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": message, "type": typ, "param": nil, "code": c}})
}

// SilentMP3 is a valid MP3 of n frames of silence (MPEG-1 layer III, 32 kbit/s, 44.1 kHz
// mono: 26 ms each).
func SilentMP3(n int) []byte {
	const frameLen = 144 * 32000 / 44100 // 104 bytes
	frame := make([]byte, frameLen)
	copy(frame, []byte{0xff, 0xfb, 0x10, 0xc4})
	return bytes.Repeat(frame, max(1, n))
}
