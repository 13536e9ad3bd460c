package conversation_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/phones"
)

// converse runs the renewal flow with the simulated customer answering.
func converse(t *testing.T, e *conversation.Engine, c *conversation.Customer, persona string) conversation.Result {
	t.Helper()
	r, _ := talk(t, e, c, setup(renewal()), persona)
	return r
}

// talk plays a call of s between the engine and the simulated customer as phones/sim does:
// the customer hears the call so far and answers until the engine stops listening or the
// customer hangs up (hungUp).
func talk(t *testing.T, e *conversation.Engine, c phones.Customer, s conversation.Setup, persona string) (r conversation.Result, hungUp bool) {
	t.Helper()
	ctx := context.Background()
	st, acts, err := e.Start(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	var call []phones.SpokenTurn
	hear := func(acts []conversation.Action) {
		for _, a := range acts {
			if a.Kind == conversation.Say {
				call = append(call, phones.SpokenTurn{Agent: true, Text: a.Text})
			}
		}
	}
	hear(acts)
	for i := 0; i < 60 && len(acts) > 0 && acts[len(acts)-1].Kind == conversation.Listen; i++ {
		reply, err := c.Reply(ctx, persona, call)
		if err != nil {
			t.Fatal(err)
		}
		if reply.Text != "" {
			call = append(call, phones.SpokenTurn{Text: reply.Text})
		}
		r, _ := e.Result(st)
		st, acts, err = e.Heard(ctx, s, st, reply.Text, r.Turns[len(r.Turns)-1].Offset+5e9)
		if err != nil {
			t.Fatal(err)
		}
		if reply.HangUp {
			hungUp = true
			break
		}
		hear(acts)
	}
	r, _ = e.Result(st)
	return r, hungUp
}

func TestSimulatedCustomerFollowsPersona(t *testing.T) {
	e := engine(conversation.Deps{})
	c := conversation.NewCustomer(conversation.CustomerOptions{Seed: 1})
	cases := map[string]string{
		"A loyal customer who is happy with the service and wants to renew": conversation.OutcomeCompleted + "/yes",
		"Not interested in anything, a bit annoyed":                         conversation.OutcomeCompleted + "/no",
		"Wants to talk to a real person before deciding":                    conversation.OutcomeForwarded + "/human",
		"Asks not to be called again":                                       conversation.OutcomeDoNotCall + "/",
		"Silent: says nothing at all":                                       conversation.OutcomeNoResponse + "/",
		`Says "Yeah, go ahead and renew it" to everything`:                  conversation.OutcomeCompleted + "/yes",
	}
	for persona, want := range cases {
		r := converse(t, e, c, persona)
		branch := ""
		for _, s := range r.Steps {
			if s.Kind == "branch" {
				branch = s.NodeID
			}
		}
		if got := conversation.OutcomeOf(r) + "/" + branch; got != want {
			t.Errorf("%q: %s, want %s (%s)", persona, got, want, mustJSON(r.Turns))
		}
	}
	// The same seed and persona always answer the same; a job's contacts vary, and some of
	// them (seeded) ask not to be called again.
	q := []phones.SpokenTurn{{Agent: true, Text: "Do you want to renew?"}}
	a, _ := c.Reply(context.Background(), "contact +14155550100", q)
	b, _ := c.Reply(context.Background(), "contact +14155550100", q)
	if a != b {
		t.Fatalf("not deterministic: %v / %v", a, b)
	}
	outcomes := map[string]int{}
	dnc := conversation.NewCustomer(conversation.CustomerOptions{Seed: 7, DoNotCallRate: 0.1})
	for i := range 200 {
		r := converse(t, e, dnc, fmt.Sprintf("Contact %d: +1415555%04d", i, i))
		outcomes[conversation.OutcomeOf(r)]++
	}
	if outcomes[conversation.OutcomeDoNotCall] < 8 || outcomes[conversation.OutcomeDoNotCall] > 35 ||
		outcomes[conversation.OutcomeCompleted] < 100 || outcomes[conversation.OutcomeForwarded] != 0 {
		t.Fatalf("outcomes over 200 contacts: %v", outcomes)
	}
	never := conversation.NewCustomer(conversation.CustomerOptions{Seed: 7, DoNotCallRate: -1})
	for i := range 100 {
		if r := converse(t, e, never, fmt.Sprintf("Contact %d", i)); r.DoNotCall {
			t.Fatalf("DoNotCallRate -1 asked not to be called")
		}
	}
}

// The contacts of a job (personas that state nothing, one per person called) ask not to be
// called again in about DoNotCallRate of cases, whatever the seed: never all of them, never
// none over a few hundred.
func TestDoNotCallShareOfContacts(t *testing.T) {
	ctx := context.Background()
	for seed := int64(1); seed <= 20; seed++ {
		c := conversation.NewCustomer(conversation.CustomerOptions{Seed: seed})
		asked := 0
		const n = 400
		for i := range n {
			reply, err := c.Reply(ctx, fmt.Sprintf("the person at +1415555%04d", i), []phones.SpokenTurn{{Agent: true, Text: "Hi, this is Sam. Do you want to renew your plan?"}})
			if err != nil {
				t.Fatal(err)
			}
			if conversation.AsksNotToBeCalled(reply.Text) {
				asked++
			}
		}
		if share := float64(asked) / n; share < 0.01 || share > 0.12 {
			t.Errorf("seed %d: %d of %d contacts asked not to be called (want about 5%%)", seed, asked, n)
		}
	}
}
