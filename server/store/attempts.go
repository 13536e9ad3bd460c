package store

// The attempts of a workflow run: one row per call (or try of a call) to a contact, the
// states the dialer moves it through, and the reads its rules need (due, live, recent dials).
// The jobs themselves are in runs.go.

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// AttemptState is where one dial attempt stands (server/runs/doc.go draws the states).
type AttemptState string

const (
	AttemptScheduled AttemptState = "scheduled"
	AttemptDialling  AttemptState = "dialling"
	AttemptInDoubt   AttemptState = "in-doubt"
	AttemptRinging   AttemptState = "ringing"
	AttemptInCall    AttemptState = "in-call"
	AttemptCompleted AttemptState = "completed"
	AttemptBusy      AttemptState = "busy"
	AttemptNoAnswer  AttemptState = "no-answer"
	AttemptVoicemail AttemptState = "voicemail"
	AttemptFailed    AttemptState = "failed"
	AttemptCancelled AttemptState = "cancelled"
	AttemptSuppress  AttemptState = "suppressed"
	// AttemptRefused is a number of a kind its job may not call (phones.Policy): never dialled.
	AttemptRefused AttemptState = "refused"
)

// LiveAttemptStates are the states of an attempt whose call may be on the line: they count
// against the team's concurrent calls.
var LiveAttemptStates = []AttemptState{AttemptDialling, AttemptInDoubt, AttemptRinging, AttemptInCall}

// Final says whether an attempt in state s is over.
func (s AttemptState) Final() bool {
	switch s {
	case AttemptScheduled, AttemptDialling, AttemptInDoubt, AttemptRinging, AttemptInCall:
		return false
	}
	return true
}

// Attempt is one dial of a contact.
type Attempt struct {
	ID             string       `db:"id"`
	OrganizationID string       `db:"organization_id"`
	JobID          string       `db:"job_id"`
	ContactID      *string      `db:"contact_id"`
	Seq            int          `db:"seq"`
	Attempt        int          `db:"attempt"`
	Phone          string       `db:"phone"`
	TimeZone       *string      `db:"time_zone"`
	State          AttemptState `db:"state"`
	Retried        bool         `db:"retried"`
	DueAt          time.Time    `db:"due_at"`
	DialledAt      *time.Time   `db:"dialled_at"`
	AnsweredAt     *time.Time   `db:"answered_at"`
	EndedAt        *time.Time   `db:"ended_at"`
	CallControlID  *string      `db:"call_control_id"`
	CallLogID      *string      `db:"call_log_id"`
	Cause          *string      `db:"cause"`
	Conversation   *string      `db:"conversation"`
	Commands       int          `db:"commands"`
	BilledMinutes  int          `db:"billed_minutes"`
	Cost           float64      `db:"cost"`
	// LastEventAt is the time of the carrier's last event of the call (the call driver sets
	// it, MoveAttemptIf keeps the latest);
	// EndsBy when the call reaches its maximum duration; SweptAt when the call sweep last
	// asked the carrier about it (server/runs, sweep.go).
	LastEventAt *time.Time `db:"last_event_at"`
	EndsBy      *time.Time `db:"ends_by"`
	SweptAt     *time.Time `db:"swept_at"`
	CreatedAt   time.Time  `db:"created_at"`
	UpdatedAt   time.Time  `db:"updated_at"`
}

const attemptColumns = `id, organization_id, job_id, contact_id, seq, attempt, phone, time_zone, state, retried, due_at,
	dialled_at, answered_at, ended_at, call_control_id, call_log_id, cause, conversation, commands, billed_minutes, cost,
	last_event_at, ends_by, swept_at, created_at, updated_at`

// AttemptID is the id of a contact's attempt n in a job: the same inputs give the same id, so
// inserting a retry twice inserts it once.
func AttemptID(jobID string, seq, n int) string { return fmt.Sprintf("%s.%d.%d", jobID, seq, n) }

// InsertAttempt adds one attempt; an attempt with the same id already there is kept (false).
func (db *DB) InsertAttempt(ctx context.Context, a *Attempt) (bool, error) {
	t := now()
	a.CreatedAt, a.UpdatedAt = t, t
	n, err := db.exec(ctx, `INSERT INTO contact_attempts (id, organization_id, job_id, contact_id, seq, attempt, phone, time_zone,
			state, due_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
		a.ID, a.OrganizationID, a.JobID, a.ContactID, a.Seq, a.Attempt, a.Phone, a.TimeZone, a.State, a.DueAt, t, t)
	return n == 1, err
}

// DueAttempts answers up to limit of a job's scheduled attempts due at t, the earliest first.
func (db *DB) DueAttempts(ctx context.Context, jobID string, t time.Time, limit int) ([]Attempt, error) {
	out := []Attempt{}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT `+attemptColumns+` FROM contact_attempts
		WHERE job_id = ? AND state = ? AND due_at <= ? ORDER BY due_at, seq LIMIT ?`, jobID, AttemptScheduled, t, limit)
	return out, err
}

// NextDue answers when a job's earliest scheduled attempt is due; ErrNotFound when none is.
func (db *DB) NextDue(ctx context.Context, jobID string) (time.Time, error) {
	var a Attempt
	err := db.get(ctx, db.read(ctx), &a, `SELECT `+attemptColumns+` FROM contact_attempts WHERE job_id = ? AND state = ?
		ORDER BY due_at LIMIT 1`, jobID, AttemptScheduled)
	return a.DueAt, err
}

// AttemptsIn answers a job's attempts in one of states whose last change is before t.
func (db *DB) AttemptsIn(ctx context.Context, jobID string, states []AttemptState, before time.Time, limit int) ([]Attempt, error) {
	out := []Attempt{}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT `+attemptColumns+` FROM contact_attempts
		WHERE job_id = ? AND state IN (`+placeholders(len(states))+`) AND updated_at < ? ORDER BY updated_at LIMIT ?`,
		append(append([]any{jobID}, anys(states)...), before, limit)...)
	return out, err
}

// JobHasOpenAttempts says whether any attempt of a job is not final.
func (db *DB) JobHasOpenAttempts(ctx context.Context, jobID string) (bool, error) {
	var n int
	err := db.get(ctx, db.read(ctx), &n, `SELECT COUNT(*) FROM (SELECT 1 FROM contact_attempts WHERE job_id = ? AND state IN (?, ?, ?, ?, ?) LIMIT 1) x`,
		jobID, AttemptScheduled, AttemptDialling, AttemptInDoubt, AttemptRinging, AttemptInCall)
	return n > 0, err
}

// MoveAttempt changes an attempt's state from one of from to to, with the other fields of a
// (dialled, answered and ended times, the maximum duration's end, the carrier's last event
// when later than the one kept, call ids, cause, conversation, commands, cost); false
// when the attempt was in none of from (someone else moved it first).
func (db *DB) MoveAttempt(ctx context.Context, a *Attempt, to AttemptState, from ...AttemptState) (bool, error) {
	return db.MoveAttemptIf(ctx, a, -1, to, from...)
}

// MoveAttemptIf is MoveAttempt that also needs the attempt's command counter to be commands
// (unchecked when negative): the call driver's guard against an event handled concurrently.
func (db *DB) MoveAttemptIf(ctx context.Context, a *Attempt, commands int, to AttemptState, from ...AttemptState) (bool, error) {
	t := now()
	// last_event_at only moves forward (events come in any order, and a writer may hold an
	// older copy): the call sweep's clock, kept by the write every event makes anyway.
	n, err := db.exec(ctx, `UPDATE contact_attempts SET state = ?, due_at = ?, dialled_at = ?, answered_at = ?, ended_at = ?,
			ends_by = ?, call_control_id = ?, call_log_id = ?, cause = ?, conversation = ?, commands = ?, billed_minutes = ?, cost = ?,
			retried = ?, updated_at = ?,
			last_event_at = CASE WHEN last_event_at IS NULL OR last_event_at < ? THEN COALESCE(?, last_event_at) ELSE last_event_at END
		WHERE id = ? AND (? < 0 OR commands = ?) AND state IN (`+placeholders(len(from))+`)`,
		append([]any{to, a.DueAt, a.DialledAt, a.AnsweredAt, a.EndedAt, a.EndsBy, a.CallControlID, a.CallLogID, a.Cause, a.Conversation,
			a.Commands, a.BilledMinutes, a.Cost, a.Retried, t, a.LastEventAt, a.LastEventAt, a.ID, commands, commands}, anys(from)...)...)
	if n == 1 {
		a.State, a.UpdatedAt = to, t
	}
	return n == 1, err
}

// CancelScheduledAttempts cancels every scheduled attempt of a job; it answers how many.
func (db *DB) CancelScheduledAttempts(ctx context.Context, jobID string) (int64, error) {
	t := now()
	return db.exec(ctx, `UPDATE contact_attempts SET state = ?, ended_at = ?, updated_at = ? WHERE job_id = ? AND state = ?`,
		AttemptCancelled, t, t, jobID, AttemptScheduled)
}

// AttemptByID answers an attempt by id.
func (db *DB) AttemptByID(ctx context.Context, id string) (Attempt, error) {
	var a Attempt
	err := db.get(ctx, db.read(ctx), &a, `SELECT `+attemptColumns+` FROM contact_attempts WHERE id = ?`, id)
	return a, err
}

// AttemptByCall answers the attempt that placed a call.
func (db *DB) AttemptByCall(ctx context.Context, callControlID string) (Attempt, error) {
	var a Attempt
	err := db.get(ctx, db.read(ctx), &a, `SELECT `+attemptColumns+` FROM contact_attempts WHERE call_control_id = ?`, callControlID)
	return a, err
}

// LiveCalls answers how many of a team's attempts may be on the line.
func (db *DB) LiveCalls(ctx context.Context, orgID string) (int, error) {
	var n int
	err := db.get(ctx, db.read(ctx), &n, `SELECT COUNT(*) FROM contact_attempts WHERE organization_id = ? AND state IN (?, ?, ?, ?)`,
		orgID, AttemptDialling, AttemptInDoubt, AttemptRinging, AttemptInCall)
	return n, err
}

// RecentDials answers, per number of phones, how many times the team dialled it since t and
// the earliest of those dials.
func (db *DB) RecentDials(ctx context.Context, orgID string, phones []string, since time.Time) (map[string]int, map[string]time.Time, error) {
	counts, first := map[string]int{}, map[string]time.Time{}
	if len(phones) == 0 {
		return counts, first, nil
	}
	var rows []struct {
		Phone string    `db:"phone"`
		At    time.Time `db:"dialled_at"`
	}
	err := db.selectAll(ctx, db.read(ctx), &rows, `SELECT phone, dialled_at FROM contact_attempts
		WHERE organization_id = ? AND phone IN (`+placeholders(len(phones))+`) AND dialled_at > ?`,
		append(append([]any{orgID}, anys(phones)...), since)...)
	for _, r := range rows {
		counts[r.Phone]++
		if f, ok := first[r.Phone]; !ok || r.At.Before(f) {
			first[r.Phone] = r.At
		}
	}
	return counts, first, err
}

// MarkCallEventSeen records a carrier event id; false when it was recorded before.
func (db *DB) MarkCallEventSeen(ctx context.Context, id, attemptID, kind string) (bool, error) {
	n, err := db.exec(ctx, `INSERT INTO call_events_seen (id, attempt_id, kind, received_at) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
		id, attemptID, kind, now())
	return n == 1, err
}

// CallEventSeen says whether a carrier event id was recorded (MarkCallEventSeen), recording
// nothing: the call driver asks before work whose effects leave the transaction (early
// speech), which a duplicate of an event handled already must not do again.
func (db *DB) CallEventSeen(ctx context.Context, id string) (bool, error) {
	var n int
	err := db.get(ctx, db.read(ctx), &n, `SELECT COUNT(*) FROM call_events_seen WHERE id = ?`, id)
	return n > 0, err
}

// AttemptsOfJob answers every attempt of a job in order (tests and tools).
func (db *DB) AttemptsOfJob(ctx context.Context, jobID string) ([]Attempt, error) {
	out := []Attempt{}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT `+attemptColumns+` FROM contact_attempts WHERE job_id = ? ORDER BY seq, attempt`, jobID)
	return out, err
}

// JoinStates is states as a comma-separated list (messages and logs).
func JoinStates(states []AttemptState) string {
	s := make([]string, len(states))
	for i, v := range states {
		s[i] = string(v)
	}
	return strings.Join(s, ", ")
}

// LedgerCall is the reason of a ledger row charging a call's minutes.
const LedgerCall = "call"

// ChargeCall writes the ledger row charging amount for the call of an attempt and lowers the
// team's balance by it, in one transaction; false (and nothing written) when that attempt was
// charged before. The balance may go below zero when a call outlasts it.
func (db *DB) ChargeCall(ctx context.Context, orgID, attemptID string, amount float64) (bool, error) {
	charged := false
	err := db.InTx(ctx, func(ctx context.Context) error {
		t := now()
		n, err := db.exec(ctx, `INSERT INTO credit_ledger (id, organization_id, amount, reason, created_at)
			VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`, "call:"+attemptID, orgID, -amount, LedgerCall, t)
		if err != nil || n == 0 {
			return err
		}
		charged = true
		return db.one(ctx, `UPDATE organizations SET credits_balance = credits_balance - ?, updated_at = ? WHERE id = ?`, amount, t, orgID)
	})
	return charged, err
}

// SetAttemptCall records the carrier's id of an attempt's call (once) and moves a dialling or
// in-doubt attempt to ringing; an attempt that events moved further keeps its state. It
// answers whether it changed anything.
func (db *DB) SetAttemptCall(ctx context.Context, id, callControlID string) (bool, error) {
	n, err := db.exec(ctx, `UPDATE contact_attempts SET call_control_id = COALESCE(call_control_id, ?),
		state = CASE WHEN state IN (?, ?) THEN ? ELSE state END, updated_at = ?
		WHERE id = ? AND (call_control_id IS NULL OR state IN (?, ?))`,
		callControlID, AttemptDialling, AttemptInDoubt, AttemptRinging, now(), id, AttemptDialling, AttemptInDoubt)
	return n == 1, err
}

// CallsToSweep answers, across teams, up to limit attempts whose call may be on the line
// (dialling, in-doubt, ringing or in a call, with the carrier's id) that the sweep should
// look at now: past their maximum duration (ends_by before now) and not swept since, or
// silent (nothing heard from the carrier, else since the answer, the dial or the attempt's
// making) since before silentSince and not swept since then. The longest silent first.
func (db *DB) CallsToSweep(ctx context.Context, now, silentSince time.Time, limit int) ([]Attempt, error) {
	out := []Attempt{}
	// Team by team (CROSS JOIN keeps that order on SQLite), each team's live attempts read
	// through contact_attempts_live_idx (organization_id, state): no index of the sweep's own
	// for every move of an attempt to rewrite.
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT `+prefixed("a.", attemptColumns)+`
		FROM organizations o CROSS JOIN contact_attempts a
		WHERE a.organization_id = o.id AND a.state IN (?, ?, ?, ?) AND a.call_control_id IS NOT NULL
			AND ((a.ends_by < ? AND (a.swept_at IS NULL OR a.swept_at < a.ends_by))
				OR (COALESCE(a.last_event_at, a.answered_at, a.dialled_at, a.created_at) < ? AND (a.swept_at IS NULL OR a.swept_at < ?)))
		ORDER BY COALESCE(a.last_event_at, a.answered_at, a.dialled_at, a.created_at), a.id LIMIT ?`,
		AttemptDialling, AttemptInDoubt, AttemptRinging, AttemptInCall, now.UTC(), silentSince.UTC(), silentSince.UTC(), limit)
	return out, err
}

// MarkSwept records that the sweep looked at an attempt's call at at.
func (db *DB) MarkSwept(ctx context.Context, id string, at time.Time) error {
	_, err := db.exec(ctx, `UPDATE contact_attempts SET swept_at = ? WHERE id = ?`, at.UTC().Truncate(time.Microsecond), id)
	return err
}

// TouchAttempt marks an attempt as looked at now (the in-doubt reconciler's clock).
func (db *DB) TouchAttempt(ctx context.Context, id string) error {
	_, err := db.exec(ctx, `UPDATE contact_attempts SET updated_at = ? WHERE id = ?`, now(), id)
	return err
}

// DueFirstAttemptsNow makes a job's scheduled first attempts due later than t due at t (the
// rules that held them are checked again); retries keep their due time.
func (db *DB) DueFirstAttemptsNow(ctx context.Context, jobID string, t time.Time) error {
	_, err := db.exec(ctx, `UPDATE contact_attempts SET due_at = ?, updated_at = ? WHERE job_id = ? AND state = ? AND attempt = 1 AND due_at > ?`,
		t, now(), jobID, AttemptScheduled, t)
	return err
}
