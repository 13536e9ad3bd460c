package llm

import (
	"math"
	"strings"
	"unicode"
)

// Similarity is the local back-end's measure of how close the customer's words are to a
// branch's description: the cosine of their bags of terms, after lower-casing, expanding
// contractions ("don't" → "do not"), dropping stop words, a crude stem, and folding
// synonyms into one concept ("yeah", "sure", "absolutely" → yes; "nope", "not" → no;
// "person", "human", "representative" → human …). 0 shares nothing, 1 the same terms; words
// that say yes and a description that says no (or the reverse) score 0.
func Similarity(said, description string) float64 {
	a, b := Terms(said), Terms(description)
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	bs := map[string]bool{}
	for _, t := range b {
		bs[t] = true
	}
	as := map[string]bool{}
	shared := 0
	for _, t := range a {
		if as[t] {
			continue
		}
		as[t] = true
		if bs[t] {
			shared++
		}
	}
	if pa, pb := polarity(as), polarity(bs); pa != 0 && pb != 0 && pa != pb {
		return 0 // "yes, I'm interested" is not "no, not interested", however many words they share
	}
	return float64(shared) / math.Sqrt(float64(len(as))*float64(len(bs)))
}

// polarity is +1 for words that say yes without no, -1 for no without yes, else 0.
func polarity(terms map[string]bool) int {
	switch {
	case terms["yes"] && !terms["no"]:
		return 1
	case terms["no"] && !terms["yes"]:
		return -1
	}
	return 0
}

// Choose answers the index of the choice most similar to said (the first on a tie), or,
// when none shares a term, the first choice that reads as a catch-all ("anything else",
// "otherwise", "other"); -1 when there is none either.
func Choose(said string, choices []string) int {
	best, score := -1, 0.0
	for i, c := range choices {
		if s := Similarity(said, c); s > score {
			best, score = i, s
		}
	}
	if best >= 0 {
		return best
	}
	for i, c := range choices {
		l := strings.ToLower(c)
		for _, w := range []string{"anything else", "everything else", "otherwise", "other", "default", "fallback"} {
			if strings.Contains(l, w) {
				return i
			}
		}
	}
	return -1
}

var contractions = strings.NewReplacer("n't", " not", "'re", " are", "'m", " am", "'ll", " will", "'ve", " have", "'d", " would",
	"’", "'", "can not", "cannot")

var stopWords = set("a an the i me my we our you your he she it its they them their this that these those is are am was were be been "+
	"being do does did to of in on at by for with about as into from up down so and or but if then than too very just "+
	"please would will shall can could should may might must have has had there here what which who whom how when where why "+
	"all any some such only own same also again further once", " ")

// concepts folds synonyms to one term; multi-word phrases are matched before single words.
var concepts = map[string]string{
	"yes": "yes", "yeah": "yes", "yep": "yes", "yup": "yes", "sure": "yes", "ok": "yes", "okay": "yes",
	"absolutely": "yes", "definitely": "yes", "certainly": "yes", "agree": "yes", "correct": "yes",
	"alright": "yes", "fine": "yes", "great": "yes", "of course": "yes", "sounds good": "yes", "go ahead": "yes",
	"no": "no", "nope": "no", "nah": "no", "not": "no", "never": "no", "no thanks": "no", "decline": "no",
	"later": "later", "tomorrow": "later", "busy": "later", "call back": "later", "another time": "later", "next week": "later",
	"callback": "later",
	"person":   "human", "human": "human", "representative": "human", "manager": "human", "operator": "human",
	"someone": "human", "agent": "human", "real person": "human", "speak to someone": "human",
	"price": "price", "pricing": "price", "cost": "price", "costs": "price", "expensive": "price", "cheap": "price",
	"how much": "price", "fee": "price", "fees": "price",
	"interested": "interest", "interest": "interest", "interesting": "interest",
	"repeat": "repeat", "again": "repeat", "pardon": "repeat", "say that": "repeat",
}

// phrases are the multi-word keys of concepts, longest first.
var phrases = func() []string {
	var out []string
	for k := range concepts {
		if strings.Contains(k, " ") {
			out = append(out, k)
		}
	}
	for i := range out { // sort by length, descending (few items)
		for j := i + 1; j < len(out); j++ {
			if len(out[j]) > len(out[i]) || (len(out[j]) == len(out[i]) && out[j] < out[i]) {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}()

// Terms answers the terms of a text as Similarity compares them, in order.
func Terms(text string) []string {
	t := " " + strings.Join(words(contractions.Replace(strings.ToLower(text))), " ") + " "
	var out []string
	for _, p := range phrases {
		for strings.Contains(t, " "+p+" ") {
			out = append(out, concepts[p])
			t = strings.Replace(t, " "+p+" ", " ", 1)
		}
	}
	for _, w := range strings.Fields(t) {
		if c, ok := concepts[w]; ok {
			out = append(out, c)
			continue
		}
		if stopWords[w] || len(w) < 2 {
			continue
		}
		out = append(out, stem(w))
	}
	return out
}

func words(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' })
}

// stem strips a few English endings so "renewing", "renewed" and "renews" meet.
func stem(w string) string {
	for _, suf := range []string{"ing", "edly", "ed", "es", "ly", "s"} {
		if len(w) > len(suf)+3 && strings.HasSuffix(w, suf) {
			return w[:len(w)-len(suf)]
		}
	}
	return w
}

func set(s, sep string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Split(s, sep) {
		if w != "" {
			m[w] = true
		}
	}
	return m
}
