// Package jobs runs Betty's background work on River (github.com/riverqueue/river): e-mail
// delivery now; parsing, compiling, deliveries and the dialer later. A job is inserted in the
// same transaction as the rows it acts on (Insert joins the transaction in the context), so it
// exists exactly when they do, and River works it at least once after the commit, on whichever
// replica picks it up. Workers are plain River workers registered by the domain that owns the
// work; there is no job queue of our own.
package jobs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/riverdriver/riversqlite"

	"github.com/bettyhq/betty/server/store"
)

// Config tunes the workers.
type Config struct {
	// Workers is how many jobs run at once on this replica (default 8).
	Workers int
	// PollInterval is how often an idle replica looks for new jobs where the database cannot
	// notify it (SQLite; PostgreSQL uses LISTEN/NOTIFY and polls only as a fallback).
	PollInterval time.Duration
}

// Queue inserts jobs and, once started, works them.
type Queue struct {
	db      *store.DB
	log     *slog.Logger
	cfg     Config
	workers *river.Workers
	// periodic are the jobs the leader replica inserts on a schedule (Periodic).
	periodic []*river.PeriodicJob
	client   client
	started  bool
}

// client is River's client for the database's dialect (its type parameter is the driver's
// transaction type).
type client interface {
	insertTx(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) error
	start(ctx context.Context) error
	stop(ctx context.Context) error
	stopAndCancel(ctx context.Context) error
}

// New returns a queue on db. Register the workers, then Open it.
func New(db *store.DB, log *slog.Logger, cfg Config) *Queue {
	if cfg.Workers <= 0 {
		cfg.Workers = 8
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = 250 * time.Millisecond
	}
	return &Queue{db: db, log: log, cfg: cfg, workers: river.NewWorkers()}
}

// Register adds the worker of one kind of job. It must be called before Open.
func Register[T river.JobArgs](q *Queue, w river.Worker[T]) {
	if q.client != nil {
		panic("jobs: Register after Open")
	}
	river.AddWorker(q.workers, w)
}

// Periodic has the leader replica (River elects one among those sharing the database) insert
// the job args makes every interval, and once when it starts leading. Its worker is
// registered as any other. It must be called before Open.
func Periodic(q *Queue, interval time.Duration, args func() river.JobArgs) {
	if q.client != nil {
		panic("jobs: Periodic after Open")
	}
	q.periodic = append(q.periodic, river.NewPeriodicJob(river.PeriodicInterval(interval),
		func() (river.JobArgs, *river.InsertOpts) { return args(), nil }, &river.PeriodicJobOpts{RunOnStart: true}))
}

// Open builds River's client; jobs can be inserted from then on, and are worked once Start runs.
func (q *Queue) Open() error {
	cfg := &river.Config{
		Queues:            map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: q.cfg.Workers}},
		Workers:           q.workers,
		Logger:            q.log.With("component", "jobs"),
		FetchPollInterval: q.cfg.PollInterval,
		FetchCooldown:     min(q.cfg.PollInterval, river.FetchCooldownDefault),
		JobTimeout:        time.Minute,
		// A job still "running" this long after it started was on a replica that died; it is
		// worked again. Longer than any worker's timeout.
		RescueStuckJobsAfter: 15 * time.Minute,
		PeriodicJobs:         q.periodic,
	}
	var err error
	if q.db.Dialect() == store.Postgres {
		var c *river.Client[pgx.Tx]
		if c, err = river.NewClient(riverpgxv5.New(q.db.PgxPool()), cfg); err == nil {
			q.client = &riverClient[pgx.Tx]{c: c, tx: q.db.PgxTx}
		}
	} else {
		var c *river.Client[*sql.Tx]
		if c, err = river.NewClient(riversqlite.New(q.db.Writer()), cfg); err == nil {
			q.client = &riverClient[*sql.Tx]{c: c, tx: q.db.SQLTx}
		}
	}
	if err != nil {
		return fmt.Errorf("jobs: %w", err)
	}
	return nil
}

// Insert adds a job in the transaction ctx carries, so it commits or rolls back with the rows
// it acts on; without one it runs in a transaction of its own.
func (q *Queue) Insert(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) error {
	if q.client == nil {
		return errors.New("jobs: Insert before Open")
	}
	return q.db.InTx(ctx, func(ctx context.Context) error { return q.client.insertTx(ctx, args, opts) })
}

// RescueOrphans makes the jobs a process left running when it ended workable again at once,
// rather than after River's rescue (RescueStuckJobsAfter, 15 minutes), which cannot tell a
// dead replica's job from a live one's. Only a caller that knows no other process works this
// database may call it: betty serve on SQLite, holding the data directory's lock. A job with
// attempts left is available again (its next run counts as its next attempt, as a rescue
// does); one without is discarded, as River's rescuer would. It answers how many it rescued.
// Call it before Start.
func (q *Queue) RescueOrphans(ctx context.Context) (int, error) {
	if q.db.Dialect() != store.SQLite {
		return 0, errors.New("jobs: orphans are rescued at start on SQLite only (replicas share PostgreSQL)")
	}
	if q.started {
		return 0, errors.New("jobs: RescueOrphans after Start")
	}
	// A running job's scheduled_at is past already (it was fetched), so it is left as it is;
	// a discarded job needs finalized_at, and takes the time its last attempt began.
	res, err := q.db.Writer().ExecContext(ctx, `UPDATE river_job
		SET state = CASE WHEN attempt < max_attempts THEN 'available' ELSE 'discarded' END,
		    finalized_at = CASE WHEN attempt < max_attempts THEN NULL ELSE coalesce(attempted_at, scheduled_at) END
		WHERE state = 'running'`)
	if err != nil {
		return 0, fmt.Errorf("jobs: rescue orphans: %w", err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// Start works jobs until Stop.
func (q *Queue) Start(ctx context.Context) error {
	if err := q.client.start(ctx); err != nil {
		return fmt.Errorf("jobs: %w", err)
	}
	q.started = true
	return nil
}

// Stop stops fetching new jobs and waits for those running to finish until ctx ends; then it
// cancels them (River works them again later: jobs are at least once).
func (q *Queue) Stop(ctx context.Context) error {
	if !q.started {
		return nil
	}
	q.started = false
	err := q.client.stop(ctx)
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return q.client.stopAndCancel(cctx)
	}
	return err
}

type riverClient[TTx any] struct {
	c  *river.Client[TTx]
	tx func(context.Context) (TTx, bool)
}

func (r *riverClient[TTx]) insertTx(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) error {
	tx, ok := r.tx(ctx)
	if !ok {
		return errors.New("jobs: no transaction in the context")
	}
	_, err := r.c.InsertTx(ctx, tx, args, opts)
	return err
}

func (r *riverClient[TTx]) start(ctx context.Context) error         { return r.c.Start(ctx) }
func (r *riverClient[TTx]) stop(ctx context.Context) error          { return r.c.Stop(ctx) }
func (r *riverClient[TTx]) stopAndCancel(ctx context.Context) error { return r.c.StopAndCancel(ctx) }
