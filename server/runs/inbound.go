package runs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/campaigns"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/workflow"
)

// Inbound calls: someone calls one of a team's numbers (the carrier's call.initiated with
// direction incoming, a call Betty did not place).
//
// The call is answered when the number is an active carrier number of a team and one of the
// team's inbound workflows answers it: a workflow of type inbound with that number (or whose
// campaign uses it), runnable (its graph validates, it has an agent), and either outside any
// campaign or its campaign's active workflow while the campaign is active; the most recently
// updated wins. The team must also have credits for a minute. Then, in one transaction: a job
// of type inbound-call (like a test run's: one attempt, its dispatcher, which ends the job once
// the call ends), the attempt (state ringing, with the call's id), the call log (direction
// inbound, from the caller to the number) and the event marked seen; after the commit the
// carrier is asked to answer (Answer, key "<attempt>:answer", the attempt id as the call's
// client_state). From the answer on, the call is held exactly like an outbound one (driver.go):
// the conversation engine speaks first, the transcript is written turn by turn, and the
// hang-up charges the minutes, closes the call log with its recording and files the inbox
// item.
//
// Otherwise the call is turned down (Hangup before answering: the caller hears it refused),
// and the reason is logged: a number no team has, one without an inbound workflow that
// answers it, or a team without credits. An agent paired with the number (the agent call
// configuration) answers through an inbound workflow of that number, which the pairing sets
// up (agents.SetCallConfig, workflows.AnswerNumber: the number's own inbound workflow gets the
// agent, or Betty makes one from the Answer calls template); a paired number that has no
// inbound workflow when a call comes in gets that workflow then (Pairings).
//
// Concurrency: calls that come in are not held back by the team's concurrency limit (a caller
// cannot be asked to wait), but they count against it, so outbound dials wait while they are
// on the line.

// inbound answers or turns down a call that came in.
func (s *Service) inbound(ctx context.Context, e phones.CallEvent) error {
	if e.CallControlID == "" || e.To == "" {
		s.d.Log.InfoContext(ctx, "inbound call without its id or number, ignored", "event", e.ID)
		return nil
	}
	n, err := s.db.InboundNumberByE164(ctx, e.To)
	if errors.Is(err, store.ErrNotFound) {
		return s.turnDown(ctx, e, "", "no team has this number")
	}
	if err != nil {
		return err
	}
	wf, p, reason, err := s.inboundFlow(ctx, n)
	if err != nil {
		return err
	}
	if reason != "" {
		return s.turnDown(ctx, e, n.OrganizationID, reason)
	}
	balance, rate, _, err := s.funds(ctx, n.OrganizationID)
	if err != nil {
		return err
	}
	if balance+1e-9 < rate {
		return s.turnDown(ctx, e, n.OrganizationID, fmt.Sprintf("the team has no credits for a minute (balance %.2f, a minute costs %.2f)", balance, rate))
	}
	var persona *string
	if e.Simulation != nil && e.Simulation.Persona != "" {
		persona = &e.Simulation.Persona
	}
	j := store.WorkflowJob{ID: store.NewID(), OrganizationID: n.OrganizationID, WorkflowID: wf.ID, CampaignID: wf.CampaignID,
		Type: store.JobTypeInboundCall, Status: store.JobInProgress, TriggeredBy: "Inbound call from " + e.From,
		DispatcherUntil: ptr(s.d.Now().Add(leaseFor)), PhoneNumberID: &n.ID, FromNumber: n.E164, AgentID: wf.AgentID,
		Graph: wf.Graph, Settings: mustJSON(p), Persona: persona, Total: 1}
	var a store.Attempt
	err = s.db.InTx(ctx, func(ctx context.Context) error {
		if e.ID != "" {
			fresh, err := s.db.MarkCallEventSeen(ctx, e.ID, store.AttemptID(j.ID, 1, 1), string(e.Kind))
			if err != nil || !fresh {
				a = store.Attempt{}
				return err
			}
		}
		if err := s.db.CreateWorkflowJob(ctx, &j); err != nil {
			return err
		}
		now := s.d.Now()
		a = store.Attempt{ID: store.AttemptID(j.ID, 1, 1), OrganizationID: j.OrganizationID, JobID: j.ID, Seq: 1, Attempt: 1,
			Phone: e.From, State: store.AttemptScheduled, DueAt: now}
		if _, err := s.db.InsertAttempt(ctx, &a); err != nil {
			return err
		}
		if s.d.CallLogs != nil {
			id, err := s.d.CallLogs.Open(ctx, CallOpened{OrganizationID: j.OrganizationID, Direction: "inbound", From: e.From, To: n.E164,
				CampaignID: deref(j.CampaignID), AgentID: deref(j.AgentID), WorkflowID: j.WorkflowID, AttemptID: a.ID,
				Simulated: s.simulated()})
			if err != nil {
				return err
			}
			a.CallLogID = &id
		}
		a.CallControlID = &e.CallControlID
		moved, err := s.db.MoveAttemptIf(ctx, &a, -1, store.AttemptRinging, store.AttemptScheduled)
		if err != nil || !moved {
			return err
		}
		if err := s.progress(ctx, j, a, e, "ringing"); err != nil {
			return err
		}
		return s.insertDispatcher(ctx, j.ID)
	})
	if errors.Is(err, store.ErrConflict) {
		return errStale // the same call, taken by another delivery: deliver again, it finds the attempt
	}
	if err != nil || a.ID == "" {
		return err
	}
	s.d.Log.InfoContext(ctx, "inbound call answered", "org", j.OrganizationID, "workflow", wf.ID, "from", e.From, "to", n.E164, "attempt", a.ID)
	s.answer(ctx, a.ID, e.CallControlID, p.Record)
	return nil
}

// answer asks the carrier to pick up an inbound call (again, with the same key, after a
// crash: see Resume).
func (s *Service) answer(ctx context.Context, attemptID, callID string, record bool) {
	if s.d.Calls == nil {
		return
	}
	if err := s.d.Calls.Answer(ctx, callID, attemptID, record, attemptID+":answer"); err != nil {
		s.d.Log.WarnContext(ctx, "answer an inbound call", "attempt", attemptID, "call", callID, "error", err)
	}
}

// turnDown refuses a call that came in and logs why.
func (s *Service) turnDown(ctx context.Context, e phones.CallEvent, orgID, reason string) error {
	s.d.Log.InfoContext(ctx, "inbound call turned down", "reason", reason, "org", orgID, "from", e.From, "to", e.To, "call", e.CallControlID)
	if s.d.Calls == nil {
		return nil
	}
	if err := s.d.Calls.Hangup(ctx, e.CallControlID, "inbound:"+e.CallControlID+":turn-down"); err != nil {
		return fmt.Errorf("runs: turn down an inbound call: %w", err) // delivered again
	}
	return nil
}

// Pairings makes sure a team's paired number has an inbound workflow
// (workflows.Service.AnswerPaired) and answers whether it made one.
type Pairings interface {
	AnswerPaired(ctx context.Context, orgID, phoneID string) (bool, error)
}

// inboundFlow answers the workflow that answers calls to number n and its settings, or why
// none does. A paired number without an inbound workflow gets one first (Pairings).
func (s *Service) inboundFlow(ctx context.Context, n store.InboundNumber) (store.Workflow, settings, string, error) {
	wf, st, why, err := s.answeringFlow(ctx, n)
	if err != nil || why == "" || s.d.Pairings == nil {
		return wf, st, why, err
	}
	made, err := s.d.Pairings.AnswerPaired(ctx, n.OrganizationID, n.ID)
	if err != nil || !made {
		return wf, st, why, err
	}
	s.d.Log.InfoContext(ctx, "made the inbound workflow of a paired number", "org", n.OrganizationID, "number", n.E164)
	return s.answeringFlow(ctx, n)
}

func (s *Service) answeringFlow(ctx context.Context, n store.InboundNumber) (store.Workflow, settings, string, error) {
	st := settings{Window: DefaultWindow, Timezone: "UTC", MaxAttempts: 1, IgnoreWindow: true, Record: true, Voicemail: campaigns.VoicemailHangUp,
		MaxCallMinutes: campaigns.DefaultMaxCallDurationMinutes}
	wfs, err := s.db.InboundWorkflows(ctx, n.OrganizationID, n.ID)
	if err != nil {
		return store.Workflow{}, st, "", err
	}
	why := "no inbound workflow answers this number (pair an agent with it, create an inbound workflow with this number, or give the number to an active inbound campaign)"
	for _, w := range wfs {
		if w.CampaignID != nil && (!w.Active || w.CampaignStatus != store.CampaignActive) {
			continue
		}
		g, err := workflow.Parse([]byte(w.Graph))
		if err != nil || len(g.Nodes) == 0 || len(workflow.Validate(g, workflow.Type(w.Type))) > 0 || w.AgentID == nil {
			why = fmt.Sprintf("the inbound workflow %s is not runnable (its graph, or its agent)", w.ID)
			continue
		}
		if w.CampaignID != nil {
			c, err := s.db.CampaignByID(ctx, n.OrganizationID, *w.CampaignID)
			if err != nil {
				return store.Workflow{}, st, "", err
			}
			cs := campaigns.DefaultSettings()
			_ = json.Unmarshal([]byte(c.Settings), &cs)
			st.Record, st.Timezone, st.MaxCallMinutes = cs.RecordCalls, cs.Timezone, cs.MaxCallDurationMinutes
		}
		return w.Workflow, st, "", nil
	}
	return store.Workflow{}, st, why, nil
}

// Ringer places simulated inbound calls (phones/sim.Calls): the carrier SimulateInbound needs.
type Ringer interface {
	Inbound(from, to, persona string) (callControlID string, err error)
}

// DefaultSimulatedCaller is the caller's number of a simulated inbound call that names none.
const DefaultSimulatedCaller = "+14155550100"

// SimulatedCall is an inbound call placed by SimulateInbound.
type SimulatedCall struct {
	CallControlID, From, To string
}

// SimulateInbound rings one of the team's numbers (to) from from, the caller following
// persona, with the sim carrier; the call is then answered (or turned down) like any inbound
// call. It says with 422 why a real call would be turned down, before ringing.
func (s *Service) SimulateInbound(ctx context.Context, a auth.Actor, to, from, persona string) (SimulatedCall, error) {
	if from == "" {
		from = DefaultSimulatedCaller
	}
	if !workflow.ValidE164(to) {
		return SimulatedCall{}, errs.InvalidField("body.to", "the number must be in E.164 form, like +14155550123")
	}
	if !workflow.ValidE164(from) {
		return SimulatedCall{}, errs.InvalidField("body.from", "the number must be in E.164 form, like +14155550123")
	}
	ringer, ok := s.d.Calls.(Ringer)
	if !ok {
		return SimulatedCall{}, errs.UnprocessableErr("This server's carrier is not the simulator (sim): call the number to test an inbound workflow.")
	}
	n, err := s.db.InboundNumberByE164(ctx, to)
	if errors.Is(err, store.ErrNotFound) || (err == nil && n.OrganizationID != a.OrganizationID) {
		e := errs.UnprocessableErr(fmt.Sprintf("%s is not an active number of this team.", to))
		e.Fields = []errs.Field{{Name: "body.to", Message: "not an active number of this team"}}
		return SimulatedCall{}, e
	}
	if err != nil {
		return SimulatedCall{}, err
	}
	_, _, reason, err := s.inboundFlow(ctx, n)
	if err != nil {
		return SimulatedCall{}, err
	}
	if reason != "" {
		return SimulatedCall{}, errs.UnprocessableErr(fmt.Sprintf("A call to %s would be turned down: %s.", to, reason))
	}
	balance, rate, _, err := s.funds(ctx, a.OrganizationID)
	if err != nil {
		return SimulatedCall{}, err
	}
	if balance+1e-9 < rate {
		return SimulatedCall{}, errs.WithCode(errs.Unprocessable, errs.CodeLimitReached,
			fmt.Sprintf("This team has no credits left for calls (balance %.2f, a minute costs %.2f).", balance, rate))
	}
	id, err := ringer.Inbound(from, to, persona)
	if err != nil {
		return SimulatedCall{}, err
	}
	return SimulatedCall{CallControlID: id, From: from, To: to}, nil
}
