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
// answer (FAQ or knowledge) when the customer asked a question, then the step's instruction
// turned into speech (see Speak).
func Utterance(b Brief) string {
	var parts []string
	if b.First && strings.TrimSpace(b.Greeting) != "" {
		parts = append(parts, sentence(b.Greeting))
	}
	if IsQuestion(b.CustomerSaid) && len(b.Answers) > 0 {
		parts = append(parts, firstSentences(b.Answers[0], 2, 280))
	}
	if s := Speak(b.Instruction, b.AgentName); s != "" {
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

var questionStart = regexp.MustCompile(`(?i)^\s*(what|how|when|where|why|which|who|whom|whose|is|are|am|do|does|did|can|could|will|would|should|may|have|has)\b`)

// IsQuestion says whether the words read as a question.
func IsQuestion(s string) bool {
	s = strings.TrimSpace(s)
	return s != "" && (strings.Contains(s, "?") || questionStart.MatchString(s))
}

var quoted = regexp.MustCompile(`["“]([^"”]{2,})["”]`)

// Speak turns an Agent step's instruction, written to the agent ("Ask if they want to
// renew."), into what the agent says to the customer ("Do you want to renew?"). Quoted text
// is said as written. In an instruction "you" is the agent and "they" the customer.
func Speak(instruction, agentName string) string {
	instruction = strings.TrimSpace(instruction)
	if instruction == "" {
		return ""
	}
	if m := quoted.FindAllStringSubmatch(instruction, -1); len(m) > 0 {
		var out []string
		for _, q := range m {
			out = append(out, sentence(q[1]))
		}
		return strings.Join(out, " ")
	}
	var out []string
	for _, s := range splitSentences(instruction) {
		for _, clause := range splitClauses(s) {
			if u := speakClause(clause, agentName); u != "" {
				out = append(out, u)
			}
		}
	}
	return strings.Join(out, " ")
}

var clauseSplit = regexp.MustCompile(`(?i),?\s+(?:and|then)\s+(?:(?:then|also)\s+)?(ask|tell|say|explain|thank|offer|confirm|let|mention|invite|remind)\b`)

// splitClauses splits "Say hello and ask how you can help" before each new directive.
func splitClauses(s string) []string {
	idx := clauseSplit.FindAllStringSubmatchIndex(s, -1)
	if len(idx) == 0 {
		return []string{s}
	}
	var out []string
	prev := 0
	for _, m := range idx {
		out = append(out, s[prev:m[0]])
		prev = m[2]
	}
	return append(out, s[prev:])
}

var (
	reSay       = regexp.MustCompile(`(?i)^(?:say|reply|respond|answer)\s+(?:that\s+)?(.+)$`)
	reAskIf     = regexp.MustCompile(`(?i)^ask\s+(?:them\s+|the\s+(?:customer|caller|contact)\s+)?(?:if|whether)\s+(.+)$`)
	reAskWh     = regexp.MustCompile(`(?i)^ask\s+(?:them\s+|the\s+(?:customer|caller|contact)\s+)?(how|what|when|where|why|which|who)\s+(.+)$`)
	reAskFor    = regexp.MustCompile(`(?i)^ask\s+(?:them\s+|the\s+(?:customer|caller|contact)\s+)?for\s+(.+)$`)
	reAskTo     = regexp.MustCompile(`(?i)^ask\s+(?:them|the\s+(?:customer|caller|contact))\s+to\s+(.+)$`)
	reAskAbout  = regexp.MustCompile(`(?i)^ask\s+(?:them\s+|the\s+(?:customer|caller|contact)\s+)?about\s+(.+)$`)
	reAsk       = regexp.MustCompile(`(?i)^ask\s+(?:them\s+|the\s+(?:customer|caller|contact)\s+)?(.+)$`)
	reTell      = regexp.MustCompile(`(?i)^(?:tell|inform|explain\s+to|remind)\s+(?:them|the\s+(?:customer|caller|contact))\s+(?:that\s+|about\s+)?(.+)$`)
	reExplain   = regexp.MustCompile(`(?i)^(?:explain|mention|state|let\s+them\s+know)\s+(?:that\s+)?(.+)$`)
	reThank     = regexp.MustCompile(`(?i)^thank\s+(?:them|the\s+(?:customer|caller|contact))\s*(.*)$`)
	reIntroduce = regexp.MustCompile(`(?i)^introduce\s+yourself\b.*$`)
	reGreet     = regexp.MustCompile(`(?i)^(?:greet|welcome)\s+(?:them|the\s+(?:customer|caller|contact))\b.*$`)
	reVerb      = regexp.MustCompile(`(?i)^(offer|confirm|invite|schedule|book|check|verify|collect|share|describe|present|propose|apologi[sz]e|remind|suggest|recommend)\b`)
)

func speakClause(c, agentName string) string {
	c = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(c), ".!?;,"))
	if c == "" {
		return ""
	}
	if agentName == "" {
		agentName = "your assistant"
	}
	switch {
	case reIntroduce.MatchString(c):
		return fmt.Sprintf("Hi, this is %s.", agentName)
	case reGreet.MatchString(c):
		return fmt.Sprintf("Hello, this is %s.", agentName)
	}
	if m := reSay.FindStringSubmatch(c); m != nil {
		return sentence(swap(m[1]))
	}
	if m := reAskIf.FindStringSubmatch(c); m != nil {
		return yesNoQuestion(swap(m[1]))
	}
	if m := reAskWh.FindStringSubmatch(c); m != nil {
		return whQuestion(strings.ToLower(m[1]), swap(m[2]))
	}
	if m := reAskFor.FindStringSubmatch(c); m != nil {
		return "Could you give me " + swap(m[1]) + "?"
	}
	if m := reAskTo.FindStringSubmatch(c); m != nil {
		return "Could you please " + swap(m[1]) + "?"
	}
	if m := reAskAbout.FindStringSubmatch(c); m != nil {
		return "Could you tell me about " + swap(m[1]) + "?"
	}
	if m := reTell.FindStringSubmatch(c); m != nil {
		return sentence(swap(m[1]))
	}
	if m := reExplain.FindStringSubmatch(c); m != nil {
		return sentence(swap(m[1]))
	}
	if m := reThank.FindStringSubmatch(c); m != nil {
		return sentence("thank you " + swap(m[1]))
	}
	if m := reAsk.FindStringSubmatch(c); m != nil {
		return "May I ask: " + swap(m[1]) + "?"
	}
	if reVerb.MatchString(c) {
		return sentence("I'd like to " + lowerFirst(swap(c)))
	}
	return sentence(c)
}

// swap turns the instruction's point of view into the agent's: you → I, they → you.
func swap(s string) string {
	ws := strings.Fields(s)
	for i, w := range ws {
		core := strings.TrimRight(w, ".,!?;:")
		tail := w[len(core):]
		r, ok := pronouns[strings.ToLower(core)]
		if !ok {
			continue
		}
		ws[i] = r + tail
	}
	out := strings.Join(ws, " ")
	out = strings.ReplaceAll(out, "the customer's", "your")
	out = strings.ReplaceAll(out, "the customer", "you")
	return out
}

var pronouns = map[string]string{
	"you": "I", "your": "my", "yours": "mine", "yourself": "myself", "you're": "I'm", "you've": "I've", "you'll": "I'll",
	"they": "you", "them": "you", "their": "your", "theirs": "yours", "themselves": "yourself",
	"they're": "you're", "they've": "you've", "they'll": "you'll", "he": "you", "she": "you", "his": "your", "her": "your",
	"him": "you",
}

var (
	reYouAux  = regexp.MustCompile(`(?i)^(you|I)\s+(are|am|can|could|will|would|should|have\s+been|were|was)\s+(.+)$`)
	reYouVerb = regexp.MustCompile(`(?i)^(you|I)\s+(.+)$`)
	reSubjAux = regexp.MustCompile(`(?i)^(I|you|we|it|this|that|they)\s+(can|could|will|would|should|may|might|am|are|is)\s+(.+)$`)
)

// yesNoQuestion makes "you want to renew" into "Do you want to renew?".
func yesNoQuestion(s string) string {
	if m := reYouAux.FindStringSubmatch(s); m != nil {
		aux := strings.Fields(m[2])
		rest := strings.Join(aux[1:], " ")
		if rest != "" {
			rest += " "
		}
		return capitalFirst(aux[0]) + " " + m[1] + " " + rest + m[3] + "?"
	}
	if m := reYouVerb.FindStringSubmatch(s); m != nil {
		verb := m[2]
		if f := strings.Fields(verb); len(f) > 0 && (f[0] == "have" || f[0] == "need" || f[0] == "want" || !strings.HasSuffix(f[0], "s")) {
			return "Do " + m[1] + " " + verb + "?"
		}
	}
	return "Could you tell me whether " + s + "?"
}

// whQuestion makes "how", "I can help" into "How can I help?".
func whQuestion(wh, s string) string {
	if m := reSubjAux.FindStringSubmatch(s); m != nil {
		return capitalFirst(wh) + " " + m[2] + " " + m[1] + " " + m[3] + "?"
	}
	if m := reYouVerb.FindStringSubmatch(s); m != nil && m[1] == "you" {
		return capitalFirst(wh) + " do you " + m[2] + "?"
	}
	return capitalFirst(wh) + " " + s + "?"
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

// firstSentences answers at most n sentences and about max characters of text.
func firstSentences(text string, n, max int) string {
	ss := splitSentences(strings.Join(strings.Fields(text), " "))
	if len(ss) > n {
		ss = ss[:n]
	}
	out := strings.TrimSpace(strings.Join(ss, ""))
	if len(out) > max {
		cut := strings.LastIndex(out[:max], " ")
		if cut < max/2 {
			cut = max
		}
		out = strings.TrimRight(out[:cut], ",;: ") + "…"
	}
	return sentence(out)
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
