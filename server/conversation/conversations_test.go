package conversation_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/conversation"
	kb "github.com/bettyhq/betty/server/knowledge"
	"github.com/bettyhq/betty/server/knowledge/knowledgetest"
	"github.com/bettyhq/betty/server/llm"
	"github.com/bettyhq/betty/server/workflow"
)

// asker is the persona who calls with questions: two the knowledge base answers (a markdown
// table, page 2 of a PDF), one it does not.
const asker = `Wants to know when you are open on Saturday, asks how long a refund takes and asks whether you sell gift cards. E-mail jo.park@example.com; free on Friday at 11 am.`

// Issue 22's "done when": every shipped template is played through simulated calls with the
// local brain, the local knowledge and the simulated customer, once in each persona the flow's
// branches call for (conversation.Personas) and once by a caller with questions. Each call
// must read as one a person could have had: no step's instruction is spoken, no markdown or
// "Q:"/"A:" label is spoken, every question the caller asks for information is answered from
// the knowledge base or FAQ or honestly declined, each persona's words take the branch they
// were written for, the call ends politely, and the post-call fields the flow defines are
// filled by what the customers said.
//
// BETTY_TRANSCRIPTS=dir writes each call's transcript there (docs/conversation.md quotes two).
func TestEveryTemplateAsACallAPersonCouldHave(t *testing.T) {
	graphs := shipped(t)
	ids := make([]string, 0, len(graphs))
	for id := range graphs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	k := &indexed{}
	k.add(t, "shop.md", kb.Markdown, []byte(shopMarkdown))
	k.add(t, "faq.pdf", kb.PDF, knowledgetest.PDF(
		knowledgetest.Page{Paragraphs: []string{"Q: Do you deliver on weekends?", "A: We deliver on Saturdays between 9am and 1pm."}},
		knowledgetest.Page{Paragraphs: []string{"Q: How long does a refund take?", "A: Refunds reach your card within 5 working days. We refund the original payment method only."}},
	))
	e := engine(conversation.Deps{Knowledge: k, HTTP: accepting{}})
	c := conversation.NewCustomer(conversation.CustomerOptions{Seed: 22, DoNotCallRate: -1})
	out := os.Getenv("BETTY_TRANSCRIPTS")
	for _, id := range ids {
		g := graphs[id]
		filled := map[string]bool{}
		personas := append(conversation.Personas(g), asker)
		for i := range personas[:len(personas)-1] {
			personas[i] += " Phone +14155550100." // as JobPersona tells a job's contacts
		}
		for i, persona := range personas {
			s := setup(g)
			s.Contact.Extra = map[string]string{"orderStatus": "shipped", "deliveryDate": "Friday"}
			r, hungUp := talk(t, e, c, s, persona)
			sum, err := e.Summarize(context.Background(), s, r)
			if err != nil {
				t.Fatal(err)
			}
			var transcript []string
			for _, turn := range r.Turns {
				transcript = append(transcript, turn.Speaker+": "+turn.Text)
			}
			name := fmt.Sprintf("%s, persona %d", id, i+1)
			show := strings.Join(transcript, "\n  ")
			if out != "" {
				text := fmt.Sprintf("%s\npersona: %s\n\n%s\n\nsummary: %s\nfields: %+v\n", name, persona, strings.Join(transcript, "\n"), sum.Analysis.Summary, sum.Analysis.Fields)
				if err := os.WriteFile(fmt.Sprintf("%s/%s-%d.txt", out, id, i+1), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for j, turn := range r.Turns {
				if turn.Speaker != "agent" {
					continue
				}
				if n := readsInstruction(g, turn.Text); n != "" {
					t.Errorf("%s: the agent read %s's instruction: %q", name, n, turn.Text)
				}
				if markup.MatchString(turn.Text) {
					t.Errorf("%s: markup, a label or written notation spoken: %q", name, turn.Text)
				}
				if j == 0 {
					continue
				}
				if prev := r.Turns[j-1]; prev.Speaker == "customer" && llm.IsQuestion(prev.Text) && llm.AsksToKnow(prev.Text) &&
					!strings.Contains(turn.Text, llm.DontKnow) && !answers(turn.Text, g) {
					t.Errorf("%s: %q was neither answered nor declined: %q\n  %s", name, prev.Text, turn.Text, show)
				}
			}
			if i < len(personas)-1 { // a branch persona: its words take the branches they were written for
				for _, st := range r.Steps {
					if st.Kind != "branch" {
						continue
					}
					n := nodeByID(g, st.NodeID)
					if line := conversation.LineOf(firstOf(n.Data.String(workflow.FieldDescription), n.Data.String(workflow.FieldNodeLabel))); !strings.Contains(persona, fmt.Sprintf("%q", line)) {
						t.Errorf("%s: took %q (%q), which none of the persona's lines is for\n  %s", name, st.NodeID, line, show)
					}
					break
				}
			}
			last := lastAgent(r)
			switch {
			case !r.Ended && !hungUp:
				t.Errorf("%s: the call did not end\n  %s", name, show)
			case r.ForwardedTo != "":
				if !strings.Contains(strings.ToLower(last), "hold") {
					t.Errorf("%s: forwarded without asking to hold: %q", name, last)
				}
			case !strings.Contains(strings.ToLower(last), "goodbye") && !strings.Contains(strings.ToLower(last), "bye"):
				t.Errorf("%s: the call ends without a goodbye: %q\n  %s", name, last, show)
			}
			if strings.Contains(sum.Analysis.Summary, "time(s)") || strings.Contains(sum.Analysis.Summary, "spoke") {
				t.Errorf("%s: the summary counts turns: %q", name, sum.Analysis.Summary)
			}
			for _, f := range sum.Analysis.Fields {
				filled[f.Name] = true
			}
		}
		for _, f := range g.Fields {
			if !filled[f.Name] {
				t.Errorf("%s: no call filled the post-call field %q (%s)", id, f.Name, f.Description)
			}
		}
	}
}

// readsInstruction names the node whose instruction the agent's words read (a run of seven of
// its words, quoted lines aside), "" when none.
func readsInstruction(g workflow.Graph, text string) string {
	said := " " + strings.Join(words(text), " ") + " "
	for _, n := range g.Nodes {
		instr := words(quotedText.ReplaceAllString(fillFor(n.Data.String(workflow.FieldInstruction)), " | "))
		for i := 0; i+7 <= len(instr); i++ {
			if strings.Contains(said, " "+strings.Join(instr[i:i+7], " ")+" ") {
				return n.ID
			}
		}
	}
	return ""
}

// answers says whether an agent turn holds more than the flow's own lines: an answer.
func answers(turn string, g workflow.Graph) bool {
	rest := turn
	for _, n := range g.Nodes {
		if l := fillFor(workflow.Line(n)); l != "" {
			rest = strings.ReplaceAll(rest, l, "")
		}
	}
	return len(words(rest)) >= 4
}

func nodeByID(g workflow.Graph, id string) workflow.Node {
	for _, n := range g.Nodes {
		if n.ID == id {
			return n
		}
	}
	return workflow.Node{}
}

func firstOf(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

func lastAgent(r conversation.Result) string {
	for i := len(r.Turns) - 1; i >= 0; i-- {
		if r.Turns[i].Speaker == "agent" {
			return r.Turns[i].Text
		}
	}
	return ""
}
