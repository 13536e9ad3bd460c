package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Extractor is a back-end that answers a JSON object following a JSON schema (the post-call
// analysis reads a call's fields with it). The local back-end is not one: it reads fields by
// patterns (conversation.ExtractFields).
type Extractor interface {
	Extract(ctx context.Context, messages []Message, name string, schema map[string]any) (json.RawMessage, error)
}

var _ Extractor = (*OpenAI)(nil)

type extractRequest struct {
	Model          string         `json:"model"`
	Messages       []Message      `json:"messages"`
	MaxTokens      int            `json:"max_tokens"`
	ResponseFormat responseFormat `json:"response_format"`
}

type responseFormat struct {
	Type       string     `json:"type"` // json_schema
	JSONSchema jsonSchema `json:"json_schema"`
}

type jsonSchema struct {
	Name   string         `json:"name"`
	Strict bool           `json:"strict"`
	Schema map[string]any `json:"schema"`
}

// Extract asks the endpoint for a structured answer: POST {base}/chat/completions with
// `response_format: {type: json_schema, json_schema: {name, strict: true, schema}}`, not
// streamed. It answers the message's content when it is a JSON object; an error answer, a
// refusal or anything else is an error (the caller falls back to what it can do locally).
func (o *OpenAI) Extract(ctx context.Context, messages []Message, name string, schema map[string]any) (json.RawMessage, error) {
	ctx, cancel := context.WithTimeout(ctx, o.c.Timeout)
	defer cancel()
	body, err := json.Marshal(extractRequest{Model: o.c.Model, Messages: messages, MaxTokens: 1000,
		ResponseFormat: responseFormat{Type: "json_schema", JSONSchema: jsonSchema{Name: name, Strict: true, Schema: schema}}})
	if err != nil {
		return nil, err
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, o.c.BaseURL+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("llm: extract: %w", err)
	}
	hr.Header.Set("Content-Type", "application/json")
	if o.c.APIKey != "" {
		hr.Header.Set("Authorization", "Bearer "+o.c.APIKey)
	}
	res, err := o.c.Client.Do(hr)
	if err != nil {
		return nil, fmt.Errorf("llm: extract: %w", err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, maxAnswer+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("llm: extract: %w", err)
	case len(raw) > maxAnswer:
		return nil, fmt.Errorf("llm: extract: the answer is over %d bytes", maxAnswer)
	case res.StatusCode < 200 || res.StatusCode > 299:
		return nil, fmt.Errorf("llm: extract: POST %s answered %d: %s", res.Request.URL.Redacted(), res.StatusCode, truncate(string(raw), 200))
	}
	var answer struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
				Refusal string `json:"refusal"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(raw, &answer); err != nil || len(answer.Choices) == 0 {
		return nil, fmt.Errorf("llm: extract: the answer is not a chat completion: %s", truncate(string(raw), 200))
	}
	m := answer.Choices[0].Message
	if m.Refusal != "" {
		return nil, fmt.Errorf("llm: extract: the model refused: %s", truncate(m.Refusal, 200))
	}
	content := strings.TrimSpace(m.Content)
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(content), &obj); err != nil {
		return nil, fmt.Errorf("llm: extract: the content is not a JSON object: %s", truncate(content, 200))
	}
	return json.RawMessage(content), nil
}
