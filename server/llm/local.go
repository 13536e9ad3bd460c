package llm

import (
	"context"
	"fmt"
	"regexp"
	"strings"
)

// Local is the offline, deterministic back-end: the same request always answers the same
// reply. It reads only the request's Brief (see the package doc).
type Local struct{}

var _ Model = Local{}

// NewLocal returns the local back-end.
func NewLocal() Local { return Local{} }

// Name is "local".
func (Local) Name() string { return "local" }

// Chat answers the templated reply; with onDelta it streams it word by word.
func (l Local) Chat(ctx context.Context, req Request, onDelta func(string) error) (Reply, error) {
	if err := ctx.Err(); err != nil {
		return Reply{}, err
	}
	r := Reply{Choice: -1}
	switch req.Task {
	case TaskChoose:
		r.Choice = Choose(req.Brief.CustomerSaid, req.Brief.Choices)
		if r.Choice >= 0 {
			r.Text = fmt.Sprint(r.Choice + 1)
		}
	case TaskSummarize: // the conversation package summarises a call itself (conversation.LocalSummary)
	default:
		r.Text = Utterance(req.Brief)
	}
	if onDelta != nil {
		parts := strings.SplitAfter(r.Text, " ")
		for _, p := range parts {
			if p == "" {
				continue
			}
			if err := onDelta(p); err != nil {
				return Reply{}, err
			}
		}
	}
	return r, nil
}

// Utterance is what the local back-end says for a Brief: the greeting on the first turn, an
// answer (FAQ or knowledge) when the customer asked for information (AsksToKnow), or an honest
// "I don't know" when nothing answers it (DontKnow), then the step's spoken
// line (Brief.Say). An instruction is a direction to the agent and is never read aloud:
// without Say, a neutral line is said (Neutral).
//
// When the greeting opens the call, a greeting that also opens the step's line ("Hi Ann, this
// is Linda.") is left out, so the caller is not greeted twice.
func Utterance(b Brief) string {
	var parts []string
	greeted := b.First && strings.TrimSpace(b.Greeting) != ""
	if greeted {
		parts = append(parts, sentence(b.Greeting))
	}
	if AsksToKnow(b.CustomerSaid) { // a proposal ("How about Tuesday?") or a request is the flow's
		if len(b.Answers) > 0 {
			parts = append(parts, b.Answers[0]) // already spoken (conversation.answers)
		} else {
			parts = append(parts, DontKnow)
		}
	}
	line := strings.TrimSpace(b.Say)
	if line == "" {
		line = Neutral("", b.AgentName)
	}
	if greeted {
		line = withoutGreeting(line)
	}
	if line != "" {
		parts = append(parts, line)
	}
	return strings.Join(parts, " ")
}

// DontKnow is what the agent says to a question nothing it knows answers: that it does not
// know, and that the question goes to the team (the call's transcript reaches the team's
// inbox). It promises no call back: whether someone calls is the team's to say, in the step's
// line that follows ("Is there anything else…", "Please leave a message…").
const DontKnow = "I'm sorry, I don't know the answer to that. I'll pass your question on to the team."

var questionStart = regexp.MustCompile(`(?i)^\s*(what|how|when|where|why|which|who|whom|whose|is|are|am|do|does|did|can|could|will|would|should|may|have|has)\b`)

// IsQuestion says whether the words read as a question.
func IsQuestion(s string) bool {
	s = strings.TrimSpace(s)
	return s != "" && (strings.Contains(s, "?") || questionStart.MatchString(s))
}

// request is a question that asks for something to be done ("Can I move it to Friday?",
// "Could you call me back?"), which the flow's branches answer, not the knowledge base.
var request = regexp.MustCompile(`(?i)^\s*(?:(?:yes|yeah|no|ok|okay|well|sorry|um|so)[,.!]?\s+)*(?:can|could|may|would|will|shall)\s+(?:i|we|you|it|they)\b|^\s*(?:(?:yes|yeah|no|ok|okay|well)[,.!]?\s+)*(?:how about|what about|why not)\b`)

// AsksToKnow says whether the words ask for information ("What are your opening hours?", "Yes,
// and do you deliver on Sundays?"): one of their clauses opens as a question and is not a
// request ("No, I can't come, can we do another time?", "Can I see a demo?") nor a mere check
// ("I'll be there, at three?").
func AsksToKnow(s string) bool {
	for _, c := range clauseBreak.Split(s, -1) {
		c = leadIn.ReplaceAllString(c, "")
		if questionStart.MatchString(c) && (!request.MatchString(c) || tellMe.MatchString(c)) {
			return true
		}
	}
	return false
}

var (
	clauseBreak = regexp.MustCompile(`[,.;:!?]+\s*|\s+(?:and|but|so|or)\s+`)
	leadIn      = regexp.MustCompile(`(?i)^\s*(?:(?:yes|yeah|no|ok|okay|well|sorry|um|uh|so|and|but|also|then)\s+)+`)
)

// tellMe is a request for information ("Can you tell me when you open?").
var tellMe = regexp.MustCompile(`(?i)^\s*(?:(?:yes|yeah|no|ok|okay|well|sorry|um|so)[,.!]?\s+)*(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:tell|explain|let me know)\b`)

// Neutral is the line of an Agent step that has neither a spoken line nor a language model:
// built from the step's label, it says what the step is about and nothing the flow does not
// know. A label that greets ("Greet the caller") greets; one that thanks or closes ("Close
// politely") thanks; otherwise the label's subject, without its leading verb, is named
// ("Confirm the booking" → "Now, about the booking."; "Order status" → "Now, about the
// order status."). Without a label: "Thank you."
func Neutral(label, agentName string) string {
	ws := strings.Fields(strings.Trim(strings.TrimSpace(label), ".!?:;,"))
	if len(ws) == 0 {
		return "Thank you."
	}
	first := strings.ToLower(ws[0])
	switch {
	case greetVerbs[first]:
		if agentName != "" {
			return "Hello, this is " + agentName + "."
		}
		return "Hello."
	case closeVerbs[first]:
		return "Thank you for your time."
	}
	rest := ws
	if stepVerbs[first] {
		rest = ws[1:]
		for len(rest) > 0 && linkWords[strings.ToLower(rest[0])] {
			rest = rest[1:]
		}
	}
	if len(rest) == 0 {
		return "Thank you."
	}
	subject := strings.Join(rest, " ")
	subject = theirs.ReplaceAllString(subject, "your")
	subject = them.ReplaceAllString(subject, "you")
	if !determiners[strings.ToLower(strings.Fields(subject)[0])] {
		subject = "the " + lowerFirst(subject)
	} else {
		subject = lowerFirst(subject)
	}
	return "Now, about " + subject + "."
}

// The label is written to the agent: the customer becomes "you".
var (
	theirs = regexp.MustCompile(`(?i)\b(?:the (?:customer|caller|contact)'s|their)\b`)
	them   = regexp.MustCompile(`(?i)\b(?:the (?:customer|caller|contact)|them)\b`)
)

var (
	greetVerbs = set("greet welcome introduce hello hi open", " ")
	closeVerbs = set("thank thanks close end goodbye bye wrap finish", " ")
	stepVerbs  = set("ask tell give take book confirm check collect get gather record share explain offer "+
		"remind reschedule schedule verify review read send help answer update describe present propose "+
		"qualify find capture note log mention say discuss handle", " ")
	linkWords   = set("them for about to with on of", " ")
	determiners = set("the a an your my our this that these those some", " ")
)

var greetingOpen = regexp.MustCompile(`(?i)^(?:hi|hello|hey|good (?:morning|afternoon|evening)|thanks for calling|thank you for calling|welcome)\b`)

// withoutGreeting drops a first sentence that greets, when more follows.
func withoutGreeting(line string) string {
	ss := splitSentences(line)
	if len(ss) > 1 && greetingOpen.MatchString(strings.TrimSpace(ss[0])) {
		return strings.TrimSpace(strings.Join(ss[1:], ""))
	}
	return line
}

func splitSentences(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if (s[i] == '.' || s[i] == '!' || s[i] == '?' || s[i] == ';') && (i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\n') {
			out = append(out, s[start:i+1])
			start = i + 1
		}
	}
	if strings.TrimSpace(s[start:]) != "" {
		out = append(out, s[start:])
	}
	return out
}

// sentence capitalises s and ends it with a full stop when it has no end mark.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	s = capitalFirst(s)
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "!") && !strings.HasSuffix(s, "?") && !strings.HasSuffix(s, "…") {
		s += "."
	}
	return s
}

func capitalFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	r[0] = []rune(strings.ToUpper(string(r[0])))[0]
	return string(r)
}

func lowerFirst(s string) string {
	if s == "" || (len(s) > 1 && strings.ToUpper(s[:2]) == s[:2]) { // keep acronyms
		return s
	}
	r := []rune(s)
	r[0] = []rune(strings.ToLower(string(r[0])))[0]
	return string(r)
}
