package httpapi

import (
	"context"
	"net/http"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/workflows"
)

// CreateCampaignWorkflow creates a workflow in a campaign.
func (h *Workflows) CreateCampaignWorkflow(ctx context.Context, req api.CreateCampaignWorkflowRequestObject) (api.CreateCampaignWorkflowResponseObject, error) {
	b := req.Body
	w, err := h.svc.CreateInCampaign(ctx, actor(ctx), req.CampaignId, workflows.Input{Name: deref(b.Name), AgentID: b.AgentId,
		TemplateID: b.WorkflowTemplate, TemplateValues: derefMap(b.TemplateValues)})
	if err != nil {
		return nil, err
	}
	return api.CreateCampaignWorkflow201JSONResponse{Status: http.StatusCreated, Data: renderCampaignWorkflow(w.Workflow)}, nil
}

// ToggleCampaignWorkflow makes a workflow its campaign's workflow, or clears it.
func (h *Workflows) ToggleCampaignWorkflow(ctx context.Context, req api.ToggleCampaignWorkflowRequestObject) (api.ToggleCampaignWorkflowResponseObject, error) {
	c, err := h.svc.Toggle(ctx, actor(ctx), req.WorkflowId, req.Body.CampaignId, req.Body.Active)
	if err != nil {
		return nil, err
	}
	return api.ToggleCampaignWorkflow200JSONResponse{Status: http.StatusOK, Data: renderCampaign(c)}, nil
}

// DuplicateCampaignWorkflow copies a campaign workflow into its campaign.
func (h *Workflows) DuplicateCampaignWorkflow(ctx context.Context, req api.DuplicateCampaignWorkflowRequestObject) (api.DuplicateCampaignWorkflowResponseObject, error) {
	w, err := h.svc.Duplicate(ctx, actor(ctx), req.Id)
	if err != nil {
		return nil, err
	}
	return api.DuplicateCampaignWorkflow201JSONResponse{Status: http.StatusCreated, Data: renderCampaignWorkflow(w.Workflow)}, nil
}

// ListCampaignWorkflows lists a campaign's workflows, filtered.
func (h *Workflows) ListCampaignWorkflows(ctx context.Context, req api.ListCampaignWorkflowsRequestObject) (api.ListCampaignWorkflowsResponseObject, error) {
	f, err := workflows.ParseFilters(deref(req.Params.Filters))
	if err != nil {
		return nil, err
	}
	items, meta, err := paged(newPage(req.Params.Page, req.Params.SizePerPage, workflowPageSize), func(limit, offset int) ([]workflows.Workflow, int, error) {
		return h.svc.ListInCampaign(ctx, actor(ctx), req.CampaignId, f, workflows.Page{Limit: limit, Offset: offset})
	})
	if err != nil {
		return nil, err
	}
	return api.ListCampaignWorkflows200JSONResponse{Status: http.StatusOK, Data: mapped(items, func(w workflows.Workflow) api.CampaignWorkflowSummary {
		return renderCampaignWorkflow(w.Workflow)
	}), Meta: meta}, nil
}
