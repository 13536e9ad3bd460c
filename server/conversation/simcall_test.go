package conversation_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/conversation/timing"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/phones/sim"
	"github.com/bettyhq/betty/server/speech"
	"github.com/bettyhq/betty/server/speech/espeak"
	"github.com/bettyhq/betty/server/speech/espeak/espeaktest"
)

// driver holds one simulated call with the engine, the way the dialer does: the engine's
// actions become carrier commands, the carrier's events feed the engine, the State goes
// between them as bytes.
type driver struct {
	e     *conversation.Engine
	s     conversation.Setup
	calls *sim.Calls

	mu       sync.Mutex
	seen     map[string]bool
	st       conversation.State
	answered time.Time
	n        int
	mp3      []byte
	done     chan struct{}
}

func (d *driver) HandleCallEvent(ctx context.Context, ev phones.CallEvent) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.seen[ev.ID] {
		return nil
	}
	d.seen[ev.ID] = true
	var acts []conversation.Action
	var err error
	switch ev.Kind {
	case phones.EventAnswered:
		d.answered = ev.At
		d.st, acts, err = d.e.Start(ctx, d.s)
	case phones.EventHeard:
		d.st, acts, err = d.e.Heard(ctx, d.s, d.st, ev.Text, ev.At.Sub(d.answered))
	case phones.EventRecordingSaved:
		d.mp3 = ev.Recording
		close(d.done)
	}
	if err != nil {
		return err
	}
	for _, a := range acts {
		d.n++
		key := fmt.Sprint(d.n)
		switch a.Kind {
		case conversation.Say:
			err = d.calls.Speak(ctx, ev.CallControlID, a.Text, a.Voice, key)
		case conversation.Listen:
			err = d.calls.Listen(ctx, ev.CallControlID, 5*time.Second, key)
		case conversation.Transfer:
			err = d.calls.Transfer(ctx, ev.CallControlID, a.To, key)
		case conversation.Hangup:
			err = d.calls.Hangup(ctx, ev.CallControlID, key)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func TestSimulatedCallEndToEnd(t *testing.T) {
	espeaktest.Require(t)
	tts := espeak.New(espeak.Options{})
	e := engine(conversation.Deps{})
	calls := sim.NewCalls(sim.CallOptions{Seed: 5})
	defer calls.Close()
	d := &driver{e: e, s: setup(renewal()), calls: calls, seen: map[string]bool{}, done: make(chan struct{})}
	d.s.Persona = "A happy customer who wants to renew"
	d.s.IsTest = true
	calls.SetHandler(d)
	calls.SetCustomer(conversation.NewCustomer(conversation.CustomerOptions{Seed: 5}))
	calls.SetRecorder(conversation.NewRecorder(tts, "espeak-en-us-linda"))
	_, err := calls.Dial(context.Background(), phones.DialRequest{Key: "a1", AttemptID: "a1", From: "+14155550100", To: "+14155550101",
		Record: true, Simulation: &phones.Simulation{Persona: d.s.Persona, Outcome: phones.OutcomeAnswer}})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-d.done:
	case <-time.After(30 * time.Second):
		t.Fatal("no recording")
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	r, _ := e.Result(d.st)
	if !r.Ended || len(r.Turns) != 4 || r.Turns[1].Speaker != "customer" || conversation.OutcomeOf(r) != conversation.OutcomeCompleted {
		t.Fatalf("result %s", mustJSON(r))
	}
	// The transcript's offsets are the recording's: each turn starts where the timing model
	// puts it after the one before.
	for i := 1; i < len(r.Turns); i++ {
		if want := timing.Next(r.Turns[i-1].Offset, r.Turns[i-1].Text); r.Turns[i].Offset != want {
			t.Fatalf("turn %d at %s, want %s", i, r.Turns[i].Offset, want)
		}
	}
	dur, err := speech.MP3Duration(d.mp3)
	last := r.Turns[len(r.Turns)-1]
	if err != nil || dur < last.Offset+300*time.Millisecond || dur > last.Offset+timing.Speaking(last.Text) {
		t.Fatalf("recording of %s (%v); last turn at %s", dur, err, last.Offset)
	}
}
