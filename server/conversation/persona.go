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
	detailRating
	detailMessage
)

var (
	personaQuote  = regexp.MustCompile(`["“]([^"”]{2,})["”]`)
	reEmail       = regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+`)
	rePhone       = regexp.MustCompile(`\+?\d[\d ().-]{6,}\d`)
	reDay         = regexp.MustCompile(`(?i)\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|next week)\b`)
	reTime        = regexp.MustCompile(`(?i)\b(\d{1,2}(:\d{2})?\s*(am|pm|a\.m\.|p\.m\.)|noon|in the morning|in the afternoon|in the evening)`)
	reOrder       = regexp.MustCompile(`(?i)\border\s*(?:number|no\.?|#)?\s*#?\s*([A-Z0-9][A-Z0-9-]{2,})\b`)
	reRating      = regexp.MustCompile(`(?i)\b(?:rates?|gives?|scores?)\s+(?:it\s+|us\s+)?(?:an?\s+)?(\d{1,2})\b`)
	reName        = regexp.MustCompile(`\b(?:[Nn]amed|[Nn]ame is|[Cc]alled)\s+([A-Z][a-z]+(?:\s[A-Z][a-z]+)?)`)
	reWantsToKnow = regexp.MustCompile(`(?i)\b(?:wants? to know|would like to know|needs? to know|wants? to ask|asks?|is asking|wonders?|is curious)\s+(.+)$`)
	reClauseSplit = regexp.MustCompile(`(?i)([.;]\s+)|((?:,?\s+(?:and|but|then)\s+(?:also\s+)?|,\s+)(?:(?:she|he|they)\s+)?)(?:wants|asks|would|is|needs|wonders|has|says)\b`)
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
	// Details and traits are read from what the persona says of the person, not from the
	// questions they have ("wants to know when you are open on Saturday" is no free day).
	var facts []string
	for _, clause := range splitPersona(rest) {
		if q := questionOf(clause); q != "" {
			p.questions = append(p.questions, q)
		} else {
			facts = append(facts, clause)
		}
	}
	rest = strings.Join(facts, ". ")
	if m := rePhone.FindString(rest); m != "" {
		p.details[detailPhone] = strings.TrimSpace(m)
	}
	if m := reName.FindStringSubmatch(rest); m != nil {
		p.details[detailName] = m[1]
	}
	if m := reRating.FindStringSubmatch(rest); m != nil {
		p.details[detailRating] = m[1]
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
func personaSwap(s string) string { return swapWords(s, personaPronouns) }

// swapWords replaces each word of s that words names (whatever its case), keeping the
// punctuation that follows it.
func swapWords(s string, words map[string]string) string {
	ws := strings.Fields(s)
	for i, w := range ws {
		core := strings.TrimRight(w, ".,!?;:")
		if r, ok := words[strings.ToLower(core)]; ok {
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
	{detailName, regexp.MustCompile(`(?i)(your name|who am I speaking|who's calling|who is calling)`)},
	{detailEmail, regexp.MustCompile(`(?i)e-?mail`)},
	{detailOrder, regexp.MustCompile(`(?i)order (number|#|id)`)},
	{detailPhone, regexp.MustCompile(`(?i)(phone number|your number|number to reach|best number|call you back on|callback number)`)},
	{detailDay, regexp.MustCompile(`(?i)(what day|which day|what time|which time|when would|when works|when is a good|when are you|good time|day and time|day works|time works|time suits|day suits)`)},
	{detailRating, regexp.MustCompile(`(?i)(\brate\b|rating|scale of|from (1|one) to (5|five|10|ten)|out of (5|five|10|ten))`)},
	// A message asked for ("tell me … a short message"), not offered ("would you like to
	// leave a message?": an invitation).
	{detailMessage, regexp.MustCompile(`(?i)((tell|give|leave) me\b[^?]*\ba (short |brief )?message|what (it|your call) is about|the reason for your call)`)},
}

var reRequest = regexp.MustCompile(`(?i)\b(tell me|give me|leave|spell|could I have|may I have|can I have|let me know|share)\b`)

// askedDetails are the details the agent's line asks for, in the order of the list above: a
// question, or a request ("Please tell me your name, your number and a short message").
func askedDetails(line string) []detail {
	if !isQuestion(line) && !reRequest.MatchString(line) {
		return nil
	}
	var out []detail
	for _, a := range detailAsked {
		if a.re.MatchString(line) {
			out = append(out, a.d)
		}
	}
	return out
}

// answerDetails answers the details asked with what the persona holds: the one asked alone in a
// sentence of its own, several in one. ok is false when the persona holds none of them.
func answerDetails(asked []detail, p persona, t trait, h uint64) (string, bool) {
	var parts []string
	for _, d := range asked {
		v := p.details[d]
		switch d {
		case detailRating:
			if v == "" {
				v = map[bool]string{true: "4", false: "2"}[t != traitNegative]
			}
			if len(asked) == 1 {
				if t == traitNegative {
					return "Honestly, a " + v + ". It wasn't great.", true
				}
				return fmt.Sprintf(pick([]string{"I'd give it a %s. It was good.", "A %s, I'd say. I was happy with it."}, h), v), true
			}
			parts = append(parts, "I'd rate it a "+v)
		case detailMessage:
			reason := "please call me back when you can"
			if len(p.questions) > 0 {
				reason = "I'd like to know " + strings.TrimSuffix(lowerFirst(strings.TrimPrefix(p.questions[0], "Could you tell me ")), "?")
			}
			parts = append(parts, reason)
		default:
			if v == "" {
				continue
			}
			if len(asked) == 1 {
				return detailAnswer(d, v, h), true
			}
			parts = append(parts, map[detail]string{detailName: "this is ", detailPhone: "my number is ", detailEmail: "my e-mail is ",
				detailDay: "", detailOrder: "my order number is "}[d]+v)
		}
	}
	if len(parts) == 0 {
		return "", false
	}
	if len(parts) > 1 {
		parts[len(parts)-1] = "and " + parts[len(parts)-1]
	}
	return capitalFirst(strings.Join(parts, ", ")) + ".", true
}

func detailAnswer(d detail, v string, h uint64) string {
	switch d {
	case detailEmail:
		return fmt.Sprintf(pick([]string{"Sure, it's %s.", "It's %s.", "You can use %s."}, h), v)
	case detailDay:
		return fmt.Sprintf(pick([]string{"%s works for me.", "%s would be best.", "%s would suit me."}, h), v)
	case detailOrder:
		return "It's order " + v + "."
	case detailName:
		return "It's " + v + "."
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
		p := fmt.Sprintf("E-mail %s; free on %s at %s.", personaEmails[k%len(personaEmails)],
			personaDays[k%len(personaDays)], personaTimes[k%len(personaTimes)])
		if len(quotes) > 0 {
			p = "Says " + strings.Join(quotes, " then ") + ". " + p
		}
		out = append(out, p)
	}
	return out
}

// JobPersona is the persona of the contact of a job at phone: drawn from Personas by the
// number, so the same contact always gets the same one, and told its own number.
func JobPersona(personas []string, phone string) string {
	if len(personas) == 0 {
		return ""
	}
	f := fnv.New32a()
	_, _ = f.Write([]byte(phone))
	return personas[f.Sum32()%uint32(len(personas))] + " Phone " + phone + "."
}

var (
	// The e-mail addresses of a job's simulated contacts name nobody: the contact's own name is
	// the one the agent knows.
	personaEmails = []string{"sunny.days@example.com", "m.rivera@example.com", "blue.kettle@example.com", "jk.home@example.com", "north.star@example.com"}
	personaDays   = []string{"Tuesday", "Thursday", "Monday", "Friday", "Wednesday"}
	personaTimes  = []string{"10 am", "2 pm", "9:30 am", "4 pm"}
)

var (
	reBranchSubject = regexp.MustCompile(`(?i)^(?:if\s+|when\s+)?(?:(?:the\s+)?(?:customer|caller|contact|person|user)\s+|they\s+|he\s+|she\s+)?(?:(?:says?|answers?|replies|responds?|tells us)\s+(?:that\s+)?)?`)
	reLead          = regexp.MustCompile(`(?i)^(yes|no)\b[,.!]?\s*`)
	reNegative      = regexp.MustCompile(`(?i)\b(no|not|never|nothing|declines?|refuses?|cannot|can't|doesn't|don't|isn't|won't|cancel\w*)\b`)
	rePositive      = regexp.MustCompile(`(?i)\b(yes|confirms?|agrees?|accepts?|interested|wants?|likes?|happy|ok(ay)?)\b`)
	reAsks          = regexp.MustCompile(`(?i)^asks\s+(?:(a|another)\s+question|for\s+(.+)|about\s+(.+))$`)
)

// firstPerson turns the verb a description starts with into the person's own ("wants" → "I
// want", "is" → "I'm", "interested" → "I'm interested").
func firstPerson(body string) string {
	first, rest, _ := strings.Cut(body, " ")
	f := strings.ToLower(first)
	switch {
	case strings.HasSuffix(f, "s") && !descVerbs[f]:
		return body // a noun ("Deliveries"), not what the person does
	case f == "is":
		return "I'm " + rest
	case f == "has":
		return "I have " + rest
	case f == "does":
		return "I do " + rest
	case f == "cannot" || f == "can't" || f == "can" || f == "will" || f == "would":
		return "I " + lowerFirst(body)
	case f == "interested" || f == "busy" || f == "happy" || f == "not" || f == "unhappy" || f == "satisfied":
		return "I'm " + lowerFirst(body)
	case strings.HasSuffix(f, "ies"):
		return "I " + strings.TrimSuffix(f, "ies") + "y " + rest
	case strings.HasSuffix(f, "s") && !strings.HasSuffix(f, "ss") && f != "this" && f != "its" && f != "yes":
		return strings.TrimSpace("I " + strings.TrimSuffix(f, "s") + " " + rest)
	}
	return body
}

// lineOf is what a person says to take a branch described as desc ("Customer confirms the
// delivery" → "Yes, I confirm the delivery."): the description's first alternative in the
// person's own words, with a yes or no in front when it is one. A quoted line is said as is.
func lineOf(desc string) string {
	desc = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(desc), "."))
	if m := personaQuote.FindStringSubmatch(desc); m != nil {
		return m[1]
	}
	lead := ""
	if m := reLead.FindStringSubmatch(desc); m != nil {
		lead, desc = capitalFirst(strings.ToLower(m[1])), desc[len(m[0]):]
	}
	if i := strings.Index(strings.ToLower(desc), " or "); i > 0 {
		desc = desc[:i] // the first of the alternatives
	}
	desc = strings.TrimSpace(strings.TrimRight(desc, ", "))
	// A list of short phrases ("nothing, wrong number, no thanks, goodbye"): its first and last.
	var items []string
	for _, it := range strings.Split(desc, ",") {
		if it = strings.TrimSpace(it); it != "" && !reLead.MatchString(it+" ") {
			items = append(items, it)
		}
	}
	if len(items) >= 3 {
		desc = items[0] + ". " + capitalFirst(items[len(items)-1])
	}
	body := strings.TrimSpace(desc[len(reBranchSubject.FindString(desc)):])
	if m := reAsks.FindStringSubmatch(body); m != nil {
		switch {
		case strings.EqualFold(m[1], "a"):
			body = "I have a question: what are your opening hours?"
		case m[1] != "":
			body = "I have another question: do you deliver on weekends?"
		case m[2] != "":
			body = "Could I speak to " + descSwap(m[2]) + "?"
		default:
			body = "I have a question about " + descSwap(m[3])
		}
	} else if body != "" {
		body = descSwap(firstPerson(body))
	}
	if body == "" {
		if lead == "" {
			return ""
		}
		return lead + "."
	}
	if lead == "" {
		switch {
		case reNegative.MatchString(body):
			lead = "No"
		case rePositive.MatchString(body):
			lead = "Yes"
		}
	}
	body = strings.Replace(body, "it is ", "it's ", 1)
	if lead != "" {
		body = lead + ", " + lowerFirst(body)
	} else {
		body = capitalFirst(body)
	}
	if !strings.HasSuffix(body, "?") {
		body += "."
	}
	return body
}

// descSwap reads a branch description's pronouns as the person's: a description speaks of the
// customer as "they" or to them as "you"; either is "I" in their mouth.
func descSwap(s string) string { return swapWords(s, descPronouns) }

// descVerbs are the verbs a branch description starts with when it leaves out "the customer"
// ("Wants to reschedule"); another word ending in s is a noun ("Deliveries").
var descVerbs = map[string]bool{"is": true, "has": true, "does": true, "wants": true, "needs": true, "asks": true, "says": true,
	"confirms": true, "agrees": true, "accepts": true, "declines": true, "refuses": true, "prefers": true, "likes": true,
	"mentions": true, "reports": true, "requests": true, "gives": true, "answers": true, "replies": true, "tells": true,
	"explains": true, "complains": true, "thinks": true, "knows": true, "plans": true, "hopes": true, "expects": true,
	"books": true, "cancels": true, "buys": true, "orders": true, "pays": true, "owns": true, "uses": true, "works": true,
	"lives": true, "denies": true, "tries": true, "applies": true, "qualifies": true, "hangs": true, "speaks": true}

var descPronouns = map[string]string{
	"you": "I", "your": "my", "yours": "mine", "yourself": "myself", "you're": "I'm", "you'll": "I'll",
	"they": "I", "them": "me", "their": "my", "they're": "I'm", "themselves": "myself",
}

func capitalFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
