package knowledge

import (
	"context"
	"errors"
	"time"

	"github.com/riverqueue/river"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/store"
)

// parseAttempts is how often reading one file is tried (storage that does not answer) before
// it is marked failed; a file that cannot be read fails at once.
const parseAttempts = 5

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

// Timeout leaves room for a long PDF on a slow replica.
func (w *parser) Timeout(*river.Job[parseArgs]) time.Duration { return 10 * time.Minute }

func (w *parser) Work(ctx context.Context, job *river.Job[parseArgs]) error {
	return w.s.ParseFile(ctx, job.Args.OrganizationID, job.Args.FileID, job.Attempt >= job.MaxAttempts)
}

// ParseFile reads a knowledge file that is still parsing into passages and records the
// outcome: success with its pages, or error with a message for people. A file gone, or
// finished already, is left alone (River works a job at least once, and a job interrupted by a
// restart runs again). It answers the error to try again after; what trying again cannot mend
// is recorded on the file and answers nil, so no file stays parsing.
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
	doc, err := s.read(ctx, f)
	var pe *ParseError
	switch {
	case errors.As(err, &pe):
		return s.fail(ctx, f, pe.Message)
	case errs.Is(err, errs.NotFound):
		return s.fail(ctx, f, "The uploaded file is gone; upload it again.")
	case err != nil && lastAttempt:
		return s.fail(ctx, f, "The file could not be read from storage; add it again in a while.")
	case err != nil:
		return err
	}
	f.Status = store.KnowledgeSuccess
	if doc.Pages > 0 {
		f.Pages = &doc.Pages
	}
	return s.finish(ctx, f, Split(doc))
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
	return Parse(obj, obj.Size(), Format(f.Type))
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
