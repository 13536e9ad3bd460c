package phones

import (
	"context"
	"time"
)

// CallControl is the carrier's control of live calls: what the dialer (server/runs) and the
// conversation engine use to place a call, speak, listen, forward and hang up. phones/sim
// simulates calls offline (outcomes from a seeded distribution, the customer's replies from a
// Customer); phones/telnyx speaks Telnyx Call Control v2. Configuration picks one, the same
// one as the Telephony that sold the numbers.
//
// Every command is asynchronous on the carrier's side: what happens comes back as CallEvents
// given to the CallEventHandler the implementation was built with (phones/sim calls it
// in-process; phones/telnyx from the verified webhooks at /v1/webhooks/telnyx). Events may
// arrive twice and in any order; each carries its own id for de-duplication.
//
// Errors are the ones of telephony.go (ErrRejected, ErrCarrierAuth, ErrCarrierDown), wrapped
// with the carrier's words.
type CallControl interface {
	// Dial places an outbound call. It is idempotent on req.Key: asking again with the same
	// key (after a crash, a timeout or on another replica) places no second call and answers
	// the first call's id when the carrier tells it. The AttemptID travels with the call
	// (Telnyx client_state) and comes back on every event.
	Dial(ctx context.Context, req DialRequest) (Call, error)
	// Speak says text on an answered call with voice (a speech.Voice id); EventSpeakEnded
	// follows. key makes the command idempotent.
	Speak(ctx context.Context, callControlID, text, voice, key string) error
	// Listen waits for the other side to say something; EventHeard follows with the words
	// (empty after silence up to timeout).
	Listen(ctx context.Context, callControlID string, timeout time.Duration, key string) error
	// Transfer forwards the call to another number; EventHangup follows once it leaves us.
	Transfer(ctx context.Context, callControlID, to, key string) error
	// Hangup ends the call (or turns down an inbound call not answered). A call already over
	// is ended already: nil.
	Hangup(ctx context.Context, callControlID, key string) error
	// Answer picks up an inbound call (EventInitiated with Inbound); EventAnswered follows.
	// The AttemptID travels with the call from then on (Telnyx client_state), as on a dial;
	// record asks for the call to be recorded. key makes the command idempotent.
	Answer(ctx context.Context, callControlID, attemptID string, record bool, key string) error
	// Status asks the carrier whether it still has a call: the dialer asks about calls it
	// heard nothing of for long (a hang-up lost on the way, a carrier outage, a crash at the
	// wrong moment). A call the carrier no longer has, ended or forgotten, answers Alive
	// false. An error says nothing about the call (the carrier could not be asked).
	Status(ctx context.Context, callControlID string) (CallStatus, error)
}

// CallStatus is what the carrier knows of a call.
type CallStatus struct {
	// Alive: the call is up on the carrier's side (ringing, or answered and not hung up).
	Alive bool
	// EndedAt is when a call that is not alive ended, by the carrier's clock, when the
	// carrier still says (zero otherwise: Telnyx keeps an ended call's details for 10
	// minutes, then answers 404).
	EndedAt time.Time
}

// DialRequest is an outbound call to place.
type DialRequest struct {
	// Key makes the dial idempotent (Telnyx command_id). The dialer uses the attempt id.
	Key string
	// AttemptID is the dialer's contact attempt, carried by the call (Telnyx client_state).
	AttemptID string
	// From is one of the team's numbers, To the contact; both E.164.
	From, To string
	// DetectMachine asks the carrier to tell a person from voicemail (EventMachine).
	DetectMachine bool
	// RingTimeout is how long to ring before EventHangup with HangupNoAnswer.
	RingTimeout time.Duration
	// Record asks for the call to be recorded (EventRecordingSaved at the end).
	Record bool
	// Simulation carries what only phones/sim reads: the persona of the simulated customer
	// and the forced outcome of a test. Real carriers ignore it.
	Simulation *Simulation
}

// Simulation is what a simulated call needs to play the other side.
type Simulation struct {
	// Persona describes the simulated customer (a test run's customerDescription, or the
	// contact's fields in a job).
	Persona string
	// Outcome forces the call's outcome; "" draws it from the simulator's distribution.
	Outcome Outcome
}

// Outcome is how a dial ends before any conversation.
type Outcome string

const (
	OutcomeAnswer    Outcome = "answer"
	OutcomeBusy      Outcome = "busy"
	OutcomeNoAnswer  Outcome = "no-answer"
	OutcomeVoicemail Outcome = "voicemail"
	OutcomeFailed    Outcome = "failed"
)

// Call is a call the carrier accepted to place.
type Call struct {
	// CallControlID is the carrier's id of the call; every command names it.
	CallControlID string
}

// CallEventKind is what happened on a call.
type CallEventKind string

const (
	EventInitiated      CallEventKind = "call.initiated"
	EventAnswered       CallEventKind = "call.answered"
	EventMachine        CallEventKind = "call.machine.detected"
	EventSpeakEnded     CallEventKind = "call.speak.ended"
	EventHeard          CallEventKind = "call.heard"
	EventHangup         CallEventKind = "call.hangup"
	EventRecordingSaved CallEventKind = "call.recording.saved"
)

// HangupCause says why a call ended (on EventHangup).
type HangupCause string

const (
	HangupNormal   HangupCause = "normal"    // someone hung up after answering
	HangupBusy     HangupCause = "busy"      // the line was busy
	HangupNoAnswer HangupCause = "no-answer" // nobody answered in time
	HangupRejected HangupCause = "rejected"  // the carrier or the network refused the call
	HangupFailed   HangupCause = "failed"    // anything else before an answer
	// HangupLost is never sent by a carrier: the dialer ends with it a call the carrier no
	// longer has and whose hang-up never arrived (server/runs, sweep.go).
	HangupLost HangupCause = "lost"
)

// CallEvent is one thing that happened on a call.
type CallEvent struct {
	// ID is the carrier's id of the event, unique per event: handlers de-duplicate on it.
	ID   string
	Kind CallEventKind
	// CallControlID is the call; AttemptID the dialer's attempt that placed it ("" for an
	// inbound call).
	CallControlID, AttemptID string
	// At is when it happened, by the carrier's clock.
	At time.Time
	// Cause is set on EventHangup.
	Cause HangupCause
	// Text is what the other side said (EventHeard).
	Text string
	// RecordingURL is where the carrier keeps the recording (EventRecordingSaved); phones/sim
	// hands the bytes in Recording instead.
	RecordingURL string
	Recording    []byte
	// From and To are the numbers of the call when the event tells them.
	From, To string
	// Inbound: someone called one of the numbers (EventInitiated of a call Betty did not
	// place); the dialer answers it or turns it down.
	Inbound bool
	// Simulation is the simulated caller of an inbound call placed by phones/sim (nil
	// otherwise): what it says follows its persona.
	Simulation *Simulation
}

// CallEventHandler receives a carrier's call events. It must be idempotent per event ID;
// an error asks the carrier to deliver the event again later.
type CallEventHandler interface {
	HandleCallEvent(ctx context.Context, e CallEvent) error
}

// CallEventFunc adapts a function to CallEventHandler.
type CallEventFunc func(ctx context.Context, e CallEvent) error

// HandleCallEvent calls f.
func (f CallEventFunc) HandleCallEvent(ctx context.Context, e CallEvent) error { return f(ctx, e) }

// Customer plays the person a simulated call reaches: given the persona and the call so far
// (both sides, in order, the last agent line being the one just said), it answers what the
// person says back and whether they then hang up. The conversation engine provides the local
// one; phones/sim asks it on Listen.
type Customer interface {
	Reply(ctx context.Context, persona string, call []SpokenTurn) (CustomerReply, error)
}

// CustomerReply is what the simulated person does when the agent stops speaking.
type CustomerReply struct {
	Text string // what they say, "" for silence
	// HangUp: they hang up after saying Text (the call ends from their side).
	HangUp bool
}

// Recorder renders the recording of a simulated call from what was said (phones/sim asks it
// at hang-up when the dial asked to Record). The conversation engine provides it, speaking
// both sides with the local speech engine in two different voices into one MP3.
type Recorder interface {
	Render(ctx context.Context, turns []SpokenTurn) ([]byte, error)
}

// SpokenTurn is one turn of a simulated call as the carrier heard it.
type SpokenTurn struct {
	Agent bool   // true: the agent spoke; false: the customer
	Text  string // what was said
	Voice string // the speech.Voice id it was said with ("" for the customer)
}
