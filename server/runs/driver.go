package runs

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/workflow"
)

// jobCache keeps what a job's events read and never changes (its graph, settings, numbers),
// so that each call event does not read and parse them again. Status, pause and spending are
// always read from the database.
type jobCache struct {
	mu    sync.Mutex
	jobs  map[string]store.WorkflowJob
	graph map[string]workflow.Graph
}

const jobCacheSize = 1000

// job answers a job's fixed fields, from the cache when there.
func (s *Service) job(ctx context.Context, id string) (store.WorkflowJob, error) {
	s.cache.mu.Lock()
	j, ok := s.cache.jobs[id]
	s.cache.mu.Unlock()
	if ok {
		return j, nil
	}
	j, err := s.db.WorkflowJobForWork(ctx, id)
	if err != nil {
		return j, err
	}
	s.cache.mu.Lock()
	if len(s.cache.jobs) >= jobCacheSize {
		s.cache.jobs, s.cache.graph = map[string]store.WorkflowJob{}, map[string]workflow.Graph{}
	}
	s.cache.jobs[id] = j
	s.cache.mu.Unlock()
	return j, nil
}

// graph answers a job's parsed graph, from the cache when there.
func (s *Service) graph(j store.WorkflowJob) (workflow.Graph, error) {
	s.cache.mu.Lock()
	g, ok := s.cache.graph[j.ID]
	s.cache.mu.Unlock()
	if ok {
		return g, nil
	}
	g, err := workflow.Parse([]byte(j.Graph))
	if err != nil {
		return g, fmt.Errorf("runs: graph of job %s: %w", j.ID, err)
	}
	s.cache.mu.Lock()
	if s.cache.graph != nil {
		s.cache.graph[j.ID] = g
	}
	s.cache.mu.Unlock()
	return g, nil
}

// callState is what the driver keeps with an attempt between call events.
type callState struct {
	// Engine is the conversation engine's state.
	Engine conversation.State `json:"engine,omitempty"`
	// Pending are actions not sent yet: the next ones after the speech under way ends.
	Pending []conversation.Action `json:"pending,omitempty"`
	// Machine: an answering machine took the call.
	Machine bool `json:"machine,omitempty"`
	// Contact is the person called, as read when the call was answered.
	Contact *conversation.Contact `json:"contact,omitempty"`
	// Outbox are the commands of the last step, the first numbered OutboxFirst+1: sent again
	// with the same keys when the call goes quiet (resume.go). OutboxEarly: they are Says
	// spoken early (keyed "<attempt>:<OutboxFirst>.<i>", see commandKey).
	Outbox      []conversation.Action `json:"outbox,omitempty"`
	OutboxFirst int                   `json:"outboxFirst,omitempty"`
	OutboxEarly bool                  `json:"outboxEarly,omitempty"`
	// Speaking counts the Says spoken early whose EventSpeakEnded has not come: Pending waits
	// for the last of them.
	Speaking int `json:"speaking,omitempty"`
	// TimeUp: the call reached its maximum duration and Betty hung it up (sweep.go).
	TimeUp bool `json:"timeUp,omitempty"`
}

func readState(a store.Attempt) callState {
	var cs callState
	if a.Conversation != nil {
		_ = json.Unmarshal([]byte(*a.Conversation), &cs)
	}
	return cs
}

var errStale = errors.New("runs: the call moved on while this event was handled; deliver it again")

var errEarlyEnd = errors.New("runs: a Say spoken early ended before the event that spoke it was recorded; deliver it again")

// HandleCallEvent drives a call from the carrier's events (phones.CallEventHandler). Each
// event is recorded by id in the transaction of its effect, so an event delivered twice
// changes nothing the second time; events of calls the dialer did not place are acknowledged
// and ignored. What the engine decides is sent to the carrier after the commit, each command
// with a key of its own (attempt id and the command's number).
func (s *Service) HandleCallEvent(ctx context.Context, e phones.CallEvent) error {
	a, err := s.attemptOf(ctx, e)
	if errors.Is(err, store.ErrNotFound) && e.Inbound && e.Kind == phones.EventInitiated {
		return s.inbound(ctx, e) // inbound.go
	}
	if errors.Is(err, store.ErrNotFound) {
		s.d.Log.InfoContext(ctx, "call event of no attempt", "event", e.ID, "kind", e.Kind, "call", e.CallControlID)
		return nil
	}
	if err != nil {
		return err
	}
	// When the carrier last told something of the call (the call sweep's clock, sweep.go):
	// every write of the attempt the event makes keeps it.
	if at := s.eventTime(e); a.LastEventAt == nil || at.After(*a.LastEventAt) {
		a.LastEventAt = &at
	}
	j, err := s.job(ctx, a.JobID)
	if err != nil {
		return err
	}
	switch e.Kind {
	case phones.EventInitiated:
		if a.CallControlID != nil && a.State != store.AttemptDialling && a.State != store.AttemptInDoubt {
			return nil // Dial's answer recorded the call already: nothing to do, nothing to remember
		}
		return s.effect(ctx, e, a, func(ctx context.Context) error { return s.ringing(ctx, j, a, e.CallControlID, e.At) })
	case phones.EventAnswered:
		return s.answered(ctx, j, a, e)
	case phones.EventMachine:
		cs := readState(a)
		cs.Machine = true
		st := decodeSettings(j.Settings)
		acts := []conversation.Action{{Kind: conversation.Hangup}}
		if st.Voicemail == "leave-message" && st.VoicemailMessage != "" {
			acts = append([]conversation.Action{{Kind: conversation.Say, Text: st.VoicemailMessage}}, acts...)
		}
		return s.step(ctx, e, a, cs, acts)
	case phones.EventSpeakEnded:
		cs := readState(a)
		if cs.Speaking == 0 && len(cs.Pending) == 0 && a.State == store.AttemptInCall {
			// Nothing waits for this end: a Say spoken early whose event is still being handled
			// (a short sentence while the model writes the rest). Counted once that is recorded.
			if inFlight, err := s.db.CallEventSeen(ctx, earlyMark(a.ID, a.Commands)); err != nil || inFlight {
				return cmp.Or(err, errEarlyEnd)
			}
		}
		if cs.Speaking > 1 { // more early Says to hear out before the next commands
			cs.Speaking--
			return s.step(ctx, e, a, cs, nil)
		}
		acts := cs.Pending
		cs.Pending, cs.Speaking = nil, 0
		return s.step(ctx, e, a, cs, acts)
	case phones.EventHeard:
		return s.heard(ctx, j, a, e)
	case phones.EventHangup:
		return s.hungUp(ctx, j, a, e)
	case phones.EventRecordingSaved:
		return s.recording(ctx, j, a, e)
	}
	return s.effect(ctx, e, a, func(context.Context) error { return nil })
}

// eventTime is when an event happened, by the carrier's clock (now when it does not say).
func (s *Service) eventTime(e phones.CallEvent) time.Time {
	if e.At.IsZero() {
		return s.d.Now()
	}
	return e.At
}

func (s *Service) attemptOf(ctx context.Context, e phones.CallEvent) (store.Attempt, error) {
	if e.AttemptID != "" {
		return s.db.AttemptByID(ctx, e.AttemptID)
	}
	if e.CallControlID == "" {
		return store.Attempt{}, store.ErrNotFound
	}
	return s.db.AttemptByCall(ctx, e.CallControlID)
}

// effect runs fn in a transaction that records the event as seen; an event seen before
// does nothing.
func (s *Service) effect(ctx context.Context, e phones.CallEvent, a store.Attempt, fn func(ctx context.Context) error) error {
	return s.db.InTx(ctx, func(ctx context.Context) error {
		if e.ID != "" {
			fresh, err := s.db.MarkCallEventSeen(ctx, e.ID, a.ID, string(e.Kind))
			if err != nil || !fresh {
				return err
			}
		}
		return fn(ctx)
	})
}

func (s *Service) progress(ctx context.Context, j store.WorkflowJob, a store.Attempt, e phones.CallEvent, status string) error {
	if s.d.CallLogs != nil && a.CallLogID != nil {
		if err := s.d.CallLogs.Progress(ctx, a.OrganizationID, *a.CallLogID, CallProgress{CallControlID: e.CallControlID, Status: status, At: e.At}); err != nil {
			return err
		}
		if err := s.publish(ctx, a.OrganizationID, "call.updated", *a.CallLogID); err != nil {
			return err
		}
	}
	return s.publish(ctx, j.OrganizationID, "job.updated", j.ID)
}

// ringing records the carrier's id of an attempt's call and, the first time, the call log's
// progress.
func (s *Service) ringing(ctx context.Context, j store.WorkflowJob, a store.Attempt, callID string, at time.Time) error {
	changed, err := s.db.SetAttemptCall(ctx, a.ID, callID)
	if err != nil || !changed {
		return err
	}
	return s.progress(ctx, j, a, phones.CallEvent{CallControlID: callID, At: at}, "ringing")
}

// setup is what the conversation engine needs of an attempt's call.
func (s *Service) setup(ctx context.Context, j store.WorkflowJob, a store.Attempt) (conversation.Setup, error) {
	g, err := s.graph(j)
	if err != nil {
		return conversation.Setup{}, err
	}
	su := conversation.Setup{OrganizationID: j.OrganizationID, WorkflowID: j.WorkflowID, CampaignID: deref(j.CampaignID),
		AgentID: deref(j.AgentID), Graph: g, IsTest: j.IsTest, Persona: deref(j.Persona), Contact: conversation.Contact{Phone: a.Phone}}
	if c := readState(a).Contact; c != nil {
		su.Contact = *c
	} else if a.ContactID != nil {
		c, err := s.db.ContactByID(ctx, a.OrganizationID, *a.ContactID)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return su, err
		}
		su.Contact = conversation.Contact{ID: c.ID, Phone: a.Phone, FirstName: deref(c.FirstName), LastName: deref(c.LastName),
			Email: deref(c.Email), LifecycleStage: deref(c.LifecycleStage)}
		if c.Extra != nil {
			_ = json.Unmarshal([]byte(*c.Extra), &su.Contact.Extra)
		}
	} else if name := decodeSettings(j.Settings).ContactName; strings.Contains(name, "@") {
		su.Contact.Email = name
	} else {
		su.Contact.FirstName = name
	}
	return su, nil
}

func (s *Service) answered(ctx context.Context, j store.WorkflowJob, a store.Attempt, e phones.CallEvent) error {
	if a.State.Final() || a.State == store.AttemptInCall {
		return s.effect(ctx, e, a, func(context.Context) error { return nil })
	}
	cs := readState(a)
	var acts []conversation.Action
	if s.d.Conversation != nil {
		su, err := s.setup(ctx, j, a)
		if err != nil {
			return err
		}
		su.SpeakNow = s.speakNow(ctx, a, e)
		if cs.Engine, acts, err = s.d.Conversation.Start(ctx, su); err != nil {
			return err
		}
		cs.Contact = &su.Contact
	}
	at := e.At
	if at.IsZero() {
		at = s.d.Now()
	}
	endsBy := at.Add(decodeSettings(j.Settings).maxCall())
	return s.transition(ctx, e, a, cs, acts, func(ctx context.Context, cur *store.Attempt) error {
		cur.AnsweredAt, cur.EndsBy = &at, &endsBy
		if cur.CallControlID == nil && e.CallControlID != "" {
			cur.CallControlID = &e.CallControlID
		}
		moved, err := s.db.MoveAttemptIf(ctx, cur, a.Commands, store.AttemptInCall, store.AttemptDialling, store.AttemptInDoubt, store.AttemptRinging)
		if err != nil {
			return err
		}
		if !moved {
			return errStale
		}
		return s.progress(ctx, j, *cur, e, "in-progress")
	})
}

func (s *Service) heard(ctx context.Context, j store.WorkflowJob, a store.Attempt, e phones.CallEvent) error {
	cs := readState(a)
	if a.State != store.AttemptInCall || s.d.Conversation == nil {
		return s.effect(ctx, e, a, func(context.Context) error { return nil })
	}
	if e.ID != "" {
		// A duplicate of words handled already: nothing to say again (and no model to ask).
		if seen, err := s.db.CallEventSeen(ctx, e.ID); err != nil || seen {
			return err
		}
	}
	su, err := s.setup(ctx, j, a)
	if err != nil {
		return err
	}
	su.SpeakNow = s.speakNow(ctx, a, e)
	var offset time.Duration
	if a.AnsweredAt != nil && !e.At.IsZero() {
		offset = e.At.Sub(*a.AnsweredAt)
	}
	var acts []conversation.Action
	if cs.Engine, acts, err = s.d.Conversation.Heard(ctx, su, cs.Engine, e.Text, offset); err != nil {
		return err
	}
	return s.step(ctx, e, a, cs, acts)
}

// step keeps the call's new state and sends the next actions.
func (s *Service) step(ctx context.Context, e phones.CallEvent, a store.Attempt, cs callState, acts []conversation.Action) error {
	return s.transition(ctx, e, a, cs, acts, func(ctx context.Context, cur *store.Attempt) error {
		moved, err := s.db.MoveAttemptIf(ctx, cur, a.Commands, cur.State, cur.State)
		if err == nil && !moved {
			err = errStale
		}
		return err
	})
}

// transition records an event's effect: the call's state with the actions to send now
// (up to the first that waits for the carrier) and those after, then sends them. move must
// answer errStale when the attempt moved since it was read (MoveAttemptIf on its command
// counter): the transaction rolls back and the event is delivered again.
func (s *Service) transition(ctx context.Context, e phones.CallEvent, a store.Attempt, cs callState, acts []conversation.Action,
	move func(ctx context.Context, cur *store.Attempt) error) error {
	early := 0 // the Says spoken already (SpeakNow), which begin acts
	for early < len(acts) && acts[early].Spoken {
		early++
	}
	first := a.Commands
	var now, rest []conversation.Action
	if early > 0 {
		// Whatever follows waits for the end of the last early Say, as after any Say.
		rest = append(rest, acts[early:]...)
		cs.Outbox, cs.OutboxFirst, cs.OutboxEarly, cs.Speaking = acts[:early], first, true, early
	} else {
		now, rest = split(acts)
		if len(now) > 0 {
			cs.Outbox, cs.OutboxFirst, cs.OutboxEarly = now, first, false
		}
	}
	cs.Pending = append(rest, cs.Pending...)
	var callID string
	turns, walk, err := s.turns(cs.Engine)
	if err != nil {
		return err
	}
	err = s.effect(ctx, e, a, func(ctx context.Context) error {
		cur := a
		b, err := json.Marshal(cs)
		if err != nil {
			return err
		}
		conv := string(b)
		// Early Says take numbers too, so that no later step's early keys meet theirs.
		cur.Conversation, cur.Commands = &conv, cur.Commands+early+len(now)
		callID = deref(cur.CallControlID)
		if callID == "" {
			callID = e.CallControlID
		}
		if err := move(ctx, &cur); err != nil {
			return err
		}
		if cur.CallLogID == nil || s.d.CallLogs == nil {
			return nil
		}
		if len(walk.Path) > 0 {
			if err := s.d.CallLogs.Walked(ctx, cur.OrganizationID, *cur.CallLogID, walk.Current, walk.Path); err != nil {
				return err
			}
		}
		if len(turns) == 0 {
			return nil
		}
		return s.d.CallLogs.Said(ctx, cur.OrganizationID, *cur.CallLogID, turns)
	})
	if err != nil {
		return err
	}
	s.send(ctx, a.ID, callID, first, now, false)
	return nil
}

func (s *Service) hungUp(ctx context.Context, j store.WorkflowJob, a store.Attempt, e phones.CallEvent) error {
	if a.State.Final() {
		return s.effect(ctx, e, a, func(context.Context) error { return nil })
	}
	cs := readState(a)
	ended := e.At
	if ended.IsZero() {
		ended = s.d.Now()
	}
	// Webhooks come in any order: a normal hang-up (someone hung up after answering) that
	// arrives before call.answered still ends an answered call, billed its first minute.
	answered := a.AnsweredAt != nil || e.Cause == phones.HangupNormal
	state := Outcome(answered, cs.Machine, e.Cause)
	minutes := BilledMinutes(a.AnsweredAt, ended)
	if a.AnsweredAt == nil && answered {
		minutes = 1
	}
	closed := CallClosed{Status: CallLogStatus(state), AnsweredAt: a.AnsweredAt, EndedAt: ended,
		BilledMinutes: minutes, Outcome: string(state), Reason: endReason(j, cs, e.Cause)}
	cause := string(e.Cause)
	if e.Cause == phones.HangupLost {
		cause = causeLost
	}
	var result conversation.Result
	if s.d.Conversation != nil && len(cs.Engine) > 0 {
		var err error
		if result, err = s.d.Conversation.Result(cs.Engine); err != nil {
			return err
		}
		for _, t := range result.Turns {
			closed.Turns = append(closed.Turns, Turn{Speaker: t.Speaker, Text: t.Text, Offset: t.Offset})
		}
		su, err := s.setup(ctx, j, a)
		if err != nil {
			return err
		}
		sum, err := s.d.Conversation.Summarize(ctx, su, result)
		if err != nil {
			return err
		}
		closed.Title, closed.Summary, closed.Outcome, closed.Priority = sum.Title, sum.Summary, sum.Outcome, sum.Priority
		closed.Analysis, closed.Path = &sum.Analysis, result.Path
	}
	if closed.Title == "" {
		closed.Title, closed.Summary, closed.Priority = fmt.Sprintf("Call to %s", a.Phone), fmt.Sprintf("The call ended %s.", state), 3
		if closed.Reason != "" {
			closed.Summary = closed.Reason
		}
	}
	return s.effect(ctx, e, a, func(ctx context.Context) error {
		cur := a // guarded below: the move fails (and all this rolls back) if it moved since
		cur.EndedAt, cur.Cause = &ended, &cause
		if cur.CallControlID == nil && e.CallControlID != "" {
			cur.CallControlID = &e.CallControlID
		}
		if closed.BilledMinutes > 0 {
			cost, err := s.charge(ctx, cur.OrganizationID, cur.ID, closed.BilledMinutes)
			if err != nil {
				return err
			}
			closed.Cost, cur.BilledMinutes, cur.Cost = cost, closed.BilledMinutes, cost
			if err := s.db.AddJobSpend(ctx, j.ID, cost); err != nil {
				return err
			}
		}
		if result.DoNotCall && s.d.Suppressions != nil {
			if err := s.d.Suppressions.AddFromCall(ctx, cur.OrganizationID, cur.Phone, deref(cur.CallLogID), "Asked during the call not to be called again."); err != nil {
				return err
			}
		}
		return s.settleWith(ctx, j, &cur, state, &closed, a.Commands, store.AttemptDialling, store.AttemptInDoubt, store.AttemptRinging, store.AttemptInCall)
	})
}

// settle ends an attempt in a final state (closing its call log as that state says).
func (s *Service) settle(ctx context.Context, j store.WorkflowJob, a *store.Attempt, to store.AttemptState, from ...store.AttemptState) error {
	var closed *CallClosed
	if a.CallLogID != nil {
		closed = &CallClosed{Status: CallLogStatus(to), EndedAt: *a.EndedAt, Outcome: string(to),
			Title: fmt.Sprintf("Call to %s", a.Phone), Summary: "The call could not be placed: " + deref(a.Cause), Priority: 3}
	}
	return s.settleWith(ctx, j, a, to, closed, -1, from...)
}

// settleWith ends an attempt (from one of from) in state to: the contact's status, a retry
// when the campaign allows one, the call log, the events. (The dispatcher ends the job when
// nothing is left open, within a second of its last call.)
//
// With guard >= 0 the attempt must still have that command counter and one of from: else
// errStale, and the caller's transaction rolls back (the event is delivered again and finds
// the attempt as it is now).
func (s *Service) settleWith(ctx context.Context, j store.WorkflowJob, a *store.Attempt, to store.AttemptState, closed *CallClosed, guard int, from ...store.AttemptState) error {
	st := decodeSettings(j.Settings)
	var ended time.Time
	if a.EndedAt != nil {
		ended = *a.EndedAt
	}
	retry, due := Retry(to, a.Attempt, st.MaxAttempts, time.Duration(st.RetryDelayMinutes)*time.Minute, ended)
	status, err := s.db.WorkflowJobStatus(ctx, j.ID)
	if err != nil {
		return err
	}
	retry = retry && status == store.JobInProgress
	a.Retried = retry
	moved, err := s.db.MoveAttemptIf(ctx, a, guard, to, from...)
	if err != nil {
		return err
	}
	if !moved {
		if guard >= 0 {
			return errStale
		}
		return nil
	}
	if retry {
		if _, err := s.db.InsertAttempt(ctx, &store.Attempt{ID: store.AttemptID(j.ID, a.Seq, a.Attempt+1), OrganizationID: a.OrganizationID,
			JobID: j.ID, ContactID: a.ContactID, Seq: a.Seq, Attempt: a.Attempt + 1, Phone: a.Phone, TimeZone: a.TimeZone,
			State: store.AttemptScheduled, DueAt: due}); err != nil {
			return err
		}
	}
	if a.ContactID != nil {
		var lastErr *string
		if ContactStatus(to) == store.ContactFailed {
			lastErr = a.Cause
		}
		if err := s.db.SetContactCall(ctx, a.OrganizationID, *a.ContactID, ContactStatus(to), false, a.CallLogID, lastErr); err != nil {
			return err
		}
	}
	if closed != nil && a.CallLogID != nil && s.d.CallLogs != nil {
		if err := s.d.CallLogs.Close(ctx, a.OrganizationID, *a.CallLogID, *closed); err != nil {
			return err
		}
		if err := s.publish(ctx, a.OrganizationID, "call.updated", *a.CallLogID); err != nil {
			return err
		}
	}
	return s.publish(ctx, j.OrganizationID, "job.updated", j.ID)
}

func (s *Service) recording(ctx context.Context, j store.WorkflowJob, a store.Attempt, e phones.CallEvent) error {
	mp3 := e.Recording
	if mp3 == nil && e.RecordingURL != "" {
		var err error
		if mp3, err = s.download(ctx, e.RecordingURL); err != nil {
			return err
		}
	}
	return s.effect(ctx, e, a, func(ctx context.Context) error {
		if a.CallLogID == nil || s.d.CallLogs == nil || len(mp3) == 0 {
			return nil
		}
		if err := s.d.CallLogs.AttachRecording(ctx, a.OrganizationID, *a.CallLogID, mp3); err != nil {
			return err
		}
		return s.publish(ctx, a.OrganizationID, "call.updated", *a.CallLogID)
	})
}

// maxRecording bounds a downloaded recording (an hour of 128 kbit/s MP3 is about 58 MB).
const maxRecording = 100 << 20

func (s *Service) download(ctx context.Context, url string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.RecordingTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("runs: recording URL: %w", err)
	}
	res, err := s.d.HTTP.Do(req)
	if err != nil {
		return nil, fmt.Errorf("runs: download recording: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("runs: download recording: %s", res.Status)
	}
	b, err := io.ReadAll(io.LimitReader(res.Body, maxRecording+1))
	if err != nil {
		return nil, fmt.Errorf("runs: download recording: %w", err)
	}
	if len(b) > maxRecording {
		return nil, errors.New("runs: the recording is larger than 100 MB")
	}
	return b, nil
}
