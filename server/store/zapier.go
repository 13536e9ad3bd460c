package store

import (
	"context"
	"time"
)

// ZapierHook is a Zapier REST-hook subscription of an organisation.
type ZapierHook struct {
	ID             string    `db:"id"`
	OrganizationID string    `db:"organization_id"`
	Event          string    `db:"event"`
	HookURL        string    `db:"hook_url"`
	APIKeyID       *string   `db:"api_key_id"`
	CreatedAt      time.Time `db:"created_at"`
	UpdatedAt      time.Time `db:"updated_at"`
	// LastDelivery is the hook's most recently updated delivery, when read (nil: none yet).
	LastDelivery *ZapierDelivery `db:"-"`
}

const zapierHookColumns = `id, organization_id, event, hook_url, api_key_id, created_at, updated_at`

// The states of a Zapier delivery.
const (
	DeliveryPending   = "pending"
	DeliveryDelivered = "delivered"
	DeliveryFailed    = "failed"
	DeliveryGone      = "gone"
)

// ZapierDelivery is one event's payload for one subscription.
type ZapierDelivery struct {
	ID             string    `db:"id"`
	OrganizationID string    `db:"organization_id"`
	HookID         string    `db:"hook_id"`
	Event          string    `db:"event"`
	EntityID       string    `db:"entity_id"`
	Payload        string    `db:"payload"`
	Status         string    `db:"status"`
	Attempts       int       `db:"attempts"`
	LastStatus     *int      `db:"last_status"`
	LastError      *string   `db:"last_error"`
	CreatedAt      time.Time `db:"created_at"`
	UpdatedAt      time.Time `db:"updated_at"`
}

const zapierDeliveryColumns = `id, organization_id, hook_id, event, entity_id, payload, status, attempts, last_status, last_error,
	created_at, updated_at`

// AddZapierHook inserts h, or answers the organisation's subscription of the same event and
// URL (created false).
func (db *DB) AddZapierHook(ctx context.Context, h *ZapierHook) (created bool, err error) {
	h.ID, h.CreatedAt = NewID(), now()
	h.UpdatedAt = h.CreatedAt
	n, err := db.exec(ctx, `INSERT INTO zapier_hooks (`+zapierHookColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (organization_id, event, hook_url) DO NOTHING`,
		h.ID, h.OrganizationID, h.Event, h.HookURL, h.APIKeyID, h.CreatedAt, h.UpdatedAt)
	if err != nil || n == 1 {
		return n == 1, err
	}
	return false, db.get(ctx, db.write(ctx), h, `SELECT `+zapierHookColumns+` FROM zapier_hooks
		WHERE organization_id = ? AND event = ? AND hook_url = ?`, h.OrganizationID, h.Event, h.HookURL)
}

// ZapierHookByURL finds the organisation's subscription of an event and URL; ErrNotFound.
func (db *DB) ZapierHookByURL(ctx context.Context, orgID, event, url string) (ZapierHook, error) {
	var h ZapierHook
	err := db.get(ctx, db.read(ctx), &h, `SELECT `+zapierHookColumns+` FROM zapier_hooks
		WHERE organization_id = ? AND event = ? AND hook_url = ?`, orgID, event, url)
	return h, err
}

// CountZapierHooks answers how many subscriptions the organisation has.
func (db *DB) CountZapierHooks(ctx context.Context, orgID string) (int, error) {
	var n int
	err := db.get(ctx, db.read(ctx), &n, `SELECT COUNT(*) FROM zapier_hooks WHERE organization_id = ?`, orgID)
	return n, err
}

// ZapierHooks lists the organisation's subscriptions (of event when not empty), newest first.
func (db *DB) ZapierHooks(ctx context.Context, orgID, event string) ([]ZapierHook, error) {
	out := []ZapierHook{}
	q, args := `SELECT `+zapierHookColumns+` FROM zapier_hooks WHERE organization_id = ?`, []any{orgID}
	if event != "" {
		q += ` AND event = ?`
		args = append(args, event)
	}
	err := db.selectAll(ctx, db.read(ctx), &out, q+` ORDER BY created_at DESC, id DESC`, args...)
	return out, err
}

// LastZapierDelivery answers the most recently updated delivery of the organisation's hook;
// ErrNotFound when it has none.
func (db *DB) LastZapierDelivery(ctx context.Context, orgID, hookID string) (ZapierDelivery, error) {
	var d ZapierDelivery
	err := db.get(ctx, db.read(ctx), &d, `SELECT `+zapierDeliveryColumns+` FROM zapier_deliveries
		WHERE hook_id = ? AND organization_id = ? ORDER BY updated_at DESC, id DESC LIMIT 1`, hookID, orgID)
	return d, err
}

// ZapierHookByID finds the organisation's subscription; ErrNotFound.
func (db *DB) ZapierHookByID(ctx context.Context, orgID, id string) (ZapierHook, error) {
	var h ZapierHook
	err := db.get(ctx, db.read(ctx), &h, `SELECT `+zapierHookColumns+` FROM zapier_hooks WHERE organization_id = ? AND id = ?`, orgID, id)
	return h, err
}

// DeleteZapierHook removes the organisation's subscription and its deliveries; ErrNotFound.
func (db *DB) DeleteZapierHook(ctx context.Context, orgID, id string) error {
	if _, err := db.exec(ctx, `DELETE FROM zapier_deliveries WHERE organization_id = ? AND hook_id = ?`, orgID, id); err != nil {
		return err
	}
	return db.one(ctx, `DELETE FROM zapier_hooks WHERE organization_id = ? AND id = ?`, orgID, id)
}

// AddZapierDelivery records a delivery; false when the subscription has one for the entity.
func (db *DB) AddZapierDelivery(ctx context.Context, d *ZapierDelivery) (bool, error) {
	d.ID, d.CreatedAt, d.Status = NewID(), now(), DeliveryPending
	d.UpdatedAt = d.CreatedAt
	n, err := db.exec(ctx, `INSERT INTO zapier_deliveries (`+zapierDeliveryColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, 0, NULL, NULL, ?, ?)
		ON CONFLICT (hook_id, entity_id) DO NOTHING`,
		d.ID, d.OrganizationID, d.HookID, d.Event, d.EntityID, d.Payload, d.Status, d.CreatedAt, d.UpdatedAt)
	return n == 1, err
}

// ZapierDeliveryByID finds a delivery of the organisation; ErrNotFound.
func (db *DB) ZapierDeliveryByID(ctx context.Context, orgID, id string) (ZapierDelivery, error) {
	var d ZapierDelivery
	err := db.get(ctx, db.read(ctx), &d, `SELECT `+zapierDeliveryColumns+` FROM zapier_deliveries WHERE organization_id = ? AND id = ?`, orgID, id)
	return d, err
}

// RecordZapierAttempt writes the outcome of one delivery attempt.
func (db *DB) RecordZapierAttempt(ctx context.Context, orgID, id, status string, code *int, lastErr *string) error {
	_, err := db.exec(ctx, `UPDATE zapier_deliveries SET status = ?, attempts = attempts + 1, last_status = ?, last_error = ?, updated_at = ?
		WHERE organization_id = ? AND id = ?`, status, code, lastErr, now(), orgID, id)
	return err
}

// RecentEntityIDs answers the ids of the organisation's newest entities of a Zapier event
// (for its samples), newest first: ended calls, finished runs (not test runs), inbox items,
// contacts of zapier Contacts nodes.
func (db *DB) RecentEntityIDs(ctx context.Context, orgID, event string, limit int) ([]string, error) {
	var q string
	args := []any{orgID}
	switch event {
	case "call.completed":
		q = `SELECT id FROM call_logs WHERE organization_id = ? AND status IN (?, ?, ?, ?, ?, ?) ORDER BY created_at DESC, id DESC LIMIT ?`
		args = append(args, CallCompleted, CallVoicemail, CallBusy, CallNoAnswer, CallFailed, CallCancelled)
	case "job.finished":
		q = `SELECT id FROM workflow_jobs WHERE organization_id = ? AND status <> ? AND NOT is_test AND type = ?
			ORDER BY finished_at DESC, id DESC LIMIT ?`
		args = append(args, JobInProgress, JobTypeWorkflowRun)
	case "inbox.item.created":
		q = `SELECT id FROM inbox_items WHERE organization_id = ? AND deleted_at IS NULL ORDER BY created_at DESC, id DESC LIMIT ?`
	case "contact.added":
		q = `SELECT c.id FROM workflow_contacts c JOIN workflow_contact_sources s
				ON s.organization_id = c.organization_id AND s.node_id = c.node_id AND s.import_id = c.import_id
			WHERE c.organization_id = ? AND s.source = 'zapier' ORDER BY c.created_at DESC, c.seq DESC LIMIT ?`
	default:
		return []string{}, nil
	}
	out := []string{}
	err := db.selectAll(ctx, db.read(ctx), &out, q, append(args, limit)...)
	return out, err
}

// ContactsByPhones answers the contacts of a node's current import with one of phones, by phone
// (the first row of a number).
func (db *DB) ContactsByPhones(ctx context.Context, orgID, nodeID, importID string, phones []string) (map[string]Contact, error) {
	out := map[string]Contact{}
	if len(phones) == 0 {
		return out, nil
	}
	var rows []Contact
	if err := db.selectAll(ctx, db.read(ctx), &rows, `SELECT `+contactColumns+` FROM workflow_contacts
		WHERE organization_id = ? AND node_id = ? AND import_id = ? AND phone IN (`+placeholders(len(phones))+`) ORDER BY seq`,
		append([]any{orgID, nodeID, importID}, anys(phones)...)...); err != nil {
		return nil, err
	}
	for _, c := range rows {
		if _, ok := out[c.Phone]; !ok {
			out[c.Phone] = c
		}
	}
	return out, nil
}

// LastContactSeq answers the highest row number of a node's current import (0 when empty).
func (db *DB) LastContactSeq(ctx context.Context, orgID, nodeID, importID string) (int, error) {
	var n int
	err := db.get(ctx, db.read(ctx), &n, `SELECT COALESCE(MAX(seq), 0) FROM workflow_contacts
		WHERE organization_id = ? AND node_id = ? AND import_id = ?`, orgID, nodeID, importID)
	return n, err
}

// UpdateContactFields rewrites a contact's names, e-mail, stage and extra fields (its call
// state stays).
func (db *DB) UpdateContactFields(ctx context.Context, c Contact) error {
	return db.one(ctx, `UPDATE workflow_contacts SET first_name = ?, last_name = ?, email = ?, lifecycle_stage = ?, extra = ?
		WHERE organization_id = ? AND id = ?`, c.FirstName, c.LastName, c.Email, c.LifecycleStage, c.Extra, c.OrganizationID, c.ID)
}

// GrowWorkflowJob adds n to the total of a job still in progress; false when it is not.
func (db *DB) GrowWorkflowJob(ctx context.Context, orgID, jobID string, n int) (bool, error) {
	c, err := db.exec(ctx, `UPDATE workflow_jobs SET total = total + ?, updated_at = ? WHERE organization_id = ? AND id = ? AND status = ?`,
		n, now(), orgID, jobID, JobInProgress)
	return c == 1, err
}
