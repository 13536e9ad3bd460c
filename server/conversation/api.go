// Package conversation holds a call: it walks the workflow graph while the call goes on,
// deciding what the agent says, how the customer's words choose a branch, which webhooks to
// call, when to forward and when to hang up. It is driven by events, so the same engine holds
// a simulated call (phones/sim) and a real one (phones/telnyx, one webhook at a time, across
// restarts): Start answers the first actions and an opaque State; Heard takes what the
// customer said and the State and answers the next actions and State. The dialer
// (server/runs) keeps the State with the call attempt between events.
//
// Early speech. The actions of an event are answered when the engine is done with it, and
// the dialer records them before sending them (an exactly-once outbox); a language model
// takes a second or more to write a reply. So a caller may set Setup.SpeakNow: every Say
// that begins the event's actions (each sentence of a model's streamed reply as it
// completes) is handed to it at once, and still answered among the actions, marked Spoken,
// so that the recorded state and transcript hold it. The dialer sends it with the key it
// would have had (see server/runs), so that handling the same event again, after a failure,
// asks the carrier for the same commands and is deduplicated by it. What the engine decides
// does not depend on the hook: the same event answers the same actions with or without it.
package conversation

import (
	"time"

	"github.com/bettyhq/betty/server/workflow"
)

// Setup is what a call is about; it does not change during the call.
type Setup struct {
	OrganizationID string
	WorkflowID     string
	CampaignID     string // "" when none
	AgentID        string
	Graph          workflow.Graph
	Contact        Contact
	// IsTest: a test run (HubSpot lifecycle-stage nodes are skipped, webhooks are called).
	IsTest bool
	// Persona describes the simulated customer of a test run ("" in a job).
	Persona string
	// SpeakNow, when set, asks for early speech: each Say that begins the actions is handed to
	// it the moment the engine decides it, while the event is still being handled (a language
	// model's first sentence while it writes the next), and is answered among the actions all
	// the same, marked Spoken. A Say after another kind of action waits its turn.
	SpeakNow func(Action) `json:"-"`
}

// Contact is the person called, as the workflow's contacts list has them.
type Contact struct {
	// ID is the node's contact row (empty for a test call): the CRM finds its record by it.
	ID                                                string `json:",omitempty"`
	Phone, FirstName, LastName, Email, LifecycleStage string
	Extra                                             map[string]string
}

// ActionKind is what the engine asks the carrier to do next.
type ActionKind string

const (
	Say      ActionKind = "say"      // speak Text with Voice
	Listen   ActionKind = "listen"   // wait for the customer's words (Heard follows)
	Transfer ActionKind = "transfer" // forward the call to To
	Hangup   ActionKind = "hangup"   // end the call
)

// Action is one step for the carrier.
type Action struct {
	Kind  ActionKind
	Text  string
	Voice string // a speech.Voice id (the agent's voice)
	To    string // E.164, for Transfer
	// Spoken: the Say went to Setup.SpeakNow already; the carrier must not be asked again.
	Spoken bool `json:",omitempty"`
}

// State is the engine's opaque, serialisable state of one call (JSON).
type State []byte

// Turn is one turn of the conversation.
type Turn struct {
	Speaker string // "agent" or "customer"
	Text    string
	Offset  time.Duration // from the moment the call was answered
}

// Result is what a call came to, read from its State.
type Result struct {
	Turns []Turn
	// Ended says the engine finished the call (an End Call node, a transfer, or the flow ran
	// out); false while it goes on.
	Ended bool
	// DoNotCall: the customer asked not to be called again.
	DoNotCall bool
	// ForwardedTo is the number the call was forwarded to, "" when none.
	ForwardedTo string
	// Steps are the steps of the flow that did something besides talking (webhooks,
	// lifecycle stages, data access, branch choices, the end), in order, with what came of
	// them: a step that could not run is here as skipped or failed, never silently dropped.
	Steps []Step
	// Path are the workflow's nodes the call has been on, in order (a node entered again is
	// listed again); Current is the last of them while the call goes on, "" once it ended.
	Path    []string
	Current string
}

// StepStatus is what came of a step.
type StepStatus string

const (
	StepDone    StepStatus = "done"
	StepSkipped StepStatus = "skipped"
	StepFailed  StepStatus = "failed"
)

// Step is one step of the flow as it ran.
type Step struct {
	NodeID string        `json:"nodeId"`
	Kind   string        `json:"kind"` // the workflow node kind
	Status StepStatus    `json:"status"`
	Detail string        `json:"detail"` // what happened, for people ("POST https://… answered 200")
	Offset time.Duration `json:"offset"`
}

// Summary is the inbox item of a finished call, with the call's analysis.
type Summary struct {
	Title, Summary, Outcome string
	Priority                int
	Analysis                Analysis
}
