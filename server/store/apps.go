package store

import (
	"context"
	"time"
)

// ConnectedApp is an organisation's connection to an integration's account. SealedTokens is
// the sealed OAuth credential (server/integrations opens it); nil while disconnected.
type ConnectedApp struct {
	ID             string     `db:"id"`
	OrganizationID string     `db:"organization_id"`
	Integration    string     `db:"integration"`
	Status         string     `db:"status"`
	Name           string     `db:"name"`
	AccountID      *string    `db:"account_id"`
	ConnectionID   *string    `db:"connection_id"`
	SealedTokens   *string    `db:"sealed_tokens"`
	TokenExpiresAt *time.Time `db:"token_expires_at"`
	CreatedBy      *string    `db:"created_by"`
	CreatedAt      time.Time  `db:"created_at"`
	UpdatedAt      time.Time  `db:"updated_at"`
}

// The states of a connected app.
const (
	AppConnected    = "connected"
	AppDisconnected = "disconnected"
)

const connectedAppColumns = `id, organization_id, integration, status, name, account_id, connection_id, sealed_tokens,
	token_expires_at, created_by, created_at, updated_at`

// ConnectedApps lists an organisation's connected apps, newest first.
func (db *DB) ConnectedApps(ctx context.Context, orgID string) ([]ConnectedApp, error) {
	apps := []ConnectedApp{}
	err := db.selectAll(ctx, db.read(ctx), &apps, `SELECT `+connectedAppColumns+` FROM connected_apps
		WHERE organization_id = ? ORDER BY created_at DESC, id DESC`, orgID)
	return apps, err
}

// ConnectedAppByID finds an organisation's connected app; ErrNotFound when it has none.
func (db *DB) ConnectedAppByID(ctx context.Context, orgID, id string) (ConnectedApp, error) {
	var a ConnectedApp
	err := db.get(ctx, db.read(ctx), &a, `SELECT `+connectedAppColumns+` FROM connected_apps
		WHERE organization_id = ? AND id = ?`, orgID, id)
	return a, err
}

// ConnectedAppOfAccount finds the organisation's connected app of a provider account;
// ErrNotFound when it has none.
func (db *DB) ConnectedAppOfAccount(ctx context.Context, orgID, integration, accountID string) (ConnectedApp, error) {
	var a ConnectedApp
	err := db.get(ctx, db.read(ctx), &a, `SELECT `+connectedAppColumns+` FROM connected_apps
		WHERE organization_id = ? AND integration = ? AND account_id = ?`, orgID, integration, accountID)
	return a, err
}

// ConnectedAppsOfAccount lists every organisation's connected app of a provider account (a
// webhook names the account only).
func (db *DB) ConnectedAppsOfAccount(ctx context.Context, integration, accountID string) ([]ConnectedApp, error) {
	apps := []ConnectedApp{}
	err := db.selectAll(ctx, db.read(ctx), &apps, `SELECT `+connectedAppColumns+` FROM connected_apps
		WHERE integration = ? AND account_id = ? ORDER BY created_at, id`, integration, accountID)
	return apps, err
}

// ConnectedAppsOfIntegration lists an organisation's connected apps of one integration,
// newest first.
func (db *DB) ConnectedAppsOfIntegration(ctx context.Context, orgID, integration string) ([]ConnectedApp, error) {
	apps := []ConnectedApp{}
	err := db.selectAll(ctx, db.read(ctx), &apps, `SELECT `+connectedAppColumns+` FROM connected_apps
		WHERE organization_id = ? AND integration = ? ORDER BY created_at DESC, id DESC`, orgID, integration)
	return apps, err
}

// CreateConnectedApp inserts a; ErrConflict when the organisation has the account already.
func (db *DB) CreateConnectedApp(ctx context.Context, a *ConnectedApp) error {
	a.ID = NewID()
	a.CreatedAt = now()
	a.UpdatedAt = a.CreatedAt
	_, err := db.exec(ctx, `INSERT INTO connected_apps (`+connectedAppColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		a.ID, a.OrganizationID, a.Integration, a.Status, a.Name, a.AccountID, a.ConnectionID, a.SealedTokens,
		a.TokenExpiresAt, a.CreatedBy, a.CreatedAt, a.UpdatedAt)
	return err
}

// UpdateConnectedApp writes a's status, name, account and credential.
func (db *DB) UpdateConnectedApp(ctx context.Context, a *ConnectedApp) error {
	a.UpdatedAt = now()
	return db.one(ctx, `UPDATE connected_apps SET status = ?, name = ?, account_id = ?, connection_id = ?, sealed_tokens = ?,
		token_expires_at = ?, updated_at = ? WHERE organization_id = ? AND id = ?`,
		a.Status, a.Name, a.AccountID, a.ConnectionID, a.SealedTokens, a.TokenExpiresAt, a.UpdatedAt, a.OrganizationID, a.ID)
}

// ReplaceConnectedAppTokens stores a refreshed credential of the connection connectionID;
// false when the app was disconnected or reconnected meanwhile (the refresh is dropped).
func (db *DB) ReplaceConnectedAppTokens(ctx context.Context, orgID, id, connectionID, sealed string, expiresAt time.Time) (bool, error) {
	n, err := db.exec(ctx, `UPDATE connected_apps SET sealed_tokens = ?, token_expires_at = ?, updated_at = ?
		WHERE organization_id = ? AND id = ? AND connection_id = ?`, sealed, expiresAt, now(), orgID, id, connectionID)
	return n == 1, err
}

// UseOAuthState records a state's nonce as used; false when it was used before. Expired
// nonces are forgotten on the way.
func (db *DB) UseOAuthState(ctx context.Context, nonce string, expiresAt time.Time) (bool, error) {
	if _, err := db.exec(ctx, `DELETE FROM oauth_states_used WHERE expires_at < ?`, now()); err != nil {
		return false, err
	}
	n, err := db.exec(ctx, `INSERT INTO oauth_states_used (nonce, expires_at) VALUES (?, ?) ON CONFLICT (nonce) DO NOTHING`,
		nonce, expiresAt)
	return n == 1, err
}
