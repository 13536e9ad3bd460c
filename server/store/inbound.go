package store

import (
	"context"
	"time"
)

// JobTypeInboundCall is the type of the job that holds one inbound call (workflow_jobs): the
// call, its attempt and its dispatcher, as a run's, so the dialer's call driver holds it.
const JobTypeInboundCall = "inbound-call"

// InboundNumber is a number calls come in on, with its team.
type InboundNumber struct {
	ID             string `db:"id"`
	OrganizationID string `db:"organization_id"`
	E164           string `db:"phone_number"`
}

// InboundNumberByE164 answers the active carrier number (bought, not a verified caller id)
// with this E.164 form, whatever its team; ErrNotFound when none.
func (db *DB) InboundNumberByE164(ctx context.Context, e164 string) (InboundNumber, error) {
	var n InboundNumber
	err := db.get(ctx, db.read(ctx), &n, `SELECT id, organization_id, phone_number FROM phone_numbers
		WHERE phone_number = ? AND status = ? AND is_non_telnyx = ? ORDER BY created_at, id LIMIT 1`, e164, PhoneActive, false)
	return n, err
}

// InboundWorkflows answers a team's inbound workflows that answer calls to a number: those
// of the number itself and those of a campaign using it, each with its campaign's status
// ("" without a campaign) and whether it is its campaign's active workflow; most recently
// updated first.
func (db *DB) InboundWorkflows(ctx context.Context, orgID, phoneNumberID string) ([]InboundWorkflow, error) {
	out := []InboundWorkflow{}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT `+prefixed("w.", workflowColumns)+`,
		CASE WHEN c.workflow_id IS NOT NULL AND c.workflow_id = w.id THEN TRUE ELSE FALSE END AS active,
		COALESCE(c.status, '') AS campaign_status
		FROM workflows w LEFT JOIN campaigns c ON c.id = w.campaign_id
		WHERE w.organization_id = ? AND w.workflow_type = ? AND (w.phone_number_id = ? OR (w.phone_number_id IS NULL AND c.phone_number_id = ?))
		ORDER BY w.updated_at DESC, w.id DESC`, orgID, Inbound, phoneNumberID, phoneNumberID)
	return out, err
}

// InboundWorkflow is an inbound workflow with its campaign's status.
type InboundWorkflow struct {
	Workflow
	CampaignStatus CampaignStatus `db:"campaign_status"`
}

// QuietCalls answers attempts on the line (an inbound call ringing, not answered yet: no
// dialled_at; or in a call) that nothing moved since before, oldest first, up to limit: calls whose last command may never have
// reached the carrier (the dialer's Resume).
func (db *DB) QuietCalls(ctx context.Context, before time.Time, limit int) ([]Attempt, error) {
	out := []Attempt{}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT `+attemptColumns+` FROM contact_attempts
		WHERE state IN (?, ?) AND call_control_id IS NOT NULL AND updated_at < ? AND (state = ? OR dialled_at IS NULL)
		ORDER BY updated_at LIMIT ?`, AttemptRinging, AttemptInCall, before, AttemptInCall, limit)
	return out, err
}
