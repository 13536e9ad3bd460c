package conversation_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/phones"
)

// script plays the agent's lines one by one to the customer and answers what they said to
// each, stopping when they hang up.
func script(t *testing.T, c *conversation.Customer, persona string, agent ...string) (said []string, hungUp bool) {
	t.Helper()
	var call []phones.SpokenTurn
	for _, line := range agent {
		call = append(call, phones.SpokenTurn{Agent: true, Text: line})
		r, err := c.Reply(context.Background(), persona, call)
		if err != nil {
			t.Fatal(err)
		}
		said = append(said, r.Text)
		if r.Text != "" {
			call = append(call, phones.SpokenTurn{Text: r.Text})
		}
		if r.HangUp {
			return said, true
		}
	}
	return said, false
}

// The customer asks the persona's questions when invited and after each answer, says goodbye
// when they are answered, and hangs up when the agent talks on.
func TestTheCustomerAsksThePersonasQuestions(t *testing.T) {
	c := conversation.NewCustomer(conversation.CustomerOptions{Seed: 1})
	said, hungUp := script(t, c, "Wants to know the opening hours and asks whether they deliver on Sundays.",
		"Hi, this is Sam from Corner Bakery. How can I help?",
		"We're open from 8 a.m. to 6 p.m., Monday to Saturday.",
		"Yes, we deliver on Sundays within the city.",
		"Is there anything else I can help with?",
		"Would you like to hear about our weekly offers?")
	want := []string{"Could you tell me the opening hours?", "do you deliver on Sundays?"}
	if !strings.Contains(said[0], want[0]) || !strings.Contains(said[1], want[1]) {
		t.Fatalf("the questions were not asked in turn: %q", said)
	}
	if !strings.Contains(strings.ToLower(said[2]), "bye") {
		t.Fatalf("no goodbye once the questions were answered: %q", said)
	}
	if !hungUp || len(said) != 4 {
		t.Fatalf("the customer did not hang up when the agent talked on (hung up %v): %q", hungUp, said)
	}
}

// Details the persona holds are given when asked; details it lacks are never made up.
func TestTheCustomerGivesThePersonasDetails(t *testing.T) {
	c := conversation.NewCustomer(conversation.CustomerOptions{Seed: 2})
	persona := "Ann, interested in a demo; e-mail ann.lee@example.com; free on Tuesday at 3 pm; order number A-1042."
	said, _ := script(t, c, persona,
		"Hi Ann, would you like a demo of the new plan?",
		"Great. What's the best e-mail address to send the invitation to?",
		"Which day works best for you?",
		"And could you read me your order number?")
	if !strings.HasPrefix(said[0], "Yes") {
		t.Errorf("an interested persona said %q to the offer", said[0])
	}
	if !strings.Contains(said[1], "ann.lee@example.com") || !strings.Contains(said[2], "Tuesday at 3 pm") || !strings.Contains(said[3], "A-1042") {
		t.Fatalf("details not given: %q", said)
	}
	none, _ := script(t, c, "A friendly customer", "What's your e-mail address?")
	if strings.Contains(none[0], "@") {
		t.Fatalf("an e-mail was made up: %q", none[0])
	}
	dnc, _ := script(t, c, "Asks not to be called again", "Hi, is this a good time?")
	if !conversation.AsksNotToBeCalled(dnc[0]) {
		t.Fatalf("a do-not-call persona said %q", dnc[0])
	}
}

// A job's contacts are drawn from personas that, together, take every branch of the flow.
func TestJobPersonasCoverEveryBranch(t *testing.T) {
	g := renewal()
	personas := conversation.Personas(g)
	if len(personas) != 4 {
		t.Fatalf("%d personas for a choice of 4: %q", len(personas), personas)
	}
	e := engine(conversation.Deps{})
	c := conversation.NewCustomer(conversation.CustomerOptions{Seed: 3, DoNotCallRate: -1})
	taken := map[string]bool{}
	for _, p := range personas {
		r, _ := talk(t, e, c, setup(g), p)
		for _, s := range r.Steps {
			if s.Kind == "branch" {
				taken[s.NodeID] = true
				break // the first choice: later ones loop back
			}
		}
	}
	got := make([]string, 0, len(taken))
	for b := range taken {
		got = append(got, b)
	}
	slices.Sort(got)
	if strings.Join(got, ",") != "human,no,other,yes" {
		t.Fatalf("branches taken by the job personas: %v (%q)", got, personas)
	}
	if a, b := conversation.JobPersona(personas, "+14155550100"), conversation.JobPersona(personas, "+14155550100"); a != b || a == "" {
		t.Fatalf("a contact's persona is not stable: %q / %q", a, b)
	}
	seen := map[string]bool{}
	for _, phone := range []string{"+14155550100", "+14155550101", "+14155550102", "+14155550103", "+14155550104", "+14155550105", "+14155550106", "+14155550107"} {
		seen[conversation.JobPersona(personas, phone)] = true
	}
	if len(seen) < 3 {
		t.Fatalf("eight contacts drew only %d personas", len(seen))
	}
}

// A branch's description becomes what a person says to take it.
func TestBranchLines(t *testing.T) {
	for desc, want := range map[string]string{
		"Yes, wants to renew":                            "Yes, I want to renew.",
		"No, not interested":                             "No, I'm not interested.",
		"Wants to speak to a human representative":       "Yes, I want to speak to a human representative.",
		"Says it is urgent.":                             "It's urgent.",
		"Asks a question or says what you need":          "I have a question: what are your opening hours?",
		"Asks another question or needs something else":  "I have another question: do you deliver on weekends?",
		"No, nothing, wrong number, no thanks, goodbye":  "No, nothing. Goodbye.",
		"Yes, confirms you will come":                    "Yes, I confirm I will come.",
		"Cannot come or wants another time":              "No, I cannot come.",
		"Something else, or asks for a person":           "Something else.",
		"Yes, interested, or asks for a price or a demo": "Yes, I'm interested.",
		"The customer says \"I want to cancel\"":         "I want to cancel",
		"Customer asks for a manager":                    "Could I speak to a manager?",
		"Deliveries":                                     "Deliveries.",
		"Customer is busy":                               "I'm busy.",
	} {
		if got := conversation.LineOf(desc); got != want {
			t.Errorf("%q: %q, want %q", desc, got, want)
		}
	}
}
