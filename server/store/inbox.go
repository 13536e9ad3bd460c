package store

import (
	"context"
	"strings"
	"time"
)

// InboxVisibility is who can read an inbox item.
type InboxVisibility string

const (
	InboxPrivate InboxVisibility = "private"
	InboxPublic  InboxVisibility = "public"
)

// InboxItem is the outcome of a finished call, filed in its team's inbox.
type InboxItem struct {
	ID             string          `db:"id"`
	OrganizationID string          `db:"organization_id"`
	CallLogID      *string         `db:"call_log_id"`
	CallControlID  *string         `db:"call_control_id"`
	CampaignID     *string         `db:"campaign_id"`
	Title          string          `db:"title"`
	Summary        string          `db:"summary"`
	Outcome        string          `db:"outcome"`
	Priority       int             `db:"priority"`
	Visibility     InboxVisibility `db:"visibility"`
	DeletedAt      *time.Time      `db:"deleted_at"`
	CreatedAt      time.Time       `db:"created_at"`
	UpdatedAt      time.Time       `db:"updated_at"`
}

const inboxItemColumns = `id, organization_id, call_log_id, call_control_id, campaign_id, title, summary, outcome,
	priority, visibility, deleted_at, created_at, updated_at`

// CreateInboxItem inserts i (ID and times are set here). ErrConflict when its call log has an
// item already.
func (db *DB) CreateInboxItem(ctx context.Context, i *InboxItem) error {
	i.ID = NewID()
	i.CreatedAt = now()
	i.UpdatedAt = i.CreatedAt
	_, err := db.exec(ctx, `INSERT INTO inbox_items (`+inboxItemColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		i.ID, i.OrganizationID, i.CallLogID, i.CallControlID, i.CampaignID, i.Title, i.Summary, i.Outcome,
		i.Priority, i.Visibility, i.DeletedAt, i.CreatedAt, i.UpdatedAt)
	return err
}

// InboxItemByID returns a team's inbox item, deleted or not, or ErrNotFound.
func (db *DB) InboxItemByID(ctx context.Context, orgID, id string) (InboxItem, error) {
	var i InboxItem
	err := db.get(ctx, db.read(ctx), &i, `SELECT `+inboxItemColumns+` FROM inbox_items WHERE organization_id = ? AND id = ?`, orgID, id)
	return i, err
}

// InboxItemOfCall returns the team's inbox item of a call log, or ErrNotFound.
func (db *DB) InboxItemOfCall(ctx context.Context, orgID, callLogID string) (InboxItem, error) {
	var i InboxItem
	err := db.get(ctx, db.read(ctx), &i, `SELECT `+inboxItemColumns+` FROM inbox_items WHERE organization_id = ? AND call_log_id = ?`, orgID, callLogID)
	return i, err
}

// InboxQuery is a page of a team's inbox: the items matching every one of Words (as word
// prefixes of title or summary; all items when none), sorted by SortBy.
type InboxQuery struct {
	Words []string
	// SortBy is a column: created_at, updated_at, priority, title or visibility.
	SortBy        string
	Ascending     bool
	Limit, Offset int
}

var inboxSortColumns = map[string]string{
	"created_at": "i.created_at", "updated_at": "i.updated_at", "priority": "i.priority",
	"title": "LOWER(i.title)", "visibility": "i.visibility",
}

// ListInboxItems answers a page of the team's inbox items that are not deleted, and how many
// match.
func (db *DB) ListInboxItems(ctx context.Context, orgID string, q InboxQuery) ([]InboxItem, int, error) {
	col, ok := inboxSortColumns[q.SortBy]
	if !ok {
		col = inboxSortColumns["created_at"]
	}
	dir := " DESC"
	if q.Ascending {
		dir = " ASC"
	}
	from, args := `inbox_items i`, []any{}
	where := `i.organization_id = ? AND i.deleted_at IS NULL`
	if len(q.Words) > 0 {
		if db.dialect == Postgres {
			terms := make([]string, len(q.Words))
			for i, w := range q.Words {
				terms[i] = w + ":*"
			}
			where = `i.tsv @@ to_tsquery('simple', ?) AND ` + where
			args = append(args, strings.Join(terms, " & "))
		} else {
			terms := make([]string, len(q.Words))
			for i, w := range q.Words {
				terms[i] = `"` + w + `"*`
			}
			from = `inbox_items_fts JOIN inbox_items i ON i.rowid_ = inbox_items_fts.rowid`
			where = `inbox_items_fts MATCH ? AND ` + where
			args = append(args, strings.Join(terms, " AND "))
		}
	}
	args = append(args, orgID)
	var total int
	if err := db.get(ctx, db.read(ctx), &total, `SELECT COUNT(*) FROM `+from+` WHERE `+where, args...); err != nil {
		return nil, 0, err
	}
	out := []InboxItem{}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT `+prefixed("i.", inboxItemColumns)+` FROM `+from+` WHERE `+where+`
		ORDER BY `+col+dir+`, i.created_at DESC, i.id DESC LIMIT ? OFFSET ?`, append(args, q.Limit, q.Offset)...)
	return out, total, err
}

// UpdateInboxItem sets the priority and/or the visibility (nil keeps it) of a team's item
// that is not deleted; ErrNotFound otherwise.
func (db *DB) UpdateInboxItem(ctx context.Context, orgID, id string, priority *int, visibility *InboxVisibility) error {
	return db.one(ctx, `UPDATE inbox_items SET priority = COALESCE(?, priority), visibility = COALESCE(?, visibility), updated_at = ?
		WHERE organization_id = ? AND id = ? AND deleted_at IS NULL`, priority, visibility, now(), orgID, id)
}

// DeleteInboxItem marks a team's item deleted; ErrNotFound when there is none not deleted.
func (db *DB) DeleteInboxItem(ctx context.Context, orgID, id string) error {
	t := now()
	return db.one(ctx, `UPDATE inbox_items SET deleted_at = ?, updated_at = ? WHERE organization_id = ? AND id = ? AND deleted_at IS NULL`,
		t, t, orgID, id)
}
