package store

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// VoiceStatus is whether a custom voice may be used.
type VoiceStatus string

const (
	VoicePending  VoiceStatus = "pending"
	VoiceApproved VoiceStatus = "approved"
	VoiceRejected VoiceStatus = "rejected"
)

// VoiceProfile is a team's custom voice.
type VoiceProfile struct {
	ID              string      `db:"id"`
	OrganizationID  string      `db:"organization_id"`
	Name            string      `db:"name"`
	NameKey         string      `db:"name_key"` // lower-case name, unique in the team
	Gender          string      `db:"gender"`
	Description     string      `db:"description"`
	Language        string      `db:"language"`
	SampleUploadIDs Strings     `db:"sample_upload_ids"`
	Status          VoiceStatus `db:"status"`
	RejectionReason *string     `db:"rejection_reason"`
	CreatedBy       *string     `db:"created_by"`
	CreatedAt       time.Time   `db:"created_at"`
	UpdatedAt       time.Time   `db:"updated_at"`
}

const voiceProfileColumns = `id, organization_id, name, name_key, gender, description, language, sample_upload_ids, status,
	rejection_reason, created_by, created_at, updated_at`

// Strings is a list of strings kept as a JSON array in a TEXT column.
type Strings []string

// Value writes the JSON array.
func (s Strings) Value() (driver.Value, error) {
	if s == nil {
		s = Strings{}
	}
	raw, err := json.Marshal([]string(s))
	return string(raw), err
}

// Scan reads the JSON array.
func (s *Strings) Scan(src any) error {
	var raw []byte
	switch v := src.(type) {
	case string:
		raw = []byte(v)
	case []byte:
		raw = v
	case nil:
		*s = Strings{}
		return nil
	default:
		return fmt.Errorf("store: cannot read %T as a list of strings", src)
	}
	out := Strings{}
	if err := json.Unmarshal(raw, (*[]string)(&out)); err != nil {
		return err
	}
	*s = out
	return nil
}

// VoiceNameKey is how voice names are compared: without case.
func VoiceNameKey(name string) string { return strings.ToLower(strings.TrimSpace(name)) }

// CreateVoiceProfile inserts v. ErrConflict when the team has a voice of that name.
func (db *DB) CreateVoiceProfile(ctx context.Context, v *VoiceProfile) error {
	v.ID = NewID()
	v.NameKey = VoiceNameKey(v.Name)
	v.CreatedAt = now()
	v.UpdatedAt = v.CreatedAt
	if v.SampleUploadIDs == nil {
		v.SampleUploadIDs = Strings{}
	}
	_, err := db.exec(ctx, `INSERT INTO voice_profiles (`+voiceProfileColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		v.ID, v.OrganizationID, v.Name, v.NameKey, v.Gender, v.Description, v.Language, v.SampleUploadIDs, v.Status,
		v.RejectionReason, v.CreatedBy, v.CreatedAt, v.UpdatedAt)
	return err
}

// VoiceProfile reads a voice of a team; ErrNotFound when the team has none by that id.
func (db *DB) VoiceProfile(ctx context.Context, orgID, id string) (VoiceProfile, error) {
	var v VoiceProfile
	err := db.get(ctx, db.read(ctx), &v, `SELECT `+voiceProfileColumns+` FROM voice_profiles WHERE organization_id = ? AND id = ?`, orgID, id)
	return v, err
}

// ListVoiceProfiles lists a page of a team's voices, newest first, and how many it has.
func (db *DB) ListVoiceProfiles(ctx context.Context, orgID string, limit, offset int) ([]VoiceProfile, int, error) {
	var total int
	if err := db.get(ctx, db.read(ctx), &total, `SELECT COUNT(*) FROM voice_profiles WHERE organization_id = ?`, orgID); err != nil {
		return nil, 0, err
	}
	out := []VoiceProfile{}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT `+voiceProfileColumns+` FROM voice_profiles WHERE organization_id = ?
		ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, orgID, limit, offset)
	return out, total, err
}

// CountVoiceProfiles counts the voices of a team that hold a place under its limit (every
// one but the rejected).
func (db *DB) CountVoiceProfiles(ctx context.Context, orgID string) (int, error) {
	var n int
	err := db.get(ctx, db.read(ctx), &n, `SELECT COUNT(*) FROM voice_profiles WHERE organization_id = ? AND status <> ?`,
		orgID, VoiceRejected)
	return n, err
}

// LockVoiceQuota, inside a transaction, answers the team's tier and holds the team's row until
// the transaction ends, so two voices created at once cannot both take the last place (on
// SQLite the write transaction already runs alone).
func (db *DB) LockVoiceQuota(ctx context.Context, orgID string) (SubscriptionTier, error) {
	if err := db.needTx(ctx, "LockVoiceQuota"); err != nil {
		return "", err
	}
	var tier SubscriptionTier
	err := db.get(ctx, db.write(ctx), &tier, `SELECT subscription_tier FROM organizations WHERE id = ?`+db.lockRows(ctx), orgID)
	return tier, err
}

// UpdateVoiceProfile writes v's fields; ErrNotFound when the team has no such voice,
// ErrConflict when another voice of the team has its name.
func (db *DB) UpdateVoiceProfile(ctx context.Context, v *VoiceProfile) error {
	v.NameKey = VoiceNameKey(v.Name)
	v.UpdatedAt = now()
	return db.one(ctx, `UPDATE voice_profiles SET name = ?, name_key = ?, gender = ?, description = ?, language = ?,
		sample_upload_ids = ?, status = ?, rejection_reason = ?, updated_at = ? WHERE organization_id = ? AND id = ?`,
		v.Name, v.NameKey, v.Gender, v.Description, v.Language, v.SampleUploadIDs, v.Status, v.RejectionReason, v.UpdatedAt,
		v.OrganizationID, v.ID)
}

// DeleteVoiceProfile deletes a voice of a team; ErrNotFound when the team has none by that id,
// ErrReference while something (an agent) still speaks with it.
func (db *DB) DeleteVoiceProfile(ctx context.Context, orgID, id string) error {
	// The row is deleted first: on PostgreSQL that waits for an agent transaction holding it
	// FOR SHARE (VoiceProfileForAgent), so the count below sees that agent once it committed.
	return db.InTx(ctx, func(ctx context.Context) error {
		if err := db.one(ctx, `DELETE FROM voice_profiles WHERE organization_id = ? AND id = ?`, orgID, id); err != nil {
			return err
		}
		var speakers int
		if err := db.get(ctx, db.write(ctx), &speakers, `SELECT COUNT(*) FROM agent_profiles WHERE organization_id = ? AND voice_id = ?`,
			orgID, id); err != nil {
			return err
		}
		if speakers > 0 {
			return fmt.Errorf("%w: %d agent profiles speak with voice %s", ErrReference, speakers, id)
		}
		return nil
	})
}

// VoiceProfileForAgent, inside a transaction, answers a team's voice for an agent to speak
// with and keeps it from being deleted until the transaction ends (FOR SHARE on PostgreSQL; on
// SQLite the write transaction already runs alone).
func (db *DB) VoiceProfileForAgent(ctx context.Context, orgID, id string) (VoiceProfile, error) {
	if err := db.needTx(ctx, "VoiceProfileForAgent"); err != nil {
		return VoiceProfile{}, err
	}
	lock := ""
	if db.dialect == Postgres {
		lock = " FOR SHARE"
	}
	var v VoiceProfile
	err := db.get(ctx, db.write(ctx), &v, `SELECT `+voiceProfileColumns+` FROM voice_profiles WHERE organization_id = ? AND id = ?`+lock, orgID, id)
	return v, err
}
