package sim_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/conversation/timing"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/phones/sim"
)

// events collects delivered events, per call, and can refuse some.
type events struct {
	mu     sync.Mutex
	all    []phones.CallEvent
	byCall map[string][]phones.CallEvent
	ids    map[string]int
	refuse func(phones.CallEvent) bool
	signal chan struct{}
}

func newEvents() *events {
	return &events{byCall: map[string][]phones.CallEvent{}, ids: map[string]int{}, signal: make(chan struct{}, 1)}
}

func (r *events) HandleCallEvent(_ context.Context, e phones.CallEvent) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ids[e.ID]++
	if r.refuse != nil && r.refuse(e) {
		return errors.New("not now")
	}
	r.all = append(r.all, e)
	r.byCall[e.CallControlID] = append(r.byCall[e.CallControlID], e)
	select {
	case r.signal <- struct{}{}:
	default:
	}
	return nil
}

// wait waits until ok holds.
func (r *events) wait(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		r.mu.Lock()
		done := ok()
		r.mu.Unlock()
		if done {
			return
		}
		select {
		case <-r.signal:
		case <-time.After(5 * time.Millisecond):
		case <-deadline:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func (r *events) kinds(id string) string {
	var out []string
	for _, e := range r.byCall[id] {
		out = append(out, strings.TrimPrefix(string(e.Kind), "call."))
	}
	return strings.Join(out, ",")
}

func dial(key string) phones.DialRequest {
	return phones.DialRequest{Key: key, AttemptID: "att-" + key, From: "+14155550100", To: "+14155550199"}
}

func TestOutcomeDistribution(t *testing.T) {
	run := func(seed int64) (map[string]int, []string) {
		c := sim.NewCalls(sim.CallOptions{Seed: seed, Answer: 0.5, Busy: 0.2, NoAnswer: 0.2, Voicemail: 0.1, ZeroLength: true})
		defer c.Close()
		ev := newEvents()
		c.SetHandler(ev)
		const n = 4000
		var ids []string
		for i := range n {
			call, err := c.Dial(context.Background(), dial(fmt.Sprint(i)))
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, call.CallControlID)
		}
		ev.wait(t, "every hangup", func() bool {
			h := 0
			for _, e := range ev.all {
				if e.Kind == phones.EventHangup {
					h++
				}
			}
			return h == n
		})
		ev.mu.Lock()
		defer ev.mu.Unlock()
		counts := map[string]int{}
		var seq []string
		for _, id := range ids {
			k := ev.kinds(id)
			counts[k]++
			seq = append(seq, k)
		}
		return counts, seq
	}
	counts, seq := run(42)
	// Zero-length answered calls and voicemails are answered then hung up; the rest end
	// with their cause.
	answered := counts["initiated,answered,hangup"]
	busy := counts["initiated,hangup"]
	if answered+busy != 4000 || answered < 2200 || answered > 2600 {
		t.Fatalf("counts %v", counts)
	}
	_, again := run(42)
	if strings.Join(seq, ";") != strings.Join(again, ";") {
		t.Fatal("the same seed drew different outcomes")
	}
	_, other := run(43)
	if strings.Join(seq, ";") == strings.Join(other, ";") {
		t.Fatal("another seed drew the same outcomes")
	}
}

func TestCausesAndForcedOutcomes(t *testing.T) {
	c := sim.NewCalls(sim.CallOptions{Seed: 1})
	defer c.Close()
	ev := newEvents()
	c.SetHandler(ev)
	want := map[phones.Outcome]string{
		phones.OutcomeBusy: "initiated,hangup:busy", phones.OutcomeNoAnswer: "initiated,hangup:no-answer",
		phones.OutcomeFailed: "initiated,hangup:failed", phones.OutcomeVoicemail: "initiated,answered,machine.detected",
		phones.OutcomeAnswer: "initiated,answered",
	}
	ids := map[phones.Outcome]string{}
	for o := range want {
		req := dial(string(o))
		req.DetectMachine = true
		req.Simulation = &phones.Simulation{Outcome: o}
		call, err := c.Dial(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		ids[o] = call.CallControlID
	}
	ev.wait(t, "the events", func() bool { return len(ev.all) == 11 })
	ev.mu.Lock()
	defer ev.mu.Unlock()
	for o, w := range want {
		var got []string
		for _, e := range ev.byCall[ids[o]] {
			k := strings.TrimPrefix(string(e.Kind), "call.")
			if e.Cause != "" {
				k += ":" + string(e.Cause)
			}
			if e.AttemptID != "att-"+string(o) {
				t.Fatalf("attempt id %q", e.AttemptID)
			}
			got = append(got, k)
		}
		if strings.Join(got, ",") != w {
			t.Errorf("%s: %s, want %s", o, strings.Join(got, ","), w)
		}
	}
	if _, err := c.Dial(context.Background(), phones.DialRequest{Key: "x"}); !errors.Is(err, phones.ErrRejected) {
		t.Fatalf("a dial without numbers: %v", err)
	}
}

// replies answers "reply to: <last line>".
type replies struct{ heard [][]string }

func (r *replies) Reply(_ context.Context, persona string, call []phones.SpokenTurn) (phones.CustomerReply, error) {
	var heard []string
	for _, t := range call {
		if t.Agent {
			heard = append(heard, t.Text)
		}
	}
	r.heard = append(r.heard, heard)
	if strings.Contains(persona, "silent") {
		return phones.CustomerReply{}, nil
	}
	return phones.CustomerReply{Text: persona + " replies to " + heard[len(heard)-1], HangUp: strings.Contains(persona, "leaves")}, nil
}

type recorder struct {
	mu    sync.Mutex
	turns []phones.SpokenTurn
}

func (r *recorder) Render(_ context.Context, turns []phones.SpokenTurn) ([]byte, error) {
	r.mu.Lock()
	r.turns = turns
	r.mu.Unlock()
	return []byte("ID3-fake-mp3"), nil
}

func TestConversationEventsInOrder(t *testing.T) {
	c := sim.NewCalls(sim.CallOptions{Seed: 1, RetryBase: time.Millisecond})
	defer c.Close()
	ev := newEvents()
	refused := map[string]bool{}
	ev.refuse = func(e phones.CallEvent) bool { // each speak.ended is refused twice
		if e.Kind == phones.EventSpeakEnded && !refused[e.ID+"2"] {
			if refused[e.ID] {
				refused[e.ID+"2"] = true
			}
			refused[e.ID] = true
			return true
		}
		return false
	}
	cu, rec := &replies{}, &recorder{}
	c.SetHandler(ev)
	c.SetCustomer(cu)
	c.SetRecorder(rec)
	ctx := context.Background()
	req := dial("k1")
	req.Record = true
	req.Simulation = &phones.Simulation{Persona: "Ann", Outcome: phones.OutcomeAnswer}
	call, err := c.Dial(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	// Dial is idempotent on the key.
	again, err := c.Dial(ctx, req)
	if err != nil || again.CallControlID != call.CallControlID {
		t.Fatalf("second dial: %v %v", again, err)
	}
	id := call.CallControlID
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(c.Speak(ctx, id, "Hello Ann.", "v1", "s1"))
	must(c.Speak(ctx, id, "Do you want to renew?", "v1", "s2"))
	must(c.Speak(ctx, id, "Do you want to renew?", "v1", "s2")) // the same command again: once
	must(c.Listen(ctx, id, 5*time.Second, "l1"))
	must(c.Speak(ctx, id, "Great.", "v1", "s3"))
	must(c.Hangup(ctx, id, "h1"))
	must(c.Hangup(ctx, id, "h2")) // over already: nil
	if err := c.Speak(ctx, id, "Too late", "v1", "s4"); !errors.Is(err, phones.ErrRejected) {
		t.Fatalf("speak after the end: %v", err)
	}
	ev.wait(t, "the recording", func() bool { return strings.HasSuffix(ev.kinds(id), "recording.saved") })
	ev.mu.Lock()
	defer ev.mu.Unlock()
	if k := ev.kinds(id); k != "initiated,answered,speak.ended,speak.ended,heard,speak.ended,hangup,recording.saved" {
		t.Fatalf("events %s", k)
	}
	evs := ev.byCall[id]
	seen := map[string]bool{}
	for _, e := range evs {
		if seen[e.ID] {
			t.Fatalf("event id %s delivered twice after acceptance", e.ID)
		}
		seen[e.ID] = true
		if e.Kind == phones.EventSpeakEnded && ev.ids[e.ID] != 3 {
			t.Fatalf("a refused event was delivered %d times", ev.ids[e.ID])
		}
	}
	if cu.heard[0][0] != "Hello Ann." || cu.heard[0][1] != "Do you want to renew?" || len(cu.heard[0]) != 2 {
		t.Fatalf("the customer heard %q", cu.heard)
	}
	heard := evs[4]
	if heard.Text != "Ann replies to Do you want to renew?" {
		t.Fatalf("heard %+v", heard)
	}
	answered := evs[1].At
	wantAt := timing.Next(timing.Next(0, "Hello Ann."), "Do you want to renew?")
	if heard.At.Sub(answered) != wantAt {
		t.Fatalf("heard at %s, want %s", heard.At.Sub(answered), wantAt)
	}
	if string(evs[7].Recording) != "ID3-fake-mp3" || len(rec.turns) != 4 || rec.turns[2].Agent || rec.turns[2].Text != heard.Text ||
		!rec.turns[3].Agent || rec.turns[3].Voice != "v1" {
		t.Fatalf("recording %q of %+v", evs[7].Recording, rec.turns)
	}
}

func TestConcurrentDials(t *testing.T) {
	c := sim.NewCalls(sim.CallOptions{Seed: 3, ZeroLength: true})
	defer c.Close()
	ev := newEvents()
	c.SetHandler(ev)
	var wg sync.WaitGroup
	ids := make([][]string, 8)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				call, err := c.Dial(context.Background(), dial(fmt.Sprint(i))) // every worker dials the same 200 keys
				if err != nil {
					t.Error(err)
					return
				}
				ids[w] = append(ids[w], call.CallControlID)
			}
		}()
	}
	wg.Wait()
	for w := 1; w < 8; w++ {
		if strings.Join(ids[w], ",") != strings.Join(ids[0], ",") {
			t.Fatal("the same key answered different calls")
		}
	}
	ev.wait(t, "200 calls", func() bool { return len(ev.byCall) == 200 && len(ev.all) >= 200*2 })
	time.Sleep(20 * time.Millisecond)
	ev.mu.Lock()
	defer ev.mu.Unlock()
	for id := range ev.byCall {
		if k := ev.kinds(id); k != "initiated,hangup" && k != "initiated,answered,hangup" {
			t.Fatalf("%s: %s", id, k)
		}
	}
}

func BenchmarkZeroLengthDial(b *testing.B) {
	c := sim.NewCalls(sim.CallOptions{Seed: 1, ZeroLength: true})
	defer c.Close()
	c.SetHandler(phones.CallEventFunc(func(context.Context, phones.CallEvent) error { return nil }))
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := c.Dial(ctx, dial(fmt.Sprint(i))); err != nil {
			b.Fatal(err)
		}
	}
}

func TestEventsWaitForAHandler(t *testing.T) {
	c := sim.NewCalls(sim.CallOptions{Seed: 1, RetryBase: time.Millisecond, RetryMax: 5 * time.Millisecond})
	defer c.Close()
	call, err := c.Dial(context.Background(), phones.DialRequest{Key: "w", From: "+14155550100", To: "+14155550101",
		Simulation: &phones.Simulation{Outcome: phones.OutcomeBusy}})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(30 * time.Millisecond)
	ev := newEvents()
	c.SetHandler(ev)
	ev.wait(t, "the events", func() bool { return ev.kinds(call.CallControlID) == "initiated,hangup" })
	// Commands on a finished call are refused; hanging it up again is fine.
	if err := c.Listen(context.Background(), call.CallControlID, time.Second, "l"); !errors.Is(err, phones.ErrRejected) {
		t.Fatalf("listen on a finished call: %v", err)
	}
	if err := c.Hangup(context.Background(), call.CallControlID, "h"); err != nil {
		t.Fatal(err)
	}
}

// A job's contacts have no persona: the customer is given one naming the person called, so
// each contact draws a disposition of its own; a persona given is passed as it is.
func TestContactPersona(t *testing.T) {
	c := sim.NewCalls(sim.CallOptions{Seed: 1, RetryBase: time.Millisecond})
	defer c.Close()
	personas := &personaLog{}
	c.SetHandler(newEvents())
	c.SetCustomer(personas)
	ctx := context.Background()
	for i, to := range []string{"+14155550101", "+14155550102", "+14155550103"} {
		req := dial(fmt.Sprint("p", i))
		req.To = to
		req.Simulation = &phones.Simulation{Outcome: phones.OutcomeAnswer}
		if i == 2 {
			req.Simulation.Persona = "Ann, who is busy"
		}
		call, err := c.Dial(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Listen(ctx, call.CallControlID, time.Second, fmt.Sprint("l", i)); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"the person at +14155550101", "the person at +14155550102", "Ann, who is busy"}
	if !slices.Equal(personas.got(), want) {
		t.Fatalf("personas %q, want %q", personas.got(), want)
	}
}

type personaLog struct {
	mu       sync.Mutex
	personas []string
}

func (p *personaLog) Reply(_ context.Context, persona string, _ []phones.SpokenTurn) (phones.CustomerReply, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.personas = append(p.personas, persona)
	return phones.CustomerReply{Text: "Okay."}, nil
}

func (p *personaLog) got() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.personas...)
}

// Status tells a call on the line from one over; with DropHangups the hang-up never reaches
// the handler, and Status still says the call ended, and when.
func TestStatusAndDroppedHangups(t *testing.T) {
	ctx := context.Background()
	for _, drop := range []bool{false, true} {
		t.Run(fmt.Sprintf("drop=%v", drop), func(t *testing.T) {
			c := sim.NewCalls(sim.CallOptions{Seed: 1, Answer: 1, DropHangups: drop})
			defer c.Close()
			r := newEvents()
			c.SetHandler(r)
			call, err := c.Dial(ctx, dial("k1"))
			if err != nil {
				t.Fatal(err)
			}
			r.wait(t, "the answer", func() bool { return strings.Contains(r.kinds(call.CallControlID), "answered") })
			if st, err := c.Status(ctx, call.CallControlID); err != nil || !st.Alive || !st.EndedAt.IsZero() {
				t.Fatalf("a call on the line: %+v %v", st, err)
			}
			if err := c.Speak(ctx, call.CallControlID, "Hello there.", "", "k1:1"); err != nil {
				t.Fatal(err)
			}
			r.wait(t, "the speech", func() bool { return strings.Contains(r.kinds(call.CallControlID), "speak.ended") })
			if err := c.Hangup(ctx, call.CallControlID, "k1:2"); err != nil {
				t.Fatal(err)
			}
			if drop {
				st, err := c.Status(ctx, call.CallControlID)
				if err != nil || st.Alive || st.EndedAt.IsZero() {
					t.Fatalf("a call hung up: %+v %v", st, err)
				}
				time.Sleep(50 * time.Millisecond) // what would have been delivered has been
				r.mu.Lock()
				defer r.mu.Unlock()
				if k := r.kinds(call.CallControlID); strings.Contains(k, "hangup") {
					t.Fatalf("the hang-up reached the handler: %s", k)
				}
				return
			}
			r.wait(t, "the hang-up", func() bool { return strings.Contains(r.kinds(call.CallControlID), "hangup") })
			// Every event delivered, the simulator forgets the call: not alive, end unknown.
			deadline := time.Now().Add(5 * time.Second)
			for {
				st, err := c.Status(ctx, call.CallControlID)
				if err != nil || st.Alive {
					t.Fatalf("a call over: %+v %v", st, err)
				}
				if st.EndedAt.IsZero() {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("the call was never forgotten")
				}
				time.Sleep(5 * time.Millisecond)
			}
			if st, err := c.Status(ctx, "sim-unknown"); err != nil || st.Alive {
				t.Fatalf("an unknown call: %+v %v", st, err)
			}
		})
	}
}

// A person who hangs up after their words: the words are heard, then the call ends from their
// side, and what the agent says after that is refused as on a line that went dead.
func TestTheCustomerHangsUp(t *testing.T) {
	c := sim.NewCalls(sim.CallOptions{Seed: 1, RetryBase: time.Millisecond})
	defer c.Close()
	ev := newEvents()
	c.SetHandler(ev)
	c.SetCustomer(&replies{})
	ctx := context.Background()
	req := dial("k-leaves")
	req.Simulation = &phones.Simulation{Persona: "Ben leaves", Outcome: phones.OutcomeAnswer}
	call, err := c.Dial(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	id := call.CallControlID
	if err := c.Speak(ctx, id, "Anything else?", "v1", "s1"); err != nil {
		t.Fatal(err)
	}
	if err := c.Listen(ctx, id, 5*time.Second, "l1"); err != nil {
		t.Fatal(err)
	}
	ev.wait(t, "the hang-up", func() bool { return strings.HasSuffix(ev.kinds(id), "hangup") })
	ev.mu.Lock()
	k := ev.kinds(id)
	ev.mu.Unlock()
	if k != "initiated,answered,speak.ended,heard,hangup" {
		t.Fatalf("events %s", k)
	}
	if err := c.Speak(ctx, id, "Goodbye then.", "v1", "s2"); !errors.Is(err, phones.ErrRejected) {
		t.Fatalf("speak after the person hung up: %v", err)
	}
}
