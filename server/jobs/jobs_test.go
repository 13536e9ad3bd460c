package jobs_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/jobs"
	"github.com/bettyhq/betty/server/store"
)

type noteArgs struct {
	Note string `json:"note"`
}

func (noteArgs) Kind() string { return "test_note" }

type noteWorker struct {
	river.WorkerDefaults[noteArgs]
	mu   sync.Mutex
	seen []string
}

func (w *noteWorker) Work(_ context.Context, job *river.Job[noteArgs]) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seen = append(w.seen, job.Args.Note)
	return nil
}

func (w *noteWorker) notes() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.seen...)
}

// A job inserted in a transaction exists exactly when the transaction commits: one inserted in
// a rolled-back transaction is never worked. On both dialects.
func TestJobsCommitAndRollBackWithTheirTransaction(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		q := jobs.New(db, slog.New(slog.NewTextHandler(io.Discard, nil)), jobs.Config{PollInterval: 20 * time.Millisecond})
		w := &noteWorker{}
		jobs.Register(q, w)
		if err := q.Open(); err != nil {
			t.Fatal(err)
		}
		boom := errors.New("boom")
		if err := db.InTx(ctx, func(ctx context.Context) error {
			if err := q.Insert(ctx, noteArgs{Note: "rolled back"}, nil); err != nil {
				return err
			}
			return boom
		}); !errors.Is(err, boom) {
			t.Fatal(err)
		}
		if err := db.InTx(ctx, func(ctx context.Context) error {
			return q.Insert(ctx, noteArgs{Note: "committed"}, nil)
		}); err != nil {
			t.Fatal(err)
		}
		if err := q.Insert(ctx, noteArgs{Note: "own transaction"}, nil); err != nil {
			t.Fatal(err)
		}
		if err := q.Start(ctx); err != nil {
			t.Fatal(err)
		}
		defer q.Stop(ctx)
		deadline := time.Now().Add(20 * time.Second)
		for len(w.notes()) < 2 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		time.Sleep(100 * time.Millisecond)
		got := w.notes()
		if len(got) != 2 || !contains(got, "committed") || !contains(got, "own transaction") {
			t.Fatalf("worked %v", got)
		}
	})
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// A periodic job is inserted by the leader when it starts, and worked.
func TestPeriodicJobsRunOnStart(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		q := jobs.New(db, slog.New(slog.NewTextHandler(io.Discard, nil)), jobs.Config{PollInterval: 20 * time.Millisecond})
		w := &noteWorker{}
		jobs.Register(q, w)
		jobs.Periodic(q, time.Hour, func() river.JobArgs { return noteArgs{Note: "tick"} })
		if err := q.Open(); err != nil {
			t.Fatal(err)
		}
		if err := q.Start(ctx); err != nil {
			t.Fatal(err)
		}
		defer q.Stop(ctx)
		deadline := time.Now().Add(20 * time.Second)
		for len(w.notes()) == 0 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if got := w.notes(); len(got) != 1 || got[0] != "tick" {
			t.Fatalf("worked %v, want one tick", got)
		}
	})
}

// Jobs a process left running when it died are worked again at once by the next one that owns
// the database (betty serve on SQLite), instead of 15 minutes later: a job with attempts left
// runs again, one without is discarded, and a job waiting its turn is left alone.
func TestRescueOrphans(t *testing.T) {
	db := testdb.Open(t, store.SQLite, true)
	ctx := context.Background()
	q := jobs.New(db, slog.New(slog.NewTextHandler(io.Discard, nil)), jobs.Config{PollInterval: 20 * time.Millisecond})
	w := &noteWorker{}
	jobs.Register(q, w)
	if err := q.Open(); err != nil {
		t.Fatal(err)
	}
	for _, note := range []string{"crashed mid-work", "crashed on its last attempt", "waiting"} {
		if err := q.Insert(ctx, noteArgs{Note: note}, &river.InsertOpts{MaxAttempts: 3}); err != nil {
			t.Fatal(err)
		}
	}
	// What a process that died while working leaves: running, attempted, never finished.
	if _, err := db.Writer().ExecContext(ctx, `UPDATE river_job SET state = 'running', attempted_at = scheduled_at,
		attempt = CASE WHEN json_extract(args, '$.note') = 'crashed mid-work' THEN 1 ELSE 3 END
		WHERE json_extract(args, '$.note') LIKE 'crashed%'`); err != nil {
		t.Fatal(err)
	}
	n, err := q.RescueOrphans(ctx)
	if err != nil || n != 2 {
		t.Fatalf("rescued %d, %v; want the 2 running jobs", n, err)
	}
	var discarded int
	if err := db.Writer().QueryRowContext(ctx, `SELECT count(*) FROM river_job WHERE state = 'discarded' AND finalized_at IS NOT NULL`).Scan(&discarded); err != nil || discarded != 1 {
		t.Fatalf("discarded %d, %v; want the job without attempts left", discarded, err)
	}
	if err := q.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer q.Stop(ctx)
	deadline := time.Now().Add(20 * time.Second)
	for len(w.notes()) < 2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	if got := w.notes(); len(got) != 2 || !contains(got, "crashed mid-work") || !contains(got, "waiting") {
		t.Fatalf("worked %v, want the rescued job and the waiting one", got)
	}
	if _, err := q.RescueOrphans(ctx); err == nil {
		t.Fatal("RescueOrphans after Start: want an error")
	}
}
