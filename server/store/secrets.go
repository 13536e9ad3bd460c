package store

import "context"

// Secret returns the server secret called name, storing make()'s value first if there is
// none. Every replica sharing the database gets the same value.
func (db *DB) Secret(ctx context.Context, name string, make func() string) (string, error) {
	if _, err := db.exec(ctx, `INSERT INTO server_secrets (name, value, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING`,
		name, make(), now()); err != nil {
		return "", err
	}
	var v string
	err := db.get(ctx, db.write(ctx), &v, `SELECT value FROM server_secrets WHERE name = ?`, name)
	return v, err
}
