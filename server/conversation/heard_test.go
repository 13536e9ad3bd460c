package conversation_test

import (
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/workflow"
)

func TestAsksToRepeatAndSaysGoodbye(t *testing.T) {
	for s, want := range map[string]bool{
		"Could you say that again?": true, "Sorry?": true, "pardon": true, "Pardon me?": true, "What?": true,
		"Sorry, could you repeat that please?": true, "I didn't catch that.": true, "come again?": true,
		"Sorry, I can't come.": false, "what": false, "Can you say it in French?": false, "Yes": false, "": false,
	} {
		if got := conversation.AsksToRepeat(s); got != want {
			t.Errorf("AsksToRepeat(%q) = %v, want %v", s, got, want)
		}
	}
	for s, want := range map[string]bool{
		"Bye!": true, "Okay, goodbye.": true, "That's all, thanks.": true, "No, that is all.": true, "Have a nice day": true,
		"Yes please": false, "Maybe by Friday": false, "I'd like to buy one": false, "Yes, that's all correct.": false,
		"That's it for today.": true,
	} {
		if got := conversation.SaysGoodbye(s); got != want {
			t.Errorf("SaysGoodbye(%q) = %v, want %v", s, got, want)
		}
	}
}

// "Say that again" repeats the agent's last line and leaves the flow where it was; a goodbye
// ends the call politely, unless the flow has a path for it.
func TestRepeatAndGoodbye(t *testing.T) {
	e := engine(conversation.Deps{})
	s := setup(renewal())
	acts, st := call(t, e, s, "Sorry, could you say that again?", "Yes please, I'd like to renew")
	words := said(acts)
	if len(words) < 2 || !strings.HasSuffix(words[1], "Do you want to renew your subscription?") || words[len(words)-1] != "Goodbye." {
		t.Fatalf("repeat: %q", words)
	}
	if steps := stepsOf(t, e, st); steps[0].Kind != "repeat" {
		t.Fatalf("steps %s", mustJSON(steps))
	}
	acts, st = call(t, e, s, "Bye!")
	if kinds(acts) != "say,listen,say,hangup" || said(acts)[1] != "Thank you for your time. Goodbye." {
		t.Fatalf("goodbye: %s %q", kinds(acts), said(acts))
	}
	if r, _ := e.Result(st); !r.Ended || conversation.OutcomeOf(r) != conversation.OutcomeCompleted {
		t.Fatalf("goodbye result %+v", r)
	}
	// A path drawn for leaving: the flow's own lines.
	g := newFlow().node("start", workflow.Start, nil).
		node("ask", workflow.Agent, workflow.Data{"say": "Anything else?"}).
		node("cp", workflow.ConditionalPath, nil).
		node("more", workflow.CustomerResponse, workflow.Data{"description": "Asks something else"}).
		node("done", workflow.CustomerResponse, workflow.Data{"description": "No, that is all, goodbye"}).
		node("end1", workflow.EndCall, workflow.Data{"say": "Let me check. Goodbye."}).
		node("end2", workflow.EndCall, workflow.Data{"say": "Thanks for calling, {{firstName}}. Goodbye."}).
		edges("start>ask", "ask>cp", "cp>more", "cp>done", "more>end1", "done>end2").g
	acts, _ = call(t, e, setup(g), "No, that's all. Goodbye.")
	if w := said(acts); w[len(w)-1] != "Thanks for calling, Ann. Goodbye." {
		t.Fatalf("drawn goodbye: %q", w)
	}
	// A path drawn for repeating: the flow's own.
	g2 := newFlow().node("start", workflow.Start, nil).
		node("ask", workflow.Agent, workflow.Data{"say": "Shall we renew it?"}).
		node("cp", workflow.ConditionalPath, nil).
		node("yes", workflow.CustomerResponse, workflow.Data{"description": "Yes"}).
		node("again", workflow.CustomerResponse, workflow.Data{"description": "Asks to repeat"}).
		node("end", workflow.EndCall, workflow.Data{"say": "Goodbye."}).
		node("slow", workflow.Agent, workflow.Data{"say": "Let me put it another way: would you like to keep your plan?"}).
		node("end2", workflow.EndCall, workflow.Data{"say": "Thank you. Goodbye."}).
		edges("start>ask", "ask>cp", "cp>yes", "cp>again", "yes>end", "again>slow", "slow>end2").g
	acts, _ = call(t, e, setup(g2), "Could you repeat that?")
	if w := said(acts); len(w) != 3 || w[1] != "Let me put it another way: would you like to keep your plan?" {
		t.Fatalf("drawn repeat: %q", w)
	}
}

// A line never says a blank: a missing name is left out after a salutation, a sentence whose
// value is missing is not said.
func TestLinesWithoutValues(t *testing.T) {
	g := newFlow().node("start", workflow.Start, nil).
		node("tell", workflow.Agent, workflow.Data{"nodeLabel": "Order status",
			"say": "Hi {{firstName}}, this is {{agentName}}. Your order is {{orderStatus}}. Thank you, {{firstName}}."}).
		node("end", workflow.EndCall, workflow.Data{"say": "Bye {{firstName}}!"}).
		edges("start>tell", "tell>end").g
	s := setup(g)
	s.Contact.FirstName = ""
	e := engine(conversation.Deps{Agents: agents{"org1/ag1": conversation.Profile{Name: "Linda"}}})
	acts, _ := call(t, e, s)
	if got := strings.Join(said(acts), "|"); got != "Hi, this is Linda. Thank you.|Bye!" {
		t.Fatalf("said %q", got)
	}
	s.Contact.FirstName, s.Contact.Extra = "Ann", map[string]string{"orderStatus": "on its way"}
	acts, _ = call(t, e, s)
	if got := strings.Join(said(acts), "|"); got != "Hi Ann, this is Linda. Your order is on its way. Thank you, Ann.|Bye Ann!" {
		t.Fatalf("said %q", got)
	}
}
