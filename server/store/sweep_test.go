package store_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/store"
)

// The call sweep reads each team's live attempts through contact_attempts_live_idx, never
// every attempt of every team (a table of millions of final rows read every 30 seconds), and
// has no index of its own for the dialer's every move of an attempt to rewrite.
func TestCallsToSweepReadsTheLiveIndex(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := time.Now().UTC()
		if _, err := db.CallsToSweep(ctx, now, now.Add(-time.Minute), 10); err != nil {
			t.Fatal(err)
		}
		if db.Dialect() != store.SQLite {
			return // PostgreSQL weighs a nested loop against a scan by its statistics
		}
		rows, err := db.Writer().QueryContext(ctx, `EXPLAIN QUERY PLAN SELECT a.id FROM organizations o CROSS JOIN contact_attempts a
			WHERE a.organization_id = o.id AND a.state IN (?, ?, ?, ?) AND a.call_control_id IS NOT NULL
			ORDER BY COALESCE(a.last_event_at, a.answered_at, a.dialled_at, a.created_at), a.id LIMIT 10`,
			store.AttemptDialling, store.AttemptInDoubt, store.AttemptRinging, store.AttemptInCall)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var plan strings.Builder
		for rows.Next() {
			var id, parent, notused int
			var detail string
			if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintln(&plan, detail)
		}
		if !strings.Contains(plan.String(), "USING INDEX contact_attempts_live_idx") || strings.Contains(plan.String(), "SCAN a") {
			t.Fatalf("the sweep does not read the live index:\n%s", plan.String())
		}
	})
}
