package store

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// JobStatus is where a workflow-run job stands.
type JobStatus string

const (
	JobInProgress JobStatus = "in-progress"
	JobSuccess    JobStatus = "success"
	JobError      JobStatus = "error"
	JobCancelled  JobStatus = "cancelled"
)

// JobTypeWorkflowRun is the type of the jobs of workflow_jobs.
const JobTypeWorkflowRun = "workflow-run"

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

// WorkflowJob is a run (or test run) of a workflow.
type WorkflowJob struct {
	ID                string     `db:"id"`
	OrganizationID    string     `db:"organization_id"`
	WorkflowID        string     `db:"workflow_id"`
	CampaignID        *string    `db:"campaign_id"`
	Type              string     `db:"type"`
	Status            JobStatus  `db:"status"`
	Paused            bool       `db:"paused"`
	PauseReason       *string    `db:"pause_reason"`
	IsTest            bool       `db:"is_test"`
	TriggeredBy       string     `db:"triggered_by"`
	TriggeredByUserID *string    `db:"triggered_by_user_id"`
	Budget            *float64   `db:"budget"`
	Spent             float64    `db:"spent"`
	PhoneNumberID     *string    `db:"phone_number_id"`
	FromNumber        string     `db:"from_number"`
	AgentID           *string    `db:"agent_id"`
	NodeID            *string    `db:"node_id"`
	Graph             string     `db:"graph"`
	Settings          string     `db:"settings"`
	Persona           *string    `db:"persona"`
	Total             int        `db:"total"`
	Error             *string    `db:"error"`
	Dispatcher        *string    `db:"dispatcher"`
	DispatcherUntil   *time.Time `db:"dispatcher_until"`
	StartedAt         time.Time  `db:"started_at"`
	FinishedAt        *time.Time `db:"finished_at"`
	CreatedAt         time.Time  `db:"created_at"`
	UpdatedAt         time.Time  `db:"updated_at"`
}

const workflowJobColumns = `id, organization_id, workflow_id, campaign_id, type, status, paused, pause_reason, is_test,
	triggered_by, triggered_by_user_id, budget, spent, phone_number_id, from_number, agent_id, node_id, graph, settings,
	persona, total, error, dispatcher, dispatcher_until, started_at, finished_at, created_at, updated_at`

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

// CreateWorkflowJob inserts a job. ErrConflict when the workflow already has a run in progress.
func (db *DB) CreateWorkflowJob(ctx context.Context, j *WorkflowJob) error {
	t := now()
	if j.ID == "" {
		j.ID = NewID()
	}
	j.CreatedAt, j.UpdatedAt = t, t
	if j.StartedAt.IsZero() {
		j.StartedAt = t
	}
	_, err := db.exec(ctx, `INSERT INTO workflow_jobs (`+workflowJobColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		j.ID, j.OrganizationID, j.WorkflowID, j.CampaignID, j.Type, j.Status, j.Paused, j.PauseReason, j.IsTest,
		j.TriggeredBy, j.TriggeredByUserID, j.Budget, j.Spent, j.PhoneNumberID, j.FromNumber, j.AgentID, j.NodeID, j.Graph,
		j.Settings, j.Persona, j.Total, j.Error, j.Dispatcher, j.DispatcherUntil, j.StartedAt, j.FinishedAt, j.CreatedAt, j.UpdatedAt)
	return err
}

// InsertAttemptsFromContacts adds the first attempt of every pending contact of a node's
// current import to job j, due at due, and sets the job's total; it answers how many.
func (db *DB) InsertAttemptsFromContacts(ctx context.Context, j *WorkflowJob, nodeID, importID string, due time.Time) (int, error) {
	t := now()
	n, err := db.exec(ctx, `INSERT INTO contact_attempts (id, organization_id, job_id, contact_id, seq, attempt, phone, time_zone,
			state, due_at, created_at, updated_at)
		SELECT CAST(? AS TEXT) || '.' || CAST(seq AS TEXT) || '.1', organization_id, ?, id, seq, 1, phone, time_zone, ?, ?, ?, ?
		FROM workflow_contacts WHERE organization_id = ? AND node_id = ? AND import_id = ? AND status = ?`,
		j.ID, j.ID, AttemptScheduled, due, t, t, j.OrganizationID, nodeID, importID, ContactPending)
	if err != nil {
		return 0, err
	}
	j.Total = int(n)
	return j.Total, db.one(ctx, `UPDATE workflow_jobs SET total = ? WHERE id = ?`, j.Total, j.ID)
}

// InsertAttempt adds one attempt; an attempt with the same id already there is kept (false).
func (db *DB) InsertAttempt(ctx context.Context, a *Attempt) (bool, error) {
	t := now()
	a.CreatedAt, a.UpdatedAt = t, t
	n, err := db.exec(ctx, `INSERT INTO contact_attempts (id, organization_id, job_id, contact_id, seq, attempt, phone, time_zone,
			state, due_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
		a.ID, a.OrganizationID, a.JobID, a.ContactID, a.Seq, a.Attempt, a.Phone, a.TimeZone, a.State, a.DueAt, t, t)
	return n == 1, err
}

// WorkflowJobOrganization answers the organisation of a job (any organisation: for the guard).
func (db *DB) WorkflowJobOrganization(ctx context.Context, id string) (string, error) {
	var org string
	err := db.get(ctx, db.read(ctx), &org, `SELECT organization_id FROM workflow_jobs WHERE id = ?`, id)
	return org, err
}

// WorkflowJobByID answers one of a team's jobs.
func (db *DB) WorkflowJobByID(ctx context.Context, orgID, id string) (WorkflowJob, error) {
	var j WorkflowJob
	err := db.get(ctx, db.read(ctx), &j, `SELECT `+workflowJobColumns+` FROM workflow_jobs WHERE organization_id = ? AND id = ?`, orgID, id)
	return j, err
}

// WorkflowJobForWork answers a job by id alone (the dialer's own work, not a request's).
func (db *DB) WorkflowJobForWork(ctx context.Context, id string) (WorkflowJob, error) {
	var j WorkflowJob
	err := db.get(ctx, db.read(ctx), &j, `SELECT `+workflowJobColumns+` FROM workflow_jobs WHERE id = ?`, id)
	return j, err
}

// WorkflowJobsByIDs answers the jobs among ids that belong to one of orgIDs.
func (db *DB) WorkflowJobsByIDs(ctx context.Context, orgIDs, ids []string) ([]WorkflowJob, error) {
	out := []WorkflowJob{}
	if len(orgIDs) == 0 || len(ids) == 0 {
		return out, nil
	}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT `+workflowJobColumns+` FROM workflow_jobs
		WHERE organization_id IN (`+placeholders(len(orgIDs))+`) AND id IN (`+placeholders(len(ids))+`)`,
		append(anys(orgIDs), anys(ids)...)...)
	return out, err
}

// WorkflowJobOrganizations answers the organisation of each job of ids that exists.
func (db *DB) WorkflowJobOrganizations(ctx context.Context, ids []string) (map[string]string, error) {
	out := map[string]string{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []struct {
		ID  string `db:"id"`
		Org string `db:"organization_id"`
	}
	err := db.selectAll(ctx, db.read(ctx), &rows, `SELECT id, organization_id FROM workflow_jobs WHERE id IN (`+placeholders(len(ids))+`)
		UNION ALL SELECT import_id, organization_id FROM workflow_contact_sources WHERE upload_id IS NOT NULL AND import_id IN (`+placeholders(len(ids))+`)`,
		append(anys(ids), anys(ids)...)...)
	for _, r := range rows {
		out[r.ID] = r.Org
	}
	return out, err
}

// ContactImportsByIDs answers the CSV contacts sources whose current import is one of ids, of
// one of orgIDs (a contacts-import job is named by its import id).
func (db *DB) ContactImportsByIDs(ctx context.Context, orgIDs, ids []string) ([]ContactSource, error) {
	out := []ContactSource{}
	if len(orgIDs) == 0 || len(ids) == 0 {
		return out, nil
	}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT `+contactSourceColumns+` FROM workflow_contact_sources
		WHERE upload_id IS NOT NULL AND organization_id IN (`+placeholders(len(orgIDs))+`) AND import_id IN (`+placeholders(len(ids))+`)`,
		append(anys(orgIDs), anys(ids)...)...)
	return out, err
}

// CurrentWorkflowJob answers a workflow's run in progress, else its latest job.
func (db *DB) CurrentWorkflowJob(ctx context.Context, orgID, workflowID string) (WorkflowJob, error) {
	var j WorkflowJob
	err := db.get(ctx, db.read(ctx), &j, `SELECT `+workflowJobColumns+` FROM workflow_jobs WHERE organization_id = ? AND workflow_id = ?
		ORDER BY CASE WHEN status = ? THEN 0 ELSE 1 END, created_at DESC, id DESC LIMIT 1`, orgID, workflowID, JobInProgress)
	return j, err
}

// RunningWorkflowJob answers a workflow's run over its contacts in progress (not a test run,
// an inbound call nor a single-contact run: those may run beside it); ErrNotFound if none.
// Inside a transaction it holds the job's row until the transaction ends (LockWorkflowJob).
func (db *DB) RunningWorkflowJob(ctx context.Context, orgID, workflowID string) (WorkflowJob, error) {
	var j WorkflowJob
	err := db.get(ctx, db.read(ctx), &j, `SELECT `+workflowJobColumns+` FROM workflow_jobs
		WHERE organization_id = ? AND workflow_id = ? AND status = ? AND NOT is_test AND type = ? AND node_id IS NOT NULL`+db.lockRows(ctx),
		orgID, workflowID, JobInProgress, JobTypeWorkflowRun)
	return j, err
}

// LockWorkflowJob, inside a transaction, answers a job's status and holds its row until the
// transaction ends: the run's end (finishIfDone) and contacts joining the run (a Zapier push,
// which reads the job with RunningWorkflowJob in its transaction) take turns, so a run never
// ends with attempts a push just gave it, and a push never joins a run that just ended.
func (db *DB) LockWorkflowJob(ctx context.Context, id string) (JobStatus, error) {
	if err := db.needTx(ctx, "LockWorkflowJob"); err != nil {
		return "", err
	}
	var st JobStatus
	err := db.get(ctx, db.write(ctx), &st, `SELECT status FROM workflow_jobs WHERE id = ?`+db.lockRows(ctx), id)
	return st, err
}

// jobSorts are the columns a workflow's history sorts by.
var jobSorts = map[string]string{"createdAt": "created_at", "startedAt": "started_at", "finishedAt": "finished_at",
	"status": "status", "triggeredBy": "triggered_by"}

// ListWorkflowJobs lists a workflow's jobs sorted by sortBy (createdAt when unknown), ties
// newest first, and how many there are.
func (db *DB) ListWorkflowJobs(ctx context.Context, orgID, workflowID, sortBy string, asc bool, limit, offset int) ([]WorkflowJob, int, error) {
	col, ok := jobSorts[sortBy]
	if !ok {
		col = "created_at"
	}
	dir := "DESC"
	if asc {
		dir = "ASC"
	}
	var total int
	if err := db.get(ctx, db.read(ctx), &total, `SELECT COUNT(*) FROM workflow_jobs WHERE organization_id = ? AND workflow_id = ?`, orgID, workflowID); err != nil {
		return nil, 0, err
	}
	out := []WorkflowJob{}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT `+workflowJobColumns+` FROM workflow_jobs WHERE organization_id = ? AND workflow_id = ?
		ORDER BY `+col+` `+dir+`, created_at DESC, id DESC LIMIT ? OFFSET ?`, orgID, workflowID, limit, offset)
	return out, total, err
}

// AttemptCounts answers, per job of ids, how many of its contacts' latest attempts are in
// each state.
func (db *DB) AttemptCounts(ctx context.Context, ids []string) (map[string]map[AttemptState]int, error) {
	out := map[string]map[AttemptState]int{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []struct {
		JobID string       `db:"job_id"`
		State AttemptState `db:"state"`
		N     int          `db:"n"`
	}
	if err := db.selectAll(ctx, db.read(ctx), &rows, `SELECT job_id, state, COUNT(*) AS n FROM contact_attempts
		WHERE job_id IN (`+placeholders(len(ids))+`) AND NOT retried GROUP BY job_id, state`, anys(ids)...); err != nil {
		return nil, err
	}
	for _, r := range rows {
		if out[r.JobID] == nil {
			out[r.JobID] = map[AttemptState]int{}
		}
		out[r.JobID][r.State] = r.N
	}
	return out, nil
}

// FinishWorkflowJob ends a job in progress with status (and a message for error); false
// when it had ended already.
func (db *DB) FinishWorkflowJob(ctx context.Context, id string, status JobStatus, msg *string) (bool, error) {
	t := now()
	n, err := db.exec(ctx, `UPDATE workflow_jobs SET status = ?, error = ?, paused = FALSE, pause_reason = NULL, finished_at = ?, updated_at = ?
		WHERE id = ? AND status = ?`, status, msg, t, t, id, JobInProgress)
	return n == 1, err
}

// PauseWorkflowJob pauses (reason non-nil) or resumes (nil) a job in progress; false when
// nothing changed.
func (db *DB) PauseWorkflowJob(ctx context.Context, id string, reason *string) (bool, error) {
	n, err := db.exec(ctx, `UPDATE workflow_jobs SET paused = ?, pause_reason = ?, updated_at = ?
		WHERE id = ? AND status = ? AND (paused <> ? OR COALESCE(pause_reason, '') <> COALESCE(?, ''))`,
		reason != nil, reason, now(), id, JobInProgress, reason != nil, reason)
	return n == 1, err
}

// AddJobSpend adds what a call cost to its job's spending.
func (db *DB) AddJobSpend(ctx context.Context, id string, amount float64) error {
	_, err := db.exec(ctx, `UPDATE workflow_jobs SET spent = spent + ?, updated_at = ? WHERE id = ?`, amount, now(), id)
	return err
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

// SetContactCall records on a workflow contact where calling it stands.
func (db *DB) SetContactCall(ctx context.Context, orgID, contactID string, status ContactCallStatus, dialled bool, callLogID, lastError *string) error {
	t := now()
	inc := 0
	var at *time.Time
	if dialled {
		inc, at = 1, &t
	}
	_, err := db.exec(ctx, `UPDATE workflow_contacts SET status = ?, attempts = attempts + ?, last_called_at = COALESCE(?, last_called_at),
		call_log_id = COALESCE(?, call_log_id), last_error = ? WHERE organization_id = ? AND id = ?`,
		status, inc, at, callLogID, lastError, orgID, contactID)
	return err
}

// DialerLimit answers a site admin's override of a team's concurrent calls; ErrNotFound when none.
func (db *DB) DialerLimit(ctx context.Context, orgID string) (int, error) {
	var n int
	err := db.get(ctx, db.read(ctx), &n, `SELECT max_concurrent_calls FROM dialer_limits WHERE organization_id = ?`, orgID)
	return n, err
}

// SetDialerLimit sets (n > 0) or removes (n == 0) a team's override of its concurrent calls.
func (db *DB) SetDialerLimit(ctx context.Context, orgID string, n int, userID string) error {
	if n <= 0 {
		_, err := db.exec(ctx, `DELETE FROM dialer_limits WHERE organization_id = ?`, orgID)
		return err
	}
	_, err := db.exec(ctx, `INSERT INTO dialer_limits (organization_id, max_concurrent_calls, updated_by_user_id, updated_at)
		VALUES (?, ?, ?, ?) ON CONFLICT (organization_id) DO UPDATE SET max_concurrent_calls = excluded.max_concurrent_calls,
		updated_by_user_id = excluded.updated_by_user_id, updated_at = excluded.updated_at`, orgID, n, userID, now())
	return err
}

// RunningJobUsing answers a job in progress of the team that uses a workflow, a campaign or a
// phone number (what = "workflow", "campaign" or "phone"); ErrNotFound when none.
func (db *DB) RunningJobUsing(ctx context.Context, orgID, what, id string) (WorkflowJob, error) {
	col := map[string]string{"workflow": "workflow_id", "campaign": "campaign_id", "phone": "phone_number_id"}[what]
	if col == "" {
		return WorkflowJob{}, fmt.Errorf("store: RunningJobUsing %q", what)
	}
	var j WorkflowJob
	err := db.get(ctx, db.read(ctx), &j, `SELECT `+workflowJobColumns+` FROM workflow_jobs
		WHERE organization_id = ? AND `+col+` = ? AND status = ? LIMIT 1`, orgID, id, JobInProgress)
	return j, err
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

// ContactByID answers one of a team's workflow contacts.
func (db *DB) ContactByID(ctx context.Context, orgID, id string) (Contact, error) {
	var c Contact
	err := db.get(ctx, db.read(ctx), &c, `SELECT `+contactColumns+` FROM workflow_contacts WHERE organization_id = ? AND id = ?`, orgID, id)
	return c, err
}

// WorkflowJobStatus answers a job's status alone.
func (db *DB) WorkflowJobStatus(ctx context.Context, id string) (JobStatus, error) {
	var s JobStatus
	err := db.get(ctx, db.read(ctx), &s, `SELECT status FROM workflow_jobs WHERE id = ?`, id)
	return s, err
}

// LeaseDispatcher gives the dispatcher token the job's lease until until, when the job is in
// progress and the lease is free, expired or the token's already; false when another holds it.
func (db *DB) LeaseDispatcher(ctx context.Context, jobID, token string, until time.Time) (bool, error) {
	t := now()
	n, err := db.exec(ctx, `UPDATE workflow_jobs SET dispatcher = ?, dispatcher_until = ?
		WHERE id = ? AND status = ? AND (dispatcher IS NULL OR dispatcher = ? OR dispatcher_until IS NULL OR dispatcher_until < ?)`,
		token, until.UTC(), jobID, JobInProgress, token, t)
	return n == 1, err
}

// UnleasedWorkflowJobIDs answers the jobs in progress whose dispatcher's lease has run out
// (the dispatchers' sweep).
func (db *DB) UnleasedWorkflowJobIDs(ctx context.Context) ([]string, error) {
	out := []string{}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT id FROM workflow_jobs
		WHERE status = ? AND (dispatcher_until IS NULL OR dispatcher_until < ?) ORDER BY created_at`, JobInProgress, now())
	return out, err
}

// SetCallLogRecording attaches a recording (an upload) to a call log that has none; false when
// it has one already.
func (db *DB) SetCallLogRecording(ctx context.Context, orgID, callLogID, uploadID string) (bool, error) {
	n, err := db.exec(ctx, `UPDATE call_logs SET recording_upload_id = ?, updated_at = ?
		WHERE organization_id = ? AND id = ? AND recording_upload_id IS NULL`, uploadID, now(), orgID, callLogID)
	return n == 1, err
}

// CallLogHasRecording says whether a team's call log has a recording.
func (db *DB) CallLogHasRecording(ctx context.Context, orgID, callLogID string) (bool, error) {
	var n int
	err := db.get(ctx, db.read(ctx), &n, `SELECT COUNT(*) FROM call_logs WHERE organization_id = ? AND id = ? AND recording_upload_id IS NOT NULL`, orgID, callLogID)
	return n > 0, err
}

// FirstTestCallAt answers when the team first tried a call (nil: never): its first test run
// or, if earlier, the first call its numbers answered (calling your own number is the other
// way to test an agent).
func (db *DB) FirstTestCallAt(ctx context.Context, orgID string) (*time.Time, error) {
	var first *time.Time
	for _, q := range []string{
		`SELECT created_at FROM workflow_jobs WHERE organization_id = ? AND (is_test OR persona IS NOT NULL) ORDER BY created_at LIMIT 1`,
		`SELECT start_time FROM call_logs WHERE organization_id = ? AND direction = 'inbound' ORDER BY start_time LIMIT 1`,
	} {
		var at []time.Time
		if err := db.selectAll(ctx, db.read(ctx), &at, q, orgID); err != nil {
			return nil, err
		}
		if len(at) == 1 && (first == nil || at[0].Before(*first)) {
			first = &at[0]
		}
	}
	return first, nil
}

// SetWorkflowJobSettings replaces the dialing settings of a job in progress (its campaign's
// changed).
func (db *DB) SetWorkflowJobSettings(ctx context.Context, id, settings string) error {
	_, err := db.exec(ctx, `UPDATE workflow_jobs SET settings = ?, updated_at = ? WHERE id = ? AND status = ?`,
		settings, now(), id, JobInProgress)
	return err
}

// DueFirstAttemptsNow makes a job's scheduled first attempts due later than t due at t (the
// rules that held them are checked again); retries keep their due time.
func (db *DB) DueFirstAttemptsNow(ctx context.Context, jobID string, t time.Time) error {
	_, err := db.exec(ctx, `UPDATE contact_attempts SET due_at = ?, updated_at = ? WHERE job_id = ? AND state = ? AND attempt = 1 AND due_at > ?`,
		t, now(), jobID, AttemptScheduled, t)
	return err
}

// PendingContacts answers up to limit of the pending contacts of a node's import (those a run
// would call), in source order, and how many there are.
func (db *DB) PendingContacts(ctx context.Context, orgID, nodeID, importID string, limit int) ([]Contact, int, error) {
	var total int
	if err := db.get(ctx, db.read(ctx), &total, `SELECT COUNT(*) FROM workflow_contacts
		WHERE organization_id = ? AND node_id = ? AND import_id = ? AND status = ?`, orgID, nodeID, importID, ContactPending); err != nil {
		return nil, 0, err
	}
	out := []Contact{}
	if total == 0 {
		return out, 0, nil
	}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT `+contactColumns+` FROM workflow_contacts
		WHERE organization_id = ? AND node_id = ? AND import_id = ? AND status = ? ORDER BY seq LIMIT ?`,
		orgID, nodeID, importID, ContactPending, limit)
	return out, total, err
}
