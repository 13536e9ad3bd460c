package conversation

import (
	"context"
	"io"
	"log/slog"
	"regexp"
	"strings"

	"github.com/bettyhq/betty/server/llm"
	"github.com/bettyhq/betty/server/phones"
)

// ModelCustomer is the simulated customer played by the language model (`betty serve
// --sim-customer model` with `--llm-url`): the model reads the persona and the call so far and
// answers the person's next words, in character. Whenever the model fails or answers nothing
// usable, the local Customer answers instead, so a test run never stops for it.
type ModelCustomer struct {
	model llm.Model
	local *Customer
	log   *slog.Logger
}

var _ phones.Customer = (*ModelCustomer)(nil)

// NewModelCustomer returns the customer played by model, local standing in when it fails.
func NewModelCustomer(model llm.Model, local *Customer, log *slog.Logger) *ModelCustomer {
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &ModelCustomer{model: model, local: local, log: log}
}

// hangUpMark ends a model's reply when the person hangs up after it.
var hangUpMark = regexp.MustCompile(`(?i)\s*[\[(]\s*hangs?[ -]?up\s*[\])]\s*\.?\s*$`)

// Reply asks the model what the person says next.
func (c *ModelCustomer) Reply(ctx context.Context, persona string, call []phones.SpokenTurn) (phones.CustomerReply, error) {
	msgs := customerMessages(persona, call)
	r, err := c.model.Chat(ctx, llm.Request{Task: llm.TaskSay, Messages: msgs, MaxTokens: 80}, nil)
	text := strings.TrimSpace(r.Text)
	if err != nil || text == "" {
		if ctx.Err() != nil {
			return phones.CustomerReply{}, ctx.Err()
		}
		c.log.Warn("conversation: the language model could not play the customer; the local customer answers", "err", err)
		return c.local.Reply(ctx, persona, call)
	}
	out := phones.CustomerReply{}
	if loc := hangUpMark.FindStringIndex(text); loc != nil {
		out.HangUp, text = true, strings.TrimSpace(text[:loc[0]])
	}
	if strings.EqualFold(strings.Trim(text, "[]() ."), "silence") {
		text = ""
	}
	out.Text = clean(text)
	return out, nil
}

// customerMessages is the model's prompt: who it plays, then the call with the agent's lines as
// the other side's and the person's own as its own.
func customerMessages(persona string, call []phones.SpokenTurn) []llm.Message {
	if strings.TrimSpace(persona) == "" {
		persona = "an ordinary person who was not expecting the call"
	}
	sys := "You play a person on a phone call with a company's AI voice agent, to test the agent. Stay in character: " +
		oneLine(persona) + "\nAnswer with only the words you say next: one or two short spoken sentences, no stage directions, no lists. " +
		"Ask the questions your character has, give the details your character knows when asked, and never invent details your character does not have. " +
		"When you have nothing more to say and want to end the call, say goodbye and end your reply with [hang up]. To stay silent, answer [silence]."
	msgs := []llm.Message{{Role: llm.System, Content: sys}}
	for _, t := range call {
		role := llm.Assistant
		if t.Agent {
			role = llm.User
		}
		if t.Text != "" {
			msgs = append(msgs, llm.Message{Role: role, Content: t.Text})
		}
	}
	if len(msgs) == 1 || msgs[len(msgs)-1].Role == llm.Assistant {
		msgs = append(msgs, llm.Message{Role: llm.User, Content: "(The agent is waiting for you to speak.)"})
	}
	return msgs
}
