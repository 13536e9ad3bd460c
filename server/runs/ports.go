package runs

import (
	"context"
	"time"

	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/store"
)

// The dialer's neighbours, as small interfaces of its own that server/app satisfies (the
// layering of docs/architecture.md): call logs and the inbox (server/calls), the do-not-call
// list (server/calls), live events (server/events), credits (server/billing) and the
// conversation engine (server/conversation). Every method that writes joins the transaction
// in ctx (store.WithTx), so what a call's end writes lands together or not at all.

// CallLogs keeps the call log of every call the dialer places (server/calls).
type CallLogs interface {
	// Open records a call about to be placed (status queued) and answers its id.
	Open(ctx context.Context, c CallOpened) (callLogID string, err error)
	// Progress records the carrier's id and a status change (ringing, in-progress).
	Progress(ctx context.Context, orgID, callLogID string, p CallProgress) error
	// Said records the conversation of a call under way as it goes (the live transcript):
	// turns is the whole conversation so far, and the turns not recorded yet are added. It
	// publishes call.updated when it added any. A call that ended is left to Close.
	Said(ctx context.Context, orgID, callLogID string, turns []Turn) error
	// Walked records where a call under way stands in its workflow: the node it is on now
	// ("" for none) and the nodes it has been on, in order (conversation.Result's Current
	// and Path). It publishes call.updated when that changed. A call that ended is left to
	// Close.
	Walked(ctx context.Context, orgID, callLogID, current string, path []string) error
	// Close records the end of the call: final status, times, cost, transcript, recording and
	// the inbox item the call produces (Turns is the whole conversation: the turns Said
	// recorded already are not added again). Closing a call log twice changes nothing the
	// second time.
	Close(ctx context.Context, orgID, callLogID string, c CallClosed) error
	// AttachRecording stores the MP3 of a call already closed (the carrier's recording arrives
	// after the hang-up). Attaching again replaces nothing: the first recording stays.
	AttachRecording(ctx context.Context, orgID, callLogID string, mp3 []byte) error
}

// CallOpened is a call about to be placed.
type CallOpened struct {
	OrganizationID string
	Direction      string // "outbound" or "inbound"
	From, To       string
	CampaignID     string // "" when none
	AgentID        string // "" when none
	WorkflowID     string // "" when none
	JobID          string // "" for inbound and test calls
	AttemptID      string
	// Simulated: the call goes through the offline simulator, so it is free (credits.go).
	Simulated bool
}

// CallProgress is a status change of a call under way.
type CallProgress struct {
	CallControlID string
	Status        string // the contract's CallLogStatus
	At            time.Time
}

// CallClosed is how a call ended.
type CallClosed struct {
	Status     string // completed, busy, no-answer, failed or cancelled
	AnsweredAt *time.Time
	EndedAt    time.Time
	// BilledMinutes are the minutes charged (rounded up from answer to hang-up, 0 when never
	// answered); Cost is what they cost the team in US dollars.
	BilledMinutes int
	Cost          float64
	Turns         []Turn
	// Recording is the MP3 of the call (nil when none).
	Recording []byte
	// Title, Summary and Priority make the call's inbox item; Outcome is a short word for
	// people ("completed", "voicemail", "do-not-call", "forwarded", …).
	Title, Summary, Outcome string
	Priority                int
	// Reason says, for people, why Betty ended the call rather than the people on it (the
	// maximum duration, a call the carrier lost); "" when it ended the usual way. It is the
	// call log's endReason.
	Reason string
	// Analysis is the call's post-call analysis (nil when the conversation engine did not
	// hold the call).
	Analysis *conversation.Analysis
	// Path are the workflow's nodes the call had been on (nil: the path Walked recorded stays).
	Path []string
}

// Turn is one turn of a conversation.
type Turn struct {
	Speaker string // "agent" or "customer"
	Text    string
	Offset  time.Duration // from the answer
}

// Suppressions is the team's do-not-call list (server/calls).
type Suppressions interface {
	// Suppressed answers which of the numbers (E.164) are on the team's list.
	Suppressed(ctx context.Context, orgID string, numbers []string) (map[string]bool, error)
	// AddFromCall puts a number on the list because the person asked during a call.
	AddFromCall(ctx context.Context, orgID, number, callLogID, reason string) error
}

// Events publishes live updates to the team's event stream (server/events).
type Events interface {
	// Publish records that entity id of the team changed (typ: the contract's EventType, e.g.
	// "job.updated" with a job id), in the transaction in ctx; the stream renders the entity
	// as it is when it sends the event.
	Publish(ctx context.Context, orgID, typ, id string) error
}

// Conversation is the conversation engine (server/conversation.Engine) as the call driver uses it.
type Conversation interface {
	Start(ctx context.Context, s conversation.Setup) (conversation.State, []conversation.Action, error)
	Heard(ctx context.Context, s conversation.Setup, st conversation.State, text string, at time.Duration) (conversation.State, []conversation.Action, error)
	Result(st conversation.State) (conversation.Result, error)
	Summarize(ctx context.Context, s conversation.Setup, r conversation.Result) (conversation.Summary, error)
}

// Billing is what the dialer asks of credits (server/billing.Service, calls.go).
type Billing interface {
	// CallFunds answers the team's balance, per-minute rate and tier.
	CallFunds(ctx context.Context, orgID string) (balance, rate float64, tier store.SubscriptionTier, err error)
	// ChargeCall charges an attempt's billed minutes once and answers the cost; it joins the
	// transaction in ctx.
	ChargeCall(ctx context.Context, orgID, attemptID string, minutes int) (float64, error)
}
