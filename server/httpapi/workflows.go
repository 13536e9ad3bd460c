package httpapi

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/workflow"
	"github.com/bettyhq/betty/server/workflows"
)

// Workflows answers the Workflows tag and the campaign-workflow operations of the Campaigns tag
// (campaign_workflows.go); contacts are in contacts.go, and running, test runs, progress, job
// history and job status in runs.go.
type Workflows struct{ svc *workflows.Service }

const (
	workflowPageSize         = 10
	workflowTemplatePageSize = 6
)

// CreateWorkflow creates a workflow outside campaigns, empty or from a template.
func (h *Workflows) CreateWorkflow(ctx context.Context, req api.CreateWorkflowRequestObject) (api.CreateWorkflowResponseObject, error) {
	b := req.Body
	w, err := h.svc.Create(ctx, actor(ctx), workflows.Input{Name: b.Name, AgentID: &b.AgentId, Type: store.Direction(b.WorkflowType),
		TemplateID: b.WorkflowTemplate, TemplateValues: derefMap(b.TemplateValues)})
	if err != nil {
		return nil, err
	}
	return api.CreateWorkflow201JSONResponse{Status: http.StatusCreated, Data: renderWorkflow(w, true)}, nil
}

// ListWorkflows lists the team's workflows without their graphs.
func (h *Workflows) ListWorkflows(ctx context.Context, req api.ListWorkflowsRequestObject) (api.ListWorkflowsResponseObject, error) {
	f := workflows.Filter{}
	if t := req.Params.WorkflowType; t != nil {
		f.Type = store.Direction(*t)
	}
	items, meta, err := paged(newPage(req.Params.Page, req.Params.SizePerPage, workflowPageSize), func(limit, offset int) ([]workflows.Workflow, int, error) {
		return h.svc.List(ctx, actor(ctx), f, workflows.Page{Limit: limit, Offset: offset})
	})
	if err != nil {
		return nil, err
	}
	return api.ListWorkflows200JSONResponse{Status: http.StatusOK, Data: mapped(items, renderWorkflowSummary), Meta: meta}, nil
}

// GetWorkflow answers one workflow, with its graph unless asked not to.
func (h *Workflows) GetWorkflow(ctx context.Context, req api.GetWorkflowRequestObject) (api.GetWorkflowResponseObject, error) {
	w, err := h.svc.Get(ctx, actor(ctx), req.Id)
	if err != nil {
		return nil, err
	}
	without := req.Params.WithoutNodesAndEdges != nil && *req.Params.WithoutNodesAndEdges
	return api.GetWorkflow200JSONResponse{Status: http.StatusOK, Data: renderWorkflow(w, !without)}, nil
}

// DeleteWorkflow deletes a workflow.
func (h *Workflows) DeleteWorkflow(ctx context.Context, req api.DeleteWorkflowRequestObject) (api.DeleteWorkflowResponseObject, error) {
	if err := h.svc.Delete(ctx, actor(ctx), req.Id); err != nil {
		return nil, err
	}
	return api.DeleteWorkflow200JSONResponse{Status: http.StatusOK, Data: api.Deleted{Id: req.Id}}, nil
}

// SaveWorkflow replaces a workflow's graph under the version guard.
func (h *Workflows) SaveWorkflow(ctx context.Context, req api.SaveWorkflowRequestObject) (api.SaveWorkflowResponseObject, error) {
	g, err := graphOf(req.Body.Nodes, req.Body.Edges)
	if err != nil {
		return nil, err
	}
	g.Fields = postCallFieldsOf(req.Body.PostCallFields)
	base := 0
	if req.Body.Version != nil {
		base = *req.Body.Version
	}
	w, err := h.svc.Save(ctx, actor(ctx), req.Body.WorkflowId, g, base)
	if err != nil {
		return nil, err
	}
	return api.SaveWorkflow200JSONResponse{Status: http.StatusOK, Data: renderWorkflow(w, true)}, nil
}

// UpdateWorkflow renames a workflow.
func (h *Workflows) UpdateWorkflow(ctx context.Context, req api.UpdateWorkflowRequestObject) (api.UpdateWorkflowResponseObject, error) {
	w, err := h.svc.Rename(ctx, actor(ctx), req.Params.WorkflowId, req.Params.Name)
	if err != nil {
		return nil, err
	}
	return api.UpdateWorkflow200JSONResponse{Status: http.StatusOK, Data: renderWorkflow(w, false)}, nil
}

// SetWorkflowAgent sets the agent that speaks in a workflow.
func (h *Workflows) SetWorkflowAgent(ctx context.Context, req api.SetWorkflowAgentRequestObject) (api.SetWorkflowAgentResponseObject, error) {
	w, err := h.svc.SetAgent(ctx, actor(ctx), req.Body.WorkflowId, req.Body.AgentId)
	if err != nil {
		return nil, err
	}
	return api.SetWorkflowAgent200JSONResponse{Status: http.StatusOK, Data: renderWorkflow(w, false)}, nil
}

// SetWorkflowPhoneNumber sets or removes a workflow's own number.
func (h *Workflows) SetWorkflowPhoneNumber(ctx context.Context, req api.SetWorkflowPhoneNumberRequestObject) (api.SetWorkflowPhoneNumberResponseObject, error) {
	w, err := h.svc.SetPhoneNumber(ctx, actor(ctx), req.Body.WorkflowId, req.Body.PhoneNumberId)
	if err != nil {
		return nil, err
	}
	return api.SetWorkflowPhoneNumber200JSONResponse{Status: http.StatusOK, Data: renderWorkflow(w, false)}, nil
}

// ConfigureWorkflowShopify makes a workflow the one the storefront widget starts.
func (h *Workflows) ConfigureWorkflowShopify(ctx context.Context, req api.ConfigureWorkflowShopifyRequestObject) (api.ConfigureWorkflowShopifyResponseObject, error) {
	w, err := h.svc.ConfigureShopify(ctx, actor(ctx), req.Body.WorkflowId)
	if err != nil {
		return nil, err
	}
	return api.ConfigureWorkflowShopify200JSONResponse{Status: http.StatusOK, Data: renderWorkflow(w, false)}, nil
}

// UpdateWorkflowNode merges params into one node's data.
func (h *Workflows) UpdateWorkflowNode(ctx context.Context, req api.UpdateWorkflowNodeRequestObject) (api.UpdateWorkflowNodeResponseObject, error) {
	var params map[string]any
	if err := roundTrip(req.Body.Params, &params); err != nil {
		return nil, err
	}
	w, err := h.svc.UpdateNode(ctx, actor(ctx), req.Body.WorkflowId, req.NodeId, params)
	if err != nil {
		return nil, err
	}
	return api.UpdateWorkflowNode200JSONResponse{Status: http.StatusOK, Data: renderWorkflow(w, true)}, nil
}

// ListWorkflowTemplates lists the templates, by type when asked.
func (h *Workflows) ListWorkflowTemplates(ctx context.Context, req api.ListWorkflowTemplatesRequestObject) (api.ListWorkflowTemplatesResponseObject, error) {
	var typ store.Direction
	if t := req.Params.Type; t != nil {
		typ = store.Direction(*t)
	}
	items, meta, err := paged(newPage(req.Params.Page, req.Params.SizePerPage, workflowTemplatePageSize), func(limit, offset int) ([]workflows.Template, int, error) {
		return h.svc.Templates(ctx, typ, workflows.Page{Limit: limit, Offset: offset})
	})
	if err != nil {
		return nil, err
	}
	return api.ListWorkflowTemplates200JSONResponse{Status: http.StatusOK, Data: mapped(items, renderWorkflowTemplate), Meta: meta}, nil
}

// ListWorkflowsByPhoneNumber lists the workflows whose own number is this one.
func (h *Workflows) ListWorkflowsByPhoneNumber(ctx context.Context, req api.ListWorkflowsByPhoneNumberRequestObject) (api.ListWorkflowsByPhoneNumberResponseObject, error) {
	var typ store.Direction
	if t := req.Params.WorkflowType; t != nil {
		typ = store.Direction(*t)
	}
	p := newPage(nil, req.Params.Limit, 1)
	items, total, err := h.svc.ListByPhone(ctx, actor(ctx), req.PhoneNumberId, typ, p.Size)
	if err != nil {
		return nil, err
	}
	return api.ListWorkflowsByPhoneNumber200JSONResponse{Status: http.StatusOK, Data: mapped(items, renderWorkflowSummary),
		Meta: p.meta(total, len(items))}, nil
}

// graphOf turns the nodes and edges of a request into a graph.
func graphOf(nodes []api.WorkflowNode, edges []api.WorkflowEdge) (workflow.Graph, error) {
	b, err := json.Marshal(map[string]any{"nodes": nodes, "edges": edges})
	if err != nil {
		return workflow.Graph{}, err
	}
	g, err := workflow.Parse(b)
	if err != nil {
		return workflow.Graph{}, errs.InvalidField("body.nodes", "the graph could not be read: "+err.Error())
	}
	return g, nil
}

func roundTrip(from, to any) error {
	b, err := json.Marshal(from)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, to)
}

func derefMap(m *map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	return *m
}
