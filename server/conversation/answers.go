package conversation

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/bettyhq/betty/server/conversation/spoken"
	"github.com/bettyhq/betty/server/llm"
	"github.com/bettyhq/betty/server/store"
)

// Answer is what the agent may say to a customer's question, and where it comes from.
type Answer struct {
	// Spoken is one or two sentences of the source, chosen by relevance to the question,
	// without markup and read for speech (spoken.Say): said as it is.
	Spoken string
	// Passage is the whole source without markup (spoken.Plain), for a language model.
	Passage string
	// Source is "FAQ" for the agent's FAQ, else the knowledge file's name.
	Source string
	// Page is the page of the file the passage is on (0: the file has no pages).
	Page int
	// Relevance is the share of the question's words the source holds, 0 to 1.
	Relevance float64
}

// Cited says where the answer comes from: "faq.pdf, page 2", "faq.pdf", "the FAQ".
func (a Answer) Cited() string {
	switch {
	case a.Source == faqSource:
		return "the FAQ"
	case a.Page > 0:
		return fmt.Sprintf("%s, page %d", a.Source, a.Page)
	}
	return a.Source
}

const faqSource = "FAQ"

// minRelevance is the share of a question's words that a FAQ entry or passage must hold for
// the agent to answer from it; below it the question is not one the source answers (the
// agent says it does not know). Half, because a customer's question has one to four
// content words and one of two is enough ("park my car" is answered by "20 free spaces
// behind the shop" under "Do you have parking?"), one of three is not ("sell dog food" by
// "we sell kettles", "gift cards" by "refunds reach your card"). TestRelevanceThreshold
// holds the questions that fix it.
const minRelevance = 0.5

// maxSpoken bounds a spoken answer, in characters: two sentences only when both fit.
const maxSpoken = 300

// findAnswers are the FAQ answer and knowledge passages that answer the customer's last
// words (or, at the start, the instruction), best first; only those at least minRelevance.
func (w *walk) findAnswers(ctx context.Context, said, instruction string) []Answer {
	var faq map[string]string
	if said != "" {
		faq = w.prof.FAQ
	}
	question := said
	if question == "" {
		question = instruction
	}
	var hits []store.PassageHit
	if w.e.d.Knowledge != nil && w.s.AgentID != "" {
		var err error
		hits, err = w.e.d.Knowledge.SearchForAgent(ctx, w.s.OrganizationID, w.s.AgentID, question, passages)
		if err != nil {
			w.e.d.Log.Warn("conversation: knowledge search failed; the agent speaks without passages", "err", err)
		}
	}
	return pickAnswers(question, faq, hits)
}

// pickAnswers weighs the FAQ entries and the passages found against a question: the FAQ
// entry that answers it best, and each passage that answers it, best first (the FAQ first
// on a tie, as someone wrote it for such questions).
func pickAnswers(question string, faq map[string]string, hits []store.PassageHit) []Answer {
	q := questionTerms(question)
	if len(q) == 0 {
		return nil
	}
	var out []Answer
	qs := make([]string, 0, len(faq))
	for k := range faq {
		qs = append(qs, k)
	}
	sort.Strings(qs)
	var best *Answer
	for _, k := range qs {
		r := relevance(q, k+"\n"+faq[k])
		if r < minRelevance || (best != nil && r <= best.Relevance) {
			continue
		}
		if a, ok := answerFrom(q, faq[k]); ok {
			a.Source, a.Relevance = faqSource, r
			best = &a
		}
	}
	if best != nil {
		out = append(out, *best)
	}
	seen := map[string]bool{}
	for _, h := range hits {
		r := relevance(q, h.Content)
		if r < minRelevance {
			continue
		}
		a, ok := answerFrom(q, h.Content)
		if !ok || seen[a.Spoken] {
			continue
		}
		seen[a.Spoken] = true
		a.Source, a.Relevance = h.Name, r
		if h.Page != nil {
			a.Page = *h.Page
		}
		out = append(out, a)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Relevance > out[j].Relevance })
	return out
}

// answerFrom chooses what to say from a text: its sentence that holds most of the question's
// words (the first of four words or more when none holds any: the text is on the question's
// topic as a whole),
// with a second sentence when it carries the first on ("It includes support.") or answers as
// well as the first (another row of the opening hours), and both fit in maxSpoken.
func answerFrom(q []string, text string) (Answer, bool) {
	plain, ss := spoken.Read(text)
	if len(ss) == 0 {
		return Answer{}, false
	}
	scores := make([]float64, len(ss))
	best := -1
	for i, s := range ss {
		scores[i] = relevance(q, s)
		if best < 0 && len(strings.Fields(s)) >= 4 {
			best = i // on a tie, a sentence that says something ("Overview." does not)
		}
	}
	best = max(best, 0)
	for i := range ss {
		if scores[i] > scores[best] {
			best = i
		}
	}
	second := -1
	if best+1 < len(ss) && continues.MatchString(ss[best+1]) {
		second = best + 1
	} else {
		for i := range ss {
			if i != best && scores[i] >= max(minRelevance, scores[best]) && second < 0 {
				second = i
			}
		}
	}
	chosen := []string{ss[best]}
	if second >= 0 && len(ss[best])+1+len(ss[second]) <= maxSpoken {
		if second < best {
			chosen = []string{ss[second], ss[best]}
		} else {
			chosen = append(chosen, ss[second])
		}
	}
	said := spoken.Say(strings.Join(chosen, " "))
	if len(said) > maxSpoken {
		said = shorten(said)
	}
	return Answer{Spoken: said, Passage: plain}, true
}

// continues is a sentence that goes on from the one before.
var continues = regexp.MustCompile(`^(?:It|Its|It's|This|That|These|Those|They|Their|There|He|She|Both|Each|Also)\b`)

// shorten cuts an answer too long to say at its last clause (or word) that fits.
func shorten(s string) string {
	cut := s[:maxSpoken]
	if i := strings.LastIndexAny(cut, ",;"); i > maxSpoken/2 {
		return cut[:i] + "."
	}
	if i := strings.LastIndex(cut, " "); i > 0 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, ",;: ") + "…"
}

// filler are words of a question that say it is one, not what it is about.
var filler = map[string]bool{"know": true, "tell": true, "want": true, "wonder": true, "like": true, "ask": true,
	"question": true, "need": true, "hi": true, "hello": true, "hey": true, "thank": true, "thanks": true, "yes": true,
	"no": true, "get": true, "let": true, "say": true, "mean": true, "actually": true, "really": true, "maybe": true}

// questionTerms are the words of a question that a source must hold to answer it.
func questionTerms(question string) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range terms(question) {
		if !filler[t] && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// synonyms fold the words customers and documents use for the same things.
var synonyms = map[string]string{"close": "open", "closing": "open", "shut": "open", "ship": "deliver", "shipp": "deliver",
	"postage": "deliver", "reimburse": "refund", "phone": "call", "ring": "call", "mail": "email"}

var (
	clockTime = regexp.MustCompile(`(?i)\b\d{1,2}(?::[0-5]\d)?\s?(?:[ap]\.?m\b|[–-]\s?\d{1,2}(?::[0-5]\d)?\s?[ap]\.?m\b)|\b\d{1,2}:[0-5]\d\b`)
	money     = regexp.MustCompile(`(?i)[$£€]\s?\d|\b\d[\d,.]*\s?(?:dollars?|pounds?|euros?|cents?|usd|gbp|eur)\b`)
	phoneNum  = regexp.MustCompile(`(?:\+|\(|\b)\d[\d ().-]{6,}\d\b`)
	address   = regexp.MustCompile(`\S@\S+\.\w`)
)

var possessive = regexp.MustCompile(`(?i)['’]s\b`)

// terms are a text's words as relevance compares them: read as spoken ("Sun" is "Sunday",
// "$5" is "5 dollars"), without "'s", as llm.Terms, folded by synonyms, with "hour" and
// "time" for a text that gives clock times, "price" for one that gives amounts of money,
// "call" and "number" for a phone number, "email" for an address (the answer to "what are
// your hours?" or "how much?" may not use the word).
func terms(text string) []string {
	raw := text
	text = possessive.ReplaceAllString(spoken.Say(text), "")
	out := llm.Terms(text)
	for i, t := range out {
		if s, ok := synonyms[t]; ok {
			out[i] = s
		}
	}
	if strings.Contains(raw, "@") && address.MatchString(raw) {
		out = append(out, "email")
	}
	if !strings.ContainsAny(raw, "0123456789") {
		return out
	}
	if phoneNum.MatchString(raw) {
		out = append(out, "call", "number")
	}
	if clockTime.MatchString(text) {
		out = append(out, "hour", "time")
	}
	if money.MatchString(text) {
		out = append(out, "price")
	}
	return out
}

// relevance is the share of the question's terms a text holds. Terms meet when equal or
// when one begins the other and they differ by a short ending ("deliver", "delivery").
func relevance(q []string, text string) float64 {
	if len(q) == 0 {
		return 0
	}
	have := map[string]bool{}
	for _, t := range terms(text) {
		have[t] = true
	}
	n := 0
	for _, t := range q {
		if have[t] {
			n++
			continue
		}
		for h := range have {
			if sameWord(t, h) {
				n++
				break
			}
		}
	}
	return float64(n) / float64(len(q))
}

func sameWord(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	return len(a) >= 4 && len(b)-len(a) <= 3 && strings.HasPrefix(b, a)
}
