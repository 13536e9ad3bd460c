package conversation

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/bettyhq/betty/server/llm"
	"github.com/bettyhq/betty/server/workflow"
)

// FieldValue is a post-call field as read from a call: its value as the customer gave it
// (normalised by its type: "yes"/"no", an e-mail address, a phone number's digits, the
// option as the workflow spells it) and Turn, the index in the call's turns of the customer
// turn it was read from.
type FieldValue struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	Turn  int    `json:"turn"`
}

// Analysis is what a finished call leaves behind: a summary of what happened, the outcome
// (see OutcomeOf) and the workflow's post-call fields that the call answered. A field the
// customer did not answer is left out: nothing is guessed.
type Analysis struct {
	Summary string       `json:"summary"`
	Outcome string       `json:"outcome"`
	Fields  []FieldValue `json:"fields"`
	// By says who read the fields: "patterns" (the local extraction) or the language model's name.
	By string `json:"by"`
}

// ExtractFields reads the workflow's fields from a call's turns without a language model.
// For each field it looks for the agent's turns that ask it (those sharing the most terms
// with the field's description and name) and reads the customer's answer in the turns that
// follow, up to the agent's next question, by the field's type. An e-mail address, a phone
// number or a day said anywhere by the customer fills its field when no question was found
// or answered. Fields without an answer are left out.
func ExtractFields(fields []workflow.PostCallField, turns []Turn) []FieldValue {
	out := []FieldValue{}
	for _, f := range fields {
		if v, ok := extractField(f, turns); ok {
			out = append(out, v)
		}
	}
	return out
}

func extractField(f workflow.PostCallField, turns []Turn) (FieldValue, bool) {
	for _, q := range askingTurns(f, turns) {
		for i := q + 1; i < len(turns) && turns[i].Speaker == "customer"; i++ {
			if v, ok := ReadValue(f, turns[i].Text); ok {
				return FieldValue{Name: f.Name, Value: v, Turn: i}, true
			}
		}
	}
	switch f.Type {
	case workflow.ValueEmail, workflow.ValuePhone, workflow.ValueDate:
		for i := len(turns) - 1; i >= 0; i-- { // the last one said: people correct themselves
			if turns[i].Speaker != "customer" {
				continue
			}
			if v, ok := ReadValue(f, turns[i].Text); ok && (f.Type != workflow.ValuePhone || fullNumber(v)) {
				return FieldValue{Name: f.Name, Value: v, Turn: i}, true
			}
		}
	}
	return FieldValue{}, false
}

// ByPatterns is Analysis.By for fields read by ExtractFields.
const ByPatterns = "patterns"

// extract reads the fields with the language model when it can answer a JSON schema, else
// (or when it fails) with ExtractFields.
func (e *Engine) extract(ctx context.Context, fields []workflow.PostCallField, turns []Turn) ([]FieldValue, string, error) {
	if len(fields) == 0 {
		return []FieldValue{}, ByPatterns, nil
	}
	if x, ok := e.d.Model.(llm.Extractor); ok {
		out, err := modelFields(ctx, x, fields, turns)
		if err == nil {
			return out, e.d.Model.Name(), nil
		}
		if ctx.Err() != nil {
			return nil, "", ctx.Err()
		}
		e.d.Log.Warn("conversation: the language model could not read the post-call fields; they are read by patterns", "err", err)
	}
	return ExtractFields(fields, turns), ByPatterns, nil
}

// FieldsSchema is the JSON schema of the model's answer: for each field, its value (null when
// the customer did not give it; a choice among its options, yes-no "yes" or "no") and the
// number of the customer turn it came from.
func FieldsSchema(fields []workflow.PostCallField) map[string]any {
	props, names := map[string]any{}, make([]string, 0, len(fields))
	for _, f := range fields {
		value := map[string]any{"type": []string{"string", "null"}, "description": f.Description}
		switch f.Type {
		case workflow.ValueChoice:
			value["enum"] = append(append([]any{}, anySlice(f.Options)...), nil)
		case workflow.ValueYesNo:
			value["enum"] = []any{"yes", "no", nil}
		}
		props[f.Name] = map[string]any{"type": "object", "additionalProperties": false, "required": []string{"value", "turn"},
			"properties": map[string]any{"value": value, "turn": map[string]any{"type": []string{"integer", "null"}}}}
		names = append(names, f.Name)
	}
	return map[string]any{"type": "object", "additionalProperties": false, "required": names, "properties": props}
}

func anySlice(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// modelFields asks the model for the fields and keeps the answers that hold: a value from a
// turn the customer spoke, readable as the field's type.
func modelFields(ctx context.Context, x llm.Extractor, fields []workflow.PostCallField, turns []Turn) ([]FieldValue, error) {
	var call, want strings.Builder
	for i, t := range turns {
		fmt.Fprintf(&call, "[%d] %s: %s\n", i, speakerName(t.Speaker), oneLine(t.Text))
	}
	for _, f := range fields {
		fmt.Fprintf(&want, "- %s (%s): %s\n", f.Name, f.Type, oneLine(f.Description))
	}
	raw, err := x.Extract(ctx, []llm.Message{
		{Role: llm.System, Content: "You read phone call transcripts. Fill each field from what the customer said, with the number in brackets of the customer turn it came from. A field the customer did not answer is null: never guess. E-mail addresses are written as addresses, phone numbers as digits, yes-no fields as yes or no."},
		{Role: llm.User, Content: "Transcript:\n" + call.String() + "\nFields:\n" + want.String()},
	}, "post_call_fields", FieldsSchema(fields))
	if err != nil {
		return nil, err
	}
	var answer map[string]struct {
		Value *string `json:"value"`
		Turn  *int    `json:"turn"`
	}
	if err := json.Unmarshal(raw, &answer); err != nil {
		return nil, fmt.Errorf("conversation: the model's fields: %w", err)
	}
	out := []FieldValue{}
	for _, f := range fields {
		a, ok := answer[f.Name]
		if !ok || a.Value == nil || a.Turn == nil || *a.Turn < 0 || *a.Turn >= len(turns) || turns[*a.Turn].Speaker != "customer" {
			continue
		}
		v, ok := ReadValue(f, *a.Value)
		if !ok && (f.Type == workflow.ValueText || f.Type == workflow.ValueDate) {
			v, ok = oneLine(*a.Value), oneLine(*a.Value) != ""
		}
		if ok {
			out = append(out, FieldValue{Name: f.Name, Value: v, Turn: *a.Turn})
		}
	}
	return out, nil
}

// fullNumber says whether digits read without their question look like a whole phone number
// (10 digits or more, or an international "+"), not an order number or a code.
func fullNumber(v string) bool {
	return strings.HasPrefix(v, "+") || len(v) >= 10
}

// typeTerms are words an agent uses to ask for a value of a type, beside the field's own.
var typeTerms = map[workflow.ValueType][]string{
	workflow.ValueEmail: {"email", "mail", "address"},
	workflow.ValuePhone: {"phone", "number", "reach"},
	workflow.ValueDate:  {"day", "date", "when", "time", "suit"},
}

// askingTurns answers the indexes of the agent turns that ask for f, best first (most shared
// terms; the later on a tie, as a question asked again was not answered the first time).
func askingTurns(f workflow.PostCallField, turns []Turn) []int {
	want := map[string]bool{}
	for _, t := range llm.Terms(f.Description + " " + strings.ReplaceAll(f.Name, "_", " ")) {
		if t != "yes" && t != "no" {
			want[t] = true
		}
	}
	for _, w := range typeTerms[f.Type] {
		want[w] = true
	}
	type scored struct{ at, score int }
	var found []scored
	for i, t := range turns {
		if t.Speaker != "agent" {
			continue
		}
		seen, score := map[string]bool{}, 0
		for _, term := range llm.Terms(t.Text) {
			if want[term] && !seen[term] {
				seen[term] = true
				score++
			}
		}
		if score > 0 {
			found = append(found, scored{i, score})
		}
	}
	out := make([]int, 0, len(found))
	for len(found) > 0 {
		best := 0
		for j, s := range found {
			if s.score >= found[best].score {
				best = j
			}
		}
		out = append(out, found[best].at)
		found = append(found[:best], found[best+1:]...)
	}
	return out
}

// ReadValue reads a value of f's type from one customer turn; false when it holds none.
func ReadValue(f workflow.PostCallField, said string) (string, bool) {
	said = strings.TrimSpace(said)
	if said == "" {
		return "", false
	}
	var v string
	switch f.Type {
	case workflow.ValueEmail:
		v = readEmail(said)
	case workflow.ValuePhone:
		v = readPhone(said)
	case workflow.ValueDate:
		v = readDay(said)
	case workflow.ValueYesNo:
		v = readYesNo(said, f.Description)
	case workflow.ValueNumber:
		v = readNumber(said)
	case workflow.ValueChoice:
		v = readChoice(said, f.Options)
	default:
		v = readText(said)
	}
	return v, v != ""
}

var (
	writtenEmail = regexp.MustCompile(`(?i)[a-z0-9][a-z0-9._%+-]*@[a-z0-9-]+(\.[a-z0-9-]+)+`)
	// "ann dot lee at example dot com", "ann at example.com"
	spokenEmail = regexp.MustCompile(`(?i)\b([a-z0-9][a-z0-9_+-]*(?:(?:\s+dot\s+|\.)[a-z0-9_+-]+)*)\s+(?:at|@)\s+([a-z0-9-]+(?:(?:\s+dot\s+|\.)[a-z0-9-]+)+)\b`)
	spokenDot   = regexp.MustCompile(`(?i)\s+dot\s+`)
)

func readEmail(s string) string {
	if m := writtenEmail.FindString(s); m != "" {
		return strings.ToLower(strings.TrimRight(m, "."))
	}
	m := spokenEmail.FindStringSubmatch(s)
	if m == nil {
		return ""
	}
	local, domain := spokenDot.ReplaceAllString(m[1], "."), spokenDot.ReplaceAllString(m[2], ".")
	tld := domain[strings.LastIndex(domain, ".")+1:]
	if len(tld) < 2 || strings.ContainsAny(tld, "0123456789") {
		return ""
	}
	return strings.ToLower(local + "@" + domain)
}

var digitWords = map[string]string{"zero": "0", "oh": "0", "o": "0", "one": "1", "two": "2", "three": "3", "four": "4",
	"five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9"}

// readPhone reads a phone number of 7 to 15 digits, written ("+1 (415) 555-0100") or said
// digit by digit ("four one five, five five five…"); the answer is the digits, with the "+"
// when one was written.
func readPhone(s string) string {
	var digits strings.Builder
	plus, best, bestPlus := false, "", false
	flush := func() {
		if n := digits.Len(); n >= 7 && n <= 15 && n > len(best) {
			best, bestPlus = digits.String(), plus
		}
		digits.Reset()
		plus = false
	}
	for _, tok := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == ' ' || r == ',' || r == '\n' }) {
		tok = strings.Trim(tok, ".?!;:")
		if d, ok := digitWords[tok]; ok {
			digits.WriteString(d)
			continue
		}
		if tok == "plus" && digits.Len() == 0 {
			plus = true
			continue
		}
		if w := strings.Trim(tok, "+()-."); w != "" && strings.Trim(w, "0123456789()-.") == "" {
			if strings.HasPrefix(tok, "+") && digits.Len() == 0 {
				plus = true
			}
			for _, r := range w {
				if r >= '0' && r <= '9' {
					digits.WriteRune(r)
				}
			}
			continue
		}
		flush()
	}
	flush()
	if best == "" {
		return ""
	}
	if bestPlus {
		return "+" + best
	}
	return best
}

var (
	weekday   = `(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)`
	month     = `(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)`
	ordinal   = `(?:\d{1,2}(?:st|nd|rd|th)?|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|twentieth|thirtieth)`
	dayPhrase = regexp.MustCompile(`(?i)\b(?:(?:next|this|coming)\s+)?` + weekday + `(?:\s+(?:morning|afternoon|evening))?(?:,?\s+(?:the\s+)?` + ordinal + `(?:\s+of\s+` + month + `)?)?` +
		`|\b` + month + `\s+` + ordinal + `\b|\b(?:the\s+)?` + ordinal + `\s+of\s+` + month + `\b` +
		`|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b` +
		`|\b(?:the\s+day\s+after\s+)?tomorrow(?:\s+(?:morning|afternoon|evening))?\b|\btoday\b|\btonight\b|\bnext\s+week(?:end)?\b|\bthis\s+week(?:end)?\b`)
	spokenTime = regexp.MustCompile(`(?i)\b(?:at\s+)?(?:\d{1,2}(?::\d{2})?\s*(?:a\.?m\.?|p\.?m\.?)|\d{1,2}:\d{2}|noon|midday|(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)(?:\s+(?:thirty|fifteen|forty[- ]five))?\s*(?:o'clock|a\.?m\.?|p\.?m\.?|in the (?:morning|afternoon|evening)))|\bat\s+\d{1,2}\b`)
)

// readDay reads a day, a date and/or a time ("next Tuesday at 10 am", "the 3rd of March",
// "tomorrow morning"), as said.
func readDay(s string) string {
	day := ""
	for _, m := range dayPhrase.FindAllStringIndex(s, -1) {
		if !negated(s[:m[0]]) { // "not today", "not on Monday" name no day
			day = strings.TrimSpace(s[m[0]:m[1]])
			break
		}
	}
	at := strings.TrimSpace(spokenTime.FindString(s))
	if strings.Count(at, ".") == 1 && strings.HasSuffix(at, ".") { // "10 am." ends a sentence; "10 a.m." keeps its dots
		at = strings.TrimSuffix(at, ".")
	}
	switch {
	case day != "" && at != "":
		if !strings.HasPrefix(strings.ToLower(at), "at ") {
			at = "at " + at
		}
		return capitalFirst(day) + " " + at
	case day != "":
		return capitalFirst(day)
	case at != "":
		return strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(at, "at "), "At "))
	}
	return ""
}

// negated says whether the two words before a phrase, in its clause, deny it ("not today",
// "can't do Monday").
func negated(before string) bool {
	if i := strings.LastIndexAny(before, ",.;!?"); i >= 0 { // a new clause: "not today, but Friday"
		before = before[i+1:]
	}
	w := strings.Fields(strings.ToLower(before))
	for i := len(w) - 1; i >= 0 && i >= len(w)-2; i-- {
		switch w[i] {
		case "not", "no", "never", "can't", "cannot", "won't", "isn't", "doesn't":
			return true
		}
	}
	return false
}

var questionAbout = regexp.MustCompile(`(?i)\bquestions?\b`)

// readYesNo reads "yes" or "no" from the customer's words ("yeah, sure" yes; "not really",
// "no thanks", "nothing else", "it can wait" no); words that say both, or neither, answer
// nothing. Without a yes or a no, an answer that says the question's own word back answers
// it: "It's urgent." to "Is the call urgent?" is a yes, "It isn't urgent." a no.
func readYesNo(s, question string) string {
	yes, no := false, false
	for _, t := range llm.Terms(s) {
		switch t {
		case "yes":
			yes = true
		case "no":
			no = true
		}
	}
	l := " " + strings.Join(strings.FieldsFunc(strings.ToLower(strings.ReplaceAll(s, "’", "'")), func(r rune) bool { return strings.ContainsRune(" ,.;!?", r) }), " ") + " "
	if !yes && !no {
		for _, p := range []string{" nothing ", " none ", " that's all ", " that is all ", " all set ", " can wait ", " no rush ", " not really ", " not at all ", " i'm good "} {
			if strings.Contains(l, p) {
				no = true
			}
		}
	}
	if !yes && !no {
		for _, p := range []string{" i am ", " i do ", " i would ", " i'd love", " please do", " i will ", " we are ", " we do "} {
			if strings.Contains(l, p) {
				yes = true
			}
		}
	}
	if !yes && !no && strings.HasSuffix(strings.TrimSpace(s), "?") && questionAbout.MatchString(question) {
		yes = true // a question in answer to "Do they have questions?"
	}
	if !yes && !no && question != "" {
		asked := map[string]bool{}
		for _, t := range llm.Terms(question) {
			asked[t] = true
		}
		for _, w := range strings.Fields(l) {
			if ts := llm.Terms(w); len(ts) == 1 && asked[ts[0]] && len(w) > 3 {
				at := strings.Index(l, " "+w+" ")
				if negated(l[:at]) {
					no = true
				} else {
					yes = true
				}
				break
			}
		}
	}
	switch {
	case yes && !no:
		return "yes"
	case no && !yes:
		return "no"
	}
	return ""
}

var (
	writtenNumber = regexp.MustCompile(`-?\d+(?:[.,]\d+)?`)
	smallNumbers  = map[string]int{"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
		"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
		"sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "a dozen": 12, "a couple": 2}
	tens = map[string]int{"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
)

// readNumber reads the first number said, in digits or in words up to 999 ("twenty-five",
// "a hundred and ten").
func readNumber(s string) string {
	if m := writtenNumber.FindString(s); m != "" {
		return strings.ReplaceAll(m, ",", "")
	}
	l := " " + strings.Join(strings.Fields(strings.NewReplacer("-", " ", ",", " ", ".", " ", "?", " ", "!", " ").Replace(strings.ToLower(s))), " ") + " "
	for _, p := range []string{"a dozen", "a couple"} {
		if strings.Contains(l, " "+p+" ") {
			return strconv.Itoa(smallNumbers[p])
		}
	}
	n, seen := 0, false
	words := strings.Fields(l)
	for i, w := range words {
		v, small := smallNumbers[w]
		switch {
		case small:
			n, seen = n+v, true
		case tens[w] > 0:
			n, seen = n+tens[w], true
		case w == "hundred" && (seen || (i > 0 && words[i-1] == "a")):
			n, seen = max(n, 1)*100, true
		case seen && w == "and":
		case w == "a" && i+1 < len(words) && words[i+1] == "hundred":
		case seen:
			return strconv.Itoa(n)
		}
	}
	if seen {
		return strconv.Itoa(n)
	}
	return ""
}

// readChoice answers the option the customer named (the last named when several were: people
// settle at the end, "the basic… no, the pro"), as the workflow spells it.
func readChoice(s string, options []string) string {
	said := " " + strings.Join(llm.Terms(s), " ") + " "
	best, at := "", -1
	for _, o := range options {
		terms := strings.Join(llm.Terms(o), " ")
		if terms == "" {
			continue
		}
		if i := strings.LastIndex(said, " "+terms+" "); i >= 0 && i >= at {
			best, at = o, i
		}
	}
	return best
}

var openingFillers = regexp.MustCompile(`(?i)^(?:(?:uh+|um+|er+|well|so|oh|ok(?:ay)?|yeah|yes|sure|right),?\s+)+`)

// readText answers the customer's words without the fillers they open with.
func readText(s string) string {
	t := strings.TrimSpace(openingFillers.ReplaceAllString(strings.Join(strings.Fields(s), " "), ""))
	if t == "" {
		return ""
	}
	return capitalFirst(t)
}
