package conversation

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/bettyhq/betty/server/conversation/timing"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/llm"
	"github.com/bettyhq/betty/server/store"
)

// Profile is what the engine needs of an agent profile.
type Profile struct {
	Name, Greeting, Instructions, Language string
	// Voice is the speech.Voice id the agent speaks with (its preset, else its custom voice
	// profile's id; "" leaves the carrier's default).
	Voice string
	// FAQ maps questions to answers.
	FAQ map[string]string
}

// Agents looks up agent profiles (StoreAgents reads them from the store).
type Agents interface {
	Profile(ctx context.Context, orgID, agentID string) (Profile, error)
}

// Knowledge retrieves passages an agent answers from (*knowledge.Service).
type Knowledge interface {
	SearchForAgent(ctx context.Context, orgID, agentID, question string, limit int) ([]store.PassageHit, error)
}

// HTTPDoer sends webhook requests (NewWebhookClient: guarded against private addresses,
// no redirects, timeouts).
type HTTPDoer interface {
	Do(*http.Request) (*http.Response, error)
}

// CRM sets a contact's lifecycle stage (the HubSpot integration, once connected). Without
// one, lifecycle-stage steps are logged as skipped.
type CRM interface {
	SetLifecycleStage(ctx context.Context, orgID string, c Contact, stage string) error
}

// Deps are the engine's dependencies; only Agents is required.
type Deps struct {
	// Model is the language back-end (default llm.NewLocal()).
	Model llm.Model
	// Agents looks up the agent profile of each call.
	Agents Agents
	// Knowledge retrieves passages (nil: none).
	Knowledge Knowledge
	// HTTP sends webhooks (default NewWebhookClient(WebhookOptions{})).
	HTTP HTTPDoer
	// CRM sets lifecycle stages (nil: skipped).
	CRM CRM
	// Log receives the language back-end's and webhooks' failures (default: discarded).
	Log *slog.Logger
	// WebhookTimeout bounds one webhook call (default 10 s).
	WebhookTimeout time.Duration
}

// Engine holds calls: see the package doc. It keeps nothing between calls of its methods;
// everything about a call is in its State.
type Engine struct {
	d     Deps
	local llm.Model
}

// Limits of one call.
const (
	// MaxListens is how many times the agent listens before ending the call politely (a flow
	// that loops through a Customer Response forever).
	MaxListens = 40
	// MaxSilences is how many silent answers in a row end the call.
	MaxSilences = 3
	// maxStepsPerEvent bounds the nodes walked between two listens.
	maxStepsPerEvent = 200
	// passages is how many knowledge passages an utterance may draw on.
	passages = 3
)

// New returns the engine.
func New(d Deps) *Engine {
	if d.Model == nil {
		d.Model = llm.NewLocal()
	}
	if d.HTTP == nil {
		d.HTTP = NewWebhookClient(WebhookOptions{})
	}
	if d.Log == nil {
		d.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if d.WebhookTimeout <= 0 {
		d.WebhookTimeout = 10 * time.Second
	}
	return &Engine{d: d, local: llm.NewLocal()}
}

// stateVersion is the version of the State's JSON.
const stateVersion = 1

// state is State's JSON.
type state struct {
	V int `json:"v"`
	// Node is the node to run next; "" with Branches set: choosing among them; "" without:
	// the flow ran out.
	Node     string   `json:"node"`
	Branches []string `json:"branches,omitempty"`
	// Waiting: the engine asked to Listen and waits for Heard.
	Waiting bool `json:"waiting"`
	// Pending are the customer's words not yet used to choose a branch; Consumed says the
	// customer-response node at Node was chosen by words already used.
	Pending  string `json:"pending,omitempty"`
	Consumed bool   `json:"consumed,omitempty"`
	// LastHeard is what the customer said since the agent last spoke.
	LastHeard string            `json:"lastHeard,omitempty"`
	Turns     []turn            `json:"turns"`
	Vars      map[string]string `json:"vars,omitempty"`
	Steps     []Step            `json:"steps,omitempty"`
	// Record: a Data Access step gave the agent the contact's whole record.
	Record      bool   `json:"record,omitempty"`
	Ended       bool   `json:"ended,omitempty"`
	DoNotCall   bool   `json:"doNotCall,omitempty"`
	ForwardedTo string `json:"forwardedTo,omitempty"`
	Listens     int    `json:"listens"`
	Silences    int    `json:"silences,omitempty"`
	// Clock is where the next agent turn starts, in milliseconds from the answer.
	Clock int64 `json:"clockMs"`
	// Path are the nodes the call has been on, in order (a node entered again after others
	// is listed again; at most maxPath, the latest kept), for the canvas to follow the call.
	Path []string `json:"path,omitempty"`
}

type turn struct {
	Speaker string `json:"speaker"`
	Text    string `json:"text"`
	Offset  int64  `json:"offsetMs"`
}

func decode(st State) (*state, error) {
	var s state
	if err := json.Unmarshal(st, &s); err != nil || s.V != stateVersion {
		return nil, errs.New(errs.Invalid, "The call's conversation state is not one this server wrote.")
	}
	return &s, nil
}

func (s *state) encode() State {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err) // only strings, numbers and maps of strings
	}
	return b
}

// Start begins a call that was just answered: the first actions (the agent's greeting and
// first step) and the State to give back with the customer's words.
func (e *Engine) Start(ctx context.Context, s Setup) (State, []Action, error) {
	g := index(s.Graph)
	if g.start == "" {
		return nil, nil, errs.UnprocessableErr("The workflow has no Start node: add one before calling.")
	}
	prof, err := e.d.Agents.Profile(ctx, s.OrganizationID, s.AgentID)
	if err != nil {
		return nil, nil, err
	}
	st := &state{V: stateVersion, Node: g.start, Turns: []turn{}}
	w := &walk{e: e, s: s, g: g, st: st, prof: prof}
	w.advance(ctx)
	return st.encode(), w.actions, nil
}

// Heard takes what the customer said at offset at (from the answer; "" after silence) and
// answers the next actions and State. Words heard after the call ended are kept in the
// transcript and answer no action.
func (e *Engine) Heard(ctx context.Context, s Setup, st State, text string, at time.Duration) (State, []Action, error) {
	cur, err := decode(st)
	if err != nil {
		return nil, nil, err
	}
	text = clean(text)
	if text != "" {
		cur.Turns = append(cur.Turns, turn{Speaker: "customer", Text: text, Offset: at.Milliseconds()})
		cur.Clock = max(cur.Clock, timing.Next(at, text).Milliseconds())
	}
	if cur.Ended {
		return cur.encode(), nil, nil
	}
	prof, err := e.d.Agents.Profile(ctx, s.OrganizationID, s.AgentID)
	lost := errs.Is(err, errs.NotFound)
	if err != nil && !lost {
		return nil, nil, err // a passing failure: the carrier delivers the words again
	}
	w := &walk{e: e, s: s, g: index(s.Graph), st: cur, prof: prof}
	if lost { // deleted during the call: it goes on without the profile
		w.step("", "agent-profile", StepFailed, "The agent profile was deleted during the call; the agent speaks without it.")
	}
	cur.Waiting = false
	switch {
	case AsksNotToBeCalled(text):
		cur.DoNotCall = true
		w.step("", "do-not-call", StepDone, "The customer asked not to be called again; the number goes on the team's do-not-call list.")
		w.say("I understand, and I'm sorry for the trouble. We won't call you again. Goodbye.")
		w.hangup()
	case text == "":
		cur.Silences++
		if cur.Silences >= MaxSilences {
			w.step("", "silence", StepDone, fmt.Sprintf("The customer said nothing %d times in a row.", cur.Silences))
			w.say("I can't hear you, so I'll let you go. Goodbye.")
			w.hangup()
			break
		}
		w.say("Sorry, I didn't catch that. Are you still there?")
		w.listen()
	case cur.Listens >= MaxListens:
		w.step("", "limit", StepDone, fmt.Sprintf("The agent listened %d times; the call ends so a looping flow cannot run forever.", cur.Listens))
		w.say("Thank you for your time. Goodbye.")
		w.hangup()
	case AsksToRepeat(text) && w.lastLine() != "" && !w.waitsFor(text):
		cur.Silences = 0
		w.step(cur.Node, "repeat", StepDone, "The customer asked to hear it again; the agent repeated its last line.")
		w.say(w.lastLine())
		w.listen()
	case SaysGoodbye(text) && !w.waitsFor(text):
		cur.Silences = 0
		w.step(cur.Node, "goodbye", StepDone, "The customer said goodbye; the agent closed the call.")
		w.say(closingLine)
		w.hangup()
	default:
		cur.Silences = 0
		cur.Pending, cur.LastHeard = text, text
		w.advance(ctx)
	}
	return cur.encode(), w.actions, nil
}

// Result reads what a call came to from its State.
func (e *Engine) Result(st State) (Result, error) {
	cur, err := decode(st)
	if err != nil {
		return Result{}, err
	}
	r := Result{Ended: cur.Ended, DoNotCall: cur.DoNotCall, ForwardedTo: cur.ForwardedTo, Turns: make([]Turn, 0, len(cur.Turns)),
		Steps: append([]Step{}, cur.Steps...), Path: append([]string{}, cur.Path...)}
	if !cur.Ended && len(cur.Path) > 0 {
		r.Current = cur.Path[len(cur.Path)-1]
	}
	for _, t := range cur.Turns {
		r.Turns = append(r.Turns, Turn{Speaker: t.Speaker, Text: t.Text, Offset: time.Duration(t.Offset) * time.Millisecond})
	}
	return r, nil
}
