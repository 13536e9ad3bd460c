package workflows

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"time"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/workflow"
)

// Bounds of a job's calls export.
const (
	MaxExportCalls = 100_000 // rows written at most
	exportPage     = 500     // calls read per query
)

// CallsExport is a job's calls as a CSV file, written as it is read (WriteTo).
type CallsExport struct {
	Name   string // the file's name
	db     *store.DB
	org    string
	job    string
	fields []workflow.PostCallField
}

var errJobNotFound = errs.NotFoundf("Job")

// JobCallsExport prepares the export of a job's calls with their analysis: one row per call,
// the workflow's post-call fields (as defined now) as columns. A job of another team is not
// found.
func (s *Service) JobCallsExport(ctx context.Context, a auth.Actor, jobID string) (CallsExport, error) {
	j, err := s.db.WorkflowJobByID(ctx, a.OrganizationID, jobID)
	if errors.Is(err, store.ErrNotFound) {
		return CallsExport{}, errJobNotFound
	}
	if err != nil {
		return CallsExport{}, err
	}
	e := CallsExport{Name: "calls-" + j.ID + ".csv", db: s.db, org: j.OrganizationID, job: j.ID}
	w, err := s.db.WorkflowByID(ctx, j.OrganizationID, j.WorkflowID)
	switch {
	case errors.Is(err, store.ErrNotFound): // the workflow was deleted: its calls stay, without fields
	case err != nil:
		return CallsExport{}, err
	default:
		d, err := decode(w)
		if err != nil {
			return CallsExport{}, err
		}
		e.fields = d.Graph.Fields
	}
	return e, nil
}

// Header is the export's first row.
func (e CallsExport) Header() []string {
	h := []string{"call_id", "to", "status", "started_at", "duration_seconds", "outcome", "summary"}
	for _, f := range e.fields {
		h = append(h, f.Name)
	}
	return h
}

// WriteTo writes the CSV, a page of calls at a time, at most MaxExportCalls rows.
func (e CallsExport) WriteTo(ctx context.Context, out io.Writer) error {
	w := csv.NewWriter(out)
	if err := w.Write(e.Header()); err != nil {
		return err
	}
	var at time.Time
	after, written := "", 0
	for written < MaxExportCalls {
		page, err := e.db.JobCallsAfter(ctx, e.org, e.job, at, after, min(exportPage, MaxExportCalls-written))
		if err != nil {
			return err
		}
		for _, c := range page {
			row, err := e.row(c)
			if err != nil {
				return err
			}
			if err := w.Write(row); err != nil {
				return err
			}
		}
		w.Flush()
		if err := w.Error(); err != nil {
			return err
		}
		written += len(page)
		if len(page) < exportPage {
			break
		}
		last := page[len(page)-1]
		at, after = last.StartTime, last.ID
	}
	return nil
}

func (e CallsExport) row(c store.JobCall) ([]string, error) {
	duration := 0
	if c.AnsweredAt != nil && c.EndTime != nil && c.EndTime.After(*c.AnsweredAt) {
		duration = int(c.EndTime.Sub(*c.AnsweredAt).Seconds())
	}
	values := map[string]string{}
	if c.Fields != nil {
		var fs []struct {
			Name  string `json:"name"`
			Value string `json:"value"`
		}
		if err := json.Unmarshal([]byte(*c.Fields), &fs); err != nil {
			return nil, err
		}
		for _, f := range fs {
			values[f.Name] = f.Value
		}
	}
	row := []string{c.ID, c.To, string(c.Status), c.StartTime.UTC().Format(time.RFC3339), strconv.Itoa(duration), deref(c.Outcome), deref(c.Summary)}
	for _, f := range e.fields {
		row = append(row, values[f.Name])
	}
	for i := range row {
		row[i] = defuseFormula(row[i])
	}
	return row, nil
}
