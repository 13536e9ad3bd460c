package knowledge

import (
	"context"
	"errors"
	"time"

	"github.com/riverqueue/river"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/jobs"
	"github.com/bettyhq/betty/server/store"
)

// parseAttempts is how often reading one file is tried (storage that does not answer) before
// it is marked failed; a file that cannot be read fails at once.
const parseAttempts = 5

// Limits bound the reading of knowledge files on one replica.
type Limits struct {
	// Time is how long reading one file may take; a file that takes longer looks damaged
	// (no document Betty reads needs more than a few seconds). Default DefaultParseTime.
	Time time.Duration
	// Memory is what the files read at once may take in all: each parse first takes what
	// its format and size may need (parseMemory), waiting while others hold it. Default
	// DefaultParseMemory.
	Memory int64
}

// Defaults of Limits.
const (
	DefaultParseTime   = 30 * time.Second
	DefaultParseMemory = 128 << 20
)

// parseArgs is the job that reads one knowledge file into passages.
type parseArgs struct {
	OrganizationID string `json:"organizationId"`
	FileID         string `json:"fileId"`
}

func (parseArgs) Kind() string { return "knowledge_parse" }

type parser struct {
	river.WorkerDefaults[parseArgs]
	s *Service
}

// Timeout leaves room for waiting behind other files for memory; River's rescue of jobs on
// a replica that died (15 minutes) must come later than it.
func (w *parser) Timeout(*river.Job[parseArgs]) time.Duration { return 10 * time.Minute }

// Work reads the file. A parse that the server's shutdown interrupts is snoozed, not failed:
// River works it again, from the start, as soon as a server runs, and the interruption does
// not count as one of its attempts.
func (w *parser) Work(ctx context.Context, job *river.Job[parseArgs]) error {
	err := w.s.ParseFile(ctx, job.Args.OrganizationID, job.Args.FileID, job.Attempt >= job.MaxAttempts)
	if err != nil && errors.Is(ctx.Err(), context.Canceled) {
		return river.JobSnooze(0)
	}
	return err
}

// errOverBudget is the cause of a parse's context when the file took longer than Limits.Time.
var errOverBudget = errors.New("knowledge: reading the file took longer than its budget")

// ParseFile reads a knowledge file that is still parsing into passages and records the
// outcome: success with its pages, or error with a message for people. A file gone, or
// finished already, is left alone (River works a job at least once, and a job interrupted by a
// restart runs again). It answers the error to try again after; what trying again cannot mend
// is recorded on the file and answers nil, so no file stays parsing. Reading waits for its
// share of Limits.Memory, then has Limits.Time: past it the file looks damaged.
func (s *Service) ParseFile(ctx context.Context, orgID, id string, lastAttempt bool) error {
	f, err := s.db.KnowledgeFileByID(ctx, orgID, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if f.Status != store.KnowledgeParsing || f.UploadID == nil {
		return nil
	}
	weight := min(parseMemory(Format(f.Type), f.Size), s.limits.Memory)
	if err := s.memory.Acquire(ctx, weight); err != nil {
		return s.retry(ctx, f, err, lastAttempt)
	}
	defer s.memory.Release(weight)
	pctx, cancel := context.WithTimeoutCause(ctx, s.limits.Time, errOverBudget)
	defer cancel()
	doc, err := s.read(pctx, f)
	var pe *ParseError
	switch {
	case errors.Is(err, errOverBudget):
		return s.fail(ctx, f, damaged(Format(f.Type)))
	case errors.As(err, &pe):
		return s.fail(ctx, f, pe.Message)
	case errs.Is(err, errs.NotFound):
		return s.fail(ctx, f, "The uploaded file is gone; upload it again.")
	case err != nil:
		return s.retry(ctx, f, err, lastAttempt)
	}
	f.Status = store.KnowledgeSuccess
	if doc.Pages > 0 {
		f.Pages = &doc.Pages
	}
	return s.finish(ctx, f, Split(doc))
}

// retry answers err to be tried again after, or, on the last attempt, records that the file
// could not be read (in a context of its own: the job's may be what ended).
func (s *Service) retry(ctx context.Context, f store.KnowledgeFile, err error, lastAttempt bool) error {
	if !lastAttempt || errors.Is(ctx.Err(), context.Canceled) {
		return err
	}
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	return s.fail(wctx, f, "The file could not be read from storage; add it again in a while.")
}

// parseMemory is what reading a file of a format and size may take at most, resident,
// garbage included (TestEightBombsInBoundedMemory measures about 20 MiB a zip bomb): the text
// a file may hold (MaxTextChars, MaxBlocks) and its passages; a text format's bytes, read
// whole, and their text; a PDF's cross-reference table and the object streams it keeps; a
// DOCX, streamed, nothing more.
func parseMemory(f Format, size int64) int64 {
	const text = 32 << 20
	switch f {
	case PDF:
		return text + 16<<20 + min(size*8, 32<<20)
	case DOCX:
		return text
	}
	return text + 3*size // the bytes, and their text twice as long when they were Latin-1
}

// finish records the end of a file's parsing with its passages, and publishes it, in one
// transaction.
func (s *Service) finish(ctx context.Context, f store.KnowledgeFile, passages []store.Passage) error {
	return finished(s.db.InTx(ctx, func(ctx context.Context) error {
		if err := s.db.FinishKnowledgeFile(ctx, f, passages); err != nil {
			return err
		}
		return s.changed(ctx, f.OrganizationID, f.ID)
	}))
}

func (s *Service) read(ctx context.Context, f store.KnowledgeFile) (Document, error) {
	obj, err := s.files.Open(ctx, f.OrganizationID, *f.UploadID)
	if err != nil {
		return Document{}, err
	}
	defer obj.Close()
	return Parse(ctx, obj, obj.Size(), Format(f.Type))
}

func (s *Service) fail(ctx context.Context, f store.KnowledgeFile, why string) error {
	f.Status, f.ErrorMessage = store.KnowledgeError, &why
	return s.finish(ctx, f, nil)
}

// finished treats a file deleted (or finished by another run) meanwhile as done.
func finished(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	return err
}

// SweepEvery is how often the leader replica looks for files River gave up on.
const SweepEvery = 10 * time.Minute

type sweepArgs struct{}

func (sweepArgs) Kind() string { return "knowledge_sweep" }

type sweeper struct {
	river.WorkerDefaults[sweepArgs]
	s *Service
}

func (w *sweeper) Work(ctx context.Context, _ *river.Job[sweepArgs]) error {
	return w.s.SweepAbandoned(ctx)
}

// SweepAbandoned ends in error the files still parsing whose parsing job River gave up on: a
// job whose every attempt was interrupted (by crashes: each restart rescues it and parses
// again, bounded, but not for ever) leaves its file parsing, which nothing would finish. A
// file parsing without a job whose pages are known was read before and is to be read again
// (migration 00024 asks it of the files whose passages spanned pages): it is queued, and its
// passages answer until new ones replace them. It runs when a server starts leading and
// every SweepEvery.
func (s *Service) SweepAbandoned(ctx context.Context) error {
	for range 100 { // batches; what is left waits for the next sweep
		files, err := s.db.AbandonedKnowledgeFiles(ctx, parseArgs{}.Kind(), 100)
		if err != nil || len(files) == 0 {
			return err
		}
		for _, f := range files {
			if f.Pages != nil {
				err = s.queueParse(ctx, f)
			} else {
				err = s.fail(ctx, f, damaged(Format(f.Type)))
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// queueParse queues the job that reads a file (in the caller's transaction, if any).
func (s *Service) queueParse(ctx context.Context, f store.KnowledgeFile) error {
	return s.jobs.Insert(ctx, parseArgs{OrganizationID: f.OrganizationID, FileID: f.ID}, &river.InsertOpts{MaxAttempts: parseAttempts})
}

// register adds the knowledge jobs to q.
func (s *Service) register(q *jobs.Queue) {
	jobs.Register(q, &parser{s: s})
	jobs.Register(q, &sweeper{s: s})
	jobs.Periodic(q, SweepEvery, func() river.JobArgs { return sweepArgs{} })
}
