package store

import (
	"context"
	"strings"
	"time"
)

// Campaign is a campaign row, with the E.164 form of its assigned number.
type Campaign struct {
	ID              string         `db:"id"`
	OrganizationID  string         `db:"organization_id"`
	Name            string         `db:"name"`
	Direction       Direction      `db:"direction"`
	Status          CampaignStatus `db:"status"`
	Priority        string         `db:"priority"`
	Purpose         string         `db:"purpose"`
	Settings        string         `db:"settings"` // JSON
	WorkflowID      *string        `db:"workflow_id"`
	PhoneNumberID   *string        `db:"phone_number_id"`
	PhoneAssignedAt *time.Time     `db:"phone_assigned_at"`
	CreatedAt       time.Time      `db:"created_at"`
	UpdatedAt       time.Time      `db:"updated_at"`
	// PhoneNumber is the assigned number in E.164 (read with a join; not a column).
	PhoneNumber *string `db:"phone_e164"`
}

const campaignColumns = `id, organization_id, name, direction, status, priority, purpose, settings, workflow_id,
	phone_number_id, phone_assigned_at, created_at, updated_at`

// campaignSelect reads campaigns with their number's E.164 form.
var campaignSelect = `SELECT ` + prefixed("c.", campaignColumns) + `, p.phone_number AS phone_e164
	FROM campaigns c LEFT JOIN phone_numbers p ON p.id = c.phone_number_id`

// CampaignFilter narrows a list of campaigns.
type CampaignFilter struct {
	// Status keeps one status ("" keeps all).
	Status CampaignStatus
	// Name keeps names containing it, ignoring case ("" keeps all).
	Name string
}

// FoldName is the form names are searched in (Unicode lower case).
func FoldName(s string) string { return strings.ToLower(s) }

// ListCampaigns lists a team's campaigns newest first, filtered, and how many match.
func (db *DB) ListCampaigns(ctx context.Context, orgID string, f CampaignFilter, limit, offset int) ([]Campaign, int, error) {
	where, args := " WHERE c.organization_id = ?", []any{orgID}
	if f.Status != "" {
		where, args = where+" AND c.status = ?", append(args, f.Status)
	}
	if f.Name != "" {
		where, args = where+` AND c.name_folded LIKE ? ESCAPE '\'`, append(args, "%"+escapeLike(FoldName(f.Name))+"%")
	}
	var total int
	if err := db.get(ctx, db.read(ctx), &total, `SELECT COUNT(*) FROM campaigns c`+where, args...); err != nil {
		return nil, 0, err
	}
	out := []Campaign{}
	if total == 0 {
		return out, 0, nil
	}
	err := db.selectAll(ctx, db.read(ctx), &out, campaignSelect+where+` ORDER BY c.created_at DESC, c.id DESC LIMIT ? OFFSET ?`,
		append(args, limit, offset)...)
	return out, total, err
}

// CampaignByID returns a team's campaign, or ErrNotFound.
func (db *DB) CampaignByID(ctx context.Context, orgID, id string) (Campaign, error) {
	var c Campaign
	err := db.get(ctx, db.read(ctx), &c, campaignSelect+` WHERE c.organization_id = ? AND c.id = ?`, orgID, id)
	return c, err
}

// CampaignOrganization answers the organisation a campaign belongs to, or ErrNotFound.
func (db *DB) CampaignOrganization(ctx context.Context, id string) (string, error) {
	var org string
	err := db.get(ctx, db.read(ctx), &org, `SELECT organization_id FROM campaigns WHERE id = ?`, id)
	return org, err
}

// CreateCampaign inserts c, filling id and times.
func (db *DB) CreateCampaign(ctx context.Context, c *Campaign) error {
	c.ID = NewID()
	c.CreatedAt = now()
	c.UpdatedAt = c.CreatedAt
	if c.PhoneNumberID != nil {
		t := c.CreatedAt
		c.PhoneAssignedAt = &t
	}
	_, err := db.exec(ctx, `INSERT INTO campaigns (`+campaignColumns+`, name_folded) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		c.ID, c.OrganizationID, c.Name, c.Direction, c.Status, c.Priority, c.Purpose, c.Settings, c.WorkflowID,
		c.PhoneNumberID, c.PhoneAssignedAt, c.CreatedAt, c.UpdatedAt, FoldName(c.Name))
	return err
}

// UpdateCampaign writes a team's campaign's editable columns (name, direction, status,
// priority, purpose, settings, phone number).
func (db *DB) UpdateCampaign(ctx context.Context, c *Campaign) error {
	c.UpdatedAt = now()
	return db.one(ctx, `UPDATE campaigns SET name = ?, name_folded = ?, direction = ?, status = ?, priority = ?, purpose = ?,
		settings = ?, phone_number_id = ?, phone_assigned_at = ?, updated_at = ? WHERE organization_id = ? AND id = ?`,
		c.Name, FoldName(c.Name), c.Direction, c.Status, c.Priority, c.Purpose, c.Settings, c.PhoneNumberID, c.PhoneAssignedAt,
		c.UpdatedAt, c.OrganizationID, c.ID)
}

// DeleteCampaign deletes a team's campaign; its agents are unlinked (the foreign key).
func (db *DB) DeleteCampaign(ctx context.Context, orgID, id string) error {
	return db.one(ctx, `DELETE FROM campaigns WHERE organization_id = ? AND id = ?`, orgID, id)
}

// PhoneNumberOfTeam returns the id and E.164 form of a team's phone number, or ErrNotFound.
func (db *DB) PhoneNumberOfTeam(ctx context.Context, orgID, id string) (string, error) {
	var e164 string
	err := db.get(ctx, db.read(ctx), &e164, `SELECT phone_number FROM phone_numbers WHERE organization_id = ? AND id = ?`, orgID, id)
	return e164, err
}

// CampaignsUsingPhone lists a team's campaigns a number is assigned to (of one direction when
// given), newest assignment first, and how many there are.
func (db *DB) CampaignsUsingPhone(ctx context.Context, orgID, phoneID string, direction Direction, limit int) ([]Campaign, int, error) {
	where, args := ` WHERE c.organization_id = ? AND c.phone_number_id = ?`, []any{orgID, phoneID}
	if direction != "" {
		where, args = where+` AND c.direction = ?`, append(args, direction)
	}
	var total int
	if err := db.get(ctx, db.read(ctx), &total, `SELECT COUNT(*) FROM campaigns c`+where, args...); err != nil {
		return nil, 0, err
	}
	out := []Campaign{}
	err := db.selectAll(ctx, db.read(ctx), &out, campaignSelect+where+` ORDER BY c.phone_assigned_at DESC, c.id DESC LIMIT ?`,
		append(args, limit)...)
	return out, total, err
}

// PhoneNumberOrganization answers the organisation a phone number belongs to, or ErrNotFound.
func (db *DB) PhoneNumberOrganization(ctx context.Context, id string) (string, error) {
	var org string
	err := db.get(ctx, db.read(ctx), &org, `SELECT organization_id FROM phone_numbers WHERE id = ?`, id)
	return org, err
}

// CampaignRuns is what a campaign's runs say about it (test runs left out): whether one is in
// progress, and how the latest finished one ended ("" when none has).
type CampaignRuns struct {
	Running    bool
	LastStatus JobStatus
}

// CampaignRunsOf answers the state of a team's campaign's runs. Test runs (a persona or
// is_test) do not count: trying a workflow is not running the campaign.
func (db *DB) CampaignRunsOf(ctx context.Context, orgID, campaignID string) (CampaignRuns, error) {
	var rows []struct {
		Status JobStatus `db:"status"`
	}
	err := db.selectAll(ctx, db.read(ctx), &rows, `SELECT status FROM workflow_jobs
		WHERE organization_id = ? AND campaign_id = ? AND NOT is_test AND persona IS NULL
		ORDER BY CASE WHEN status = ? THEN 0 ELSE 1 END, COALESCE(finished_at, created_at) DESC, id DESC LIMIT 1`,
		orgID, campaignID, JobInProgress)
	if err != nil || len(rows) == 0 {
		return CampaignRuns{}, err
	}
	if rows[0].Status == JobInProgress {
		return CampaignRuns{Running: true}, nil
	}
	return CampaignRuns{LastStatus: rows[0].Status}, nil
}

// SetCampaignStatus sets a team's campaign's status when it is from; false when it was not.
func (db *DB) SetCampaignStatus(ctx context.Context, orgID, id string, from, to CampaignStatus) (bool, error) {
	n, err := db.exec(ctx, `UPDATE campaigns SET status = ?, updated_at = ? WHERE organization_id = ? AND id = ? AND status = ?`,
		to, now(), orgID, id, from)
	return n == 1, err
}
