package store

import (
	"context"
	"time"
)

// CallAnalysis is what a finished call left behind (conversation.Analysis): the summary, the
// outcome and the post-call fields read from it, as JSON [{"name", "value", "turn"}].
type CallAnalysis struct {
	CallLogID      string    `db:"call_log_id"`
	OrganizationID string    `db:"organization_id"`
	Summary        string    `db:"summary"`
	Outcome        string    `db:"outcome"`
	Fields         string    `db:"fields"`
	AnalysedBy     string    `db:"analysed_by"`
	CreatedAt      time.Time `db:"created_at"`
}

const callAnalysisColumns = `call_log_id, organization_id, summary, outcome, fields, analysed_by, created_at`

// InsertCallAnalysis stores a call's analysis (CreatedAt is set here). ErrConflict when the
// call has one already; ErrReference when there is no such call log.
func (db *DB) InsertCallAnalysis(ctx context.Context, a *CallAnalysis) error {
	a.CreatedAt = now()
	if a.Fields == "" {
		a.Fields = "[]"
	}
	_, err := db.exec(ctx, `INSERT INTO call_analyses (`+callAnalysisColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		a.CallLogID, a.OrganizationID, a.Summary, a.Outcome, a.Fields, a.AnalysedBy, a.CreatedAt)
	return err
}

// CallAnalysisOf answers a team's call's analysis, or ErrNotFound (a call that goes on, or
// that ended before calls were analysed).
func (db *DB) CallAnalysisOf(ctx context.Context, orgID, callLogID string) (CallAnalysis, error) {
	var a CallAnalysis
	err := db.get(ctx, db.read(ctx), &a, `SELECT `+callAnalysisColumns+` FROM call_analyses WHERE organization_id = ? AND call_log_id = ?`,
		orgID, callLogID)
	return a, err
}

// JobCall is a call a job placed, with its analysis when it has one.
type JobCall struct {
	CallLog
	Summary    *string `db:"a_summary"`
	Outcome    *string `db:"a_outcome"`
	Fields     *string `db:"a_fields"`
	AnalysedBy *string `db:"a_analysed_by"`
}

// JobCallsAfter answers up to limit calls of a team's job, in the order they started, after
// the call (afterStart, afterID) (the zero time and "" for the first page): a page of an
// export that is read as it is written.
func (db *DB) JobCallsAfter(ctx context.Context, orgID, jobID string, afterStart time.Time, afterID string, limit int) ([]JobCall, error) {
	out := []JobCall{}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT `+prefixed("c.", callLogColumns)+`,
		a.summary AS a_summary, a.outcome AS a_outcome, a.fields AS a_fields, a.analysed_by AS a_analysed_by
		FROM call_logs c LEFT JOIN call_analyses a ON a.call_log_id = c.id
		WHERE c.organization_id = ? AND c.job_id = ? AND (c.start_time > ? OR (c.start_time = ? AND c.id > ?))
		ORDER BY c.start_time, c.id LIMIT ?`, orgID, jobID, afterStart.UTC(), afterStart.UTC(), afterID, limit)
	return out, err
}
