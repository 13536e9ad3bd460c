package conversation_test

import (
	"context"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/llm"
	"github.com/bettyhq/betty/server/llm/openaitest"
	"github.com/bettyhq/betty/server/phones"
)

// The model plays the customer in character: it is told the persona, hears the agent as the
// other side, and its "[hang up]" ends the call; when it fails the local customer answers.
func TestTheModelPlaysTheCustomer(t *testing.T) {
	f := openaitest.New()
	defer f.Close()
	f.Reply(func(openaitest.Request) string { return "Sure, it's ann@example.com. Thanks, bye! [hang up]" })
	m := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: f.BaseURL(), Model: "m"})
	local := conversation.NewCustomer(conversation.CustomerOptions{Seed: 1})
	c := conversation.NewModelCustomer(m, local, nil)
	ctx := context.Background()
	persona := "Ann, e-mail ann@example.com, wants the invitation by e-mail"
	call := []phones.SpokenTurn{{Agent: true, Text: "Hi Ann, this is Sam."}, {Text: "Hello."}, {Agent: true, Text: "What's your e-mail address?"}}
	r, err := c.Reply(ctx, persona, call)
	if err != nil || r.Text != "Sure, it's ann@example.com. Thanks, bye!" || !r.HangUp {
		t.Fatalf("reply %+v, %v", r, err)
	}
	req := f.Requests()[0]
	roles := ""
	for _, m := range req.Messages {
		roles += string(m.Role[0])
	}
	if roles != "suau" || !strings.Contains(req.Messages[0].Content, persona) || req.Messages[3].Content != "What's your e-mail address?" {
		t.Fatalf("prompt roles %s: %+v", roles, req.Messages)
	}
	f.Fail(openaitest.Failure{Status: 500, Message: "boom"})
	r, err = c.Reply(ctx, persona, call)
	want, _ := local.Reply(ctx, persona, call)
	if err != nil || r != want || !strings.Contains(r.Text, "ann@example.com") {
		t.Fatalf("a failing model: %+v (%v), want the local customer's %+v", r, err, want)
	}
}
