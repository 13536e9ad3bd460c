package llm_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/llm"
)

func TestExtractAsksForAJSONSchemaAnswer(t *testing.T) {
	var got struct {
		Model          string `json:"model"`
		Stream         *bool  `json:"stream"`
		ResponseFormat struct {
			Type       string `json:"type"`
			JSONSchema struct {
				Name   string         `json:"name"`
				Strict bool           `json:"strict"`
				Schema map[string]any `json:"schema"`
			} `json:"json_schema"`
		} `json:"response_format"`
		Messages []llm.Message `json:"messages"`
	}
	answer := `{"choices":[{"message":{"content":"{\"email\":{\"value\":\"ann@example.com\",\"turn\":1}}"}}]}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer key" {
			http.Error(w, "wrong", http.StatusNotFound)
			return
		}
		_ = json.NewDecoder(r.Body).Decode(&got)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(answer))
	}))
	defer srv.Close()
	m := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: srv.URL + "/v1", APIKey: "key", Model: "gpt-test"})
	schema := map[string]any{"type": "object"}
	raw, err := m.Extract(context.Background(), []llm.Message{{Role: llm.User, Content: "Transcript"}}, "post_call_fields", schema)
	if err != nil || !strings.Contains(string(raw), "ann@example.com") {
		t.Fatalf("extract: %s %v", raw, err)
	}
	f := got.ResponseFormat
	if got.Model != "gpt-test" || got.Stream != nil || f.Type != "json_schema" || f.JSONSchema.Name != "post_call_fields" || !f.JSONSchema.Strict ||
		f.JSONSchema.Schema["type"] != "object" || len(got.Messages) != 1 {
		t.Fatalf("request %+v", got)
	}

	// Anything but a JSON object in the message is an error (the caller falls back).
	for _, bad := range []struct {
		status int
		body   string
	}{
		{http.StatusOK, `{"choices":[{"message":{"content":"The e-mail is ann@example.com"}}]}`},
		{http.StatusOK, `{"choices":[{"message":{"content":null,"refusal":"I cannot help with that."}}]}`},
		{http.StatusOK, `{"choices":[]}`},
		{http.StatusBadRequest, `{"error":{"message":"response_format is not supported"}}`},
	} {
		answer = bad.body
		srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(bad.status)
			w.Write([]byte(bad.body))
		})
		if raw, err := m.Extract(context.Background(), nil, "x", schema); err == nil {
			t.Fatalf("%d %s: answered %s", bad.status, bad.body, raw)
		}
	}
}
