package llm

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sentences cuts streamed text into sentences as they complete, so that the first can be
// spoken while the model writes the rest. A sentence ends at ".", "!" or "?" (closing quotes
// or brackets included) followed by a space and a word that does not begin in lower case;
// a stop that only closes an abbreviation ("Dr.", "e.g."), an initial ("J.") or that sits
// inside a number ("3.5") does not end one. "a.m." and "p.m." end a sentence only when a
// capitalised word follows ("at 9 a.m. Monday" cannot be told apart from "at 9 a.m. Call
// us", and the second is the likelier). Until the word after a stop has come, the stop
// waits: the decision never needs taking back.
type Sentences struct {
	buf  string
	from int // where the search for the next end resumes in buf
}

// noEnd are words whose stop never ends a sentence (lower case, stops kept).
var noEnd = map[string]bool{
	"dr.": true, "mr.": true, "mrs.": true, "ms.": true, "mx.": true, "prof.": true, "st.": true, "sr.": true, "jr.": true,
	"e.g.": true, "i.e.": true, "vs.": true, "approx.": true, "no.": true, "nos.": true, "tel.": true, "ext.": true,
	"mt.": true, "ft.": true, "ave.": true, "fig.": true, "cf.": true, "u.s.": true, "jan.": true, "feb.": true,
	"aug.": true, "sept.": true, "sep.": true, "oct.": true, "nov.": true, "dec.": true,
}

// Add takes the next piece of text and answers the sentences it completed, trimmed.
func (s *Sentences) Add(piece string) []string {
	s.buf += piece
	var out []string
	for {
		end, ok := s.next()
		if !ok {
			return out
		}
		if t := strings.TrimSpace(s.buf[:end]); t != "" {
			out = append(out, t)
		}
		s.buf, s.from = strings.TrimLeftFunc(s.buf[end:], unicode.IsSpace), 0
	}
}

// Flush answers what is left (the last sentence, whatever its end) and empties the cutter.
func (s *Sentences) Flush() string {
	t := strings.TrimSpace(s.buf)
	s.buf, s.from = "", 0
	return t
}

// next finds the end of the first complete sentence in buf (the index after its closing
// punctuation); ok is false when there is none yet.
func (s *Sentences) next() (int, bool) {
	b := s.buf
	for i := s.from; i < len(b); i++ {
		c := b[i]
		if c != '.' && c != '!' && c != '?' {
			continue
		}
		j := i + 1
		for j < len(b) && (b[j] == '.' || b[j] == '!' || b[j] == '?') {
			j++ // "?!", "..."
		}
		for j < len(b) {
			r, n := utf8.DecodeRuneInString(b[j:])
			if !strings.ContainsRune(`"')]”’»`, r) {
				break
			}
			j += n
		}
		if j == len(b) {
			s.from = i
			return 0, false // what follows decides
		}
		r, _ := utf8.DecodeRuneInString(b[j:])
		if !unicode.IsSpace(r) {
			i = j - 1 // "3.5", "e.g" inside a word, "a.m" before its last stop
			continue
		}
		k := j
		for k < len(b) {
			r, n := utf8.DecodeRuneInString(b[k:])
			if !unicode.IsSpace(r) {
				break
			}
			k += n
		}
		if k == len(b) {
			s.from = i
			return 0, false
		}
		nextRune, _ := utf8.DecodeRuneInString(b[k:])
		if unicode.IsLower(nextRune) {
			i = j - 1
			continue
		}
		if c == '.' && j == i+1 {
			word := strings.ToLower(lastWord(b[:j]))
			letters := strings.Trim(word, ".")
			switch {
			case noEnd[word]:
				i = j - 1
				continue
			case utf8.RuneCountInString(letters) == 1 && unicode.IsLetter([]rune(letters)[0]):
				i = j - 1 // an initial: "J. Smith"
				continue
			case (word == "a.m." || word == "p.m.") && !unicode.IsUpper(nextRune):
				i = j - 1
				continue
			}
		}
		return j, true
	}
	s.from = len(b)
	return 0, false
}

// lastWord is the last space-separated word of s, without the quotes or brackets before it.
func lastWord(s string) string {
	if i := strings.LastIndexFunc(s, unicode.IsSpace); i >= 0 {
		s = s[i+1:]
	}
	return strings.TrimLeft(s, `"'([“‘«`)
}
