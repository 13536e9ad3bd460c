// Package conversation holds a call: it walks the workflow graph while the call goes on,
// deciding what the agent says, how the customer's words choose a branch, which webhooks to
// call, when to forward and when to hang up. It is driven by events, so the same engine holds
// a simulated call (phones/sim) and a real one (phones/telnyx, one webhook at a time, across
// restarts): Start answers the first actions and an opaque State; Heard takes what the
// customer said and the State and answers the next actions and State. The dialer
// (server/runs) keeps the State with the call attempt between events.
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
