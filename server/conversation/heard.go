package conversation

import (
	"regexp"
	"strings"

	"github.com/bettyhq/betty/server/llm"
	"github.com/bettyhq/betty/server/workflow"
)

// What the customer's words do besides answering the flow (read by Heard, after a wish not to
// be called again and silence):
//
//   - Asking to hear it again ("could you say that again?", "sorry?", "pardon?", "come again?")
//     repeats the agent's last line; the flow stays where it is. A flow that has its own path
//     for it (a Customer Response "Asks to repeat") takes it instead, as for a goodbye.
//   - Saying goodbye ("bye", "goodbye", "that's all", "nothing else") ends the call politely,
//     a closing line then hang up, unless the flow is waiting for exactly that: when a Customer
//     Response the flow waits at shares words with them ("No, that is all, thanks, goodbye"),
//     the flow goes on as drawn, with its own lines and End Call. A question the flow still had
//     to ask is not asked: a customer who says goodbye is not kept on the line.
var (
	repeatWords = regexp.MustCompile(`(?i)^\s*(?:(?:sorry|excuse me|i'm sorry|um|uh|what)[,.!?]*\s*)*(?:` + strings.Join([]string{
		`(?:could|can|would) you (?:please )?(?:say|repeat) (?:that|it|this)(?: again)?`,
		`(?:please )?(?:say|repeat) (?:that|it) again`,
		`(?:please )?repeat (?:that|it)`,
		`what did you (?:just )?say`,
		`come again`,
		`pardon(?: me)?`,
		`i didn'?t (?:catch|hear|get) (?:that|it|you)`,
		`say again`,
	}, "|") + `)?(?:,?\s*please)?[\s.!?]*$`)
	// "That's all" takes leave when it ends a clause ("That's all, thanks."), not in "that's
	// all correct".
	goodbyeWords = regexp.MustCompile(`(?i)\b(?:good ?bye|bye(?: bye)?|nothing else|have a (?:good|nice|great) (?:day|one)|talk (?:to you )?later)\b|` +
		`\bthat(?:'?s| is) (?:all|it)(?:\s+(?:for (?:now|today)|thanks|thank you))?\s*(?:[,.!]|$)`)
)

// AsksToRepeat says whether the words only ask the agent to say it again ("Sorry?", "Could you
// say that again?"). Words that say something else ("Sorry, I can't come") do not.
func AsksToRepeat(text string) bool {
	t := strings.TrimSpace(strings.ReplaceAll(text, "’", "'"))
	if t == "" {
		return false
	}
	m := repeatWords.FindStringSubmatch(t)
	if m == nil {
		return false
	}
	// A bare "what" or "um" is not a request; "sorry?", "what?", "pardon" are.
	bare := strings.ToLower(strings.Trim(t, " .!,"))
	switch bare {
	case "um", "uh", "what", "sorry", "excuse me", "i'm sorry":
		return strings.HasSuffix(t, "?") || bare == "excuse me"
	}
	return true
}

// SaysGoodbye says whether the words take leave ("Bye!", "That's all, thanks").
func SaysGoodbye(text string) bool {
	return goodbyeWords.MatchString(strings.ReplaceAll(text, "’", "'"))
}

// waitsFor says whether a Customer Response the flow waits at shares words with text: then the
// flow, not the engine, answers them.
func (w *walk) waitsFor(text string) bool {
	ids := w.st.Branches
	if len(ids) == 0 {
		if n, ok := w.g.nodes[w.st.Node]; ok && n.Type == workflow.CustomerResponse {
			ids = []string{n.ID}
		}
	}
	for _, id := range ids {
		n := w.g.nodes[id]
		d := firstNonEmpty(n.Data.String(workflow.FieldDescription), n.Data.String(workflow.FieldNodeLabel))
		if llm.Similarity(text, d) > 0 {
			return true
		}
	}
	return false
}

// lastLine is what the agent said last ("" before it spoke).
func (w *walk) lastLine() string {
	for i := len(w.st.Turns) - 1; i >= 0; i-- {
		if t := w.st.Turns[i]; t.Speaker == "agent" {
			return t.Text
		}
	}
	return ""
}
