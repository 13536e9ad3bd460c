// Package spoken turns text written to be read (markdown, FAQ sheets, tables, PDF pages)
// into prose a voice agent can say. Units splits a text into its headings, questions and
// statements without their markup (list marks, emphasis, links, table pipes, code marks,
// "Q:"/"A:" labels); Plain is that text for a language model's prompt; Sentences are the
// statements' sentences, the ones an answer is chosen from; Say reads a sentence's numbers,
// times, prices, units and abbreviations as a person would say them, for speech synthesis.
package spoken

import (
	"regexp"
	"strings"
	"unicode"
)

// Kind is what a unit of text is.
type Kind int

const (
	// Statement is body text: paragraphs, list items, table rows, answers.
	Statement Kind = iota
	// Heading titles what follows (a markdown heading, a table's header row).
	Heading
	// Question is a FAQ's question (a "Q:" line).
	Question
)

// Unit is a paragraph, heading, list item, table row or FAQ line, without markup.
type Unit struct {
	Kind Kind
	Text string
}

var (
	reFence     = regexp.MustCompile("^(```|~~~)")
	reATX       = regexp.MustCompile(`^#{1,6}\s+(.*?)(?:\s+#+)?\s*$`)
	reSetext    = regexp.MustCompile(`^(=+|-+)\s*$`)
	reRule      = regexp.MustCompile(`^(?:[-*_]\s*){3,}$`)
	reRefDef    = regexp.MustCompile(`^\[[^\]]+\]:\s*\S+`)
	reQuote     = regexp.MustCompile(`^(?:>\s?)+`)
	reListMark  = regexp.MustCompile(`^(?:[-*+•●▪–]|\d{1,3}[.)]|[a-z][)])\s+(?:\[[ xX]\]\s+)?`)
	reTableSep  = regexp.MustCompile(`^\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$`)
	reLabel     = regexp.MustCompile(`^(?i:(q|question|a|answer))\s*:\s*`)
	reLabelDot  = regexp.MustCompile(`^([QA])\.\s+`)
	reImage     = regexp.MustCompile(`!\[[^\]]*\]\([^)]*\)`)
	reLink      = regexp.MustCompile(`\[([^\]]+)\]\([^)]*\)`)
	reRefLink   = regexp.MustCompile(`\[([^\]^]+)\]\[[^\]]*\]`)
	reFootnote  = regexp.MustCompile(`\[\^[^\]]+\]`)
	reAutolink  = regexp.MustCompile(`<((?:https?://|mailto:)[^>\s]+|[^>\s@]+@[^>\s]+)>`)
	reTag       = regexp.MustCompile(`</?[a-zA-Z][a-zA-Z0-9]*(?:\s[^<>]*)?/?>`)
	reCode      = regexp.MustCompile("`+([^`]+)`+")
	reStrong    = regexp.MustCompile(`(\*\*|__)(\S(?:.*?\S)?)(\*\*|__)`)
	reEmStar    = regexp.MustCompile(`(^|[^\w*])\*(\S(?:[^*]*?\S)?)\*`)
	reEmUnder   = regexp.MustCompile(`(^|[^\w])_(\S(?:[^_]*?\S)?)_($|[^\w])`)
	reStrike    = regexp.MustCompile(`~~(.+?)~~`)
	reEscape    = regexp.MustCompile(`\\([\\*_#\[\]()|` + "`" + `>~-])`)
	reStrayMark = regexp.MustCompile(`(^|\s)[*#]+(\s|$)`)
)

// Units answers the units of a text, in order: a blank line, a heading, a list item or a
// table row ends a unit; the lines of one paragraph are one unit.
func Units(text string) []Unit {
	var out []Unit
	var para []string
	paraKind := Statement
	flush := func() {
		if len(para) > 0 {
			if k, t := label(paraKind, inline(strings.Join(para, " "))); t != "" {
				out = append(out, Unit{Kind: k, Text: t})
			}
		}
		para, paraKind = nil, Statement
	}
	var header []string // the header cells of the table being read
	inTable, fenced, quoting := false, false, false
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if reFence.MatchString(l) {
			flush()
			fenced = !fenced
			continue
		}
		if fenced { // code is read as its words, line by line
			if l != "" {
				para = append(para, l)
				flush()
			}
			continue
		}
		if !strings.Contains(l, "|") {
			inTable, header = false, nil
		}
		switch {
		case l == "":
			flush()
			quoting = false
			continue
		case reSetext.MatchString(l) && len(para) > 0:
			paraKind = Heading
			flush()
			continue
		case reRule.MatchString(l), reRefDef.MatchString(l):
			flush()
			continue
		}
		q := reQuote.FindString(l)
		if q != "" && !quoting {
			flush() // a quote interrupts a paragraph
		}
		quoting, l = q != "", l[len(q):]
		if m := reATX.FindStringSubmatch(l); m != nil {
			flush()
			para, paraKind = []string{m[1]}, Heading
			flush()
			continue
		}
		if isTableRow(l) {
			flush()
			cells := cellsOf(l)
			if !inTable && i+1 < len(lines) && reTableSep.MatchString(strings.TrimSpace(lines[i+1])) {
				header, inTable = cells, true
				i++ // the separator
				if t := strings.Join(cells, ", "); t != "" {
					para, paraKind = []string{t}, Heading
					flush()
				}
				continue
			}
			inTable = true
			if reTableSep.MatchString(l) {
				continue
			}
			para = []string{row(header, cells)}
			flush()
			continue
		}
		if m := reListMark.FindString(l); m != "" {
			flush()
			para = []string{l[len(m):]}
			continue
		}
		if reLabel.MatchString(inline(l)) || reLabelDot.MatchString(l) {
			flush() // "Q: …" and "A: …" each start a unit, even without a blank line
		}
		if len(para) == 0 && titleLine(l, lines[i+1:]) {
			para, paraKind = []string{l}, Heading
			flush()
			continue
		}
		para = append(para, l)
	}
	flush()
	return out
}

// titleLine says a paragraph's first line is a title without markup, as the knowledge
// base's passages start with their section's heading ("Warranty" over "Every kettle has …"):
// short, no closing mark, and text follows, after a blank line or on the next line starting
// anew with a capital (a line wrapped in a paragraph runs nearly to the width of the page).
func titleLine(l string, rest []string) bool {
	if len([]rune(l)) > 50 || len(strings.Fields(l)) > 6 || strings.ContainsAny(l[len(l)-1:], ".!?:;,") || reLabel.MatchString(l) {
		return false
	}
	for i, r := range rest {
		next := []rune(strings.TrimSpace(r))
		switch {
		case len(next) == 0:
			continue
		case i > 0:
			return true
		}
		return unicode.IsUpper(next[0]) && !reLabel.MatchString(string(next))
	}
	return false
}

// label reads a "Q:" or "A:" label off a unit: a Q line is a Question.
func label(k Kind, t string) (Kind, string) {
	m := reLabel.FindStringSubmatch(t)
	if m == nil {
		if m = reLabelDot.FindStringSubmatch(t); m == nil {
			return k, t
		}
	}
	rest := strings.TrimSpace(t[len(m[0]):])
	if rest == "" {
		return k, ""
	}
	if q := strings.ToLower(m[1]); q == "q" || q == "question" {
		return Question, rest
	}
	return k, rest
}

func isTableRow(l string) bool {
	return strings.HasPrefix(l, "|") || (strings.Count(l, "|") >= 2 && !strings.Contains(l, "||"))
}

func cellsOf(l string) []string {
	l = strings.TrimSpace(l)
	l = strings.TrimPrefix(l, "|")
	l = strings.TrimSuffix(l, "|")
	var out []string
	for _, c := range strings.Split(l, "|") {
		out = append(out, inline(c))
	}
	return out
}

// row reads a table row as a person would: "Saturday: 10:00–14:00" for two columns, and
// with more, the first cell then each other cell after its column's header ("Basic: price
// $10, users 5").
func row(header, cells []string) string {
	var parts []string
	for i, c := range cells {
		if c == "" || i == 0 {
			continue
		}
		if len(cells) > 2 && i < len(header) && header[i] != "" {
			c = lowerFirst(header[i]) + " " + c
		}
		parts = append(parts, c)
	}
	first := ""
	if len(cells) > 0 {
		first = cells[0]
	}
	switch {
	case len(parts) == 0:
		return first
	case first == "":
		return strings.Join(parts, ", ")
	}
	return first + ": " + strings.Join(parts, ", ")
}

// inline removes the markup inside a line: images, links (their text stays), HTML tags,
// footnote marks, code marks, emphasis, escapes.
func inline(s string) string {
	if strings.Contains(s, "[") {
		s = reImage.ReplaceAllString(s, "")
		s = reLink.ReplaceAllString(s, "$1")
		s = reRefLink.ReplaceAllString(s, "$1")
		s = reFootnote.ReplaceAllString(s, "")
	}
	if strings.Contains(s, "<") {
		s = reAutolink.ReplaceAllString(s, "$1")
		s = reTag.ReplaceAllString(s, " ")
	}
	if strings.Contains(s, "`") {
		s = reCode.ReplaceAllString(s, "$1")
	}
	for i := 0; i < 3 && strings.ContainsAny(s, "*_~"); i++ { // nested emphasis
		s = reStrong.ReplaceAllString(s, "$2")
		s = reEmStar.ReplaceAllString(s, "$1$2")
		s = reEmUnder.ReplaceAllString(s, "$1$2$3")
		s = reStrike.ReplaceAllString(s, "$1")
	}
	if strings.Contains(s, `\`) {
		s = reEscape.ReplaceAllString(s, "$1")
	}
	if strings.ContainsAny(s, "*#") {
		s = reStrayMark.ReplaceAllString(s, "$1$2")
	}
	return strings.Join(strings.Fields(s), " ")
}

// Plain is a text without markup, one unit a line: what a language model reads.
func Plain(text string) string {
	plain, _ := Read(text)
	return plain
}

// Sentences are the sentences of a text's statements, without markup, each ending with its
// mark: the text a spoken answer is chosen from. Headings, FAQ questions and sentences that
// ask a question are left out (the agent answers; it does not read the question back).
func Sentences(text string) []string {
	_, sentences := Read(text)
	return sentences
}

// Read answers both Plain and Sentences of a text, reading it once.
func Read(text string) (plain string, sentences []string) {
	var lines []string
	for _, u := range Units(text) {
		lines = append(lines, u.Text)
		if u.Kind != Statement {
			continue
		}
		for _, s := range Split(u.Text) {
			if !strings.HasSuffix(s, "?") {
				sentences = append(sentences, s)
			}
		}
	}
	return strings.Join(lines, "\n"), sentences
}

// noEnd are words whose full stop does not end a sentence.
var noEnd = map[string]bool{"e.g": true, "i.e": true, "mr": true, "mrs": true, "ms": true, "dr": true, "st": true, "no": true,
	"vs": true, "approx": true, "incl": true, "ca": true, "cf": true, "tel": true, "nr": true, "ext": true, "jr": true, "sr": true}

// Split cuts prose into sentences at a full stop, question or exclamation mark followed by a
// space and a capital or a digit, except after an abbreviation ("e.g.", "Dr.", "No. 5");
// each sentence ends with a mark (a full stop is added where the text had none).
func Split(prose string) []string {
	rs := []rune(strings.Join(strings.Fields(prose), " "))
	var out []string
	start := 0
	for i := 0; i < len(rs); i++ {
		if rs[i] != '.' && rs[i] != '!' && rs[i] != '?' {
			continue
		}
		j := i + 1
		for j < len(rs) && strings.ContainsRune(`"')]”’`, rs[j]) {
			j++
		}
		if j >= len(rs) || rs[j] != ' ' || j+1 >= len(rs) {
			continue
		}
		next := rs[j+1]
		if !unicode.IsUpper(next) && !unicode.IsDigit(next) && !strings.ContainsRune(`"“‘'(`, next) {
			continue
		}
		if rs[i] == '.' && noEnd[strings.ToLower(lastWord(rs[start:i]))] {
			continue
		}
		out = append(out, strings.TrimSpace(string(rs[start:j])))
		start = j + 1
	}
	if rest := strings.TrimSpace(string(rs[start:])); rest != "" {
		out = append(out, rest)
	}
	for i, s := range out {
		out[i] = endSentence(s)
	}
	return out
}

func lastWord(rs []rune) string {
	i := len(rs)
	for i > 0 && rs[i-1] != ' ' && rs[i-1] != '(' {
		i--
	}
	return string(rs[i:])
}

// endSentence gives s a closing mark, dropping a trailing colon or comma ("Opening
// hours:" → "Opening hours.").
func endSentence(s string) string {
	s = strings.TrimRight(strings.TrimSpace(s), ",;:–—- ")
	if s == "" {
		return ""
	}
	if r := []rune(s); !strings.ContainsRune(`.!?…`, r[len(r)-1]) {
		last := r[len(r)-1]
		if strings.ContainsRune(`"')]”’`, last) && len(r) > 1 && strings.ContainsRune(`.!?`, r[len(r)-2]) {
			return s
		}
		s += "."
	}
	return s
}

func lowerFirst(s string) string {
	r := []rune(s)
	if len(r) == 0 || (len(r) > 1 && unicode.IsUpper(r[1])) { // keep acronyms
		return s
	}
	r[0] = unicode.ToLower(r[0])
	return string(r)
}
