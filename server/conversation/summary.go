package conversation

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/llm"
	"github.com/bettyhq/betty/server/store"
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

// Summarize makes the inbox item of a finished call: a title naming the contact and the
// outcome, a summary of the conversation from the language back-end (the local one's
// extract when it fails), the outcome and its priority (see Priorities).
func (e *Engine) Summarize(ctx context.Context, s Setup, r Result) (Summary, error) {
	outcome := OutcomeOf(r)
	who := strings.TrimSpace(s.Contact.FirstName + " " + s.Contact.LastName)
	if who == "" {
		who = firstNonEmpty(s.Contact.Phone, "an unknown contact")
	}
	title := fmt.Sprintf("Call with %s: %s", who, outcomeWords[outcome])
	lines := make([]string, 0, len(r.Turns))
	for _, t := range r.Turns {
		sp := "Agent"
		if t.Speaker == "customer" {
			sp = "Customer"
		}
		lines = append(lines, sp+": "+t.Text)
	}
	req := llm.Request{Task: llm.TaskSummarize, Brief: llm.Brief{Transcript: lines}, MaxTokens: 200, Messages: []llm.Message{
		{Role: llm.System, Content: "Summarise this phone call for the team's inbox in two or three plain sentences: what the customer wanted, what was agreed, and any follow-up. Do not invent anything."},
		{Role: llm.User, Content: strings.Join(lines, "\n")},
	}}
	sum, err := e.d.Model.Chat(ctx, req, nil)
	if err != nil || strings.TrimSpace(sum.Text) == "" {
		if err != nil && ctx.Err() != nil {
			return Summary{}, ctx.Err()
		}
		e.d.Log.Warn("conversation: the language model could not summarise; the local summary is used", "err", err)
		sum, _ = e.local.Chat(ctx, req, nil)
	}
	text := strings.TrimSpace(sum.Text)
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
	return Summary{Title: title, Summary: text, Outcome: outcome, Priority: Priorities[outcome]}, nil
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
