package conversation

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/bettyhq/betty/server/llm"
	"github.com/bettyhq/betty/server/workflow"
)

// agent says an Agent step: the step's instruction with the agent's profile, FAQ answers and
// knowledge passages that match the customer's last words (or the instruction at the start),
// through the language back-end. A back-end that fails does not end the call: the local
// back-end's wording is used and the failure logged as a failed step.
func (w *walk) agent(ctx context.Context, n workflow.Node) {
	instruction := w.fill(n.Data.String(workflow.FieldInstruction))
	first := true
	for _, t := range w.st.Turns {
		if t.Speaker == "agent" {
			first = false
			break
		}
	}
	said := w.st.LastHeard
	answers := w.answers(ctx, said, instruction)
	brief := llm.Brief{AgentName: w.prof.Name, Greeting: w.fill(w.prof.Greeting), Instruction: instruction,
		Say: w.line(n), CustomerSaid: said, Answers: answers, First: first}
	req := llm.Request{Task: llm.TaskSay, Brief: brief, Messages: w.sayMessages(brief), MaxTokens: 200}
	r, err := w.e.d.Model.Chat(ctx, req, nil)
	if err != nil || strings.TrimSpace(r.Text) == "" {
		w.e.d.Log.Warn("conversation: the language model could not speak; the local wording is used", "node", n.ID, "err", err)
		w.step(n.ID, string(n.Type), StepFailed, "The language model did not answer; the agent used the local wording.")
		r, _ = w.e.local.Chat(ctx, req, nil)
	}
	w.say(r.Text)
}

// answers are what the agent may draw on: the FAQ answer whose question is most like the
// customer's words, then the knowledge passages that best match them.
func (w *walk) answers(ctx context.Context, said, instruction string) []string {
	var out []string
	if said != "" && len(w.prof.FAQ) > 0 {
		best, score := "", 0.25 // below this a question is not the customer's
		qs := make([]string, 0, len(w.prof.FAQ))
		for q := range w.prof.FAQ {
			qs = append(qs, q)
		}
		sort.Strings(qs)
		for _, q := range qs {
			if s := llm.Similarity(said, q); s > score {
				best, score = q, s
			}
		}
		if best != "" {
			out = append(out, w.prof.FAQ[best])
		}
	}
	if w.e.d.Knowledge == nil || w.s.AgentID == "" {
		return out
	}
	question := said
	if question == "" {
		question = instruction
	}
	hits, err := w.e.d.Knowledge.SearchForAgent(ctx, w.s.OrganizationID, w.s.AgentID, question, passages)
	if err != nil {
		w.e.d.Log.Warn("conversation: knowledge search failed; the agent speaks without passages", "err", err)
		return out
	}
	for _, h := range hits {
		if c := strings.TrimSpace(h.Content); c != "" {
			out = append(out, c)
		}
	}
	return out
}

// sayMessages is the chat prompt of an utterance for a real language model.
func (w *walk) sayMessages(b llm.Brief) []llm.Message {
	var sys strings.Builder
	name := firstNonEmpty(b.AgentName, "the assistant")
	fmt.Fprintf(&sys, "You are %s, an AI voice agent on a live phone call", name)
	if who := strings.TrimSpace(w.s.Contact.FirstName + " " + w.s.Contact.LastName); who != "" {
		fmt.Fprintf(&sys, " with %s", who)
	}
	sys.WriteString(". Everything you write is spoken aloud: reply with one to three short sentences, no lists, no markdown, no stage directions. Never invent facts; when you do not know, say so.\n")
	if p := strings.TrimSpace(w.prof.Instructions); p != "" {
		fmt.Fprintf(&sys, "\nAbout you and how to behave:\n%s\n", p)
	}
	fmt.Fprintf(&sys, "\nWhat to do now (this step of the call flow): %s\n", firstNonEmpty(b.Instruction, "carry on the conversation"))
	if b.First && strings.TrimSpace(b.Greeting) != "" {
		fmt.Fprintf(&sys, "\nThis is the first thing you say on the call: open with this greeting: %q\n", b.Greeting)
	}
	if len(b.Answers) > 0 {
		sys.WriteString("\nFacts you may use to answer the customer (from the FAQ and the knowledge base):\n")
		for _, a := range b.Answers {
			fmt.Fprintf(&sys, "- %s\n", oneLine(a))
		}
	}
	if w.st.Record {
		sys.WriteString("\nWhat we know about the caller:\n")
		for _, kv := range w.contactFields() {
			if kv[1] != "" {
				fmt.Fprintf(&sys, "- %s: %s\n", kv[0], kv[1])
			}
		}
	}
	msgs := []llm.Message{{Role: llm.System, Content: sys.String()}}
	for _, t := range w.st.Turns {
		role := llm.User
		if t.Speaker == "agent" {
			role = llm.Assistant
		}
		msgs = append(msgs, llm.Message{Role: role, Content: t.Text})
	}
	if len(msgs) == 1 || msgs[len(msgs)-1].Role == llm.Assistant {
		msgs = append(msgs, llm.Message{Role: llm.User, Content: "(The customer is listening. Say your next line.)"})
	}
	return msgs
}

func (w *walk) contactFields() [][2]string {
	c := w.s.Contact
	out := [][2]string{{"firstName", c.FirstName}, {"lastName", c.LastName}, {"phone", c.Phone}, {"email", c.Email}, {"lifecycleStage", c.LifecycleStage}}
	keys := make([]string, 0, len(c.Extra))
	for k := range c.Extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, [2]string{k, c.Extra[k]})
	}
	return out
}

var placeholder = regexp.MustCompile(`\{\{\s*([A-Za-z0-9_.\-]+)\s*\}\}`)

// vars are the values placeholders name: the contact's fields (firstName, lastName, phone,
// email, lifecycleStage and its other columns), agentName, and the fields of webhook answers
// (see webhook). Names are matched without regard to case.
func (w *walk) vars() map[string]string {
	v := map[string]string{"agentname": w.prof.Name}
	for _, kv := range w.contactFields() {
		v[strings.ToLower(kv[0])] = kv[1]
	}
	for k, x := range w.st.Vars {
		v[strings.ToLower(k)] = x
	}
	return v
}

// fill replaces {{name}} placeholders; an unknown name becomes "" (it is never spoken as
// braces).
func (w *walk) fill(text string) string {
	return w.fillWith(text, func(s string) string { return s })
}

func (w *walk) fillWith(text string, escape func(string) string) string {
	if !strings.Contains(text, "{{") {
		return text
	}
	v := w.vars()
	return placeholder.ReplaceAllStringFunc(text, func(m string) string {
		name := strings.ToLower(placeholder.FindStringSubmatch(m)[1])
		return escape(v[name])
	})
}
