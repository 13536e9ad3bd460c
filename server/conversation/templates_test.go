package conversation_test

import (
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/workflow"
)

// accepting answers every webhook with 200 and an empty object.
type accepting struct{}

func (accepting) Do(*http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(strings.NewReader("{}"))}, nil
}

// shipped answers the seeded templates by id, their own placeholders filled as a user would
// when making a workflow from them, and the after-hours on-call number added.
func shipped(t *testing.T) map[string]workflow.Graph {
	t.Helper()
	db := testdb.Open(t, store.SQLite, true)
	rows, _, err := db.ListWorkflowTemplates(context.Background(), "", 100, 0)
	if err != nil || len(rows) < 8 {
		t.Fatalf("templates: %d %v", len(rows), err)
	}
	values := strings.NewReplacer("{{companyName}}", "Acme", "{{supportEmail}}", "help@acme.example", "{{operatingHours}}", "nine to five on weekdays",
		"{{businessAddress}}", "12 Market Street", "{{commonIssue1}}", "signing in", "{{commonIssue2}}", "billing", "{{commonIssue3}}", "deliveries")
	out := map[string]workflow.Graph{}
	for _, r := range rows {
		g, err := workflow.Parse([]byte(values.Replace(r.Graph)))
		if err != nil {
			t.Fatal(err)
		}
		for i, n := range g.Nodes {
			if n.Type == workflow.ForwardCall {
				g.Nodes[i].Data[workflow.FieldDestination] = "+14155550199"
			}
		}
		out[r.ID] = g
	}
	return out
}

// A customer who speaks for each branch of every shipped template, and what the call must
// come to.
var templateCalls = []struct {
	name, template string
	replies        []string
	branch         string // the last branch the words chose ("" when the flow has none)
	forwarded      bool
}{
	{"support: signing in", "template-customer-support", []string{"Hi, I have trouble signing in to my account."}, "says-issue1", false},
	{"support: billing", "template-customer-support", []string{"It's about billing, I was charged twice."}, "says-issue2", false},
	{"support: deliveries", "template-customer-support", []string{"My deliveries keep arriving late."}, "says-issue3", false},
	{"support: a person", "template-customer-support", []string{"Can I speak to a person, please?"}, "says-other", false},
	{"appointment: confirms", "template-appointment-reminder", []string{"Yes, I'll be there."}, "yes", false},
	{"appointment: cannot come", "template-appointment-reminder", []string{"Sorry?", "No, I can't come, can we do another time?", "Thursday at 2 pm would be better."}, "no", false},
	{"lead: interested", "template-lead-qualification", []string{"Yes, I'm interested. Can I see a demo?", "Tuesday morning works.", "It's ann dot lee at example dot com."}, "hot", false},
	{"lead: not interested", "template-lead-qualification", []string{"No thanks, we're not interested."}, "cold", false},
	{"feedback", "template-feedback", []string{"I'd say a four, the delivery was quick."}, "", false},
	{"order update: a question", "template-order-update", []string{"When will it arrive, in the morning?"}, "", false},
	{"order update: goodbye", "template-order-update", []string{"Great, thanks. Bye!"}, "", false},
	{"after hours: urgent", "template-after-hours", []string{"Yes, it's urgent, there's water coming through the ceiling."}, "yes", true},
	{"after hours: can wait", "template-after-hours", []string{"No, it can wait until tomorrow.", "This is Ann Lee, on 415 555 0100, please call me about my invoice."}, "no", false},
	{"booking", "template-booking-confirmation", []string{"Yes, that's all correct."}, "", false},
	{"answer calls: a known question", "template-answer-calls", []string{"What are your opening hours?", "No, that is all, thanks. Goodbye."}, "done-more", false},
	{"answer calls: an unknown question", "template-answer-calls", []string{"Do you sell gift cards?", "Could you say that again?", "Yes, I'd like to leave a message about gift cards."}, "asks-more", false},
	{"answer calls: wrong number", "template-answer-calls", []string{"Sorry, wrong number. Goodbye."}, "done", false},
}

var (
	nonWord    = regexp.MustCompile(`[^a-z0-9|]+`)
	quotedText = regexp.MustCompile(`"[^"]*"`)
)

// words are the words of s, lower case, with the instruction's point of view folded into the
// agent's ("their order" and "your order" are the same words), so a paraphrase that only
// swaps pronouns still counts as reading the instruction.
func words(s string) []string {
	ws := strings.Fields(nonWord.ReplaceAllString(strings.ToLower(s), " "))
	for i, w := range ws {
		switch w {
		case "their", "his", "her":
			ws[i] = "your"
		case "they", "them", "he", "she", "him":
			ws[i] = "you"
		}
	}
	return ws
}

// Every shipped template, played through each of its branches with the local brain: the agent
// says the steps' lines (filled), never their instructions, the words take the right branch, and
// the call ends politely.
func TestShippedTemplatesSpeakTheirLines(t *testing.T) {
	graphs := shipped(t)
	covered := map[string]bool{}
	e := engine(conversation.Deps{HTTP: accepting{}})
	for _, tc := range templateCalls {
		g, ok := graphs[tc.template]
		if !ok {
			t.Fatalf("no template %s", tc.template)
		}
		covered[tc.template] = true
		s := setup(g)
		s.Contact.Extra = map[string]string{"orderStatus": "shipped", "deliveryDate": "Friday"}
		acts, st := call(t, e, s, tc.replies...)
		r, _ := e.Result(st)
		var lines []string
		for _, n := range g.Nodes {
			if workflow.Speaks(n.Type) {
				lines = append(lines, fillFor(workflow.Line(n)))
			}
		}
		var transcript []string
		for _, turn := range r.Turns {
			transcript = append(transcript, turn.Speaker+": "+turn.Text)
			if turn.Speaker != "agent" {
				continue
			}
			for _, n := range g.Nodes {
				// Quoted text in an instruction is a line to say (workflow.Line): it may be said.
				instr := words(quotedText.ReplaceAllString(fillFor(n.Data.String(workflow.FieldInstruction)), " | "))
				said := " " + strings.Join(words(turn.Text), " ") + " "
				for i := 0; i+7 <= len(instr); i++ { // no run of 7 words of an instruction is spoken
					if run := strings.Join(instr[i:i+7], " "); strings.Contains(said, " "+run+" ") {
						t.Errorf("%s: the agent read %s's instruction (%q): %q", tc.name, n.ID, run, turn.Text)
					}
				}
			}
			if !endsWithLine(turn.Text, lines) {
				t.Errorf("%s: %q is none of the steps' lines", tc.name, turn.Text)
			}
			if strings.Contains(turn.Text, "{{") || strings.Contains(turn.Text, "  ") || strings.Contains(turn.Text, " ,") {
				t.Errorf("%s: unfilled or broken line %q", tc.name, turn.Text)
			}
		}
		branch := ""
		for _, x := range r.Steps {
			if x.Kind == "branch" {
				branch = x.NodeID
			}
		}
		if branch != tc.branch {
			t.Errorf("%s: branch %q, want %q\n%s", tc.name, branch, tc.branch, strings.Join(transcript, "\n"))
		}
		last := acts[len(acts)-1]
		if !r.Ended || (tc.forwarded != (last.Kind == conversation.Transfer)) || (!tc.forwarded && last.Kind != conversation.Hangup) {
			t.Errorf("%s: the call did not end as it should (%s)\n%s", tc.name, kinds(acts), strings.Join(transcript, "\n"))
		}
		ended := "" // how the flow ended: its End Call, or the customer's goodbye
		for _, x := range r.Steps {
			if x.Kind == string(workflow.EndCall) || x.Kind == "goodbye" {
				ended = x.Kind
			}
		}
		if want := map[bool]string{true: "goodbye", false: string(workflow.EndCall)}[strings.Contains(tc.name, "goodbye")]; !tc.forwarded && ended != want {
			t.Errorf("%s: the call ended by %q, want %q\n%s", tc.name, ended, want, strings.Join(transcript, "\n"))
		}
		final := r.Turns[len(r.Turns)-1].Text
		if !tc.forwarded && !strings.HasSuffix(final, "Goodbye.") {
			t.Errorf("%s: the call ends without a goodbye: %q", tc.name, final)
		}
		if tc.name == "order update: a question" || tc.name == "answer calls: an unknown question" {
			t.Logf("%s (%s):\n  %s", tc.name, tc.template, strings.Join(transcript, "\n  "))
		}
	}
	for id := range graphs {
		if !covered[id] {
			t.Errorf("template %s is not played", id)
		}
	}
}

// fillFor fills the placeholders of a line as the call of setup() does.
func fillFor(s string) string {
	return strings.NewReplacer("{{firstName}}", "Ann", "{{agentName}}", "Linda", "{{orderStatus}}", "shipped", "{{deliveryDate}}", "Friday").Replace(s)
}

// endsWithLine says whether an agent turn ends with a step's line (its greeting sentence may
// have been left out after the agent's greeting), an engine line, or a repeat of one.
func endsWithLine(turn string, lines []string) bool {
	engine := []string{"Thank you for your time. Goodbye.", "Sorry, I didn't catch that. Are you still there?"}
	for _, l := range append(lines, engine...) {
		if l == "" {
			continue
		}
		if strings.HasSuffix(turn, l) {
			return true
		}
		if _, rest, ok := strings.Cut(l, ". "); ok && strings.HasSuffix(turn, rest) {
			return true
		}
	}
	return false
}
