package store

import (
	"context"
	"time"
)

// CallStatus is where a call stands (the contract's CallLogStatus).
type CallStatus string

const (
	CallQueued     CallStatus = "queued"
	CallRinging    CallStatus = "ringing"
	CallInProgress CallStatus = "in-progress"
	CallCompleted  CallStatus = "completed"
	CallVoicemail  CallStatus = "voicemail"
	CallBusy       CallStatus = "busy"
	CallNoAnswer   CallStatus = "no-answer"
	CallFailed     CallStatus = "failed"
	CallCancelled  CallStatus = "cancelled"
)

// Final says whether a call in this status has ended.
func (s CallStatus) Final() bool {
	switch s {
	case CallCompleted, CallVoicemail, CallBusy, CallNoAnswer, CallFailed, CallCancelled:
		return true
	}
	return false
}

// CallLog is one call placed or received by a team's agent. EndTime is nil until it ended.
type CallLog struct {
	ID                string     `db:"id"`
	OrganizationID    string     `db:"organization_id"`
	CallControlID     *string    `db:"call_control_id"`
	Direction         string     `db:"direction"`
	From              string     `db:"from_number"`
	To                string     `db:"to_number"`
	Status            CallStatus `db:"status"`
	CampaignID        *string    `db:"campaign_id"`
	AgentID           *string    `db:"agent_id"`
	WorkflowID        *string    `db:"workflow_id"`
	JobID             *string    `db:"job_id"`
	AttemptID         *string    `db:"attempt_id"`
	StartTime         time.Time  `db:"start_time"`
	AnsweredAt        *time.Time `db:"answered_at"`
	EndTime           *time.Time `db:"end_time"`
	BilledMinutes     int        `db:"billed_minutes"`
	Cost              float64    `db:"cost"`
	RecordingUploadID *string    `db:"recording_upload_id"`
	HasTranscript     bool       `db:"has_transcript"`
	// EndReason says why Betty ended the call (nil: it ended the usual way, or goes on).
	EndReason *string `db:"end_reason"`
	// Simulated: the call went through the offline simulator (fictional, free: billing.CallIsFree).
	Simulated bool `db:"simulated"`
	// CurrentNodeID is the workflow node the call is on now (nil before the agent first
	// speaks and once it ended); Path the nodes it has been on, in order.
	CurrentNodeID *string   `db:"current_node_id"`
	Path          Strings   `db:"path"`
	CreatedAt     time.Time `db:"created_at"`
	UpdatedAt     time.Time `db:"updated_at"`
}

const callLogColumns = `id, organization_id, call_control_id, direction, from_number, to_number, status, campaign_id,
	agent_id, workflow_id, job_id, attempt_id, start_time, answered_at, end_time, billed_minutes, cost,
	recording_upload_id, has_transcript, end_reason, simulated, current_node_id, path, created_at, updated_at`

// CreateCallLog inserts c (ID and the times are set here; StartTime too when zero). ErrConflict when the
// team already has a call log of c.AttemptID; ErrReference when its campaign, agent or
// workflow does not exist.
func (db *DB) CreateCallLog(ctx context.Context, c *CallLog) error {
	c.ID = NewID()
	c.CreatedAt = now()
	c.UpdatedAt = c.CreatedAt
	if c.StartTime.IsZero() {
		c.StartTime = c.CreatedAt
	}
	c.StartTime = c.StartTime.UTC().Truncate(time.Microsecond)
	_, err := db.exec(ctx, `INSERT INTO call_logs (`+callLogColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		c.ID, c.OrganizationID, c.CallControlID, c.Direction, c.From, c.To, c.Status, c.CampaignID, c.AgentID,
		c.WorkflowID, c.JobID, c.AttemptID, c.StartTime, c.AnsweredAt, c.EndTime, c.BilledMinutes, c.Cost,
		c.RecordingUploadID, c.HasTranscript, c.EndReason, c.Simulated, c.CurrentNodeID, c.Path, c.CreatedAt, c.UpdatedAt)
	return err
}

// CallLogByAttempt returns the team's call log of a dialer attempt, or ErrNotFound.
func (db *DB) CallLogByAttempt(ctx context.Context, orgID, attemptID string) (CallLog, error) {
	var c CallLog
	err := db.get(ctx, db.read(ctx), &c, `SELECT `+callLogColumns+` FROM call_logs WHERE organization_id = ? AND attempt_id = ?`, orgID, attemptID)
	return c, err
}

// CallLogByID returns a team's call log, or ErrNotFound.
func (db *DB) CallLogByID(ctx context.Context, orgID, id string) (CallLog, error) {
	var c CallLog
	err := db.get(ctx, db.read(ctx), &c, `SELECT `+callLogColumns+` FROM call_logs WHERE organization_id = ? AND id = ?`, orgID, id)
	return c, err
}

// CallLogByControlID returns the team's latest call log with this carrier id, or ErrNotFound.
func (db *DB) CallLogByControlID(ctx context.Context, orgID, callControlID string) (CallLog, error) {
	var c CallLog
	err := db.get(ctx, db.read(ctx), &c, `SELECT `+callLogColumns+` FROM call_logs WHERE organization_id = ? AND call_control_id = ?
		ORDER BY created_at DESC, id DESC LIMIT 1`, orgID, callControlID)
	return c, err
}

// ListCallLogs lists a team's call logs, newest start first, and how many there are.
func (db *DB) ListCallLogs(ctx context.Context, orgID string, limit, offset int) ([]CallLog, int, error) {
	var total int
	if err := db.get(ctx, db.read(ctx), &total, `SELECT COUNT(*) FROM call_logs WHERE organization_id = ?`, orgID); err != nil {
		return nil, 0, err
	}
	out := []CallLog{}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT `+callLogColumns+` FROM call_logs WHERE organization_id = ?
		ORDER BY start_time DESC, id DESC LIMIT ? OFFSET ?`, orgID, limit, offset)
	return out, total, err
}

// ProgressCallLog records the carrier's id (when given) and a status of a call that has not
// ended; answeredAt is kept once set. A call that ended is left alone (ErrNotFound only when
// there is no such call log).
func (db *DB) ProgressCallLog(ctx context.Context, orgID, id string, callControlID *string, status CallStatus, answeredAt *time.Time) error {
	n, err := db.exec(ctx, `UPDATE call_logs SET call_control_id = COALESCE(?, call_control_id), status = ?,
		answered_at = COALESCE(answered_at, ?), updated_at = ?
		WHERE organization_id = ? AND id = ? AND end_time IS NULL`, callControlID, status, answeredAt, now(), orgID, id)
	if err != nil || n > 0 {
		return err
	}
	_, err = db.CallLogByID(ctx, orgID, id)
	return err
}

// WalkCallLog records where a call that has not ended stands in its workflow: the node it is
// on (nil: none) and the nodes it has been on. It answers whether anything changed (false
// when the call ended, or stood there already); ErrNotFound when there is no such call log.
func (db *DB) WalkCallLog(ctx context.Context, orgID, id string, current *string, path Strings) (bool, error) {
	p, err := path.Value()
	if err != nil {
		return false, err
	}
	n, err := db.exec(ctx, `UPDATE call_logs SET current_node_id = ?, path = ?, updated_at = ?
		WHERE organization_id = ? AND id = ? AND end_time IS NULL
		AND (path <> ? OR COALESCE(current_node_id, '') <> COALESCE(?, ''))`, current, p, now(), orgID, id, p, current)
	if err != nil || n > 0 {
		return n > 0, err
	}
	_, err = db.CallLogByID(ctx, orgID, id)
	return false, err
}

// CallPosition is where one call of a job stands in its workflow.
type CallPosition struct {
	CallLogID     string     `db:"id"`
	CurrentNodeID *string    `db:"current_node_id"`
	Path          Strings    `db:"path"`
	EndTime       *time.Time `db:"end_time"`
	UpdatedAt     time.Time  `db:"updated_at"`
}

// JobCallPositions answers where every call a job of the team placed stands (test calls too,
// whose call logs name no job: they are found through the job's attempts).
func (db *DB) JobCallPositions(ctx context.Context, orgID, jobID string) ([]CallPosition, error) {
	out := []CallPosition{}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT c.id, c.current_node_id, c.path, c.end_time, c.updated_at
		FROM contact_attempts a JOIN call_logs c ON c.organization_id = a.organization_id AND c.attempt_id = a.id
		WHERE a.organization_id = ? AND a.job_id = ? ORDER BY c.start_time, c.id`, orgID, jobID)
	return out, err
}

// CallEnd is what CloseCallLog records.
type CallEnd struct {
	Status            CallStatus
	AnsweredAt        *time.Time
	EndTime           time.Time
	BilledMinutes     int
	Cost              float64
	RecordingUploadID *string
	HasTranscript     bool
	// EndReason says why Betty ended the call; nil when it ended the usual way.
	EndReason *string
	// Path are the nodes the call had been on at its end (nil: the path recorded stays).
	Path Strings
}

// path is the Path to write, nil to keep the one recorded.
func (e CallEnd) path() any {
	if e.Path == nil {
		return nil
	}
	v, _ := e.Path.Value()
	return v
}

// CloseCallLog records the end of a call that has not ended yet and answers whether it did
// (a recording attached before, its webhook having come first, stays):
// false (and nothing written) when it had ended already. ErrNotFound when there is no such
// call log.
func (db *DB) CloseCallLog(ctx context.Context, orgID, id string, e CallEnd) (bool, error) {
	n, err := db.exec(ctx, `UPDATE call_logs SET status = ?, answered_at = COALESCE(?, answered_at), end_time = ?,
		billed_minutes = ?, cost = ?, recording_upload_id = COALESCE(?, recording_upload_id), has_transcript = ?, end_reason = ?,
		current_node_id = NULL, path = COALESCE(?, path), updated_at = ?
		WHERE organization_id = ? AND id = ? AND end_time IS NULL`,
		e.Status, e.AnsweredAt, e.EndTime.UTC(), e.BilledMinutes, e.Cost, e.RecordingUploadID, e.HasTranscript, e.EndReason, e.path(), now(), orgID, id)
	if err != nil || n > 0 {
		return n > 0, err
	}
	_, err = db.CallLogByID(ctx, orgID, id)
	return false, err
}

// TranscriptTurn is one turn of a call's conversation.
type TranscriptTurn struct {
	Seq      int    `db:"seq"`
	Speaker  string `db:"speaker"`
	Text     string `db:"text"`
	OffsetMS int64  `db:"offset_ms"`
}

// AddTranscriptTurns stores turns of a team's call after those it has (numbered on from the
// last) and marks the call as having a transcript. Turns are written as they are said (a live transcript) and again when the call
// ends, so callers skip the ones already stored (CountTranscriptTurns).
func (db *DB) AddTranscriptTurns(ctx context.Context, orgID, callLogID string, turns []TranscriptTurn) error {
	if len(turns) == 0 {
		return nil
	}
	return db.InTx(ctx, func(ctx context.Context) error {
		n, err := db.CountTranscriptTurns(ctx, orgID, callLogID)
		if err != nil {
			return err
		}
		for i, t := range turns {
			if _, err := db.exec(ctx, `INSERT INTO call_transcript_turns (call_log_id, organization_id, seq, speaker, text, offset_ms)
				VALUES (?, ?, ?, ?, ?, ?)`, callLogID, orgID, n+i+1, t.Speaker, t.Text, t.OffsetMS); err != nil {
				return err
			}
		}
		_, err = db.exec(ctx, `UPDATE call_logs SET has_transcript = ?, updated_at = ? WHERE organization_id = ? AND id = ?`,
			true, now(), orgID, callLogID)
		return err
	})
}

// CountTranscriptTurns answers how many turns of a team's call are stored.
func (db *DB) CountTranscriptTurns(ctx context.Context, orgID, callLogID string) (int, error) {
	var n int
	err := db.get(ctx, db.read(ctx), &n, `SELECT COUNT(*) FROM call_transcript_turns WHERE organization_id = ? AND call_log_id = ?`,
		orgID, callLogID)
	return n, err
}

// TranscriptTurns answers the turns of a team's call, in order.
func (db *DB) TranscriptTurns(ctx context.Context, orgID, callLogID string) ([]TranscriptTurn, error) {
	out := []TranscriptTurn{}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT seq, speaker, text, offset_ms FROM call_transcript_turns
		WHERE organization_id = ? AND call_log_id = ? ORDER BY offset_ms, seq`, orgID, callLogID)
	return out, err
}

// CallStart is when a call started and the minutes it was billed.
type CallStart struct {
	StartTime     time.Time `db:"start_time"`
	BilledMinutes int       `db:"billed_minutes"`
}

// CallStarts answers the start (and billed minutes) of every call of a team that started in
// [from, to), for counting them per day in a time zone.
func (db *DB) CallStarts(ctx context.Context, orgID string, from, to time.Time) ([]CallStart, error) {
	out := []CallStart{}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT start_time, billed_minutes FROM call_logs
		WHERE organization_id = ? AND start_time >= ? AND start_time < ?`, orgID, from.UTC(), to.UTC())
	return out, err
}
