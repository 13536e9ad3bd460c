package runs

// The carrier commands of a call: what a step sends now, their keys (Telnyx's command_id) and
// early speech (doc.go, "Early speech").

import (
	"context"
	"fmt"
	"time"

	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/store"
)

// speakNow is the early-speech hook of an event's handling (doc.go, "Early speech"): the ith
// Say it is handed goes to the carrier at once, keyed commandKey(attempt, counter, i, true).
// nil without a carrier or a call to speak on.
func (s *Service) speakNow(ctx context.Context, a store.Attempt, e phones.CallEvent) func(conversation.Action) {
	callID := deref(a.CallControlID)
	if callID == "" {
		callID = e.CallControlID
	}
	if s.d.Calls == nil || callID == "" {
		return nil
	}
	early := 0
	return func(act conversation.Action) {
		if early++; early == 1 {
			// Before the first goes out: its end may come before this event is recorded.
			if _, err := s.db.MarkCallEventSeen(ctx, earlyMark(a.ID, a.Commands), a.ID, "betty.early-speech"); err != nil {
				s.d.Log.WarnContext(ctx, "early speech mark", "attempt", a.ID, "error", err)
			}
		}
		s.sendOne(ctx, a.ID, callID, commandKey(a.ID, a.Commands, early, true), act)
	}
}

// earlyMark is the id, among the events seen, that says an event handled with the attempt's
// counter at n spoke early: a speak.ended that nothing waits for while the counter is still n
// belongs to it, and is delivered again once the event is recorded.
func earlyMark(attemptID string, n int) string { return fmt.Sprintf("betty:early:%s:%d", attemptID, n) }

// split answers the actions to send now (up to and including the first that waits: a Say
// waits for its end, a Listen for the words, a Transfer or Hangup ends the call) and the rest.
func split(acts []conversation.Action) (now, rest []conversation.Action) {
	for i, act := range acts {
		if act.Kind == conversation.Say || act.Kind == conversation.Listen || act.Kind == conversation.Transfer || act.Kind == conversation.Hangup {
			return acts[:i+1], append([]conversation.Action(nil), acts[i+1:]...)
		}
	}
	return acts, nil
}

// listenFor is how long the agent waits for the customer to speak.
const listenFor = 8 * time.Second

// commandKey is the key of a call command (Telnyx's command_id), from the attempt and its
// command counter: "<attempt>:<first+i>" for the ith command (from 1) of a step recorded with
// the counter at first, "<attempt>:<first>.<i>" for the ith Say spoken early while an event
// was handled with the counter at first. The two forms never meet, so an early Say of an
// event that loses the race to another event of the call never takes the key of a command
// that event sends.
func commandKey(attemptID string, first, i int, early bool) string {
	if early {
		return fmt.Sprintf("%s:%d.%d", attemptID, first, i)
	}
	return fmt.Sprintf("%s:%d", attemptID, first+i)
}

// send sends the commands of a step (early: the Says spoken early, again) with their keys.
func (s *Service) send(ctx context.Context, attemptID, callID string, first int, acts []conversation.Action, early bool) {
	if s.d.Calls == nil || callID == "" {
		return
	}
	for i, act := range acts {
		s.sendOne(ctx, attemptID, callID, commandKey(attemptID, first, i+1, early), act)
	}
}

func (s *Service) sendOne(ctx context.Context, attemptID, callID, key string, act conversation.Action) {
	var err error
	switch act.Kind {
	case conversation.Say:
		err = s.d.Calls.Speak(ctx, callID, act.Text, act.Voice, key)
	case conversation.Listen:
		err = s.d.Calls.Listen(ctx, callID, listenFor, key)
	case conversation.Transfer:
		err = s.d.Calls.Transfer(ctx, callID, act.To, key)
	case conversation.Hangup:
		err = s.d.Calls.Hangup(ctx, callID, key)
	}
	if err != nil {
		s.d.Log.WarnContext(ctx, "call command", "attempt", attemptID, "action", act.Kind, "key", key, "error", err)
	}
}
