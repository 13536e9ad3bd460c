package store

import (
	"context"
	"strings"
	"time"
)

// ExternalContact is a contact of a node that came from a CRM (HubSpot), with the CRM's
// record id.
type ExternalContact struct {
	Contact
	ExternalID string `db:"external_id"`
}

const externalContactColumns = contactColumns + `, external_id`

// ExternalContactsOfNode lists one page of a node's current-import contacts that have a
// record id, in the order they were added, and how many there are.
func (db *DB) ExternalContactsOfNode(ctx context.Context, orgID, nodeID, importID string, limit, offset int) ([]ExternalContact, int, error) {
	var total int
	if err := db.get(ctx, db.read(ctx), &total, `SELECT COUNT(*) FROM workflow_contacts
		WHERE organization_id = ? AND node_id = ? AND import_id = ? AND external_id IS NOT NULL`, orgID, nodeID, importID); err != nil {
		return nil, 0, err
	}
	out := []ExternalContact{}
	if total == 0 {
		return out, 0, nil
	}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT `+externalContactColumns+` FROM workflow_contacts
		WHERE organization_id = ? AND node_id = ? AND import_id = ? AND external_id IS NOT NULL ORDER BY seq LIMIT ? OFFSET ?`,
		orgID, nodeID, importID, limit, offset)
	return out, total, err
}

// ExternalContactOfNode finds a node's current-import contact by record id; ErrNotFound
// when it has none.
func (db *DB) ExternalContactOfNode(ctx context.Context, orgID, nodeID, importID, externalID string) (ExternalContact, error) {
	var c ExternalContact
	err := db.get(ctx, db.read(ctx), &c, `SELECT `+externalContactColumns+` FROM workflow_contacts
		WHERE organization_id = ? AND node_id = ? AND import_id = ? AND external_id = ?`, orgID, nodeID, importID, externalID)
	return c, err
}

// PendingPhoneOwner answers the record id of the node's current-import contact to be called
// at phone ("" when none): the node calls each number once.
func (db *DB) PendingPhoneOwner(ctx context.Context, orgID, nodeID, importID, phone, except string) (string, error) {
	var ids []string
	err := db.selectAll(ctx, db.read(ctx), &ids, `SELECT external_id FROM workflow_contacts
		WHERE organization_id = ? AND node_id = ? AND import_id = ? AND phone = ? AND status <> ? AND external_id IS NOT NULL
		AND external_id <> ? ORDER BY seq LIMIT 1`, orgID, nodeID, importID, phone, ContactFailed, except)
	if len(ids) == 0 {
		return "", err
	}
	return ids[0], err
}

// InsertExternalContact adds a contact with its record id at the end of a node's import.
func (db *DB) InsertExternalContact(ctx context.Context, c *ExternalContact) error {
	one := []Contact{c.Contact}
	if err := db.fillWorkflows(ctx, one); err != nil {
		return err
	}
	c.WorkflowID = one[0].WorkflowID
	var seq int
	if err := db.get(ctx, db.write(ctx), &seq, `SELECT COALESCE(MAX(seq), 0) FROM workflow_contacts
		WHERE organization_id = ? AND node_id = ? AND import_id = ?`, c.OrganizationID, c.NodeID, c.ImportID); err != nil {
		return err
	}
	c.ID, c.CreatedAt, c.Seq = NewID(), now(), seq+1
	_, err := db.exec(ctx, `INSERT INTO workflow_contacts (`+externalContactColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		c.ID, c.OrganizationID, c.WorkflowID, c.NodeID, c.ImportID, c.Seq, c.Phone, c.FirstName, c.LastName, c.Email, c.LifecycleStage, c.Extra,
		c.Region, c.TimeZone, c.Status, c.Attempts, c.CallLogID, c.LastError, c.LastCalledAt, c.CreatedAt, c.ExternalID)
	return err
}

// UpdateExternalContact rewrites a stored copy's fields from its CRM record; the number (and
// so whether it can be called) only while it was never called.
func (db *DB) UpdateExternalContact(ctx context.Context, c ExternalContact) error {
	if _, err := db.exec(ctx, `UPDATE workflow_contacts SET first_name = ?, last_name = ?, email = ?, lifecycle_stage = ?, extra = ?
		WHERE organization_id = ? AND id = ?`, c.FirstName, c.LastName, c.Email, c.LifecycleStage, c.Extra, c.OrganizationID, c.ID); err != nil {
		return err
	}
	_, err := db.exec(ctx, `UPDATE workflow_contacts SET phone = ?, region = ?, time_zone = ?, status = ?, last_error = ?
		WHERE organization_id = ? AND id = ? AND attempts = 0 AND call_log_id IS NULL`,
		c.Phone, c.Region, c.TimeZone, c.Status, c.LastError, c.OrganizationID, c.ID)
	return err
}

// ContactsOfApps answers the current-import contacts with a record id of the nodes whose
// source is one of the connected apps (a webhook names the portal only).
func (db *DB) ContactsOfApps(ctx context.Context, appIDs []string, externalID string) ([]ExternalContact, error) {
	out := []ExternalContact{}
	if len(appIDs) == 0 {
		return out, nil
	}
	args := []any{externalID}
	for _, id := range appIDs {
		args = append(args, id)
	}
	cols := "c." + strings.Join(strings.Split(strings.Join(strings.Fields(externalContactColumns), ""), ","), ", c.")
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT `+cols+` FROM workflow_contacts c
		JOIN workflow_contact_sources s ON s.node_id = c.node_id AND s.import_id = c.import_id AND s.organization_id = c.organization_id
		WHERE c.external_id = ? AND s.connected_app_id IN (?`+strings.Repeat(", ?", len(appIDs)-1)+`) ORDER BY c.created_at`, args...)
	return out, err
}

// DeleteUncalledContact removes a contact that was never called; false when it was (it
// stays: its call log names it).
func (db *DB) DeleteUncalledContact(ctx context.Context, orgID, id string) (bool, error) {
	n, err := db.exec(ctx, `DELETE FROM workflow_contacts WHERE organization_id = ? AND id = ? AND attempts = 0 AND call_log_id IS NULL
		AND NOT EXISTS (SELECT 1 FROM contact_attempts a WHERE a.contact_id = workflow_contacts.id)`, orgID, id)
	return n == 1, err
}

// UseHubSpotEvent records a webhook event id as handled; false when it was before.
func (db *DB) UseHubSpotEvent(ctx context.Context, eventID string) (bool, error) {
	n, err := db.exec(ctx, `INSERT INTO hubspot_webhook_events (event_id, received_at) VALUES (?, ?) ON CONFLICT (event_id) DO NOTHING`,
		eventID, now())
	return n == 1, err
}

// ForgetHubSpotEvent forgets an event whose handling failed (HubSpot delivers it again).
func (db *DB) ForgetHubSpotEvent(ctx context.Context, eventID string) error {
	_, err := db.exec(ctx, `DELETE FROM hubspot_webhook_events WHERE event_id = ?`, eventID)
	return err
}

// StageUpdate is a lifecycle stage written back to HubSpot after a call.
type StageUpdate struct {
	ID             string    `db:"id"`
	OrganizationID string    `db:"organization_id"`
	ConnectedAppID string    `db:"connected_app_id"`
	HubSpotID      string    `db:"hubspot_id"`
	ContactID      *string   `db:"contact_id"`
	CallLogID      *string   `db:"call_log_id"`
	Stage          string    `db:"stage"`
	Status         string    `db:"status"`
	Reason         *string   `db:"reason"`
	CreatedAt      time.Time `db:"created_at"`
	UpdatedAt      time.Time `db:"updated_at"`
}

const stageUpdateColumns = `id, organization_id, connected_app_id, hubspot_id, contact_id, call_log_id, stage, status, reason, created_at, updated_at`

// The states of a stage update.
const (
	StageUpdatePending = "pending"
	StageUpdateDone    = "done"
	StageUpdateFailed  = "failed"
)

// CreateStageUpdate inserts u (pending).
func (db *DB) CreateStageUpdate(ctx context.Context, u *StageUpdate) error {
	u.ID, u.CreatedAt = NewID(), now()
	u.UpdatedAt = u.CreatedAt
	_, err := db.exec(ctx, `INSERT INTO hubspot_stage_updates (`+stageUpdateColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		u.ID, u.OrganizationID, u.ConnectedAppID, u.HubSpotID, u.ContactID, u.CallLogID, u.Stage, u.Status, u.Reason, u.CreatedAt, u.UpdatedAt)
	return err
}

// StageUpdateByID finds a stage update.
func (db *DB) StageUpdateByID(ctx context.Context, orgID, id string) (StageUpdate, error) {
	var u StageUpdate
	err := db.get(ctx, db.read(ctx), &u, `SELECT `+stageUpdateColumns+` FROM hubspot_stage_updates WHERE organization_id = ? AND id = ?`, orgID, id)
	return u, err
}

// FinishStageUpdate records what came of a stage update.
func (db *DB) FinishStageUpdate(ctx context.Context, orgID, id, status string, reason *string) error {
	return db.one(ctx, `UPDATE hubspot_stage_updates SET status = ?, reason = ?, updated_at = ? WHERE organization_id = ? AND id = ?`,
		status, reason, now(), orgID, id)
}

// StageUpdatesOfCall lists the stage updates after a call, oldest first.
func (db *DB) StageUpdatesOfCall(ctx context.Context, orgID, callLogID string) ([]StageUpdate, error) {
	out := []StageUpdate{}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT `+stageUpdateColumns+` FROM hubspot_stage_updates
		WHERE organization_id = ? AND call_log_id = ? ORDER BY created_at, id`, orgID, callLogID)
	return out, err
}

// ExternalContactByID finds an organisation's contact with its record id ("" for a CSV row).
func (db *DB) ExternalContactByID(ctx context.Context, orgID, id string) (ExternalContact, error) {
	var c struct {
		Contact
		ExternalID *string `db:"external_id"`
	}
	err := db.get(ctx, db.read(ctx), &c, `SELECT `+externalContactColumns+` FROM workflow_contacts WHERE organization_id = ? AND id = ?`, orgID, id)
	out := ExternalContact{Contact: c.Contact}
	if c.ExternalID != nil {
		out.ExternalID = *c.ExternalID
	}
	return out, err
}

// ExternalIDsOfImport answers the record ids of a node's current-import contacts that have
// one, by contact id.
func (db *DB) ExternalIDsOfImport(ctx context.Context, orgID, nodeID, importID string) (map[string]string, error) {
	var rows []struct {
		ID         string `db:"id"`
		ExternalID string `db:"external_id"`
	}
	err := db.selectAll(ctx, db.read(ctx), &rows, `SELECT id, external_id FROM workflow_contacts
		WHERE organization_id = ? AND node_id = ? AND import_id = ? AND external_id IS NOT NULL`, orgID, nodeID, importID)
	out := make(map[string]string, len(rows))
	for _, r := range rows {
		out[r.ID] = r.ExternalID
	}
	return out, err
}

// HubSpotListSources answers every Contacts node source, of every team, that calls a HubSpot
// list.
func (db *DB) HubSpotListSources(ctx context.Context) ([]ContactSource, error) {
	out := []ContactSource{}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT `+contactSourceColumns+` FROM workflow_contact_sources
		WHERE source = 'hubspot' AND list_id IS NOT NULL AND connected_app_id IS NOT NULL ORDER BY organization_id, node_id`)
	return out, err
}
