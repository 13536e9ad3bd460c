package store

import (
	"context"
	"time"
)

// APIKey is an organisation's API key. Only a hash of the secret is stored.
type APIKey struct {
	ID             string     `db:"id"`
	OrganizationID string     `db:"organization_id"`
	Name           string     `db:"name"`
	Prefix         string     `db:"prefix"`
	KeyHash        string     `db:"key_hash"`
	Role           string     `db:"role"`
	CreatedBy      *string    `db:"created_by"`
	LastUsedAt     *time.Time `db:"last_used_at"`
	CreatedAt      time.Time  `db:"created_at"`
	UpdatedAt      time.Time  `db:"updated_at"`
}

const apiKeyColumns = `id, organization_id, name, prefix, key_hash, role, created_by, last_used_at, created_at, updated_at`

// CreateAPIKey inserts k. ErrConflict when the team has a key of that name.
func (db *DB) CreateAPIKey(ctx context.Context, k *APIKey) error {
	k.ID = NewID()
	k.CreatedAt = now()
	k.UpdatedAt = k.CreatedAt
	_, err := db.exec(ctx, `INSERT INTO api_keys (`+apiKeyColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		k.ID, k.OrganizationID, k.Name, k.Prefix, k.KeyHash, k.Role, k.CreatedBy, nil, k.CreatedAt, k.UpdatedAt)
	return err
}

// APIKeyByHash finds a key by the hash of its secret.
func (db *DB) APIKeyByHash(ctx context.Context, hash string) (APIKey, error) {
	var k APIKey
	err := db.get(ctx, db.read(ctx), &k, `SELECT `+apiKeyColumns+` FROM api_keys WHERE key_hash = ?`, hash)
	return k, err
}

// ListAPIKeys lists a team's keys, newest first.
func (db *DB) ListAPIKeys(ctx context.Context, orgID string) ([]APIKey, error) {
	keys := []APIKey{}
	err := db.selectAll(ctx, db.read(ctx), &keys, `SELECT `+apiKeyColumns+` FROM api_keys WHERE organization_id = ?
		ORDER BY created_at DESC, id DESC`, orgID)
	return keys, err
}

// CountAPIKeys counts a team's keys.
func (db *DB) CountAPIKeys(ctx context.Context, orgID string) (int, error) {
	var n int
	err := db.get(ctx, db.read(ctx), &n, `SELECT COUNT(*) FROM api_keys WHERE organization_id = ?`, orgID)
	return n, err
}

// DeleteAPIKey deletes a key of a team; ErrNotFound when the team has no such key.
func (db *DB) DeleteAPIKey(ctx context.Context, orgID, id string) error {
	return db.one(ctx, `DELETE FROM api_keys WHERE organization_id = ? AND id = ?`, orgID, id)
}

// TouchAPIKeys writes when keys were last used (auth.KeyUses batches them off the request
// path), in one transaction; a stored time is only ever moved forward.
func (db *DB) TouchAPIKeys(ctx context.Context, uses map[string]time.Time) error {
	return db.InTx(ctx, func(ctx context.Context) error {
		for id, t := range uses {
			if _, err := db.exec(ctx, `UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)`,
				t.UTC().Truncate(time.Microsecond), id, t.UTC().Truncate(time.Microsecond)); err != nil {
				return err
			}
		}
		return nil
	})
}

// DeleteAPIKeysCreatedBy revokes the team's keys a user made and says how many there were.
func (db *DB) DeleteAPIKeysCreatedBy(ctx context.Context, orgID, userID string) (int, error) {
	n, err := db.exec(ctx, `DELETE FROM api_keys WHERE organization_id = ? AND created_by = ?`, orgID, userID)
	return int(n), err
}

// LowerAPIKeyRoles sets the role of the team's keys a user made to role when their role is
// one of above.
func (db *DB) LowerAPIKeyRoles(ctx context.Context, orgID, userID, role string, above []string) error {
	if len(above) == 0 {
		return nil
	}
	_, err := db.exec(ctx, `UPDATE api_keys SET role = ?, updated_at = ? WHERE organization_id = ? AND created_by = ?
		AND role IN (`+placeholders(len(above))+`)`, append([]any{role, now(), orgID, userID}, anys(above)...)...)
	return err
}
