package app

import (
	"log/slog"
	"time"

	"github.com/bettyhq/betty/server/billing"
	"github.com/bettyhq/betty/server/calls"
	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/events"
	"github.com/bettyhq/betty/server/jobs"
	"github.com/bettyhq/betty/server/knowledge"
	"github.com/bettyhq/betty/server/llm"
	"github.com/bettyhq/betty/server/phones/sim"
	"github.com/bettyhq/betty/server/phones/telnyx"
	"github.com/bettyhq/betty/server/runs"
	"github.com/bettyhq/betty/server/speech"
	"github.com/bettyhq/betty/server/speech/espeak"
	"github.com/bettyhq/betty/server/speech/flite"
	"github.com/bettyhq/betty/server/store"
)

// dialerDeps are the services the dialer is wired to.
type dialerDeps struct {
	calls     *calls.Service  // runs.CallLogs and runs.Suppressions
	events    *events.Service // runs.Events
	knowledge *knowledge.Service
	// telnyx is Telnyx Call Control when the carrier is Telnyx; nil: the simulator places calls.
	telnyx *telnyx.Calls
	// crm writes lifecycle stages back (HubSpot); nil: those steps are skipped.
	crm conversation.CRM
	// pairings makes the workflow of a paired number that has none.
	pairings runs.Pairings
	// carrier names the carrier (phones.Telephony's Name): calls through the simulator are free.
	carrier string
}

// newRuns builds the dialer and registers its workers on queue (before the queue opens): the
// conversation engine on the configured language back-end, call logs, the do-not-call list
// and live events from calls and events, credits from billing, and the carrier's call control:
// Telnyx's when configured, else the simulator (returned, to be closed at shutdown), whose
// customers are the engine's simulated customer and whose recordings the local speech engine
// speaks.
func newRuns(cfg config.Config, log *slog.Logger, db *store.DB, queue *jobs.Queue, d dialerDeps) (*runs.Service, *sim.Calls, error) {
	model, err := llm.Open(llm.Config{URL: cfg.LLMURL, APIKey: cfg.LLMAPIKey, Model: cfg.LLMModel})
	if err != nil {
		return nil, nil, err
	}
	engine := conversation.New(conversation.Deps{Model: model, Agents: conversation.StoreAgents{DB: db}, Knowledge: d.knowledge,
		CRM: d.crm, Log: log.With("component", "conversation")})
	svc := runs.New(db, queue, runs.Deps{Conversation: engine, CallLogs: d.calls, Suppressions: d.calls, Events: d.events,
		Billing: billing.New(db), Pairings: d.pairings, Log: log.With("component", "dialer")},
		runs.Config{CPSPerNumber: cfg.DialerCPSPerNumber, CPSAccount: cfg.DialerCPSAccount, FrequencyCap: cfg.DialerFrequencyCap,
			SilentAfter: cfg.DialerSilentAfter, Carrier: d.carrier})
	if d.telnyx != nil {
		d.telnyx.SetHandler(svc)
		svc.SetCalls(d.telnyx)
		return svc, nil, nil
	}
	seed := time.Now().UnixNano()
	simCalls := sim.NewCalls(sim.CallOptions{Seed: seed, Log: log.With("component", "sim-calls")})
	simCalls.SetHandler(svc)
	local := conversation.NewCustomer(conversation.CustomerOptions{Seed: seed})
	if cfg.SimCustomer == "model" {
		simCalls.SetCustomer(conversation.NewModelCustomer(model, local, log.With("component", "sim-customer")))
	} else {
		simCalls.SetCustomer(local)
	}
	// The recording speaks with the local engines the presets come from, so an agent given a
	// flite preset is heard in it; an agent without a voice, with en-US's default preset.
	simCalls.SetRecorder(conversation.NewRecorder(speech.Combine(flite.New(flite.Options{}), espeak.New(espeak.Options{})), "flite-en-us-slt"))
	svc.SetCalls(simCalls)
	return svc, simCalls, nil
}
