package runs

// What the API reads of jobs: a workflow's progress and history, jobs by id, and the statuses
// of jobs and contacts imports (/v2/jobs/status), each with its counters (doc.go).

import (
	"context"
	"errors"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/store"
)

// Progress answers the workflow's run in progress, else its latest job; ran is false (and the
// job empty) when the workflow has not run yet, which is no error: "no job yet" is a state.
func (s *Service) Progress(ctx context.Context, a auth.Actor, workflowID string) (j Job, ran bool, err error) {
	cur, err := s.db.CurrentWorkflowJob(ctx, a.OrganizationID, workflowID)
	if errors.Is(err, store.ErrNotFound) {
		if _, werr := s.db.WorkflowByID(ctx, a.OrganizationID, workflowID); werr != nil {
			if errors.Is(werr, store.ErrNotFound) {
				return Job{}, false, errNoWorkflow
			}
			return Job{}, false, werr
		}
		return Job{}, false, nil
	}
	if err != nil {
		return Job{}, false, err
	}
	j, err = s.withProgress(ctx, cur)
	return j, err == nil, err
}

// Page asks for one page of a list.
type Page struct{ Limit, Offset int }

// History lists a workflow's jobs (sortBy: createdAt, startedAt, finishedAt, status or
// triggeredBy; newest first unless asc).
func (s *Service) History(ctx context.Context, a auth.Actor, workflowID, sortBy string, asc bool, pg Page) ([]Job, int, error) {
	if _, err := s.db.WorkflowByID(ctx, a.OrganizationID, workflowID); errors.Is(err, store.ErrNotFound) {
		return nil, 0, errNoWorkflow
	} else if err != nil {
		return nil, 0, err
	}
	rows, total, err := s.db.ListWorkflowJobs(ctx, a.OrganizationID, workflowID, sortBy, asc, pg.Limit, pg.Offset)
	if err != nil {
		return nil, 0, err
	}
	out, err := s.withProgresses(ctx, rows)
	return out, total, err
}

// ImportJob is a contacts-import job: the CSV import of a Contacts node (its id is the import's).
type ImportJob struct {
	store.ContactSource
	Progress Progress
}

// Statuses answers the jobs among ids of the organisations orgIDs (the caller's), of type typ
// ("" for every type), in the order of ids: runs as Job, imports as ImportJob.
func (s *Service) Statuses(ctx context.Context, orgIDs, ids []string, typ string) ([]any, error) {
	byID := map[string]any{}
	if typ == "" || typ == store.JobTypeWorkflowRun {
		rows, err := s.db.WorkflowJobsByIDs(ctx, orgIDs, ids)
		if err != nil {
			return nil, err
		}
		js, err := s.withProgresses(ctx, rows)
		if err != nil {
			return nil, err
		}
		for _, j := range js {
			byID[j.ID] = j
		}
	}
	if typ == "" || typ == "contacts-import" {
		srcs, err := s.db.ContactImportsByIDs(ctx, orgIDs, ids)
		if err != nil {
			return nil, err
		}
		for _, src := range srcs {
			done := src.RowsImported + src.RowsRejected
			p := Progress{Total: done, Completed: src.RowsImported, Failed: src.RowsRejected, Percent: 100}
			if src.Status == store.ContactsParsing {
				p.Percent = 0
			}
			byID[src.ImportID] = ImportJob{ContactSource: src, Progress: p}
		}
	}
	out := []any{}
	seen := map[string]bool{}
	for _, id := range ids {
		if v, ok := byID[id]; ok && !seen[id] {
			seen[id] = true
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		return nil, errs.NotFoundf("Job")
	}
	return out, nil
}

func (s *Service) withProgress(ctx context.Context, j store.WorkflowJob) (Job, error) {
	js, err := s.withProgresses(ctx, []store.WorkflowJob{j})
	if err != nil {
		return Job{}, err
	}
	return js[0], nil
}

func (s *Service) withProgresses(ctx context.Context, rows []store.WorkflowJob) ([]Job, error) {
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	counts, err := s.db.AttemptCounts(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Job, len(rows))
	for i, r := range rows {
		out[i] = Job{WorkflowJob: r, Progress: ProgressOf(r.Total, counts[r.ID]), Waiting: []Waiting{}}
		if r.Status == store.JobInProgress && out[i].Progress.Queued > 0 {
			if out[i].Waiting, err = s.Waiting(ctx, r); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// ProgressOf counts a job's contacts from their latest attempts' states (doc.go).
func ProgressOf(total int, c map[store.AttemptState]int) Progress {
	p := Progress{Total: total}
	p.Queued = c[store.AttemptScheduled]
	p.Dialling = c[store.AttemptDialling] + c[store.AttemptInDoubt] + c[store.AttemptRinging]
	p.InCall = c[store.AttemptInCall]
	p.Completed = c[store.AttemptCompleted]
	p.Suppressed = c[store.AttemptSuppress]
	p.Refused = c[store.AttemptRefused]
	p.Failed = c[store.AttemptBusy] + c[store.AttemptNoAnswer] + c[store.AttemptVoicemail] + c[store.AttemptFailed] + p.Suppressed + p.Refused
	p.Pending = max(0, total-p.Completed-p.Failed)
	p.Percent = 100
	if total > 0 {
		p.Percent = min(100, (p.Completed+p.Failed)*100/total)
	}
	return p
}

// JobByID answers one of a team's jobs with its progress (the live event stream renders it).
func (s *Service) JobByID(ctx context.Context, orgID, id string) (Job, error) {
	j, err := s.db.WorkflowJobByID(ctx, orgID, id)
	if errors.Is(err, store.ErrNotFound) {
		return Job{}, errs.NotFoundf("Job")
	}
	if err != nil {
		return Job{}, err
	}
	return s.withProgress(ctx, j)
}
