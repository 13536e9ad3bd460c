package apitest

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/store"
)

// TeamSnapshot dumps every row that belongs to a team: the organisation, the rows of every
// table with an organization_id column (found in the schema, so new tables are covered as they
// are added), and the accounts, sessions and refresh tokens of the given users. Two snapshots
// are equal when nothing of the team changed.
func (e *Env) TeamSnapshot(t testing.TB, orgID string, userIDs ...string) string {
	t.Helper()
	ctx := context.Background()
	db := e.DB.Writer()
	tables, err := tablesWithColumn(ctx, e.DB, "organization_id")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	dump := func(label, query string, args ...any) {
		if e.DB.Dialect() == store.Postgres {
			for i := 1; strings.Contains(query, "?"); i++ {
				query = strings.Replace(query, "?", fmt.Sprintf("$%d", i), 1)
			}
		}
		rows, err := db.QueryContext(ctx, query, args...)
		if err != nil {
			t.Fatalf("snapshot %s: %v", label, err)
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%s:", label)
			for i, c := range cols {
				v := vals[i]
				if bs, ok := v.([]byte); ok {
					v = string(bs)
				}
				fmt.Fprintf(&b, " %s=%v", c, v)
			}
			b.WriteString("\n")
		}
	}
	dump("organizations", "SELECT * FROM organizations WHERE id = ?", orgID)
	for _, table := range tables {
		dump(table, "SELECT * FROM "+table+" WHERE organization_id = ? ORDER BY 1", orgID)
	}
	for _, u := range userIDs {
		dump("users", "SELECT * FROM users WHERE id = ?", u)
		dump("sessions", "SELECT * FROM sessions WHERE user_id = ? ORDER BY id", u)
		dump("refresh_tokens", "SELECT r.* FROM refresh_tokens r JOIN sessions s ON s.id = r.session_id WHERE s.user_id = ? ORDER BY r.id", u)
	}
	return b.String()
}

// tablesWithColumn lists the tables of the schema that have a column, sorted.
func tablesWithColumn(ctx context.Context, d *store.DB, column string) ([]string, error) {
	var rows *sql.Rows
	var err error
	if d.Dialect() == store.Postgres {
		rows, err = d.Writer().QueryContext(ctx, `SELECT table_name FROM information_schema.columns
			WHERE table_schema = current_schema() AND column_name = $1`, column)
	} else {
		rows, err = d.Writer().QueryContext(ctx, `SELECT m.name FROM sqlite_master m JOIN pragma_table_info(m.name) p
			WHERE m.type = 'table' AND p.name = ?`, column)
	}
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		out = append(out, name)
	}
	sort.Strings(out)
	return out, rows.Err()
}
