package store

import (
	"context"
	"time"
)

// Event records that an entity of a team changed, for the event stream. Ids increase in
// commit order (SQLite: one writer; PostgreSQL: numbered at commit, see migration 00010), so
// a reader that has seen an id never sees a smaller one appear. Tx is always 0 (kept so a
// position can grow a second part without changing the ids clients hold).
type Event struct {
	ID             int64     `db:"id"`
	Tx             int64     `db:"tx"`
	OrganizationID string    `db:"organization_id"`
	Type           string    `db:"type"`
	EntityID       string    `db:"entity_id"`
	CreatedAt      time.Time `db:"created_at"`
}

// EventPosition is a place in a team's events: after (Tx, ID).
type EventPosition struct {
	Tx, ID int64
}

// AddEvent records an event in the transaction in ctx.
func (db *DB) AddEvent(ctx context.Context, orgID, typ, entityID string) error {
	_, err := db.exec(ctx, `INSERT INTO events (organization_id, type, entity_id, created_at) VALUES (?, ?, ?, ?)`,
		orgID, typ, entityID, now())
	return err
}

// EventsAfter answers up to limit events of a team after pos, of the types given (all when
// none), in order.
func (db *DB) EventsAfter(ctx context.Context, orgID string, pos EventPosition, types []string, limit int) ([]Event, error) {
	q, args := `SELECT id, tx, organization_id, type, entity_id, created_at FROM events
		WHERE organization_id = ? AND (tx > ? OR (tx = ? AND id > ?))`, []any{orgID, pos.Tx, pos.Tx, pos.ID}
	if len(types) > 0 {
		q += ` AND type IN (` + placeholders(len(types)) + `)`
		args = append(args, anys(types)...)
	}
	out := []Event{}
	err := db.selectAll(ctx, db.read(ctx), &out, q+` ORDER BY tx, id LIMIT ?`, append(args, limit)...)
	return out, err
}

// EventKept says whether the team's event at pos is still kept (it was recorded after since).
func (db *DB) EventKept(ctx context.Context, orgID string, pos EventPosition, since time.Time) (bool, error) {
	var n int
	err := db.get(ctx, db.read(ctx), &n, `SELECT COUNT(*) FROM events WHERE organization_id = ? AND tx = ? AND id = ? AND created_at >= ?`,
		orgID, pos.Tx, pos.ID, since.UTC())
	return n > 0, err
}

// LastEventPosition answers the position of the team's latest event a reader can see (zero
// when none).
func (db *DB) LastEventPosition(ctx context.Context, orgID string) (EventPosition, error) {
	var e []Event
	err := db.selectAll(ctx, db.read(ctx), &e, `SELECT id, tx, organization_id, type, entity_id, created_at FROM events
		WHERE organization_id = ? ORDER BY tx DESC, id DESC LIMIT 1`, orgID)
	if err != nil || len(e) == 0 {
		return EventPosition{}, err
	}
	return EventPosition{Tx: e[0].Tx, ID: e[0].ID}, nil
}

// PruneEvents deletes the events recorded before t and answers how many.
func (db *DB) PruneEvents(ctx context.Context, t time.Time) (int, error) {
	n, err := db.exec(ctx, `DELETE FROM events WHERE created_at < ?`, t.UTC())
	return int(n), err
}
