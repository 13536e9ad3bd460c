package sim_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/phones/sim"
)

// speakOnHeard speaks two sentences while it handles the customer's words, as the call
// driver does with early speech, and refuses the words the first time (its transaction
// failed): delivered again, it speaks the same commands again.
type speakOnHeard struct {
	*events
	c     *sim.Calls
	tries int
}

func (h *speakOnHeard) HandleCallEvent(ctx context.Context, e phones.CallEvent) error {
	if e.Kind == phones.EventHeard {
		for i, s := range []string{"Sure.", "We open at nine."} {
			if err := h.c.Speak(ctx, e.CallControlID, s, "v1", "a:2."+string(rune('1'+i))); err != nil {
				return err
			}
		}
		if h.tries++; h.tries == 1 {
			return errors.New("the transaction failed")
		}
	}
	return h.events.HandleCallEvent(ctx, e)
}

// The simulator takes Speaks sent while an event is handled as Telnyx does: each key carried
// out once, in order, each with its own speak.ended, after the event being handled.
func TestEarlySpeechFromTheHandler(t *testing.T) {
	c := sim.NewCalls(sim.CallOptions{Seed: 1, RetryBase: time.Millisecond})
	defer c.Close()
	ev := newEvents()
	h := &speakOnHeard{events: ev, c: c}
	c.SetHandler(h)
	cu := &replies{}
	c.SetCustomer(cu)
	ctx := context.Background()
	req := dial("early")
	req.Simulation = &phones.Simulation{Persona: "Ann", Outcome: phones.OutcomeAnswer}
	call, err := c.Dial(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	id := call.CallControlID
	if err := c.Speak(ctx, id, "Hello Ann.", "v1", "a:1"); err != nil {
		t.Fatal(err)
	}
	if err := c.Listen(ctx, id, 5*time.Second, "a:2"); err != nil {
		t.Fatal(err)
	}
	ev.wait(t, "the early Says' ends", func() bool { return strings.Count(ev.kinds(id), "speak.ended") == 3 })
	if err := c.Listen(ctx, id, 5*time.Second, "a:5"); err != nil {
		t.Fatal(err)
	}
	ev.wait(t, "the next words", func() bool { return strings.Count(ev.kinds(id), "heard") == 2 })
	ev.mu.Lock()
	defer ev.mu.Unlock()
	if k := ev.kinds(id); k != "initiated,answered,speak.ended,heard,speak.ended,speak.ended,heard" {
		t.Fatalf("events %s", k)
	}
	// The first words twice (refused once), the second once: its Speaks, with keys carried
	// out already, were not carried out again (no speak.ended after it).
	if h.tries != 3 {
		t.Fatalf("the words were handled %d times", h.tries)
	}
	// The customer heard each sentence once, in order.
	if got := strings.Join(cu.heard[1], "|"); got != "Hello Ann.|Sure.|We open at nine." {
		t.Fatalf("the customer heard %q", got)
	}
}
