package store

import (
	"context"
	"strings"
	"time"
)

// DoNotCallSource is how a number got on a team's do-not-call list.
type DoNotCallSource string

const (
	DoNotCallManual       DoNotCallSource = "manual"
	DoNotCallImport       DoNotCallSource = "import"
	DoNotCallConversation DoNotCallSource = "conversation"
)

// DoNotCall is a number (E.164) a team must never call.
type DoNotCall struct {
	ID             string          `db:"id"`
	OrganizationID string          `db:"organization_id"`
	PhoneNumber    string          `db:"phone_number"`
	Reason         *string         `db:"reason"`
	AddedBy        string          `db:"added_by"`
	Source         DoNotCallSource `db:"source"`
	CallLogID      *string         `db:"call_log_id"`
	CreatedAt      time.Time       `db:"created_at"`
}

const doNotCallColumns = `id, organization_id, phone_number, reason, added_by, source, call_log_id, created_at`

// dncBatch is how many rows one statement inserts or looks up (8 arguments a row stays far
// below SQLite's limit of variables).
const dncBatch = 500

// AddDoNotCall puts e on the team's list and answers true; when the number is there already
// it answers false with e set to the entry as it is.
func (db *DB) AddDoNotCall(ctx context.Context, e *DoNotCall) (bool, error) {
	n, err := db.AddDoNotCalls(ctx, []DoNotCall{*e})
	if err != nil {
		return false, err
	}
	got, err := db.DoNotCallByNumber(ctx, e.OrganizationID, e.PhoneNumber)
	*e = got
	return n == 1, err
}

// AddDoNotCalls puts entries (of one team, numbers distinct) on the list, leaving the numbers
// listed already as they are, and answers how many it added.
func (db *DB) AddDoNotCalls(ctx context.Context, entries []DoNotCall) (int, error) {
	added := 0
	err := db.InTx(ctx, func(ctx context.Context) error {
		t := now()
		for start := 0; start < len(entries); start += dncBatch {
			batch := entries[start:min(start+dncBatch, len(entries))]
			args := make([]any, 0, len(batch)*8)
			for _, e := range batch {
				args = append(args, NewID(), e.OrganizationID, e.PhoneNumber, e.Reason, e.AddedBy, e.Source, e.CallLogID, t)
			}
			n, err := db.exec(ctx, `INSERT INTO do_not_call (`+doNotCallColumns+`) VALUES `+
				strings.Repeat("(?, ?, ?, ?, ?, ?, ?, ?), ", len(batch)-1)+`(?, ?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (organization_id, phone_number) DO NOTHING`, args...)
			if err != nil {
				return err
			}
			added += int(n)
		}
		return nil
	})
	return added, err
}

// DoNotCallByNumber returns the team's entry of a number, or ErrNotFound.
func (db *DB) DoNotCallByNumber(ctx context.Context, orgID, number string) (DoNotCall, error) {
	var e DoNotCall
	err := db.get(ctx, db.read(ctx), &e, `SELECT `+doNotCallColumns+` FROM do_not_call WHERE organization_id = ? AND phone_number = ?`, orgID, number)
	return e, err
}

// ListDoNotCall answers a page of the team's list, newest first, and how many entries match:
// with digits, those whose number contains them, or, with words, whose reason contains every
// one of them (case-insensitive).
func (db *DB) ListDoNotCall(ctx context.Context, orgID, digits string, words []string, limit, offset int) ([]DoNotCall, int, error) {
	where, args := `organization_id = ?`, []any{orgID}
	var match []string
	var matchArgs []any
	if digits != "" {
		match, matchArgs = append(match, `phone_number LIKE ?`), append(matchArgs, "%"+digits+"%")
	}
	if len(words) > 0 {
		conds := make([]string, len(words))
		for i, w := range words {
			conds[i] = `LOWER(COALESCE(reason, '')) LIKE ? ESCAPE '\'`
			matchArgs = append(matchArgs, "%"+likeEscaper.Replace(strings.ToLower(w))+"%")
		}
		match = append(match, "("+strings.Join(conds, " AND ")+")")
	}
	if len(match) > 0 {
		where += ` AND (` + strings.Join(match, " OR ") + `)`
		args = append(args, matchArgs...)
	}
	var total int
	if err := db.get(ctx, db.read(ctx), &total, `SELECT COUNT(*) FROM do_not_call WHERE `+where, args...); err != nil {
		return nil, 0, err
	}
	out := []DoNotCall{}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT `+doNotCallColumns+` FROM do_not_call WHERE `+where+`
		ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, append(args, limit, offset)...)
	return out, total, err
}

var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// DeleteDoNotCall removes an entry of the team's list; ErrNotFound when there is none.
func (db *DB) DeleteDoNotCall(ctx context.Context, orgID, id string) error {
	return db.one(ctx, `DELETE FROM do_not_call WHERE organization_id = ? AND id = ?`, orgID, id)
}

// DoNotCallNumbers answers which of these numbers are on the team's list.
func (db *DB) DoNotCallNumbers(ctx context.Context, orgID string, numbers []string) (map[string]bool, error) {
	out := make(map[string]bool)
	for start := 0; start < len(numbers); start += dncBatch {
		batch := numbers[start:min(start+dncBatch, len(numbers))]
		var listed []string
		if err := db.selectAll(ctx, db.read(ctx), &listed, `SELECT phone_number FROM do_not_call
			WHERE organization_id = ? AND phone_number IN (`+placeholders(len(batch))+`)`, append([]any{orgID}, anys(batch)...)...); err != nil {
			return nil, err
		}
		for _, n := range listed {
			out[n] = true
		}
	}
	return out, nil
}
