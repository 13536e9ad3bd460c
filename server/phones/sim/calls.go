package sim

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	mrand "math/rand/v2"
	"strconv"
	"sync"
	"time"

	"github.com/bettyhq/betty/server/conversation/timing"
	"github.com/bettyhq/betty/server/phones"
)

// CallOptions configure the simulated calls.
type CallOptions struct {
	// Seed makes the outcomes drawn by successive dials reproducible.
	Seed int64
	// Answer, Busy, NoAnswer and Voicemail weigh the outcome of a dial that does not force
	// one (DialRequest.Simulation.Outcome); all zero means 70 / 10 / 10 / 10.
	Answer, Busy, NoAnswer, Voicemail float64
	// ZeroLength: an answered call is hung up at once, without a conversation (the dialer's
	// benchmark: Dial does no more than draw the outcome and queue three events).
	ZeroLength bool
	// Workers deliver events to the handler (default 8): at most that many deliveries run
	// at once, whatever the number of calls.
	Workers int
	// RetryBase and RetryMax bound the backoff of an event the handler refused (defaults
	// 20 ms doubling up to 5 s). A refused event is delivered again, with the same ID, until
	// the handler accepts it or Close; the call's later events wait behind it.
	RetryBase, RetryMax time.Duration
	// Recordings is how many recordings render at once, each by a worker of its own
	// (default 2).
	Recordings int
	// Log receives recordings that failed to render (default: discarded).
	Log *slog.Logger
	// DropHangups loses every EventHangup on its way to the handler, as a carrier whose
	// hang-up webhooks never arrive: the call is over (Status says so, with when it ended)
	// but the handler never hears it. The simulator then keeps every ended call, to answer
	// Status about it (the dialer's sweep tests).
	DropHangups bool
}

// Calls simulates live calls (phones.CallControl): a dial's outcome comes from the seeded
// distribution (or the dial's Simulation), the customer's words from the Customer, the
// recording from the Recorder. Events are delivered asynchronously, in order per call, by a
// fixed pool of workers.
//
// Each call has its own clock from the moment it is answered, on the timing model that the
// conversation engine and the recorder share: an event's At is the answer's time plus where
// the call's clock stands, so At minus the answer's At is a turn's offset in the transcript
// and in the recording. EventSpeakEnded comes at the end of the agent's slot; EventHeard's At
// is when the customer began to speak. A silence (the Customer answered "", or the call
// reached voicemail) takes no time on the call's clock, so the recording, which has no turn
// for it, stays in step with the transcript.
type Calls struct {
	o      CallOptions
	prefix string
	seq    uint64

	mu       sync.Mutex
	cond     *sync.Cond
	rng      *mrand.Rand
	byKey    map[[16]byte]uint64 // a dial's key (its 128-bit FNV-1a hash) → the call's number
	calls    map[string]*call
	ready    []*call
	closed   bool
	handler  phones.CallEventHandler
	customer phones.Customer
	recorder phones.Recorder
	renders  []render   // recordings waiting for a render worker
	rcond    *sync.Cond // signals renders
	wg       sync.WaitGroup
}

type render struct {
	k     *call
	r     phones.Recorder
	turns []phones.SpokenTurn
	at    time.Time
}

var _ phones.CallControl = (*Calls)(nil)

type call struct {
	id, attempt, from, to, persona string
	outcome                        phones.Outcome
	record, detect                 bool
	inbound, picked                bool // a call to one of the numbers; answered by Answer
	answered                       time.Time
	ended                          time.Time // when over, by the call's clock
	clock                          time.Duration
	turns                          []phones.SpokenTurn
	keys                           map[string]bool
	over, rendering                bool
	queue                          []phones.CallEvent
	queued                         bool // in the ready list, being delivered or waiting to retry
	tries                          int
}

// NewCalls returns the simulator of calls and starts its workers (Close stops them).
func NewCalls(o CallOptions) *Calls {
	if o.Answer <= 0 && o.Busy <= 0 && o.NoAnswer <= 0 && o.Voicemail <= 0 {
		o.Answer, o.Busy, o.NoAnswer, o.Voicemail = 0.7, 0.1, 0.1, 0.1
	}
	if o.Workers <= 0 {
		o.Workers = 8
	}
	if o.RetryBase <= 0 {
		o.RetryBase = 20 * time.Millisecond
	}
	if o.RetryMax <= 0 {
		o.RetryMax = 5 * time.Second
	}
	if o.Recordings <= 0 {
		o.Recordings = 2
	}
	if o.Log == nil {
		o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	var p [4]byte
	_, _ = rand.Read(p[:])
	c := &Calls{o: o, prefix: "sim-" + hex.EncodeToString(p[:]) + "-", rng: mrand.New(mrand.NewPCG(uint64(o.Seed), uint64(o.Seed)^0x9e3779b97f4a7c15)),
		byKey: map[[16]byte]uint64{}, calls: map[string]*call{}}
	c.cond = sync.NewCond(&c.mu)
	c.rcond = sync.NewCond(&c.mu)
	for range o.Workers {
		c.wg.Add(1)
		go c.work()
	}
	for range o.Recordings {
		c.wg.Add(1)
		go c.renderWork()
	}
	return c
}

// SetHandler sets who receives the events. Events wait (retried) until one is set.
func (c *Calls) SetHandler(h phones.CallEventHandler) { c.mu.Lock(); c.handler = h; c.mu.Unlock() }

// SetCustomer sets who answers on answered calls (nil: silence).
func (c *Calls) SetCustomer(cu phones.Customer) { c.mu.Lock(); c.customer = cu; c.mu.Unlock() }

// SetRecorder sets who renders recordings (nil: no recording is saved).
func (c *Calls) SetRecorder(r phones.Recorder) { c.mu.Lock(); c.recorder = r; c.mu.Unlock() }

// Close stops the workers; events not delivered yet are dropped.
func (c *Calls) Close() {
	c.mu.Lock()
	c.closed = true
	c.cond.Broadcast()
	c.rcond.Broadcast()
	c.mu.Unlock()
	c.wg.Wait()
}

func (c *Calls) draw() phones.Outcome {
	o := c.o
	u := c.rng.Float64() * (o.Answer + o.Busy + o.NoAnswer + o.Voicemail)
	switch {
	case u < o.Answer:
		return phones.OutcomeAnswer
	case u < o.Answer+o.Busy:
		return phones.OutcomeBusy
	case u < o.Answer+o.Busy+o.NoAnswer:
		return phones.OutcomeNoAnswer
	}
	return phones.OutcomeVoicemail
}

// Dial places a simulated call. The same Key answers the same call id and places nothing.
func (c *Calls) Dial(ctx context.Context, req phones.DialRequest) (phones.Call, error) {
	if req.To == "" || req.From == "" {
		return phones.Call{}, fmt.Errorf("%w: a call needs a from and a to number", phones.ErrRejected)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if req.Key != "" {
		if n, ok := c.byKey[keyHash(req.Key)]; ok {
			return phones.Call{CallControlID: c.prefix + strconv.FormatUint(n, 10)}, nil
		}
	}
	var outcome phones.Outcome
	persona := ""
	if req.Simulation != nil {
		outcome, persona = req.Simulation.Outcome, req.Simulation.Persona
	}
	if outcome == "" {
		outcome = c.draw()
	}
	c.seq++
	now := time.Now()
	k := &call{id: c.prefix + strconv.FormatUint(c.seq, 10), attempt: req.AttemptID, from: req.From, to: req.To, persona: persona,
		outcome: outcome, record: req.Record, detect: req.DetectMachine, answered: now}
	if req.Key != "" {
		c.byKey[keyHash(req.Key)] = c.seq
	}
	c.calls[k.id] = k
	c.emit(k, phones.EventInitiated, now, nil)
	switch outcome {
	case phones.OutcomeAnswer, phones.OutcomeVoicemail:
		c.emit(k, phones.EventAnswered, now, nil)
		if outcome == phones.OutcomeVoicemail && req.DetectMachine {
			c.emit(k, phones.EventMachine, now, nil)
		}
		if c.o.ZeroLength {
			k.over, k.ended = true, now
			c.emit(k, phones.EventHangup, now, func(e *phones.CallEvent) { e.Cause = phones.HangupNormal })
		}
	default:
		cause := map[phones.Outcome]phones.HangupCause{phones.OutcomeBusy: phones.HangupBusy, phones.OutcomeNoAnswer: phones.HangupNoAnswer}[outcome]
		if cause == "" {
			cause = phones.HangupFailed
		}
		k.over, k.ended = true, now
		c.emit(k, phones.EventHangup, now, func(e *phones.CallEvent) { e.Cause = cause })
	}
	return phones.Call{CallControlID: k.id}, nil
}

// Inbound simulates someone calling one of the team's numbers (to) from from, saying what
// persona would: EventInitiated with Inbound comes to the handler, which answers (Answer)
// or turns the call down (Hangup). It answers the call's id.
func (c *Calls) Inbound(from, to, persona string) (string, error) {
	if from == "" || to == "" {
		return "", fmt.Errorf("%w: a call needs a from and a to number", phones.ErrRejected)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	now := time.Now()
	k := &call{id: c.prefix + strconv.FormatUint(c.seq, 10), from: from, to: to, persona: persona, outcome: phones.OutcomeAnswer,
		inbound: true, answered: now}
	c.calls[k.id] = k
	c.emit(k, phones.EventInitiated, now, func(e *phones.CallEvent) {
		e.Inbound, e.Simulation = true, &phones.Simulation{Persona: persona}
	})
	return k.id, nil
}

// Answer picks up an inbound call: its events carry attemptID from then on; EventAnswered
// follows.
func (c *Calls) Answer(ctx context.Context, id, attemptID string, record bool, key string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	k, done, err := c.live(id, key)
	if err != nil || done || k.picked {
		return err
	}
	if !k.inbound {
		return fmt.Errorf("%w: the call %q was not made to us", phones.ErrRejected, id)
	}
	k.picked, k.attempt, k.record, k.answered = true, attemptID, record, time.Now()
	c.emit(k, phones.EventAnswered, k.answered, nil)
	if c.o.ZeroLength {
		k.over, k.ended = true, k.answered
		c.emit(k, phones.EventHangup, k.answered, func(e *phones.CallEvent) { e.Cause = phones.HangupNormal })
	}
	return nil
}

// Status answers what the simulator knows of a call: one in progress (an inbound call ringing
// included) is alive; one over says when it ended while the simulator still has it (its
// events being delivered; every ended call with DropHangups); one it forgot is not alive.
func (c *Calls) Status(ctx context.Context, id string) (phones.CallStatus, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := c.calls[id]
	switch {
	case k == nil:
		return phones.CallStatus{}, nil
	case !k.over:
		return phones.CallStatus{Alive: true}, nil
	}
	return phones.CallStatus{EndedAt: k.ended}, nil
}

// keyHash keeps a dial's key in 16 bytes, so a million dials' keys stay small (a collision
// of two keys is about as likely as 2^-88 at that count).
func keyHash(key string) [16]byte {
	f := fnv.New128a()
	_, _ = f.Write([]byte(key))
	var out [16]byte
	f.Sum(out[:0])
	return out
}

// emit queues an event of the call (c.mu held).
func (c *Calls) emit(k *call, kind phones.CallEventKind, at time.Time, set func(*phones.CallEvent)) {
	if kind == phones.EventHangup && c.o.DropHangups {
		return // lost on the way; forget keeps the call, so Status still knows it ended
	}
	c.seq++
	e := phones.CallEvent{ID: c.prefix + "ev-" + strconv.FormatUint(c.seq, 10), Kind: kind, CallControlID: k.id, AttemptID: k.attempt,
		At: at, From: k.from, To: k.to}
	if set != nil {
		set(&e)
	}
	k.queue = append(k.queue, e)
	if !k.queued {
		k.queued = true
		c.ready = append(c.ready, k)
		c.cond.Signal()
	}
}

// live answers the call of a command, nil with done when the key was seen (c.mu held).
func (c *Calls) live(id, key string) (k *call, done bool, err error) {
	k = c.calls[id]
	if k == nil {
		return nil, false, fmt.Errorf("%w: no call %q is in progress", phones.ErrRejected, id)
	}
	if key != "" && k.keys[key] {
		return k, true, nil
	}
	if k.over {
		return nil, false, fmt.Errorf("%w: the call %q has ended", phones.ErrRejected, id)
	}
	if key != "" {
		if k.keys == nil {
			k.keys = map[string]bool{}
		}
		k.keys[key] = true
	}
	return k, false, nil
}

func (k *call) at() time.Time { return k.answered.Add(k.clock) }

// Speak says text on the call; EventSpeakEnded follows at the end of its slot.
func (c *Calls) Speak(ctx context.Context, id, text, voice, key string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	k, done, err := c.live(id, key)
	if err != nil || done {
		return err
	}
	k.turns = append(k.turns, phones.SpokenTurn{Agent: true, Text: text, Voice: voice})
	k.clock = timing.Next(k.clock, text)
	c.emit(k, phones.EventSpeakEnded, k.answered.Add(k.clock-timing.Gap), nil)
	return nil
}

// contactPersona is the persona the Customer follows on call k: the one given (a test run's, a
// simulated caller's), else one naming the person called, so that a job's contacts, which have
// none, each get a disposition of their own from the seed rather than all the same one (with
// one shared empty persona, one run in twenty had every contact ask not to be called again).
func contactPersona(k *call) string {
	if k.persona != "" {
		return k.persona
	}
	return "the person at " + k.to
}

// Listen asks the Customer what the person says back — giving it the call so far, both
// sides, the last agent line being what it just said; EventHeard follows with the words, and
// EventHangup when the person hangs up after them.
func (c *Calls) Listen(ctx context.Context, id string, timeout time.Duration, key string) error {
	c.mu.Lock()
	k, done, err := c.live(id, key)
	if err != nil || done {
		c.mu.Unlock()
		return err
	}
	cu, persona, call, machine := c.customer, contactPersona(k), append([]phones.SpokenTurn(nil), k.turns...), k.outcome == phones.OutcomeVoicemail
	c.mu.Unlock()
	var reply phones.CustomerReply
	if cu != nil && !machine {
		if reply, err = cu.Reply(ctx, persona, call); err != nil {
			return fmt.Errorf("%w: the simulated customer: %v", phones.ErrCarrierDown, err)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if k.over {
		return nil // hung up meanwhile: the words are lost, as on a real line
	}
	at := k.at()
	if reply.Text != "" {
		k.turns = append(k.turns, phones.SpokenTurn{Text: reply.Text})
		k.clock = timing.Next(k.clock, reply.Text)
	}
	c.emit(k, phones.EventHeard, at, func(e *phones.CallEvent) { e.Text = reply.Text })
	if reply.HangUp {
		c.endLocked(k)
	}
	return nil
}

// Transfer forwards the call: it leaves the simulator (EventHangup).
func (c *Calls) Transfer(ctx context.Context, id, to, key string) error { return c.end(id, key) }

// Hangup ends the call; a call already over is ended already.
func (c *Calls) Hangup(ctx context.Context, id, key string) error { return c.end(id, key) }

func (c *Calls) end(id, key string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := c.calls[id]
	if k == nil || k.over || (key != "" && k.keys[key]) {
		return nil
	}
	c.endLocked(k)
	return nil
}

// endLocked ends call k (c.mu held): EventHangup, then its recording when it asked for one.
func (c *Calls) endLocked(k *call) {
	k.over, k.ended = true, k.at()
	cause := phones.HangupNormal
	if k.inbound && !k.picked {
		cause = phones.HangupRejected // an inbound call turned down
	}
	c.emit(k, phones.EventHangup, k.at(), func(e *phones.CallEvent) { e.Cause = cause })
	if k.record && c.recorder != nil && len(k.turns) > 0 {
		k.rendering = true
		c.renders = append(c.renders, render{k: k, r: c.recorder, turns: append([]phones.SpokenTurn(nil), k.turns...), at: k.at()})
		c.rcond.Signal()
	}
}

// renderWork makes recordings, one at a time, and queues EventRecordingSaved with each.
func (c *Calls) renderWork() {
	defer c.wg.Done()
	for {
		c.mu.Lock()
		for len(c.renders) == 0 && !c.closed {
			c.rcond.Wait()
		}
		if c.closed {
			c.mu.Unlock()
			return
		}
		job := c.renders[0]
		c.renders[0] = render{}
		c.renders = c.renders[1:]
		c.mu.Unlock()

		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		mp3, err := job.r.Render(ctx, job.turns)
		cancel()

		c.mu.Lock()
		job.k.rendering = false
		if err != nil {
			c.o.Log.Error("sim: the recording of a call could not be rendered", "call", job.k.id, "err", err)
			c.forget(job.k)
		} else {
			c.emit(job.k, phones.EventRecordingSaved, job.at, func(e *phones.CallEvent) { e.Recording = mp3 })
		}
		c.mu.Unlock()
	}
}

// forget drops a finished call whose events are all delivered (c.mu held); its key stays,
// so dialling it again answers the same id.
func (c *Calls) forget(k *call) {
	if k.over && !k.rendering && len(k.queue) == 0 && !k.queued && !c.o.DropHangups {
		delete(c.calls, k.id)
	}
}

func (c *Calls) work() {
	defer c.wg.Done()
	for {
		c.mu.Lock()
		for len(c.ready) == 0 && !c.closed {
			c.cond.Wait()
		}
		if c.closed {
			c.mu.Unlock()
			return
		}
		k := c.ready[0]
		c.ready[0] = nil
		c.ready = c.ready[1:]
		e, h := k.queue[0], c.handler
		c.mu.Unlock()

		err := fmt.Errorf("sim: no event handler is set")
		if h != nil {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			err = h.HandleCallEvent(ctx, e)
			cancel()
		}

		c.mu.Lock()
		if err != nil {
			k.tries++
			delay := min(c.o.RetryBase<<min(k.tries-1, 20), c.o.RetryMax)
			c.mu.Unlock()
			time.AfterFunc(delay, func() {
				c.mu.Lock()
				defer c.mu.Unlock()
				c.ready = append(c.ready, k)
				c.cond.Signal()
			})
			continue
		}
		k.tries = 0
		k.queue[0] = phones.CallEvent{}
		k.queue = k.queue[1:]
		if len(k.queue) > 0 {
			c.ready = append(c.ready, k)
			c.cond.Signal()
		} else {
			k.queued = false
			k.queue = nil
			c.forget(k)
		}
		c.mu.Unlock()
	}
}
