package store

import (
	"context"
	"fmt"
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
