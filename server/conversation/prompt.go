package conversation

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/bettyhq/betty/server/llm"
)

// The prompts a language model reads, compiled from the graph (the step's instruction and
// spoken line, the branches on offer), the agent profile, the passages retrieved for the
// customer's words and the contact's record. The local back-end reads the Brief instead.

// promptBudget bounds the prompt of an utterance, in characters (about 3,000 tokens at four
// characters a token): a model's time to its first word grows with what it reads, and a
// phone turn has about a second.
const promptBudget = 12000

// promptSize says what a compiled prompt kept and left out (the turn's log line).
type promptSize struct {
	Chars                     int
	Passages, PassagesDropped int
	Turns, TurnsDropped       int
}

// sayPrompt is the chat prompt of an utterance, within budget characters. What must be
// there comes first: who the agent is, how to speak, the step's instruction and example
// line, the greeting on the first turn, the contact's record once a Data Access step gave
// it (the profile's instructions cut to a quarter of the budget). The rest is shared: the
// newest turns take up to half of what is left (the customer's last words always), the
// passages, best first, what they leave (a passage that does not fit is dropped with every
// less relevant one), and older turns any room still free; turns left out are counted in a
// line that says so.
func (w *walk) sayPrompt(b llm.Brief, budget int) ([]llm.Message, promptSize) {
	var sys strings.Builder
	name := firstNonEmpty(b.AgentName, "the assistant")
	fmt.Fprintf(&sys, "You are %s, an AI voice agent on a live phone call", name)
	if who := strings.TrimSpace(w.s.Contact.FirstName + " " + w.s.Contact.LastName); who != "" {
		fmt.Fprintf(&sys, " with %s", who)
	}
	sys.WriteString(". Everything you write is spoken aloud: reply with one to three short sentences, no lists, no markdown, no stage directions. Never invent facts; when you do not know, say so and offer to take a message.\n")
	if p := strings.TrimSpace(w.prof.Instructions); p != "" {
		fmt.Fprintf(&sys, "\nAbout you and how to behave:\n%s\n", clip(p, budget/4))
	}
	fmt.Fprintf(&sys, "\nWhat to do now (this step of the call flow; a direction to you, never words to read out): %s\n",
		firstNonEmpty(b.Instruction, "carry on the conversation"))
	if s := strings.TrimSpace(b.Say); s != "" {
		fmt.Fprintf(&sys, "\nWhat the team wrote for this step, as an example of what to say (keep its facts, answer what the customer just said first): %q\n", s)
	}
	if b.First && strings.TrimSpace(b.Greeting) != "" {
		fmt.Fprintf(&sys, "\nThis is the first thing you say on the call: open with this greeting: %q\n", b.Greeting)
	}
	if w.st.Record {
		sys.WriteString("\nWhat we know about the caller:\n")
		for _, kv := range w.contactFields() {
			if kv[1] != "" {
				fmt.Fprintf(&sys, "- %s: %s\n", kv[0], oneLine(kv[1]))
			}
		}
	}
	left := budget - sys.Len() - 100 // the room of the line about turns left out, or of the last nudge
	turnMax := max(left/2, 200)      // the longest a turn is quoted

	// The newest turns, up to half of what is left.
	turns := w.st.Turns
	keep := 0 // turns kept, counted from the newest
	used := 0
	for i := len(turns) - 1; i >= 0; i-- {
		n := len(turns[i].Text)
		if keep > 0 && used+n > left/2 {
			break
		}
		keep, used = keep+1, used+min(n, turnMax)
	}
	left -= used

	var size promptSize
	if len(b.Facts) > 0 {
		const heading = "\nFacts you may use to answer the customer (from the FAQ and the knowledge base), most relevant first:\n"
		var facts strings.Builder
		for _, a := range b.Facts {
			line := "- " + oneLine(a) + "\n"
			if len(heading)+facts.Len()+len(line) > left {
				break
			}
			facts.WriteString(line)
			size.Passages++
		}
		size.PassagesDropped = len(b.Facts) - size.Passages
		if size.Passages > 0 {
			sys.WriteString(heading)
			sys.WriteString(facts.String())
			left -= len(heading) + facts.Len()
		}
	}
	// Older turns, in what is still free.
	for i := len(turns) - keep - 1; i >= 0; i-- {
		if len(turns[i].Text) > left {
			break
		}
		keep++
		left -= len(turns[i].Text)
	}
	size.Turns, size.TurnsDropped = keep, len(turns)-keep
	if size.TurnsDropped > 0 {
		fmt.Fprintf(&sys, "\n(%d earlier turns of the call are left out for length.)\n", size.TurnsDropped)
	}
	msgs := []llm.Message{{Role: llm.System, Content: sys.String()}}
	for _, t := range turns[len(turns)-keep:] {
		role := llm.User
		if t.Speaker == "agent" {
			role = llm.Assistant
		}
		if last := &msgs[len(msgs)-1]; len(msgs) > 1 && last.Role == role { // a reply said sentence by sentence
			last.Content += " " + clip(t.Text, turnMax)
			continue
		}
		msgs = append(msgs, llm.Message{Role: role, Content: clip(t.Text, turnMax)})
	}
	if len(msgs) == 1 || msgs[len(msgs)-1].Role == llm.Assistant {
		msgs = append(msgs, llm.Message{Role: llm.User, Content: "(The customer is listening. Say your next line.)"})
	}
	for _, m := range msgs {
		size.Chars += len(m.Content)
	}
	return msgs, size
}

// chooseMessages is the prompt of a branch choice: the options numbered from 1 as drawn, the
// agent's last words (what the customer answers) and the customer's.
func chooseMessages(asked, said string, choices []string) []llm.Message {
	var b strings.Builder
	b.WriteString("You route a phone call. Read what the customer said and call choose_branch with the number of the option that matches it best")
	b.WriteString(" (or end_call / transfer_call when offered and the customer clearly wants that).\n")
	for i, c := range choices {
		fmt.Fprintf(&b, "%d. %s\n", i+1, oneLine(c))
	}
	if asked != "" {
		fmt.Fprintf(&b, "\nThe agent last said: %q\n", clip(oneLine(asked), 500))
	}
	return []llm.Message{{Role: llm.System, Content: b.String()}, {Role: llm.User, Content: said}}
}

// clip bounds s to n bytes, on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
