package conversation

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/knowledge"
	"github.com/bettyhq/betty/server/knowledge/knowledgetest"
	"github.com/bettyhq/betty/server/store"
)

func page(n int) *int { return &n }

// shop is a small shop's knowledge as its files are indexed: markdown, a FAQ sheet in a PDF
// (one page a question), a DOCX; every passage is a candidate for every question, as a
// full-text search finds any passage sharing one word with it.
var shop = []store.PassageHit{
	{Name: "hours.md", Content: "## Opening hours\n| Day | Hours |\n|---|---|\n| Mon–Fri | 9:00–17:00 |\n| Sat | 10:00–14:00 |\n| Sun | closed |"},
	{Name: "faq.pdf", Page: page(1), Content: "Q: Do you deliver on weekends?\n\nA: We deliver on Saturdays between 9am and 1pm. Parcels over 30 kg go by freight."},
	{Name: "faq.pdf", Page: page(2), Content: "Q: How long does a refund take?\n\nA: Refunds reach your card within 5 working days. We refund the original payment method only."},
	{Name: "pricing.md", Content: "# Plans\n- **Basic**: $10/month for 1 user\n- **Premium**: $1,200/year, e.g. for teams of up to 20 people.\n\nAll plans include phone support."},
	{Name: "warranty.docx", Page: page(3), Content: "Warranty\nEvery kettle has a two-year warranty. Keep the receipt: we need it for any repair."},
	{Name: "contact.md", Content: "Call us on +1 (415) 555-0123 or write to [help@acme.com](mailto:help@acme.com)."},
}

var shopFAQ = map[string]string{
	"Where are you located?": "Our shop is at 12 High Street, next to the station.",
	"Do you have parking?":   "Yes, there are 20 free spaces behind the shop.",
}

// The relevance threshold over questions a shop's customers ask: those the knowledge answers
// get the right passage, page and words; those it does not answer get nothing (the agent says
// it does not know), even when they share a word with a passage. The closest on each side
// are a question of two words with one held (answered) and of three words with one held
// (declined): the threshold must be above a third and at most a half, or this test fails.
func TestRelevanceThreshold(t *testing.T) {
	answered := []struct{ question, cited, said string }{
		{"What are your opening hours?", "hours.md", "Monday to Friday: 9 a.m. to 5 p.m. Saturday: 10 a.m. to 2 p.m."},
		{"Are you open on Sunday?", "hours.md", "Sunday: closed."},
		{"When do you close on Saturday?", "hours.md", "Saturday: 10 a.m. to 2 p.m."},
		{"Do you deliver on Saturdays?", "faq.pdf, page 1", "We deliver on Saturdays between 9 a.m. and 1 p.m."},
		{"How do you send parcels?", "faq.pdf, page 1", "Parcels over 30 kilograms go by freight."},
		{"How long does a refund take?", "faq.pdf, page 2", "Refunds reach your card within 5 working days."},
		{"How much is the premium plan?", "pricing.md", "Premium: 1,200 dollars a year, for example for teams of up to 20 people."},
		{"Is there a warranty on the kettle?", "warranty.docx, page 3", "Every kettle has a two-year warranty."},
		{"What's your phone number?", "contact.md", "Call us on plus 1, 4 1 5, 5 5 5, 0 1 2 3 or write to help at acme dot com."},
		{"Where are you located?", "the FAQ", "Our shop is at 12 High Street, next to the station."},
		{"Can I park my car there?", "the FAQ", "Yes, there are 20 free spaces behind the shop."},
	}
	for _, c := range answered {
		got := pickAnswers(c.question, shopFAQ, shop)
		if len(got) == 0 {
			t.Errorf("%q: no answer", c.question)
			continue
		}
		if got[0].Cited() != c.cited || got[0].Spoken != c.said || got[0].Relevance < minRelevance {
			t.Errorf("%q: answered %q from %s (%.2f), want %q from %s", c.question, got[0].Spoken, got[0].Cited(), got[0].Relevance, c.said, c.cited)
		}
	}
	for _, q := range []string{
		"Do you sell dog food?",
		"Do you sell gift cards?",        // "card" is in the refunds passage: one word of three
		"Is the kettle dishwasher safe?", // "kettle" is in the warranty: one word of three
		"What's the weather like tomorrow?",
		"Can I speak to a manager?",
		"How do I reset my password?",
		"Who won the football game last night?",
	} {
		if got := pickAnswers(q, shopFAQ, shop); len(got) != 0 {
			t.Errorf("%q: answered %q from %s (%.2f)", q, got[0].Spoken, got[0].Cited(), got[0].Relevance)
		}
	}
}

// A spoken answer has no markup and no labels, is at most two sentences, and keeps the whole
// cleaned passage for a language model.
func TestAnswersAreSpoken(t *testing.T) {
	for _, q := range []string{"What are your opening hours?", "How long does a refund take?", "How much is the premium plan?", "What's your phone number?"} {
		for _, a := range pickAnswers(q, shopFAQ, shop) {
			if strings.ContainsAny(a.Spoken, "#*|[]()`_$") || strings.Contains(a.Spoken, "Q:") || strings.Contains(a.Spoken, "A:") {
				t.Errorf("%q: %q has markup or labels", q, a.Spoken)
			}
			if n := sentenceCount(a.Spoken); n < 1 || n > 2 || len(a.Spoken) > maxSpoken {
				t.Errorf("%q: %q has %d sentences", q, a.Spoken, n)
			}
			if strings.ContainsAny(a.Passage, "#*|`") || strings.Contains(a.Passage, "Q:") {
				t.Errorf("%q: passage %q has markup", q, a.Passage)
			}
		}
	}
	faq := map[string]string{"Do you take cards?": "**Yes** — Visa & Mastercard, e.g. for orders over $5. See [payments](https://acme.com/pay).\n\n- Cash too"}
	if got := pickAnswers("Can I pay by card?", faq, nil); len(got) != 1 || got[0].Spoken != "Yes — Visa and Mastercard, for example for orders over 5 dollars." {
		t.Fatalf("FAQ answer %+v", got)
	}
	got := pickAnswers("How long does a refund take?", nil, shop)
	if got[0].Passage != "How long does a refund take?\nRefunds reach your card within 5 working days. We refund the original payment method only." {
		t.Fatalf("passage %q", got[0].Passage)
	}
}

// sentenceCount counts the sentences of a spoken answer: a full stop ends one unless it is
// part of "a.m." or "p.m." read inside it.
func sentenceCount(s string) int {
	s = strings.NewReplacer("a.m. ", "am ", "p.m. ", "pm ").Replace(s)
	n := 0
	for _, f := range strings.Fields(s) {
		if strings.HasSuffix(f, ".") || strings.HasSuffix(f, "?") || strings.HasSuffix(f, "!") {
			n++
		}
	}
	return n
}

// The sentence said is the one that answers, not the passage's first; a sentence that goes
// on from it comes along; an answer too long is cut at a clause.
func TestAnswerFromChoosesBySentence(t *testing.T) {
	q := questionTerms("Can I return a kettle?")
	a, _ := answerFrom(q, "We sell kettles and toasters. Our staff are friendly. You can return a kettle within 30 days. It must be unused. Opening hours vary.")
	if a.Spoken != "You can return a kettle within 30 days. It must be unused." {
		t.Fatalf("chose %q", a.Spoken)
	}
	long := "You can return a kettle, " + strings.Repeat("a toaster, a fan, a lamp, ", 12) + "within 30 days."
	a, _ = answerFrom(q, long)
	if len(a.Spoken) > maxSpoken || !strings.HasSuffix(a.Spoken, ".") || !strings.HasPrefix(a.Spoken, "You can return a kettle,") {
		t.Fatalf("long answer %d characters: %q", len(a.Spoken), a.Spoken)
	}
	a, _ = answerFrom(questionTerms("Is there a warranty?"), "Warranty\n\n1. Overview\n\nEvery kettle is covered for two years.")
	if a.Spoken != "Every kettle is covered for two years." {
		t.Fatalf("none holding a word: %q", a.Spoken)
	}
	if _, ok := answerFrom(q, "## Returns\nQ: Can I return a kettle?"); ok {
		t.Fatal("a heading and a question answered something")
	}
}

// An answer on page 2 of a PDF of two short pages is cited as page 2: the passages the
// knowledge service makes of it keep their pages, and the answer keeps its passage's.
func TestAnswerCitesItsPage(t *testing.T) {
	data := knowledgetest.PDF(
		knowledgetest.Page{Paragraphs: []string{"Q: When are you open?", "A: We are open from 9:00 to 17:00, Monday to Friday."}},
		knowledgetest.Page{Paragraphs: []string{"Q: How long does a refund take?", "A: Refunds reach your card within five working days."}},
	)
	doc, err := knowledge.Parse(context.Background(), bytes.NewReader(data), int64(len(data)), knowledge.PDF)
	if err != nil {
		t.Fatal(err)
	}
	var hits []store.PassageHit
	for _, p := range knowledge.Split(doc) {
		hits = append(hits, store.PassageHit{Name: "faq.pdf", Page: p.Page, Content: p.Content})
	}
	for q, want := range map[string]string{
		"How long does a refund take?": "Refunds reach your card within five working days. (faq.pdf, page 2)",
		"When are you open?":           "We are open from 9 a.m. to 5 p.m., Monday to Friday. (faq.pdf, page 1)",
	} {
		got := pickAnswers(q, nil, hits)
		if len(got) != 1 || got[0].Spoken+" ("+got[0].Cited()+")" != want {
			t.Errorf("%q: %+v, want %s", q, got, want)
		}
	}
}
