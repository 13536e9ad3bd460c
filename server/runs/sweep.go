package runs

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/riverqueue/river"

	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/store"
)

// The call sweep: every call in progress ends. The rules (silent calls asked about, the
// maximum duration, how a lost call is billed) are written in the package doc (doc.go,
// "Every call ends"); this is where they are applied, through the driver's own code.

// silentAfterDefault is Config.SilentAfter's default: many times a listen (8 s) and the 30 s
// after which Resume sends a quiet call its last commands again, so a call merely slow is
// left alone, while a line whose hang-up was lost is held a few minutes at most.
const silentAfterDefault = 2 * time.Minute

// sweepBatch is how many calls the sweep reads at once; sweepAskers how many carrier
// questions it has in flight. BenchmarkSweepLostCalls: 10,000 lost calls end in one sweep.
const (
	sweepBatch  = 500
	sweepAskers = 16
)

// causeLost is the cause an attempt ended by the sweep keeps (the contact's last error).
const causeLost = "the carrier lost the call; Betty ended it"

// ReasonLost is the end reason of a call the carrier lost (the call log's endReason).
const ReasonLost = "The carrier lost this call; it was ended by Betty."

// callSweepEvery is how often the sweep runs: a quarter of the silence it waits for, so a
// silent call is asked about at most a quarter late, between 1 and 30 seconds.
func callSweepEvery(silentAfter time.Duration) time.Duration {
	return min(max(silentAfter/4, time.Second), 30*time.Second)
}

// callSweepArgs is the periodic job that ends the calls whose hang-up never came.
type callSweepArgs struct{}

func (callSweepArgs) Kind() string { return "call_sweep" }

type callSweeper struct {
	river.WorkerDefaults[callSweepArgs]
	s *Service
}

func (w *callSweeper) Work(ctx context.Context, _ *river.Job[callSweepArgs]) error {
	_, err := w.s.SweepCalls(ctx)
	return err
}

// Swept is what one sweep did.
type Swept struct {
	// Asked: calls the carrier was asked about; Lost: calls it no longer had, ended; TimeUp:
	// calls hung up at their maximum duration.
	Asked, Lost, TimeUp int
}

// SweepCalls ends the calls on the line whose hang-up never came (doc.go) and answers what
// it did. It works batches until one is not full, or for one sweep interval at most (so an
// incident of thousands of lost calls clears in one run without two runs overlapping). Every
// change goes through the call driver, guarded like an event's, so two sweeps at once, or a
// sweep and the real hang-up, end a call once.
func (s *Service) SweepCalls(ctx context.Context) (Swept, error) {
	var out Swept
	if s.d.Calls == nil {
		return out, nil
	}
	budget := time.Now().Add(callSweepEvery(s.cfg.SilentAfter))
	for {
		n, err := s.sweepBatch(ctx, &out)
		if err != nil || n < sweepBatch || time.Now().After(budget) || ctx.Err() != nil {
			return out, err
		}
	}
}

// sweepBatch looks at one batch of calls and answers how many it looked at.
func (s *Service) sweepBatch(ctx context.Context, out *Swept) (int, error) {
	now := s.d.Now()
	calls, err := s.db.CallsToSweep(ctx, now, now.Add(-s.cfg.SilentAfter), sweepBatch)
	if err != nil || len(calls) == 0 {
		return 0, err
	}
	var (
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
		sem  = make(chan struct{}, sweepAskers)
	)
	for _, a := range calls {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			did, err := s.sweepCall(ctx, now, a)
			mu.Lock()
			defer mu.Unlock()
			switch did {
			case sweptLost:
				out.Asked++
				out.Lost++
			case sweptAlive:
				out.Asked++
			case sweptTimeUp:
				out.TimeUp++
			case sweptAliveTimeUp:
				out.Asked++
				out.TimeUp++
			}
			if err != nil {
				errs = append(errs, err)
			}
		}()
	}
	wg.Wait()
	return len(calls), errors.Join(errs...)
}

type sweepResult int

const (
	sweptNothing sweepResult = iota
	sweptAlive
	sweptLost
	sweptTimeUp
	sweptAliveTimeUp
)

// sweepCall looks at one call: asks the carrier when it is silent, ends it when the carrier
// lost it, hangs it up past its maximum duration.
func (s *Service) sweepCall(ctx context.Context, now time.Time, a store.Attempt) (sweepResult, error) {
	j, err := s.job(ctx, a.JobID)
	if err != nil {
		return sweptNothing, err
	}
	callID := deref(a.CallControlID)
	did := sweptNothing
	if lastHeard(a).Before(now.Add(-s.cfg.SilentAfter)) {
		st, err := s.d.Calls.Status(ctx, callID)
		if err != nil {
			s.d.Log.WarnContext(ctx, "call sweep: the carrier could not be asked about a silent call", "attempt", a.ID, "call", callID, "error", err)
			return sweptNothing, s.db.MarkSwept(ctx, a.ID, now)
		}
		if !st.Alive {
			s.d.Log.InfoContext(ctx, "call sweep: the carrier lost a call; ending it", "attempt", a.ID, "call", callID, "state", a.State)
			err := s.lost(ctx, a, st.EndedAt, now)
			if errors.Is(err, errStale) {
				return sweptAlive, nil // an event moved the call meanwhile: the next sweep looks again
			}
			return sweptLost, err
		}
		did = sweptAlive
	}
	if !now.Before(deadline(a, decodeSettings(j.Settings))) {
		err := s.timeUp(ctx, a)
		if errors.Is(err, errStale) {
			return did, nil // an event moved the call meanwhile: the next sweep looks again
		}
		if did == sweptAlive {
			did = sweptAliveTimeUp
		} else {
			did = sweptTimeUp
		}
		if err != nil {
			return did, err
		}
	}
	return did, s.db.MarkSwept(ctx, a.ID, now)
}

// lastHeard is when the carrier last told something of an attempt's call: its last event,
// else (rows older than last_event_at) the answer, the dial or the attempt's making.
func lastHeard(a store.Attempt) time.Time {
	for _, t := range []*time.Time{a.LastEventAt, a.AnsweredAt, a.DialledAt} {
		if t != nil {
			return *t
		}
	}
	return a.CreatedAt
}

// deadline is when an attempt's call must be over: its ends_by, else (a call whose answer
// never came, or answered before ends_by existed) the answer, dial or making plus the job's
// maximum duration.
func deadline(a store.Attempt, st settings) time.Time {
	if a.EndsBy != nil {
		return *a.EndsBy
	}
	start := a.CreatedAt
	for _, t := range []*time.Time{a.AnsweredAt, a.DialledAt} {
		if t != nil {
			start = *t
			break
		}
	}
	return start.Add(st.maxCall())
}

// lost ends a call the carrier no longer has, as its hang-up would have (HandleCallEvent),
// at the last thing known: the carrier's end when it tells one after the last event heard
// (never after now), else the last event heard. The event's id is the attempt's, so a
// second sweep (or a replica's) changes nothing.
func (s *Service) lost(ctx context.Context, a store.Attempt, carrierEnd, now time.Time) error {
	end := lastHeard(a)
	if carrierEnd.After(end) && now.After(end) {
		end = carrierEnd
		if end.After(now) {
			end = now
		}
	}
	return s.HandleCallEvent(ctx, phones.CallEvent{ID: "betty:lost:" + a.ID, Kind: phones.EventHangup,
		CallControlID: deref(a.CallControlID), AttemptID: a.ID, At: end, Cause: phones.HangupLost})
}

// timeUp hangs up a call past its maximum duration: the Hangup is the call's next command,
// recorded in its state (so its hang-up tells why, and Resume sends it again should the
// process die first) and sent with its own key. Anything the flow had still to say is
// dropped.
func (s *Service) timeUp(ctx context.Context, a store.Attempt) error {
	cs := readState(a)
	cs.TimeUp, cs.Pending = true, nil
	s.d.Log.InfoContext(ctx, "call sweep: a call reached its maximum duration; hanging up", "attempt", a.ID, "call", deref(a.CallControlID))
	return s.step(ctx, phones.CallEvent{CallControlID: deref(a.CallControlID)}, a, cs, []conversation.Action{{Kind: conversation.Hangup}})
}

// endReason says, for people, why Betty ended a call (the call log's endReason): "" when the
// call ended the usual way.
func endReason(j store.WorkflowJob, cs callState, cause phones.HangupCause) string {
	switch {
	case cs.TimeUp:
		n := decodeSettings(j.Settings).MaxCallMinutes
		unit := "minutes"
		if n == 1 {
			unit = "minute"
		}
		return fmt.Sprintf("The call reached its maximum duration of %d %s; it was hung up by Betty.", n, unit)
	case cause == phones.HangupLost:
		return ReasonLost
	}
	return ""
}
