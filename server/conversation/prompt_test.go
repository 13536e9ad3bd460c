package conversation

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/llm"
)

// The prompt of an utterance stays within its budget: the least relevant passages go first,
// then the oldest turns (counted in a line that says so); the step's instruction, its example
// line and the customer's last words always stay.
func TestSayPromptBudget(t *testing.T) {
	w := &walk{e: New(Deps{}), s: Setup{Contact: Contact{FirstName: "Ann"}}, st: &state{}, prof: Profile{Name: "Linda", Instructions: strings.Repeat("Be kind. ", 2000)}}
	for i := range 40 {
		who := "customer"
		if i%2 == 1 {
			who = "agent"
		}
		w.st.Turns = append(w.st.Turns, turn{Speaker: who, Text: fmt.Sprintf("turn %d %s", i, strings.Repeat("words ", 50))})
	}
	w.st.Turns = append(w.st.Turns, turn{Speaker: "customer", Text: "When do you open on Sunday?"})
	var answers []string
	for i := range 30 {
		answers = append(answers, fmt.Sprintf("passage %d: %s", i, strings.Repeat("facts ", 100)))
	}
	b := llm.Brief{AgentName: "Linda", Instruction: "Answer the question.", Say: "We open at ten on Sundays.", Facts: answers, CustomerSaid: "When do you open on Sunday?"}
	const budget = 8000
	msgs, size := w.sayPrompt(b, budget)
	total := 0
	for _, m := range msgs {
		total += len(m.Content)
	}
	if total > budget || size.Chars != total {
		t.Fatalf("%d characters (said %d) over a budget of %d", total, size.Chars, budget)
	}
	sys := msgs[0].Content
	if !strings.Contains(sys, "Answer the question.") || !strings.Contains(sys, `"We open at ten on Sundays."`) {
		t.Fatalf("instruction or example line missing:\n%s", sys)
	}
	if size.Passages == 0 || size.PassagesDropped == 0 || size.Passages+size.PassagesDropped != 30 {
		t.Fatalf("passages %+v", size)
	}
	for i := range 30 {
		if kept := strings.Contains(sys, fmt.Sprintf("passage %d:", i)); kept != (i < size.Passages) {
			t.Fatalf("passage %d kept=%v: the most relevant (first) are kept, %+v", i, kept, size)
		}
	}
	if size.TurnsDropped == 0 || size.Turns+size.TurnsDropped != 41 || !strings.Contains(sys, fmt.Sprintf("(%d earlier turns", size.TurnsDropped)) {
		t.Fatalf("turns %+v", size)
	}
	if last := msgs[len(msgs)-1]; last.Role != llm.User || last.Content != "When do you open on Sunday?" {
		t.Fatalf("the customer's last words: %+v", last)
	}
	if len(msgs) != 1+size.Turns || !strings.Contains(msgs[1].Content, fmt.Sprintf("turn %d ", 41-size.Turns)) {
		t.Fatalf("the newest turns are kept in order: %d messages, first %q", len(msgs), msgs[1].Content[:20])
	}

	// A small call fits whole: nothing is dropped and nothing says so; a reply said sentence
	// by sentence (a turn each) is one message.
	w.st.Turns = append(w.st.Turns[len(w.st.Turns)-3:], turn{Speaker: "agent", Text: "Sure."}, turn{Speaker: "agent", Text: "We open at ten."},
		turn{Speaker: "customer", Text: "Thanks."})
	w.prof.Instructions = "Be kind."
	msgs, size = w.sayPrompt(llm.Brief{AgentName: "Linda", Instruction: "Answer.", Answers: answers[:2]}, promptBudget)
	if size.PassagesDropped != 0 || size.TurnsDropped != 0 || size.Turns != 6 || len(msgs) != 6 || strings.Contains(msgs[0].Content, "left out") ||
		msgs[4].Role != llm.Assistant || msgs[4].Content != "Sure. We open at ten." {
		t.Fatalf("small call: %+v %+v", size, msgs)
	}
}
