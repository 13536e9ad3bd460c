package runs

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/riverqueue/river"

	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/store"
)

// dialArgs is the dispatcher of one job: the River job that places its calls.
type dialArgs struct {
	JobID string `json:"jobId"`
}

func (dialArgs) Kind() string { return "workflow_run_dial" }

type dispatcher struct {
	river.WorkerDefaults[dialArgs]
	s *Service
}

func (w *dispatcher) Timeout(*river.Job[dialArgs]) time.Duration { return w.s.cfg.Slice + time.Minute }

func (w *dispatcher) Work(ctx context.Context, job *river.Job[dialArgs]) error {
	wait, done, err := w.s.DispatchAs(ctx, job.Args.JobID, strconv.FormatInt(job.ID, 10))
	if err != nil {
		return err
	}
	if done {
		return nil
	}
	return river.JobSnooze(wait)
}

// sweepArgs is the periodic job that gives every run in progress its dispatcher back when it
// is gone.
type sweepArgs struct{}

func (sweepArgs) Kind() string { return "workflow_run_sweep" }

type sweeper struct {
	river.WorkerDefaults[sweepArgs]
	s *Service
}

func (w *sweeper) Work(ctx context.Context, _ *river.Job[sweepArgs]) error { return w.s.Sweep(ctx) }

// Sweep inserts a dispatcher for every run in progress whose dispatcher's lease ran out (it
// was on a replica that died, or River gave it up); one that holds its lease keeps the job.
// Then it resumes the calls a crash may have left silent (Resume).
func (s *Service) Sweep(ctx context.Context) error {
	ids, err := s.db.UnleasedWorkflowJobIDs(ctx)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if err := s.insertDispatcher(ctx, id); err != nil {
			return err
		}
	}
	_, err = s.Resume(ctx) // calls left silent by a crash (resume.go)
	return err
}

// dialers is how many Dial requests one dispatcher has in flight at once.
const dialers = 16

// leaseFor is how long a dispatcher's lease outlasts the round it is doing (renewed at every
// round) or its snooze: a dispatcher silent that long is taken for dead, and the sweep (every
// sweepEvery, on the leader replica) starts another. Two dispatchers on one job for a moment
// are harmless: each attempt is claimed by one conditional update.
const (
	leaseFor   = 15 * time.Second
	sweepEvery = 10 * time.Second
)

// Dispatch is DispatchAs with the token "direct" (tests and tools).
func (s *Service) Dispatch(ctx context.Context, jobID string) (time.Duration, bool, error) {
	return s.DispatchAs(ctx, jobID, "direct")
}

// DispatchAs works a job for one slice as the dispatcher token: it takes the job's lease (a
// job another dispatcher holds is done for this one), reconciles attempts in doubt, dials
// what the rules allow, and ends the job when no attempt is open. It answers how long to wait
// before the next slice (the lease covers it), or done.
func (s *Service) DispatchAs(ctx context.Context, jobID, token string) (wait time.Duration, done bool, err error) {
	if s.d.Calls == nil {
		return 0, false, errors.New("runs: no carrier call control is configured")
	}
	deadline := s.d.Now().Add(s.cfg.Slice)
	defer func() {
		if err == nil && !done {
			_, err = s.db.LeaseDispatcher(context.WithoutCancel(ctx), jobID, token, s.d.Now().Add(wait+leaseFor))
		}
	}()
	for {
		held, err := s.db.LeaseDispatcher(ctx, jobID, token, s.d.Now().Add(leaseFor))
		if err != nil {
			return 0, false, err
		}
		if !held {
			return 0, true, nil
		}
		j, err := s.db.WorkflowJobForWork(ctx, jobID)
		if errors.Is(err, store.ErrNotFound) {
			return 0, true, nil
		}
		if err != nil {
			return 0, false, err
		}
		if j.Status != store.JobInProgress {
			return 0, true, nil
		}
		if err := s.reconcile(ctx, j); err != nil {
			return 0, false, err
		}
		wait, dialled, err := s.round(ctx, j)
		if err != nil {
			return 0, false, err
		}
		if dialled == 0 {
			finished, err := s.finishIfDone(ctx, j)
			if err != nil || finished {
				return 0, finished, err
			}
			now := s.d.Now()
			if now.Add(wait).After(deadline) {
				return wait, false, nil
			}
			select {
			case <-ctx.Done():
				return 0, false, nil
			case <-time.After(wait):
			}
		}
		if s.d.Now().After(deadline) {
			return 0, false, nil
		}
	}
}

// finishIfDone ends a job with success when none of its attempts is open.
func (s *Service) finishIfDone(ctx context.Context, j store.WorkflowJob) (bool, error) {
	finished := false
	err := s.db.InTx(ctx, func(ctx context.Context) error {
		// The job's row is held first: contacts a Zapier push adds to the run meanwhile are
		// either seen open here, or find the run ended and wait for the next one.
		if st, err := s.db.LockWorkflowJob(ctx, j.ID); err != nil || st != store.JobInProgress {
			return err
		}
		open, err := s.db.JobHasOpenAttempts(ctx, j.ID)
		if err != nil || open {
			return err
		}
		if finished, err = s.db.FinishWorkflowJob(ctx, j.ID, store.JobSuccess, nil); err != nil || !finished {
			return err
		}
		if err := s.campaignFollowsRuns(ctx, j); err != nil {
			return err
		}
		return s.publish(ctx, j.OrganizationID, "job.updated", j.ID)
	})
	return finished, err
}

// round claims and dials one batch of due attempts; it answers how many it dialled and, when
// none, how long to wait.
func (s *Service) round(ctx context.Context, j store.WorkflowJob) (time.Duration, int, error) {
	st, campaignPaused, err := s.followSettings(ctx, &j)
	if err != nil {
		return 0, 0, err
	}
	now := s.d.Now()
	if campaignPaused && !j.IsTest {
		return 5 * time.Second, 0, nil // the campaign is paused: its calls wait (waiting.go)
	}
	balance, rate, tier, err := s.funds(ctx, j.OrganizationID)
	if err != nil {
		return 0, 0, err
	}
	if reason := SpendCheck(balance, rate, j.Spent, j.Budget); reason != "" {
		return 15 * time.Second, 0, s.pause(ctx, j, &reason)
	}
	if j.Paused {
		if err := s.pause(ctx, j, nil); err != nil {
			return 0, 0, err
		}
	}
	override, err := s.db.DialerLimit(ctx, j.OrganizationID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return 0, 0, err
	}
	live, err := s.db.LiveCalls(ctx, j.OrganizationID)
	if err != nil {
		return 0, 0, err
	}
	free := min(FreeLines(live, ConcurrencyLimit(tier, override, st.MaxConcurrent)), Affordable(balance, rate, j.Spent, j.Budget, live))
	if free == 0 {
		return 200 * time.Millisecond, 0, nil
	}
	due, err := s.db.DueAttempts(ctx, j.ID, now, min(free, s.cfg.Batch))
	if err != nil {
		return 0, 0, err
	}
	if len(due) == 0 {
		next, err := s.db.NextDue(ctx, j.ID)
		switch {
		case errors.Is(err, store.ErrNotFound):
			return time.Second, 0, nil // calls on the line: wait for them to end
		case err != nil:
			return 0, 0, err
		}
		return min(max(next.Sub(now), 10*time.Millisecond), 30*time.Second), 0, nil
	}
	numbers := make([]string, len(due))
	for i, a := range due {
		numbers[i] = a.Phone
	}
	dnc := map[string]bool{}
	if s.d.Suppressions != nil {
		if dnc, err = s.d.Suppressions.Suppressed(ctx, j.OrganizationID, numbers); err != nil {
			return 0, 0, err
		}
	}
	counts, first := map[string]int{}, map[string]time.Time{}
	if !j.IsTest {
		if counts, first, err = s.db.RecentDials(ctx, j.OrganizationID, numbers, now.Add(-24*time.Hour)); err != nil {
			return 0, 0, err
		}
	}
	fallback := Location(&st.Timezone, time.UTC)
	wait := time.Duration(0)
	var claimed []store.Attempt
	err = s.db.InTx(ctx, func(ctx context.Context) error {
		for i := range due {
			a := due[i]
			if dnc[a.Phone] {
				a.EndedAt, a.Cause = &now, ptr("on the team's do-not-call list")
				if err := s.settle(ctx, j, &a, store.AttemptSuppress, store.AttemptScheduled); err != nil {
					return err
				}
				continue
			}
			if why := NumberRefusal(st.Numbers, a.Phone); why != "" {
				a.EndedAt, a.Cause = &now, &why
				if err := s.settle(ctx, j, &a, store.AttemptRefused, store.AttemptScheduled); err != nil {
					return err
				}
				continue
			}
			if !st.IgnoreWindow {
				if ok, next := st.Window.NextOpen(now, Location(a.TimeZone, fallback)); !ok {
					if next.IsZero() {
						next = now.Add(24 * time.Hour)
					}
					a.DueAt = next
					if _, err := s.db.MoveAttempt(ctx, &a, store.AttemptScheduled, store.AttemptScheduled); err != nil {
						return err
					}
					continue
				}
			}
			if ok, next := FrequencyWait(counts[a.Phone], s.cfg.FrequencyCap, first[a.Phone]); !ok && !j.IsTest {
				a.DueAt = next
				if _, err := s.db.MoveAttempt(ctx, &a, store.AttemptScheduled, store.AttemptScheduled); err != nil {
					return err
				}
				continue
			}
			if ok, w := s.pacer.Take(j.FromNumber, now); !ok {
				wait = w
				break
			}
			a.DialledAt = &now
			if s.d.CallLogs != nil {
				id, err := s.d.CallLogs.Open(ctx, CallOpened{OrganizationID: j.OrganizationID, Direction: "outbound", From: j.FromNumber,
					To: a.Phone, CampaignID: deref(j.CampaignID), AgentID: deref(j.AgentID), WorkflowID: j.WorkflowID,
					JobID: jobIDUnlessTest(j), AttemptID: a.ID, Simulated: s.simulated()})
				if err != nil {
					return err
				}
				a.CallLogID = &id
			}
			moved, err := s.db.MoveAttempt(ctx, &a, store.AttemptDialling, store.AttemptScheduled)
			if err != nil {
				return err
			}
			if !moved {
				continue
			}
			counts[a.Phone]++
			if a.ContactID != nil {
				if err := s.db.SetContactCall(ctx, j.OrganizationID, *a.ContactID, ContactStatus(store.AttemptDialling), true, a.CallLogID, nil); err != nil {
					return err
				}
			}
			claimed = append(claimed, a)
		}
		return s.publish(ctx, j.OrganizationID, "job.updated", j.ID)
	})
	if err != nil {
		return 0, 0, err
	}
	if len(claimed) == 0 {
		if wait == 0 {
			wait = 10 * time.Millisecond
		}
		return wait, 0, nil
	}
	s.dialAll(ctx, j, st, claimed)
	return 0, len(claimed), nil
}

// followSettings reads the job's current settings (currentSettings). When its campaign's
// changed since the last round, the job keeps the new ones and its first attempts held for
// later (outside the window, over a cap) are due again now, so they are checked against the
// new rules at once instead of at the time the old ones gave. Retries keep their due time.
func (s *Service) followSettings(ctx context.Context, j *store.WorkflowJob) (settings, bool, error) {
	st, paused, err := s.currentSettings(ctx, *j)
	if err != nil {
		return st, false, err
	}
	if raw := mustJSON(st); raw != j.Settings {
		err := s.db.InTx(ctx, func(ctx context.Context) error {
			if err := s.db.SetWorkflowJobSettings(ctx, j.ID, raw); err != nil {
				return err
			}
			return s.db.DueFirstAttemptsNow(ctx, j.ID, s.d.Now())
		})
		if err != nil {
			return st, paused, err
		}
		j.Settings = raw
	}
	return st, paused, nil
}

func jobIDUnlessTest(j store.WorkflowJob) string {
	if j.IsTest {
		return ""
	}
	return j.ID
}

// dialAll asks the carrier to place the claimed calls, a few at a time.
func (s *Service) dialAll(ctx context.Context, j store.WorkflowJob, st settings, claimed []store.Attempt) {
	sem := make(chan struct{}, dialers)
	var wg sync.WaitGroup
	for i := range claimed {
		a := claimed[i]
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := s.dial(ctx, j, st, a); err != nil {
				s.d.Log.WarnContext(ctx, "dial", "attempt", a.ID, "error", err)
			}
		}()
	}
	wg.Wait()
}

// dial asks the carrier for one attempt's call (again, with the same key, when in doubt) and
// records the answer: ringing, failed (refused), or in doubt (no answer we can trust).
func (s *Service) dial(ctx context.Context, j store.WorkflowJob, st settings, a store.Attempt) error {
	req := phones.DialRequest{Key: a.ID, AttemptID: a.ID, From: j.FromNumber, To: a.Phone, DetectMachine: true,
		RingTimeout: s.cfg.RingTimeout, Record: st.Record}
	if j.Persona != nil {
		// A test run: the tester answers, the simulated customer follows their persona.
		req.Simulation = &phones.Simulation{Persona: *j.Persona, Outcome: phones.OutcomeAnswer}
	} else if s.cfg.Carrier == "sim" {
		// A job on the simulator: each contact plays one of the personas that together take
		// every branch of the flow, the same one on every attempt.
		if g, err := s.graph(j); err == nil {
			req.Simulation = &phones.Simulation{Persona: conversation.JobPersona(conversation.Personas(g), a.Phone)}
		}
	}
	call, err := s.d.Calls.Dial(ctx, req)
	switch {
	case err == nil:
		return s.db.InTx(context.WithoutCancel(ctx), func(ctx context.Context) error {
			return s.ringing(ctx, j, a, call.CallControlID, s.d.Now())
		})
	case errors.Is(err, phones.ErrRejected):
		return s.db.InTx(context.WithoutCancel(ctx), func(ctx context.Context) error {
			cur, err := s.db.AttemptByID(ctx, a.ID)
			if err != nil {
				return err
			}
			t := s.d.Now()
			cur.EndedAt, cur.Cause = &t, ptr("the carrier refused the call: "+err.Error())
			return s.settle(ctx, j, &cur, store.AttemptFailed, store.AttemptDialling, store.AttemptInDoubt)
		})
	default:
		_, merr := s.db.MoveAttempt(context.WithoutCancel(ctx), &a, store.AttemptInDoubt, store.AttemptDialling)
		return errors.Join(err, merr)
	}
}

// reconcile moves attempts left dialling (by a process that died, or a Dial whose answer was
// lost) to in-doubt, and asks the carrier again, with the same key, about attempts in doubt
// that no event has explained.
func (s *Service) reconcile(ctx context.Context, j store.WorkflowJob) error {
	before := s.d.Now().Add(-s.cfg.DoubtAfter)
	stale, err := s.db.AttemptsIn(ctx, j.ID, []store.AttemptState{store.AttemptDialling}, before, s.cfg.Batch)
	if err != nil {
		return err
	}
	for i := range stale {
		if _, err := s.db.MoveAttempt(ctx, &stale[i], store.AttemptInDoubt, store.AttemptDialling); err != nil {
			return err
		}
	}
	doubt, err := s.db.AttemptsIn(ctx, j.ID, []store.AttemptState{store.AttemptInDoubt}, before, s.cfg.Batch)
	if err != nil || len(doubt) == 0 {
		return err
	}
	st := decodeSettings(j.Settings)
	for _, a := range doubt {
		if err := s.db.TouchAttempt(ctx, a.ID); err != nil {
			return err
		}
		if a.CallControlID != nil {
			continue // the carrier has the call; its events will tell
		}
		if err := s.dial(ctx, j, st, a); err != nil {
			s.d.Log.WarnContext(ctx, "dial again (in doubt)", "attempt", a.ID, "error", err)
		}
	}
	// Calls the carrier never reported back on: after ringing far past the ring timeout, they
	// are failed so the job can end.
	lost, err := s.db.AttemptsIn(ctx, j.ID, []store.AttemptState{store.AttemptRinging}, s.d.Now().Add(-10*s.cfg.RingTimeout-s.cfg.DoubtAfter), s.cfg.Batch)
	if err != nil {
		return err
	}
	for i := range lost {
		a := lost[i]
		t := s.d.Now()
		a.EndedAt, a.Cause = &t, ptr("the carrier never reported how the call went")
		if err := s.db.InTx(ctx, func(ctx context.Context) error {
			return s.settle(ctx, j, &a, store.AttemptFailed, store.AttemptRinging)
		}); err != nil {
			return err
		}
	}
	return nil
}

// pause pauses a job with reason, or resumes it (nil), telling the team when it changed.
func (s *Service) pause(ctx context.Context, j store.WorkflowJob, reason *string) error {
	return s.db.InTx(ctx, func(ctx context.Context) error {
		changed, err := s.db.PauseWorkflowJob(ctx, j.ID, reason)
		if err != nil || !changed {
			return err
		}
		return s.publish(ctx, j.OrganizationID, "job.updated", j.ID)
	})
}

func ptr[T any](v T) *T { return &v }

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
