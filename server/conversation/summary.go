package conversation

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/llm"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/workflow"
)

// doNotCall are the ways people ask not to be called again. The words are matched after
// lower-casing, with "’" read as "'", and any run of spaces as one.
var doNotCall = regexp.MustCompile(`\b(` + strings.Join([]string{
	`(do not|don't|dont|never|stop|quit) (ever )?(call|calling|ring|ringing|phone|phoning|contact|contacting)( me| us| this number)?( again| anymore| any more| ever)`,
	`(stop|quit) (calling|ringing|phoning|contacting)`,
	`(remove|take|delete) (me|my number|this number|us) (off|from) (your|the|this) (call(ing)? )?(list|database|records|system)`,
	`(put|add) (me|my number|this number) (on|to) (your|the) do not call`,
	`do not call list`, `do-not-call`, `unsubscribe me`,
	`no more calls`, `never call (me|here|this number)`,
	`(don't|do not) want (any more|anymore|more|any) calls`,
	`lose my number`,
}, "|") + `)\b`)

// AsksNotToBeCalled says whether the customer's words ask not to be called again ("don't call
// me again", "remove me from your list", "stop calling" …).
func AsksNotToBeCalled(text string) bool {
	if text == "" {
		return false
	}
	t := strings.Join(strings.Fields(strings.ReplaceAll(strings.ToLower(text), "’", "'")), " ")
	return doNotCall.MatchString(t)
}

// Outcomes of a call, and the inbox priority each maps to (0 lowest; higher more urgent):
//
//	forwarded     3  the customer was put through to a person: someone should follow up
//	incomplete    2  the call ended before the flow did (the customer hung up, the line dropped)
//	step-failed   2  a webhook or CRM step failed: the flow's side effects are missing
//	do-not-call   1  the customer asked not to be called again (already on the team's list)
//	completed     1  the flow ran to its End Call
//	no-response   0  the customer never said anything
const (
	OutcomeForwarded  = "forwarded"
	OutcomeIncomplete = "incomplete"
	OutcomeStepFailed = "step-failed"
	OutcomeDoNotCall  = "do-not-call"
	OutcomeCompleted  = "completed"
	OutcomeNoResponse = "no-response"
)

// Priorities maps each outcome to its inbox priority.
var Priorities = map[string]int{
	OutcomeForwarded: 3, OutcomeIncomplete: 2, OutcomeStepFailed: 2,
	OutcomeDoNotCall: 1, OutcomeCompleted: 1, OutcomeNoResponse: 0,
}

// OutcomeOf is the outcome of a call's result, the first that applies in the order:
// do-not-call, forwarded, incomplete, no-response, step-failed, completed.
func OutcomeOf(r Result) string {
	spoke := false
	for _, t := range r.Turns {
		if t.Speaker == "customer" && t.Text != "" {
			spoke = true
			break
		}
	}
	failed := false
	for _, s := range r.Steps {
		if s.Status == StepFailed {
			failed = true
		}
	}
	switch {
	case r.DoNotCall:
		return OutcomeDoNotCall
	case r.ForwardedTo != "":
		return OutcomeForwarded
	case !r.Ended:
		return OutcomeIncomplete
	case !spoke:
		return OutcomeNoResponse
	case failed:
		return OutcomeStepFailed
	}
	return OutcomeCompleted
}

var outcomeWords = map[string]string{
	OutcomeForwarded: "forwarded", OutcomeIncomplete: "ended early", OutcomeStepFailed: "a step failed",
	OutcomeDoNotCall: "asked not to be called again", OutcomeCompleted: "completed", OutcomeNoResponse: "no response",
}

// Summarize makes the inbox item of a finished call and its analysis: a title naming the
// contact and the outcome, the workflow's post-call fields read from the call (by the
// language model when one is configured and answers, else by ExtractFields), and a summary
// of what happened (the model's, else LocalSummary's), the outcome and its priority (see
// Priorities).
func (e *Engine) Summarize(ctx context.Context, s Setup, r Result) (Summary, error) {
	outcome := OutcomeOf(r)
	title := fmt.Sprintf("Call with %s: %s", contactName(s.Contact, "an unknown contact"), outcomeWords[outcome])
	fields, by, err := e.extract(ctx, s.Graph.Fields, r.Turns)
	if err != nil {
		return Summary{}, err
	}
	text := ""
	if e.d.Model.Name() != e.local.Name() {
		lines := make([]string, 0, len(r.Turns)+len(fields))
		for _, t := range r.Turns {
			lines = append(lines, speakerName(t.Speaker)+": "+t.Text)
		}
		facts := ""
		if len(fields) > 0 {
			facts = "\nWhat the call established: " + fieldsSentence(fields)
		}
		req := llm.Request{Task: llm.TaskSummarize, Brief: llm.Brief{Transcript: lines}, MaxTokens: 200, Messages: []llm.Message{
			{Role: llm.System, Content: "Summarise this phone call for the team's inbox in two or three plain sentences: what the customer wanted, what was agreed, and any follow-up. Do not invent anything."},
			{Role: llm.User, Content: strings.Join(lines, "\n") + facts},
		}}
		sum, err := e.d.Model.Chat(ctx, req, nil)
		switch {
		case err != nil && ctx.Err() != nil:
			return Summary{}, ctx.Err()
		case err != nil || strings.TrimSpace(sum.Text) == "":
			e.d.Log.Warn("conversation: the language model could not summarise; the local summary is used", "err", err)
		default:
			text = strings.TrimSpace(sum.Text)
		}
	}
	if text == "" {
		text = LocalSummary(s, r, outcome, fields)
	}
	var notes []string
	if r.ForwardedTo != "" {
		notes = append(notes, "Forwarded to "+r.ForwardedTo+".")
	}
	for _, st := range r.Steps {
		if st.Status != StepDone && st.Kind != "branch" {
			notes = append(notes, st.Detail)
		}
	}
	if len(notes) > 0 {
		text += " " + strings.Join(notes, " ")
	}
	return Summary{Title: title, Summary: text, Outcome: outcome, Priority: Priorities[outcome],
		Analysis: Analysis{Summary: text, Outcome: outcome, Fields: fields, By: by}}, nil
}

// LocalSummary says what happened on a call without a language model, from what the call
// established rather than how long it was: who the customer is, the words that carried the
// call (their first question, else their longest answer), the branches the flow took on
// their words, the post-call fields read, and how it ended when that is news ("Ann asked
// "Can I see a demo?"; the flow took "Interested". Appointment day: Tuesday; email:
// ann@example.com.").
func LocalSummary(s Setup, r Result, outcome string, fields []FieldValue) string {
	who := contactName(s.Contact, "The customer")
	if s.Contact.FirstName != "" {
		who = s.Contact.FirstName
	}
	var parts []string
	b := branchesTaken(s.Graph, r.Steps)
	switch said, asked := keyWords(r.Turns); {
	case outcome == OutcomeNoResponse:
		parts = append(parts, who+" said nothing.")
	case outcome == OutcomeDoNotCall:
		parts = append(parts, who+" asked not to be called again.")
	case asked:
		parts = append(parts, fmt.Sprintf("%s asked %q", who, said))
	case len(b) > 0 && answersAField(said, r.Turns, fields):
		// The words are a field's value, said below: the branches say what they chose.
		parts = append(parts, fmt.Sprintf("%s chose %s.", who, strings.Join(b, ", then ")))
		b = nil
	case said != "":
		parts = append(parts, fmt.Sprintf("%s said %q", who, said))
	}
	if len(b) > 0 && outcome != OutcomeNoResponse {
		last := len(parts) - 1
		if last >= 0 && !strings.HasSuffix(parts[last], ".") {
			parts[last] += "; the flow took " + strings.Join(b, ", then ") + "."
		} else {
			parts = append(parts, "The flow took "+strings.Join(b, ", then ")+".")
		}
	} else if n := len(parts) - 1; n >= 0 && !strings.HasSuffix(parts[n], ".") {
		parts[n] += "."
	}
	if len(fields) > 0 {
		parts = append(parts, fieldsSentence(fields))
	}
	switch outcome {
	case OutcomeIncomplete:
		parts = append(parts, "The call ended before the flow did.")
	case OutcomeCompleted:
		if len(fields) == 0 && len(s.Graph.Fields) > 0 {
			parts = append(parts, "None of the workflow's fields was answered.")
		}
	}
	return strings.Join(parts, " ")
}

// answersAField says whether said (keyWords of turns) is the turn a field was read from.
func answersAField(said string, turns []Turn, fields []FieldValue) bool {
	for _, f := range fields {
		if f.Turn >= 0 && f.Turn < len(turns) && clipWords(oneLine(turns[f.Turn].Text), 20) == said {
			return true
		}
	}
	return false
}

// keyWords answers the customer's words that carried the call: their first question (asked
// true), else their longest turn, at most 20 words.
func keyWords(turns []Turn) (string, bool) {
	longest := ""
	for _, t := range turns {
		if t.Speaker != "customer" {
			continue
		}
		text := oneLine(t.Text)
		if strings.HasSuffix(text, "?") {
			return clipWords(text, 20), true
		}
		if len(text) > len(longest) {
			longest = text
		}
	}
	return clipWords(longest, 20), false
}

// clipWords bounds s to its first words, marking the cut.
func clipWords(s string, words int) string {
	w := strings.Fields(s)
	if len(w) <= words {
		return s
	}
	return strings.Join(w[:words], " ") + "…"
}

// branchesTaken answers the labels of the branches the customer's words chose, quoted, in order.
func branchesTaken(g workflow.Graph, steps []Step) []string {
	labels := map[string]string{}
	for _, n := range g.Nodes {
		labels[n.ID] = firstNonEmpty(oneLine(n.Data.String(workflow.FieldNodeLabel)), oneLine(n.Data.String(workflow.FieldDescription)))
	}
	var out []string
	for _, st := range steps {
		if st.Kind == "branch" && labels[st.NodeID] != "" {
			out = append(out, strconv.Quote(labels[st.NodeID]))
		}
	}
	return out
}

// fieldsSentence lists fields for people: "Appointment day: Tuesday; email: ann@example.com."
func fieldsSentence(fields []FieldValue) string {
	parts := make([]string, len(fields))
	for i, f := range fields {
		parts[i] = strings.ReplaceAll(f.Name, "_", " ") + ": " + f.Value
	}
	out := capitalFirst(strings.Join(parts, "; "))
	if !strings.HasSuffix(out, ".") && !strings.HasSuffix(out, "?") && !strings.HasSuffix(out, "!") {
		out += "."
	}
	return out
}

func contactName(c Contact, unknown string) string {
	if who := strings.TrimSpace(c.FirstName + " " + c.LastName); who != "" {
		return who
	}
	return firstNonEmpty(c.Phone, unknown)
}

func speakerName(s string) string {
	if s == "customer" {
		return "Customer"
	}
	return "Agent"
}

// StoreAgents reads agent profiles from the store for the engine.
type StoreAgents struct{ DB *store.DB }

// Profile reads the team's agent profile.
func (a StoreAgents) Profile(ctx context.Context, orgID, agentID string) (Profile, error) {
	ag, err := a.DB.AgentByID(ctx, orgID, agentID)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return Profile{}, errs.NotFoundf("Agent profile")
		}
		return Profile{}, err
	}
	p := Profile{Name: ag.Name, Greeting: ag.Greeting, Instructions: ag.Instructions, Language: ag.Language, FAQ: map[string]string{}}
	if ag.VoicePresetID != nil {
		p.Voice = *ag.VoicePresetID
	} else if ag.VoiceID != nil {
		p.Voice = *ag.VoiceID
	}
	if ag.FAQ != "" {
		_ = json.Unmarshal([]byte(ag.FAQ), &p.FAQ)
	}
	return p, nil
}
