package uploads

import (
	"context"
	"time"

	"github.com/riverqueue/river"

	"github.com/bettyhq/betty/server/jobs"
)

// cleanupArgs is the periodic job that deletes stale uploads and the bytes of deleted ones.
type cleanupArgs struct{}

func (cleanupArgs) Kind() string { return "uploads_cleanup" }

type cleaner struct {
	river.WorkerDefaults[cleanupArgs]
	s *Service
}

func (w *cleaner) Timeout(*river.Job[cleanupArgs]) time.Duration { return 10 * time.Minute }

// Work runs Cleanup; what it could not remove is left for the next run.
func (w *cleaner) Work(ctx context.Context, _ *river.Job[cleanupArgs]) error {
	_, err := w.s.Cleanup(ctx)
	return err
}

func registerCleanup(q *jobs.Queue, s *Service, every time.Duration) {
	jobs.Register(q, &cleaner{s: s})
	jobs.Periodic(q, every, func() river.JobArgs { return cleanupArgs{} })
}

// Cleanup deletes the uploads not finished ExpireAfter after they started and the finished ones
// nothing has used for UnusedFor, then removes the bytes of every deleted upload (those, and
// any deleted otherwise: with their team, or whose removal failed earlier). It answers how
// many uploads it deleted. Running it twice at once, or again after a crash, is harmless.
func (s *Service) Cleanup(ctx context.Context) (int, error) {
	now := s.now()
	n, err := s.db.DeleteStaleUploads(ctx, now, now.Add(-UnusedFor))
	if err != nil {
		return 0, err
	}
	for {
		dels, err := s.db.UploadDeletions(ctx, 100)
		if err != nil || len(dels) == 0 {
			return n, err
		}
		for _, d := range dels {
			if err := s.removeDeleted(ctx, d); err != nil {
				return n, err
			}
		}
	}
}
