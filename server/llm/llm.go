// Package llm is Betty's language back-end: the conversation engine asks it what the agent
// says next, which branch the customer's words choose, and how to summarise a finished call.
//
// One interface, Model, with two back-ends chosen by configuration:
//
//   - Local (the default, offline): deterministic. Utterances are templated from the
//     structured Brief that travels with each request (the step's instruction, the agent's
//     greeting, FAQ answers and knowledge passages that match the customer's words), a branch
//     is chosen by lexical similarity of the customer's words to each branch's description
//     (Similarity), a summary is extracted from the transcript. Good enough to run every flow
//     offline and in tests; it never invents facts that are not in the Brief.
//   - OpenAI (`--llm-url`, `--llm-api-key`, `--llm-model`): an OpenAI-compatible chat
//     completions endpoint (OpenAI, Ollama, vLLM, LM Studio …), POST {base}/chat/completions,
//     streamed as server-sent events when the caller wants the words as they come (Sentences
//     cuts them into sentences to speak while the rest is written). The engine's decisions
//     (branch, end, transfer) are tool calls (Request.Tools, Reply.ToolCalls, arguments as JSON).
//
// A Request carries both forms of the same question: Messages, the chat prompt a real model
// reads, and Brief, the structured facts the local back-end templates from. The engine fills
// both, so switching back-ends changes how well the agent talks, not what the flow does.
package llm

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/bettyhq/betty/server/errs"
)

// Role is who wrote a chat message.
type Role string

const (
	System    Role = "system"
	User      Role = "user"
	Assistant Role = "assistant"
)

// Message is one chat message.
type Message struct {
	Role    Role   `json:"role"`
	Content string `json:"content"`
}

// Task says what a request asks for.
type Task string

const (
	// TaskSay asks for the agent's next utterance.
	TaskSay Task = "say"
	// TaskChoose asks which of Brief.Choices the customer's words (Brief.CustomerSaid) mean;
	// the answer's Choice is its index.
	TaskChoose Task = "choose"
	// TaskSummarize asks for a short summary of the call in Brief.Transcript.
	TaskSummarize Task = "summarize"
)

// Request is one chat completion.
type Request struct {
	Task     Task
	Messages []Message
	Brief    Brief
	// MaxTokens bounds the answer (0: the back-end's default).
	MaxTokens int
	// Tools are the functions the model may call instead of (or besides) answering text;
	// the local back-end ignores them.
	Tools []Tool
}

// Tool is a function offered to the model: its arguments are described by a JSON schema
// (an object schema, as chat completions require).
type Tool struct {
	Name, Description string
	Parameters        map[string]any
}

// ToolCall is a function the model called; Arguments is the JSON text the model wrote
// (streamed models send it in pieces, joined here), not checked against the schema.
type ToolCall struct {
	ID, Name, Arguments string
}

// Brief is the structured form of a request, what the local back-end reads.
type Brief struct {
	AgentName string
	// Greeting opens the call (first utterance only).
	Greeting string
	// Instruction is the Agent step's instruction (TaskSay), placeholders already filled: a
	// direction to the agent, never a line to read.
	Instruction string
	// Say is the step's spoken line, placeholders filled: the line its author wrote (the
	// node's `say`), else the instruction's quoted lines, else a neutral line built from the
	// step's label (Neutral). The local back-end says it as written; a language model takes it
	// as the example of what to say.
	Say string
	// CustomerSaid is the customer's last words ("" at the start of the call).
	CustomerSaid string
	// Answers are the FAQ answers and knowledge passages that answer the customer's words,
	// best first, already spoken: one or two sentences each, without markup (what the local
	// back-end says).
	Answers []string
	// Facts are the whole passages those answers come from, without markup and with where
	// they come from ("(faq.pdf, page 2) …"), best first: what a language model reads.
	Facts []string
	// Choices are the branch descriptions (TaskChoose).
	Choices []string
	// Transcript is the call, one "Agent: …" or "Customer: …" line each (TaskSummarize).
	Transcript []string
	// First says this is the first utterance of the call.
	First bool
}

// Reply is a model's answer.
type Reply struct {
	Text string
	// Choice is the chosen index for TaskChoose, -1 otherwise or when the model's answer
	// named none of the choices.
	Choice int
	// ToolCalls are the functions the model called, in the order it called them.
	ToolCalls []ToolCall
}

// Model is a language back-end. Chat answers the whole reply; when onDelta is not nil the
// back-end streams and calls it with each piece of text as it comes (their concatenation is
// Reply.Text). An error from onDelta stops the request and is answered.
type Model interface {
	Chat(ctx context.Context, req Request, onDelta func(string) error) (Reply, error)
	// Name names the back-end for the log ("local", "openai-compatible <model>").
	Name() string
}

// Config picks a back-end: URL set → the OpenAI-compatible adapter, else Local.
type Config struct {
	URL, APIKey, Model string
	// Timeout bounds one request to the adapter (default 30 s).
	Timeout time.Duration
}

// Open answers the back-end the configuration asks for. A URL without a model is an error
// naming the setting.
func Open(c Config) (Model, error) {
	if strings.TrimSpace(c.URL) == "" {
		return NewLocal(), nil
	}
	if strings.TrimSpace(c.Model) == "" {
		return nil, fmt.Errorf("--llm-model (BETTY_LLM_MODEL) must be set when --llm-url is: name the chat model to use, such as gpt-4o-mini or llama3.1")
	}
	return NewOpenAI(OpenAIConfig{BaseURL: c.URL, APIKey: c.APIKey, Model: c.Model, Timeout: c.Timeout}), nil
}

// ParseChoice reads the index a model answered for n choices: the first number in text,
// counted from 1 as the prompt numbers them. ok is false when there is none in range.
func ParseChoice(text string, n int) (int, bool) {
	fields := strings.FieldsFunc(text, func(r rune) bool { return r < '0' || r > '9' })
	for _, f := range fields {
		if i, err := strconv.Atoi(f); err == nil && i >= 1 && i <= n {
			return i - 1, true
		}
		break
	}
	return -1, false
}

// unavailable is the error people see when the back-end failed; cause goes to the log.
func unavailable(msg string, cause error) error {
	e := errs.WithCode(errs.Unavailable, errs.CodeUnavailable, msg)
	e.Err = cause
	return e
}
