package workflows

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/store"
)

const benchRows = 100_000

// benchCSV is a contacts file of n rows as people export them: national numbers, names, a
// stage and one extra column.
func benchCSV(n int) []byte {
	var b bytes.Buffer
	b.WriteString("phone,firstName,lastName,email,lifecycleStage,plan\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "(%03d) 555-%04d,Ann%d,Lee,ann%d@example.com,lead,gold\n", 200+i/10000, i%10000, i, i)
	}
	return b.Bytes()
}

// Importing 100,000 contacts (parse, E.164 with region and time zone, dedupe, batched
// inserts) on each database; on PostgreSQL the rate of a bare COPY of the same rows into the
// same table is reported beside it (copy-rows/s).
func BenchmarkContactsImport(b *testing.B) {
	file := benchCSV(benchRows)
	for _, d := range testdb.Dialects() {
		b.Run(string(d), func(b *testing.B) {
			ctx := context.Background()
			db := testdb.Open(b, d, true)
			s := &Service{db: db}
			org, wf := benchWorkflow(b, db)
			var imported int
			var elapsed time.Duration
			for b.Loop() {
				src := store.ContactSource{NodeID: "bench-node", OrganizationID: org, WorkflowID: wf, Source: "csv", Status: store.ContactsParsing}
				if err := db.SetContactSource(ctx, &src); err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				n, rejected, err := s.readContacts(ctx, src, bytes.NewReader(file), ImportOptions{Region: DefaultRegion}, benchRows)
				elapsed += time.Since(start)
				if err != nil || n+rejected != benchRows {
					b.Fatalf("imported %d, rejected %d: %v", n, rejected, err)
				}
				imported += benchRows
			}
			b.ReportMetric(float64(imported)/elapsed.Seconds(), "rows/s")
			if d == store.Postgres {
				b.ReportMetric(copyRate(b, db, org, wf), "copy-rows/s")
			}
		})
	}
}

func benchWorkflow(b testing.TB, db *store.DB) (string, string) {
	ctx := context.Background()
	u := store.User{Email: "bench@example.com"}
	if err := db.CreateUser(ctx, &u); err != nil {
		b.Fatal(err)
	}
	o := store.Organization{Name: "Bench", OwnerUserID: u.ID, PublicAPIKey: "pk_" + store.NewID()}
	if err := db.CreateOrganization(ctx, &o, u.Email); err != nil {
		b.Fatal(err)
	}
	w := store.Workflow{OrganizationID: o.ID, Name: "Bench", Type: store.Outbound, Graph: `{"nodes":[],"edges":[]}`, PromptStatus: store.PromptSuccess}
	if err := db.CreateWorkflow(ctx, &w, nil); err != nil {
		b.Fatal(err)
	}
	return o.ID, w.ID
}

// copyRate times COPY of the benchmark's rows, already in the table's shape, into the table.
func copyRate(b *testing.B, db *store.DB, org, wf string) float64 {
	ctx := context.Background()
	src := store.ContactSource{NodeID: "copy-node", OrganizationID: org, WorkflowID: wf, Source: "csv", Status: store.ContactsSuccess}
	if err := db.SetContactSource(ctx, &src); err != nil {
		b.Fatal(err)
	}
	var rows strings.Builder
	for i := 0; i < benchRows; i++ {
		fmt.Fprintf(&rows, "%s,%s,%s,copy-node,%s,%d,+1%03d555%04d,Ann%d,Lee,ann%d@example.com,lead,\"{\"\"plan\"\":\"\"gold\"\"}\",US,America/New_York,pending,0,,,,2026-01-01T00:00:00Z\n",
			store.NewID(), org, wf, src.ImportID, i+1, 200+i/10000, i%10000, i, i)
	}
	start := time.Now()
	err := db.InTx(ctx, func(ctx context.Context) error {
		tx, ok := db.PgxTx(ctx)
		if !ok {
			return fmt.Errorf("no pgx transaction")
		}
		_, err := tx.Conn().PgConn().CopyFrom(ctx, strings.NewReader(rows.String()),
			`COPY workflow_contacts (`+strings.Join(strings.Fields(strings.ReplaceAll(contactColumnsForCopy, ",", " ")), ", ")+`) FROM STDIN (FORMAT csv)`)
		return err
	})
	if err != nil {
		b.Fatalf("copy: %v", err)
	}
	return benchRows / time.Since(start).Seconds()
}

const contactColumnsForCopy = `id, organization_id, workflow_id, node_id, import_id, seq, phone, first_name, last_name, email, lifecycle_stage, extra,
	region, time_zone, status, attempts, call_log_id, last_error, last_called_at, created_at`
