package conversation_test

import (
	"bytes"
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/conversation"
	kb "github.com/bettyhq/betty/server/knowledge"
	"github.com/bettyhq/betty/server/knowledge/knowledgetest"
	"github.com/bettyhq/betty/server/llm"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/workflow"
)

// indexed is a knowledge base as the knowledge service indexes it (its files read and split
// by the service's own Parse and Split), searched as full-text search does: every passage
// holding a word of the question, stemmed ("open" finds "opening", as the databases' porter
// and english stemmers do).
type indexed struct{ hits []store.PassageHit }

func (x *indexed) add(t *testing.T, name string, f kb.Format, data []byte) {
	t.Helper()
	doc, err := kb.Parse(context.Background(), bytes.NewReader(data), int64(len(data)), f)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range kb.Split(doc) {
		x.hits = append(x.hits, store.PassageHit{Name: name, Page: p.Page, Content: p.Content})
	}
}

func (x *indexed) SearchForAgent(_ context.Context, _, _, question string, limit int) ([]store.PassageHit, error) {
	var out []store.PassageHit
	for _, h := range x.hits {
		words := llm.Terms(h.Content)
		for _, term := range llm.Terms(question) {
			if slices.Contains(words, term) {
				out = append(out, h)
				break
			}
		}
	}
	return out[:min(len(out), limit)], nil
}

const shopMarkdown = `# Opening hours

| Day | Hours |
|---|---|
| Mon–Fri | 9:00–17:00 |
| Sat | 10:00–14:00 |
| Sun | closed |

## Plans

- **Basic**: $10/month for 1 user
- **Premium**: $1,200/year, e.g. for teams of up to 20 people.

All plans include phone support.
`

var markup = regexp.MustCompile("[#*|`_\\[\\]]|\\bQ:|\\bA:|\\$\\d|\\d:\\d\\d[–-]")

// A customer asks knowledge questions on a call: each answer is said as a person would, one
// or two sentences with no markdown, labels or written-only notation, from the passage that
// answers (on page 2 of the PDF for the refund); a question the knowledge does not answer
// gets no recited passage.
func TestKnowledgeAnswersAreSpokenOnACall(t *testing.T) {
	k := &indexed{}
	k.add(t, "shop.md", kb.Markdown, []byte(shopMarkdown))
	k.add(t, "faq.pdf", kb.PDF, knowledgetest.PDF(
		knowledgetest.Page{Paragraphs: []string{"Q: Do you deliver on weekends?", "A: We deliver on Saturdays between 9am and 1pm."}},
		knowledgetest.Page{Paragraphs: []string{"Q: How long does a refund take?", "A: Refunds reach your card within 5 working days. We refund the original payment method only."}},
	))
	e := engine(conversation.Deps{Knowledge: k})
	g := newFlow().node("start", workflow.Start, nil).
		node("ask", workflow.Agent, workflow.Data{"instruction": `Say "What can I help you with?"`}).
		node("cr", workflow.CustomerResponse, workflow.Data{"description": "A question"}).
		node("answer", workflow.Agent, workflow.Data{"instruction": `Say "Anything else?"`}).
		edges("start>ask", "ask>cr", "cr>answer", "answer>cr").g
	questions := map[string]string{
		"What are your opening hours?":    "We are open from nine to five, Monday to Friday.", // the agent's FAQ first
		"When are you open on Saturday?":  "Saturday: 10 a.m. to 2 p.m.",
		"How long does a refund take?":    "Refunds reach your card within 5 working days.",
		"How much is the premium plan?":   "Premium: 1,200 dollars a year, for example for teams of up to 20 people.",
		"Do you deliver on Saturdays?":    "We deliver on Saturdays between 9 a.m. and 1 p.m.",
		"Do you sell dog food?":           llm.DontKnow, // nothing answers it: said honestly
		"Is the kettle dishwasher safe?":  llm.DontKnow,
		"Can I pay in bitcoin on Sunday?": "",
	}
	for q, want := range questions {
		acts, _ := call(t, e, setup(g), q)
		turns := said(acts)
		if len(turns) != 2 {
			t.Fatalf("%q: turns %q", q, turns)
		}
		turn := turns[1]
		answer, ok := strings.CutSuffix(turn, " Anything else?")
		if !ok {
			answer = strings.TrimSuffix(turn, "Anything else?")
		}
		if answer != want {
			t.Errorf("%q: the agent said %q, want %q", q, turn, want)
		}
		if markup.MatchString(turn) {
			t.Errorf("%q: %q has markup, labels or written notation", q, turn)
		}
		if n := len(regexp.MustCompile(`[.!?](\s|$)`).FindAllString(strings.NewReplacer("a.m.", "am", "p.m.", "pm").Replace(answer), -1)); n > 2 {
			t.Errorf("%q: %q is %d sentences", q, answer, n)
		}
	}
}
