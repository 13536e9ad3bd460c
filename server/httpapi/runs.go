package httpapi

import (
	"context"
	"net/http"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/runs"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/teams"
)

// Runs answers running workflows: runs, test runs, progress, ending, history and job statuses
// (server/runs), and the site admin's dialer limit.
type Runs struct {
	svc   *runs.Service
	teams *teams.Service
}

const historyPageSize = 10

// RunWorkflow starts a run of a workflow over its pending contacts.
func (h *Runs) RunWorkflow(ctx context.Context, req api.RunWorkflowRequestObject) (api.RunWorkflowResponseObject, error) {
	j, err := h.svc.Start(ctx, actor(ctx), req.Id, req.Body.TriggeredBy)
	if err != nil {
		return nil, err
	}
	return api.RunWorkflow201JSONResponse{Status: http.StatusCreated, Data: renderJob(j)}, nil
}

// TestRunWorkflow places one test call.
func (h *Runs) TestRunWorkflow(ctx context.Context, req api.TestRunWorkflowRequestObject) (api.TestRunWorkflowResponseObject, error) {
	b := req.Body
	if b.WorkflowId != req.Id {
		return nil, errs.InvalidField("body.workflowId", "workflowId must be the workflow of the path")
	}
	j, err := h.svc.TestRun(ctx, actor(ctx), runs.TestInput{WorkflowID: req.Id, Destination: b.DestinationPhoneNumber,
		Persona: b.CustomerDescription, NameOrEmail: b.NameOrEmail, TriggeredBy: b.TriggeredBy, IsTest: b.IsTestWorkflow})
	if err != nil {
		return nil, err
	}
	return api.TestRunWorkflow201JSONResponse{Status: http.StatusCreated, Data: renderJob(j)}, nil
}

// GetWorkflowProgress answers the workflow's current or latest run, null when it has not run yet.
func (h *Runs) GetWorkflowProgress(ctx context.Context, req api.GetWorkflowProgressRequestObject) (api.GetWorkflowProgressResponseObject, error) {
	j, ran, err := h.svc.Progress(ctx, actor(ctx), req.Id)
	if err != nil {
		return nil, err
	}
	res := api.GetWorkflowProgress200JSONResponse{Status: http.StatusOK}
	if ran {
		job := renderJob(j)
		res.Data = &job
	}
	return res, nil
}

// EndWorkflowJob cancels the workflow's run in progress.
func (h *Runs) EndWorkflowJob(ctx context.Context, req api.EndWorkflowJobRequestObject) (api.EndWorkflowJobResponseObject, error) {
	j, err := h.svc.End(ctx, actor(ctx), req.Id)
	if err != nil {
		return nil, err
	}
	return api.EndWorkflowJob200JSONResponse{Status: http.StatusOK, Data: renderJob(j)}, nil
}

// ListWorkflowHistory lists a workflow's runs, 10 a page.
func (h *Runs) ListWorkflowHistory(ctx context.Context, req api.ListWorkflowHistoryRequestObject) (api.ListWorkflowHistoryResponseObject, error) {
	sortBy, asc := "createdAt", false
	if req.Params.SortBy != nil {
		sortBy = string(*req.Params.SortBy)
	}
	if req.Params.SortOrder != nil {
		asc = *req.Params.SortOrder == api.ListWorkflowHistoryParamsSortOrderAsc
	}
	items, meta, err := paged(newPage(req.Params.Page, req.Params.SizePerPage, historyPageSize), func(limit, offset int) ([]runs.Job, int, error) {
		return h.svc.History(ctx, actor(ctx), req.Id, sortBy, asc, runs.Page{Limit: limit, Offset: offset})
	})
	if err != nil {
		return nil, err
	}
	return api.ListWorkflowHistory200JSONResponse{Status: http.StatusOK, Data: mapped(items, renderJob), Meta: meta}, nil
}

// ListJobStatuses answers the listed jobs of the caller's organisations (the ones the guard
// granted among the jobs' owners), in the order asked.
func (h *Runs) ListJobStatuses(ctx context.Context, req api.ListJobStatusesRequestObject) (api.ListJobStatusesResponseObject, error) {
	if len(req.Params.Ids) == 0 {
		return nil, errs.InvalidField("query.ids", "At least one jobId is required")
	}
	typ := ""
	if req.Params.Type != nil {
		typ = string(*req.Params.Type)
	}
	found, err := h.svc.Statuses(ctx, organizations(ctx), req.Params.Ids, typ)
	if err != nil {
		return nil, err
	}
	out := make([]api.Job, 0, len(found))
	for _, v := range found {
		switch j := v.(type) {
		case runs.Job:
			out = append(out, renderJob(j))
		case runs.ImportJob:
			out = append(out, renderImportJob(j))
		}
	}
	return api.ListJobStatuses200JSONResponse{Status: http.StatusOK, Data: out}, nil
}

func renderProgress(p runs.Progress) api.JobProgress {
	return api.JobProgress{Total: p.Total, Completed: p.Completed, Failed: p.Failed, Pending: p.Pending, Percent: p.Percent,
		Queued: &p.Queued, Dialling: &p.Dialling, InCall: &p.InCall, Suppressed: &p.Suppressed,
		Refused: &p.Refused}
}

func renderJob(j runs.Job) api.Job {
	waiting := renderWaiting(j.Waiting)
	return api.Job{Id: j.ID, Type: api.JobType(j.Type), WorkflowId: j.WorkflowID, OrganizationId: j.OrganizationID,
		Status: api.JobStatus(j.Status), Progress: renderProgress(j.Progress), TriggeredBy: j.TriggeredBy, IsTest: j.IsTest,
		StartedAt: j.StartedAt, FinishedAt: j.FinishedAt, Error: j.Error, CreatedAt: j.CreatedAt, UpdatedAt: j.UpdatedAt,
		Waiting: &waiting}
}

func renderWaiting(ws []runs.Waiting) []api.JobWaiting {
	out := make([]api.JobWaiting, len(ws))
	for i, w := range ws {
		out[i] = api.JobWaiting{Reason: api.JobWaitingReason(w.Reason), Contacts: w.Contacts, Until: w.Until, Message: w.Message}
		if w.TimeZone != "" {
			out[i].TimeZone = &w.TimeZone
		}
	}
	return out
}

// PreviewWorkflowRun answers what a run of the workflow would do now, before it starts.
func (h *Runs) PreviewWorkflowRun(ctx context.Context, req api.PreviewWorkflowRunRequestObject) (api.PreviewWorkflowRunResponseObject, error) {
	p, err := h.svc.Preview(ctx, actor(ctx), req.Id)
	if err != nil {
		return nil, err
	}
	out := api.RunPreview{Contacts: p.Contacts, DialableNow: p.DialableNow, FirstCallAt: p.FirstCallAt, Waiting: renderWaiting(p.Waiting)}
	if p.Message != "" {
		out.Message = &p.Message
	}
	return api.PreviewWorkflowRun200JSONResponse{Status: http.StatusOK, Data: out}, nil
}

// GetWorkflowRunActivity answers where the calls of the workflow's current (else latest) run stand.
func (h *Runs) GetWorkflowRunActivity(ctx context.Context, req api.GetWorkflowRunActivityRequestObject) (api.GetWorkflowRunActivityResponseObject, error) {
	a, err := h.svc.Activity(ctx, actor(ctx), req.Id)
	if err != nil {
		return nil, err
	}
	out := api.RunActivity{InProgress: a.InProgress, IsTest: a.IsTest, AsOf: a.AsOf, Steps: make([]api.StepActivity, len(a.Steps)),
		Calls: make([]api.CallPosition, len(a.Calls))}
	if a.JobID != "" {
		out.JobId = &a.JobID
	}
	for i, c := range a.Steps {
		out.Steps[i] = api.StepActivity{NodeId: c.NodeID, Now: c.Now, Passed: c.Passed}
	}
	for i, c := range a.Calls {
		out.Calls[i] = api.CallPosition{CallLogId: c.CallLogID, CurrentNodeId: c.CurrentNodeID, Path: *nodePath(c.Path), UpdatedAt: c.UpdatedAt}
	}
	return api.GetWorkflowRunActivity200JSONResponse{Status: http.StatusOK, Data: out}, nil
}

func renderImportJob(j runs.ImportJob) api.Job {
	status := api.JobStatus(store.JobInProgress)
	var finished *api.Timestamp
	switch j.Status {
	case store.ContactsSuccess:
		status, finished = api.JobStatus(store.JobSuccess), &j.UpdatedAt
	case store.ContactsError:
		status, finished = api.JobStatus(store.JobError), &j.UpdatedAt
	}
	return api.Job{Id: j.ImportID, Type: "contacts-import", WorkflowId: j.WorkflowID, OrganizationId: j.OrganizationID,
		Status: status, Progress: renderProgress(j.Progress), TriggeredBy: "contacts import", StartedAt: j.CreatedAt,
		FinishedAt: finished, Error: j.Error, CreatedAt: j.CreatedAt, UpdatedAt: j.UpdatedAt}
}

// UpdateAdminOrganizationDialerLimit sets or removes a site admin's override of a team's
// concurrent calls.
func (h *Runs) UpdateAdminOrganizationDialerLimit(ctx context.Context, req api.UpdateAdminOrganizationDialerLimitRequestObject) (api.UpdateAdminOrganizationDialerLimitResponseObject, error) {
	if err := h.svc.SetDialerLimit(ctx, principal(ctx).UserID, req.Params.OrganizationId, req.Params.MaxConcurrentCalls); err != nil {
		return nil, err
	}
	t, err := h.teams.AdminTeam(ctx, req.Params.OrganizationId, false)
	if err != nil {
		return nil, err
	}
	return api.UpdateAdminOrganizationDialerLimit200JSONResponse{Status: http.StatusOK, Data: renderAdminTeam(t)}, nil
}

// runJobs renders jobs for the event stream from the dialer.
type runJobs struct{ svc *runs.Service }

func (r runJobs) JobByID(ctx context.Context, orgID, id string) (api.Job, error) {
	j, err := r.svc.JobByID(ctx, orgID, id)
	if err != nil {
		return api.Job{}, err
	}
	return renderJob(j), nil
}

// jobsOf is the event stream's source of jobs: Deps.Jobs when set, else the dialer.
func jobsOf(d Deps) JobSource {
	if d.Jobs != nil {
		return d.Jobs
	}
	return runJobs{svc: d.Runs}
}

// SimulateInboundCall rings one of the team's numbers with the sim carrier.
func (h *Runs) SimulateInboundCall(ctx context.Context, req api.SimulateInboundCallRequestObject) (api.SimulateInboundCallResponseObject, error) {
	b := req.Body
	c, err := h.svc.SimulateInbound(ctx, actor(ctx), b.To, deref(b.From), b.Persona)
	if err != nil {
		return nil, err
	}
	resp := api.SimulateInboundCall202JSONResponse{Status: http.StatusAccepted}
	resp.Data.CallControlId, resp.Data.From, resp.Data.To = c.CallControlID, c.From, c.To
	return resp, nil
}
