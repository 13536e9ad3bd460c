package main

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"github.com/bettyhq/betty/server/jobs"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/workflows"
)

// The contacts import (issue 24) against its reference, in the same run on the same rows:
//   - SQLite: Betty's import of a 200,000-row CSV file (the job's own code: stream, normalise,
//     de-duplicate, insert) next to a bare Go loop inserting the rows that import wrote, in one
//     transaction through one prepared INSERT on the same driver (sqlite3's way), and, when
//     the sqlite3 CLI is installed, the CLI running those INSERTs in one transaction;
//   - PostgreSQL (BETTY_TEST_POSTGRES_URL set): the same import next to psql's \copy of the
//     rows it wrote, as CSV, into the same table;
//   - a 1,000,000-row file imported on each database, with the Go heap's peak while it ran:
//     the import holds a few batches at a time, so the peak grows with the file only by what
//     de-duplication remembers of each number.
const (
	importBenchRows   = 200_000
	importMillionRows = 1_000_000
)

func importRows(postgresURL string) []row {
	sqlite := func() (store.Options, func(), error) {
		dir, err := os.MkdirTemp("", "betty-bench-import-")
		return store.Options{DataDir: dir}, func() { os.RemoveAll(dir) }, err
	}
	type importRun struct {
		name string
		open func() (store.Options, func(), error)
		rows int
	}
	runs := []importRun{{"SQLite", sqlite, importBenchRows}}
	if postgresURL != "" {
		runs = append(runs, importRun{"PostgreSQL", func() (store.Options, func(), error) { return postgresSchema(postgresURL) }, importBenchRows})
	}
	runs = append(runs, importRun{"SQLite", sqlite, importMillionRows})
	if postgresURL != "" {
		runs = append(runs, importRun{"PostgreSQL", func() (store.Options, func(), error) { return postgresSchema(postgresURL) }, importMillionRows})
	}
	var rows []row
	for _, run := range runs {
		r, err := importOn(run.name, run.open, run.rows, run.rows == importMillionRows)
		rows = append(rows, r...)
		if err != nil {
			rows = append(rows, row{fmt.Sprintf("contacts import %s, %d rows", run.name, run.rows), "failed", err.Error()})
		}
	}
	if postgresURL == "" {
		rows = append(rows, row{"contacts import PostgreSQL", "not measured", "set BETTY_TEST_POSTGRES_URL"})
	}
	return rows
}

// importCSV writes a contacts file of n rows as people export them (national numbers, names,
// a stage, one extra column; distinct, some in area codes that do not exist, so rejected) to
// path; with email an email column too. Without it a million rows stay under the 50 MiB an
// upload may take (server/uploads), as a file sent through the API must.
func importCSV(path string, n int, email bool) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if email {
		fmt.Fprintln(w, "phone,firstName,lastName,email,lifecycleStage,plan")
	} else {
		fmt.Fprintln(w, "phone,firstName,lastName,lifecycleStage,plan")
	}
	for i := 0; i < n; i++ {
		if email {
			fmt.Fprintf(w, "(%03d) 555-%04d,Ann%d,Lee,ann%d@example.com,lead,gold\n", 200+i/10000, i%10000, i, i)
		} else {
			fmt.Fprintf(w, "(%03d) 555-%04d,Ann%d,Lee,lead,gold\n", 200+i/10000, i%10000, i)
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// importOn imports a file of n rows on a fresh database and answers its rows: with the
// reference unless million, else with the heap's peak.
func importOn(name string, open func() (store.Options, func(), error), n int, million bool) ([]row, error) {
	ctx := context.Background()
	opts, drop, err := open()
	if err != nil {
		return nil, err
	}
	defer drop()
	db, err := store.Open(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if _, err := db.Migrate(ctx); err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "betty-bench-csv-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "contacts.csv")
	if err := importCSV(file, n, !million); err != nil {
		return nil, err
	}
	org, wf, err := importWorkflow(ctx, db)
	if err != nil {
		return nil, err
	}
	svc := workflows.New(db, jobs.New(db, slog.New(slog.NewTextHandler(io.Discard, nil)), jobs.Config{}), nil, diskFiles{file})
	svc.SetContactsMaxRows(n)
	// Best of three runs each, Betty's import and the reference in turn, so that what else the
	// machine does weighs on both alike (one run of the million rows).
	runs := 3
	if million {
		runs = 1
	}
	var src store.ContactSource
	var rate, ref float64
	var refName string
	var peak atomic.Uint64
	for range runs {
		src = store.ContactSource{NodeID: "import-node", OrganizationID: org, WorkflowID: wf, Source: "csv", Status: store.ContactsParsing,
			UploadID: ptr("bench-upload")}
		if err := db.SetContactSource(ctx, &src); err != nil { // drops the previous run's contacts
			return nil, err
		}
		took, err := timeImport(ctx, svc, org, src.ImportID, &peak)
		if err != nil {
			return nil, err
		}
		done, err := db.ContactSourceByImport(ctx, org, src.ImportID)
		if err != nil {
			return nil, err
		}
		if done.Status != store.ContactsSuccess || done.RowsImported+done.RowsRejected != n {
			return nil, fmt.Errorf("the import ended %s with %d rows imported, %d rejected: %v", done.Status, done.RowsImported, done.RowsRejected, deref(done.Error))
		}
		rate = max(rate, float64(n)/took.Seconds())
		if million {
			break
		}
		r, name, err := importReference(ctx, db, opts, org, wf, src.ImportID, dir)
		if err != nil {
			return nil, fmt.Errorf("reference: %w", err)
		}
		ref, refName = max(ref, r), name
	}
	if million {
		return []row{{fmt.Sprintf("contacts import %s, %d rows", name, n), fmt.Sprintf("%.0f rows/s", rate),
			fmt.Sprintf("peak Go heap %d MiB while importing a %d MiB file (the batches in flight, the phone metadata, and 16 to 32 bytes a distinct number)", peak.Load()>>20, fileSize(file)>>20)}}, nil
	}
	rows := []row{{fmt.Sprintf("contacts import %s", name), fmt.Sprintf("%.0f rows/s", rate),
		fmt.Sprintf("%d rows, best of %d; peak Go heap %d MiB; %s %.0f rows/s; ratio %.2f×", n, runs, peak.Load()>>20, refName, ref, rate/ref)}}
	if db.Dialect() == store.SQLite {
		if cli, err := sqliteCLI(ctx, db, org, src.ImportID, dir); err == nil {
			rows = append(rows, row{"contacts import SQLite vs CLI", fmt.Sprintf("%.0f rows/s", rate),
				fmt.Sprintf("sqlite3 CLI, same INSERTs in one transaction (C SQLite, not Betty's driver): %.0f rows/s; ratio %.2f×", cli, rate/cli)})
		} else if !errors.Is(err, exec.ErrNotFound) {
			rows = append(rows, row{"contacts import SQLite vs CLI", "not measured", err.Error()})
		}
	}
	return rows, nil
}

// timeImport runs the import job's code on an import and answers how long it took, raising
// peak to the Go heap's peak meanwhile.
func timeImport(ctx context.Context, svc *workflows.Service, org, importID string, peak *atomic.Uint64) (time.Duration, error) {
	stop := make(chan struct{})
	sampled := make(chan struct{})
	runtime.GC()
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	start := time.Now()
	err := svc.ImportContacts(ctx, org, importID, workflows.ImportOptions{}, true)
	took := time.Since(start)
	close(stop)
	<-sampled
	return took, err
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

func importWorkflow(ctx context.Context, db *store.DB) (string, string, error) {
	u := store.User{Email: "import-bench@example.com"}
	if err := db.CreateUser(ctx, &u); err != nil {
		return "", "", err
	}
	o := store.Organization{Name: "Import bench", OwnerUserID: u.ID, PublicAPIKey: "betty_pk_import_bench"}
	if err := db.CreateOrganization(ctx, &o, u.Email); err != nil {
		return "", "", err
	}
	w := store.Workflow{OrganizationID: o.ID, Name: "Import bench", Type: store.Outbound, Graph: `{"nodes":[],"edges":[]}`, PromptStatus: store.PromptSuccess}
	if err := db.CreateWorkflow(ctx, &w, nil); err != nil {
		return "", "", err
	}
	return o.ID, w.ID, nil
}

// diskFiles serves the bench's file as every upload.
type diskFiles struct{ path string }

func (diskFiles) Resolve(context.Context, string, string) (workflows.Upload, error) {
	return workflows.Upload{}, fmt.Errorf("not in the bench")
}
func (f diskFiles) Open(context.Context, string, string) (io.ReadCloser, error) {
	return os.Open(f.path)
}
func (diskFiles) Use(context.Context, string, string, string) error             { return nil }
func (diskFiles) Discard(context.Context, string, string, string) (bool, error) { return false, nil }
func (diskFiles) Purge(context.Context, string, string)                         {}

// The columns the reference writes: every column the import writes.
const refColumns = `id, organization_id, workflow_id, node_id, import_id, seq, phone, first_name, last_name, email, lifecycle_stage, extra,
	region, time_zone, status, attempts, call_log_id, last_error, last_called_at, created_at`

// refSource makes (or makes again, dropping its contacts) another source of the workflow, on
// node, for a reference's rows (contacts belong to a source, as the import's do), and answers
// its node and import.
func refSource(ctx context.Context, db *store.DB, org, wf, node string) (string, string, error) {
	src := store.ContactSource{NodeID: node, OrganizationID: org, WorkflowID: wf, Source: "csv", Status: store.ContactsSuccess}
	err := db.SetContactSource(ctx, &src)
	return src.NodeID, src.ImportID, err
}

// importReference times the reference writing the rows the import wrote (under a second
// source, with new ids) and names it.
func importReference(ctx context.Context, db *store.DB, opts store.Options, org, wf, importID, dir string) (float64, string, error) {
	node, refImport, err := refSource(ctx, db, org, wf, "reference-node")
	if err != nil {
		return 0, "", err
	}
	if db.Dialect() == store.Postgres {
		rate, err := psqlCopy(ctx, opts.DatabaseURL, importID, node, refImport, dir)
		return rate, "psql \\copy of the same rows as CSV", err
	}
	conn, err := sql.Open("sqlite", "file:"+db.Source()+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(1)&_time_format=sqlite&_txlock=immediate")
	if err != nil {
		return 0, "", err
	}
	defer conn.Close()
	data, err := sqliteRows(ctx, conn, importID)
	if err != nil {
		return 0, "", err
	}
	start := time.Now()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return 0, "", err
	}
	defer tx.Rollback() //nolint:errcheck // committed below
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO workflow_contacts (`+refColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return 0, "", err
	}
	for _, r := range data {
		r[0], r[3], r[4] = store.NewID(), node, refImport
		if _, err := stmt.ExecContext(ctx, r...); err != nil {
			return 0, "", err
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, "", err
	}
	return float64(len(data)) / time.Since(start).Seconds(), "bare Go loop, one transaction, one prepared INSERT, same driver", nil
}

// sqliteRows reads back the rows an import wrote, as the values a driver takes.
func sqliteRows(ctx context.Context, conn *sql.DB, importID string) ([][]any, error) {
	rs, err := conn.QueryContext(ctx, `SELECT `+refColumns+` FROM workflow_contacts WHERE import_id = ? ORDER BY seq`, importID)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	var out [][]any
	for rs.Next() {
		r := make([]any, 20)
		ptrs := make([]any, 20)
		for i := range r {
			ptrs[i] = &r[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rs.Err()
}

// sqliteCLI times the sqlite3 CLI running the import's rows as INSERTs in one transaction
// (exec.ErrNotFound without the CLI).
func sqliteCLI(ctx context.Context, db *store.DB, org, importID, dir string) (float64, error) {
	cli, err := exec.LookPath("sqlite3")
	if err != nil {
		return 0, err
	}
	src, err := db.ContactSourceByImport(ctx, org, importID)
	if err != nil {
		return 0, err
	}
	node, refImport, err := refSource(ctx, db, org, src.WorkflowID, "cli-node")
	if err != nil {
		return 0, err
	}
	// The INSERT statements, written by the CLI itself from the import's rows.
	script := filepath.Join(dir, "inserts.sql")
	q := fmt.Sprintf(`.headers on
.mode insert workflow_contacts
SELECT lower(hex(randomblob(16))) AS id, organization_id, workflow_id, '%s' AS node_id, '%s' AS import_id, seq, phone, first_name, last_name, email, lifecycle_stage, extra,
	region, time_zone, status, attempts, call_log_id, last_error, last_called_at, created_at FROM workflow_contacts WHERE import_id = '%s' ORDER BY seq;
`, node, refImport, importID)
	out, err := os.Create(script)
	if err != nil {
		return 0, err
	}
	fmt.Fprintln(out, "PRAGMA foreign_keys=ON; BEGIN;")
	dump := exec.CommandContext(ctx, cli, "-readonly", db.Source())
	dump.Stdin, dump.Stdout = strings.NewReader(q), out
	if err := dump.Run(); err != nil {
		out.Close()
		return 0, fmt.Errorf("sqlite3 dump: %w", err)
	}
	fmt.Fprintln(out, "COMMIT;")
	if err := out.Close(); err != nil {
		return 0, err
	}
	in, err := os.Open(script)
	if err != nil {
		return 0, err
	}
	defer in.Close()
	run := exec.CommandContext(ctx, cli, "-bail", db.Source())
	run.Stdin = in
	start := time.Now()
	if b, err := run.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("sqlite3: %v: %s", err, b)
	}
	return importBenchRows / time.Since(start).Seconds(), nil
}

// psqlCopy times psql's \copy of the import's rows (exported as CSV with new ids, under the
// reference's source) into the same table.
func psqlCopy(ctx context.Context, dbURL, importID, node, refImport, dir string) (float64, error) {
	psql, err := exec.LookPath("psql")
	if err != nil {
		return 0, fmt.Errorf("psql is not installed")
	}
	// psql takes the bench's schema from PGOPTIONS: libpq knows no search_path parameter.
	u, err := url.Parse(dbURL)
	if err != nil {
		return 0, err
	}
	q := u.Query()
	schema := q.Get("search_path")
	q.Del("search_path")
	u.RawQuery = q.Encode()
	csvPath := filepath.Join(dir, "rows.csv")
	env := append(os.Environ(), "PGOPTIONS=-c search_path="+schema)
	export := exec.CommandContext(ctx, psql, u.String(), "-Xqc", fmt.Sprintf(`\copy (SELECT gen_random_uuid()::text, organization_id, workflow_id, '%s', '%s', seq, phone, first_name, last_name, email, lifecycle_stage, extra, region, time_zone, status, attempts, call_log_id, last_error, last_called_at, created_at FROM workflow_contacts WHERE import_id = '%s' ORDER BY seq) TO '%s' CSV`,
		node, refImport, importID, csvPath))
	export.Env = env
	if out, err := export.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("psql export: %v: %s", err, out)
	}
	load := exec.CommandContext(ctx, psql, u.String(), "-Xqc", fmt.Sprintf(`\copy workflow_contacts (%s) FROM '%s' CSV`,
		strings.Join(strings.Fields(strings.ReplaceAll(refColumns, ",", " ")), ", "), csvPath))
	load.Env = env
	start := time.Now()
	if out, err := load.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("psql \\copy: %v: %s", err, out)
	}
	return importBenchRows / time.Since(start).Seconds(), nil
}
