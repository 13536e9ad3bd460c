package conversation

import (
	"fmt"
	"hash/fnv"
	"regexp"
	"strings"

	"github.com/bettyhq/betty/server/workflow"
)

// persona is what the simulated customer reads in a persona's words.
type persona struct {
	// quotes are lines to say as written; questions are what the person wants to ask, as they
	// would ask it.
	quotes, questions []string
	details           map[detail]string
	// trait is the first trait the words state; stated is false when they state none.
	trait  trait
	stated bool
}

type detail int

const (
	detailEmail detail = iota + 1
	detailPhone
	detailDay
	detailOrder
	detailName
)

var (
	personaQuote  = regexp.MustCompile(`["“]([^"”]{2,})["”]`)
	reEmail       = regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+`)
	rePhone       = regexp.MustCompile(`\+?\d[\d ().-]{6,}\d`)
	reDay         = regexp.MustCompile(`(?i)\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|next week)\b`)
	reTime        = regexp.MustCompile(`(?i)\b(\d{1,2}(:\d{2})?\s*(am|pm|a\.m\.|p\.m\.)|noon|in the morning|in the afternoon|in the evening)`)
	reOrder       = regexp.MustCompile(`(?i)\border\s*(?:number|no\.?|#)?\s*#?\s*([A-Z0-9][A-Z0-9-]{2,})\b`)
	reName        = regexp.MustCompile(`\b(?:[Nn]amed|[Nn]ame is|[Cc]alled)\s+([A-Z][a-z]+(?:\s[A-Z][a-z]+)?)`)
	reWantsToKnow = regexp.MustCompile(`(?i)\b(?:wants? to know|would like to know|needs? to know|wants? to ask|asks?|is asking|wonders?|is curious)\s+(.+)$`)
	reClauseSplit = regexp.MustCompile(`(?i)([.;]\s+)|(,?\s+(?:and|but|then)\s+(?:also\s+)?(?:(?:she|he|they)\s+)?)(?:wants|asks|would|is|needs|wonders|has|says)\b`)
)

// readPersona reads a persona's words (see Customer).
func readPersona(text string) persona {
	p := persona{details: map[detail]string{}}
	for _, q := range personaQuote.FindAllStringSubmatch(text, -1) {
		if strings.HasSuffix(strings.TrimSpace(q[1]), "?") {
			p.questions = append(p.questions, strings.TrimSpace(q[1]))
		} else {
			p.quotes = append(p.quotes, strings.TrimSpace(q[1]))
		}
	}
	rest := personaQuote.ReplaceAllString(text, " ")
	if m := reEmail.FindString(rest); m != "" {
		p.details[detailEmail] = m
		rest = strings.Replace(rest, m, " ", 1)
	}
	if m := reOrder.FindStringSubmatch(rest); m != nil {
		p.details[detailOrder] = m[1]
		rest = strings.Replace(rest, m[0], " ", 1)
	}
	if m := rePhone.FindString(rest); m != "" {
		p.details[detailPhone] = strings.TrimSpace(m)
	}
	if m := reName.FindStringSubmatch(rest); m != nil {
		p.details[detailName] = m[1]
	}
	day, at := reDay.FindString(rest), reTime.FindString(rest)
	switch {
	case day != "" && at != "":
		p.details[detailDay] = capitalFirst(strings.ToLower(day)) + " " + timePhrase(at)
	case day != "":
		p.details[detailDay] = capitalFirst(strings.ToLower(day))
	case at != "":
		p.details[detailDay] = capitalFirst(strings.TrimPrefix(timePhrase(at), "at "))
	}
	for _, clause := range splitPersona(rest) {
		if q := questionOf(clause); q != "" {
			p.questions = append(p.questions, q)
		}
	}
	for _, tw := range traitWords {
		if tw.re.MatchString(rest) {
			p.trait, p.stated = tw.t, true
			break
		}
	}
	return p
}

// splitPersona cuts a persona into clauses: at sentence ends, and before "and wants …", "and
// asks …" (the verb stays with its clause).
func splitPersona(s string) []string {
	var out []string
	prev := 0
	for _, m := range reClauseSplit.FindAllStringSubmatchIndex(s, -1) {
		cut, next := m[2], m[3] // a sentence's end
		if cut < 0 {
			cut, next = m[4], m[5] // "and" before a verb
		}
		out = append(out, s[prev:cut])
		prev = next
	}
	return append(out, s[prev:])
}

func timePhrase(t string) string {
	t = strings.ToLower(strings.TrimSpace(t))
	if strings.HasPrefix(t, "in the ") || t == "noon" {
		return t
	}
	return "at " + t
}

var reAux = regexp.MustCompile(`(?i)^((?:\w+\s+){0,3}?)(is|are|can|will|could|would|should|does|do|has|have)\s+(.+)$`)

// questionOf is the question a persona's clause says the person has ("wants to know the opening
// hours" → "Could you tell me the opening hours?"), "" when it states none.
func questionOf(clause string) string {
	m := reWantsToKnow.FindStringSubmatch(strings.TrimSpace(clause))
	if m == nil {
		return ""
	}
	if traitWords[0].re.MatchString(clause) {
		return "" // asks not to be called: a wish, not a question
	}
	x := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(m[1]), ".!?,;:"))
	x = strings.TrimSuffix(strings.TrimSuffix(x, " too"), " as well")
	first, rest, _ := strings.Cut(x, " ")
	switch strings.ToLower(first) {
	case "":
		return ""
	case "about":
		return "Could you tell me about " + personaSwap(rest) + "?"
	case "whether", "if":
		return yesNo(personaSwap(rest))
	case "for":
		return "Could I get " + personaSwap(rest) + "?"
	case "to":
		if strings.HasPrefix(strings.ToLower(rest), "be ") || rest == "" {
			return ""
		}
		return "Can I " + personaSwap(rest) + "?"
	case "how", "what", "when", "where", "which", "who", "why":
		return "Could you tell me " + personaSwap(x) + "?"
	case "a", "an", "the", "your", "their", "his", "her", "my":
		return "Could you tell me " + personaSwap(x) + "?"
	}
	return ""
}

// yesNo makes "you deliver on Sundays" into "Do you deliver on Sundays?".
func yesNo(s string) string {
	if m := reAux.FindStringSubmatch(s); m != nil && m[1] != "" {
		return capitalFirst(strings.ToLower(m[2])) + " " + strings.TrimSpace(m[1]) + " " + m[3] + "?"
	}
	if f := strings.Fields(s); len(f) > 1 && (f[0] == "you" || f[0] == "I" || f[0] == "we") {
		return "Do " + s + "?"
	}
	return "Could you tell me whether " + s + "?"
}

// personaSwap turns a persona's point of view (about the person) into the person's own: she, he
// → I, her, his → my; "they" in a persona is the business called → you.
func personaSwap(s string) string {
	ws := strings.Fields(s)
	for i, w := range ws {
		core := strings.TrimRight(w, ".,!?;:")
		if r, ok := personaPronouns[strings.ToLower(core)]; ok {
			ws[i] = r + w[len(core):]
		}
	}
	return strings.Join(ws, " ")
}

var personaPronouns = map[string]string{
	"she": "I", "he": "I", "her": "my", "his": "my", "herself": "myself", "himself": "myself",
	"they": "you", "them": "you", "their": "your", "they're": "you're",
}

var detailAsked = []struct {
	d  detail
	re *regexp.Regexp
}{
	{detailEmail, regexp.MustCompile(`(?i)e-?mail`)},
	{detailOrder, regexp.MustCompile(`(?i)order (number|#|id)`)},
	{detailPhone, regexp.MustCompile(`(?i)(phone number|number to reach|best number|call you back on|callback number)`)},
	{detailName, regexp.MustCompile(`(?i)(your name|who am I speaking|who's calling|who is calling)`)},
	{detailDay, regexp.MustCompile(`(?i)(what day|which day|what time|which time|when would|when works|when is a good|when are you|good time|day and time|day works|time works|time suits|day suits)`)},
}

// askedDetail says which detail the agent's line asks for.
func askedDetail(line string) (detail, bool) {
	if !isQuestion(line) {
		return 0, false
	}
	for _, a := range detailAsked {
		if a.re.MatchString(line) {
			return a.d, true
		}
	}
	return 0, false
}

func detailAnswer(d detail, v string, h uint64) string {
	switch d {
	case detailEmail:
		return fmt.Sprintf(pick([]string{"Sure, it's %s.", "It's %s.", "You can use %s."}, h), v)
	case detailDay:
		return fmt.Sprintf(pick([]string{"%s works for me.", "%s would be best.", "How about %s?"}, h), v)
	case detailOrder:
		return "It's order " + v + "."
	}
	return "It's " + v + "."
}

// Personas are the personas a job's contacts are drawn from on the simulator (JobPersona): one
// per branch of the graph's widest choice, each answering every choice of the flow with one of
// its branches, so that over a job's contacts every branch is taken; each has details (an
// e-mail address, a day and time) to give when the agent asks.
func Personas(g workflow.Graph) []string {
	ig := index(g)
	var choices [][]string // each choice point's branch lines, as drawn
	seen := map[string]bool{}
	for _, n := range g.Nodes {
		var lines []string
		for _, id := range ig.next[n.ID] {
			b := ig.nodes[id]
			if b.Type != workflow.CustomerResponse {
				continue
			}
			if l := lineOf(firstNonEmpty(b.Data.String(workflow.FieldDescription), b.Data.String(workflow.FieldNodeLabel))); l != "" {
				lines = append(lines, l)
			}
		}
		if len(lines) > 1 && !seen[strings.Join(lines, "\n")] {
			seen[strings.Join(lines, "\n")] = true
			choices = append(choices, lines)
		}
	}
	width := 1
	for _, c := range choices {
		width = max(width, len(c))
	}
	out := make([]string, 0, width)
	for k := range width {
		var quotes []string
		for _, c := range choices {
			quotes = append(quotes, fmt.Sprintf("%q", c[k%len(c)]))
		}
		name := personaNames[k%len(personaNames)]
		p := fmt.Sprintf("%s; e-mail %s@example.com; free on %s at %s.", name, strings.ToLower(name),
			personaDays[k%len(personaDays)], personaTimes[k%len(personaTimes)])
		if len(quotes) > 0 {
			p = "Says " + strings.Join(quotes, " then ") + ". " + p
		}
		out = append(out, p)
	}
	return out
}

// JobPersona is the persona of one contact of a job (key names the contact, such as its phone
// number): drawn from Personas by the key, so the same contact always gets the same one.
func JobPersona(personas []string, key string) string {
	if len(personas) == 0 {
		return ""
	}
	f := fnv.New32a()
	_, _ = f.Write([]byte(key))
	return personas[f.Sum32()%uint32(len(personas))]
}

var (
	personaNames = []string{"Ann", "Ben", "Carla", "Dev", "Elena", "Femi"}
	personaDays  = []string{"Tuesday", "Thursday", "Monday", "Friday", "Wednesday"}
	personaTimes = []string{"10 am", "2 pm", "9:30 am", "4 pm"}
)

var (
	reBranchSubject = regexp.MustCompile(`(?i)^(?:if\s+|when\s+)?(?:the\s+)?(?:customer|caller|contact|person|user|they|he|she)\s+(?:says?|answers?|replies|responds?|tells us)?\s*(?:that\s+)?`)
	reNegative      = regexp.MustCompile(`(?i)\b(no|not|never|declines?|refuses?|doesn't|don't|isn't|won't|can't|cancel\w*)\b`)
	rePositive      = regexp.MustCompile(`(?i)\b(yes|confirms?|agrees?|accepts?|interested|wants?|likes?|happy|ok(ay)?)\b`)
)

// lineOf is what a person says to take a branch described as desc ("Customer confirms the
// delivery" → "Yes, I confirm the delivery."): the description in the first person, with a
// yes or no in front when it is one.
func lineOf(desc string) string {
	desc = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(desc), "."))
	if m := personaQuote.FindStringSubmatch(desc); m != nil {
		return m[1]
	}
	if desc == "" {
		return ""
	}
	had := reBranchSubject.FindString(desc)
	body := strings.TrimSpace(desc[len(had):])
	if body == "" {
		return ""
	}
	lower := strings.ToLower(body)
	switch lower {
	case "yes", "no", "maybe":
		return capitalFirst(lower) + "."
	}
	if had != "" {
		first, rest, _ := strings.Cut(body, " ")
		switch f := strings.ToLower(first); {
		case f == "is":
			body = "I'm " + rest
		case f == "has":
			body = "I have " + rest
		case f == "does":
			body = "I do " + rest
		case strings.HasSuffix(f, "ies"):
			body = "I " + strings.TrimSuffix(f, "ies") + "y " + rest
		case strings.HasSuffix(f, "s") && !strings.HasSuffix(f, "ss"):
			body = "I " + strings.TrimSuffix(f, "s") + " " + rest
		}
	}
	body = strings.TrimSpace(personaSwap(body))
	switch {
	case reNegative.MatchString(body):
		body = "No, " + lowerFirst(body)
	case rePositive.MatchString(body):
		body = "Yes, " + lowerFirst(body)
	default:
		body = capitalFirst(body)
	}
	return body + "."
}

func capitalFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
