package conversation

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/bettyhq/betty/internal/plural"
	"github.com/bettyhq/betty/server/llm"
	"github.com/bettyhq/betty/server/workflow"
)

// modelWait is the longest the customer waits in silence for a language model: its first
// sentence, or its branch choice. Past it the local wording (or the lexical choice) is used;
// once the first sentence is said, the rest of the reply has the adapter's own timeout. (A
// variable for the tests.)
var modelWait = 5 * time.Second

// agent says an Agent step: the step's instruction with the agent's profile, FAQ answers and
// knowledge passages that match the customer's last words (or the instruction at the start),
// through the language back-end.
//
// A language model's answer is streamed and said sentence by sentence as each completes
// (llm.Sentences; say hands each to the carrier at once when the driver asked for early
// speech), so the customer hears the first sentence while the model writes the rest. A model
// that fails before its first sentence, or keeps the customer waiting for it longer than
// modelWait, does not end the call: the local back-end's wording is said instead and the
// failure kept as a failed step. One that fails after it (a stream cut
// in the middle) leaves what was said said, and the unfinished sentence unsaid: the call goes
// on from there (the customer can ask again), with the failure kept as a failed step. Each
// sentence is a turn of its own, as it is a speak command of its own (the carrier's clock,
// the recording and the transcript stay in step). The local back-end answers at once and is
// said whole, as one turn.
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
	found := w.findAnswers(ctx, said, instruction)
	answers, facts := make([]string, len(found)), make([]string, len(found))
	for i, a := range found {
		answers[i], facts[i] = a.Spoken, "("+a.Cited()+") "+a.Passage
	}
	brief := llm.Brief{AgentName: w.prof.Name, Greeting: w.fill(w.prof.Greeting), Instruction: instruction,
		Say: w.line(n), CustomerSaid: said, Answers: answers, Facts: facts, First: first}
	if w.e.d.Model.Name() == w.e.local.Name() {
		if llm.AsksToKnow(said) { // what the local brain answers it with (llm.Utterance), for the call's steps
			if len(found) > 0 {
				w.step(n.ID, "question", StepDone, fmt.Sprintf("%q answered from %s.", said, found[0].Cited()))
			} else {
				w.step(n.ID, "question", StepDone, fmt.Sprintf("Nothing answers %q: the agent said so.", said))
			}
		}
		r, _ := w.e.d.Model.Chat(ctx, llm.Request{Task: llm.TaskSay, Brief: brief}, nil)
		w.say(r.Text)
		return
	}
	msgs, size := w.sayPrompt(brief, promptBudget)
	req := llm.Request{Task: llm.TaskSay, Brief: brief, Messages: msgs, MaxTokens: 200}
	var cutter llm.Sentences
	spoken := 0
	start := time.Now()
	var firstToken time.Duration
	mctx, cancel := context.WithCancel(ctx)
	defer cancel()
	silence := time.AfterFunc(modelWait, cancel)
	r, err := w.e.d.Model.Chat(mctx, req, func(piece string) error {
		if firstToken == 0 {
			firstToken = time.Since(start)
		}
		for _, s := range cutter.Add(piece) {
			if spoken == 0 && !silence.Stop() {
				return context.Canceled // too late: the local wording is said instead
			}
			w.say(s)
			spoken++
		}
		return nil
	})
	silence.Stop()
	if err == nil {
		if rest := cutter.Flush(); rest != "" {
			w.say(rest)
			spoken++
		}
	}
	w.e.d.Log.InfoContext(ctx, "conversation: agent turn", "node", n.ID, "model", w.e.d.Model.Name(),
		"promptChars", size.Chars, "passages", size.Passages, "passagesDropped", size.PassagesDropped,
		"turns", size.Turns, "turnsDropped", size.TurnsDropped, "sentences", spoken,
		"firstToken", firstToken, "total", time.Since(start), "err", err)
	switch {
	case err == nil && spoken > 0:
	case spoken == 0:
		w.e.d.Log.WarnContext(ctx, "conversation: the language model could not speak; the local wording is used", "node", n.ID, "err", err)
		w.step(n.ID, string(n.Type), StepFailed, "The language model did not answer; the agent used the local wording.")
		r, _ = w.e.local.Chat(ctx, req, nil)
		w.say(r.Text)
	default:
		w.e.d.Log.WarnContext(ctx, "conversation: the language model broke off; what it said stays said", "node", n.ID, "sentences", spoken, "err", err)
		w.step(n.ID, string(n.Type), StepFailed, "The language model broke off after "+plural.Count(spoken, "sentence", "sentences")+"; the rest of its answer was not said.")
	}
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
