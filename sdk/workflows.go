package betty

import (
	"context"
	"iter"
	"net/http"
	"time"

	"github.com/bettyhq/betty/sdk/client"
)

// Workflows: call flows drawn as graphs of nodes and edges. A save carries the version it is
// based on; a save over an older version is a 409 *APIError (ErrConflict) whose
// CurrentVersion is the stored one. The server normalises what it is sent (Normalization says
// what it changed), refuses a graph that breaks a hard rule with a 422 naming each node
// (Fields[].Field like "nodes[<id>].destinationPhoneNumber"), and lists in Problems what
// still stops the flow from running. ReadablePromptStatus is in-progress until the readable
// prompt is compiled: WaitForWorkflowPrompt waits for it.

// WorkflowInput is a new workflow. Template and TemplateValues are optional.
type WorkflowInput struct {
	Name    string
	AgentID string
	Type    client.WorkflowType
	// Template is a template id (Templates lists them); TemplateValues fills its placeholders.
	Template       string
	TemplateValues map[string]string
}

// Graph is a workflow's nodes and edges, as sent to SaveWorkflow.
type Graph struct {
	Nodes []client.WorkflowNode `json:"nodes"`
	Edges []client.WorkflowEdge `json:"edges"`
}

// Workflows walks a team's workflows, most recently updated first, of one type when typ is
// not empty (without their graphs).
func (c *Client) Workflows(ctx context.Context, team string, typ client.WorkflowType) iter.Seq2[client.Workflow, error] {
	size := 100
	return All[client.Workflow](ctx, c, func(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
		p := &client.ListWorkflowsParams{OrganizationId: team, Page: &page, SizePerPage: &size}
		if typ != "" {
			p.WorkflowType = &typ
		}
		return api.ListWorkflows(ctx, p)
	})
}

// Workflow answers one workflow with its graph.
func (c *Client) Workflow(ctx context.Context, id string) (client.Workflow, error) {
	return Do[client.Workflow](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.GetWorkflow(ctx, id, &client.GetWorkflowParams{})
	})
}

// CreateWorkflow creates a workflow in a team, empty or copied from a template.
func (c *Client) CreateWorkflow(ctx context.Context, team string, in WorkflowInput) (client.Workflow, error) {
	req := client.CreateWorkflowRequest{OrganizationId: team, Name: in.Name, AgentId: in.AgentID, WorkflowType: in.Type}
	if in.Template != "" {
		req.WorkflowTemplate = &in.Template
	}
	if len(in.TemplateValues) > 0 {
		req.TemplateValues = &in.TemplateValues
	}
	return Do[client.Workflow](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.CreateWorkflow(ctx, req)
	})
}

// SaveWorkflow replaces a workflow's graph. With version > 0 it saves only over that version
// (ErrConflict otherwise, CurrentVersion in the *APIError); 0 saves whatever is stored.
func (c *Client) SaveWorkflow(ctx context.Context, id string, g Graph, version int) (client.Workflow, error) {
	req := client.SaveWorkflowRequest{WorkflowId: id, Nodes: g.Nodes, Edges: g.Edges}
	if req.Nodes == nil {
		req.Nodes = []client.WorkflowNode{}
	}
	if req.Edges == nil {
		req.Edges = []client.WorkflowEdge{}
	}
	if version > 0 {
		req.Version = &version
	}
	return Do[client.Workflow](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.SaveWorkflow(ctx, req)
	})
}

// RenameWorkflow renames a workflow.
func (c *Client) RenameWorkflow(ctx context.Context, id, name string) (client.Workflow, error) {
	return Do[client.Workflow](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.UpdateWorkflow(ctx, &client.UpdateWorkflowParams{WorkflowId: id, Name: name})
	})
}

// DeleteWorkflow deletes a workflow.
func (c *Client) DeleteWorkflow(ctx context.Context, id string) error {
	return NoContent(ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.DeleteWorkflow(ctx, id)
	})
}

// WorkflowTemplates walks the installation's templates by name, of one type when typ is not
// empty.
func (c *Client) WorkflowTemplates(ctx context.Context, typ client.WorkflowType) iter.Seq2[client.WorkflowTemplate, error] {
	size := 100
	return All[client.WorkflowTemplate](ctx, c, func(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
		p := &client.ListWorkflowTemplatesParams{Page: &page, SizePerPage: &size}
		if typ != "" {
			p.Type = &typ
		}
		return api.ListWorkflowTemplates(ctx, p)
	})
}

// WaitForWorkflowPrompt polls a workflow every interval (1 s when 0) until its readable prompt
// is no longer being compiled, and answers it without its graph.
func (c *Client) WaitForWorkflowPrompt(ctx context.Context, id string, interval time.Duration) (client.Workflow, error) {
	if interval <= 0 {
		interval = time.Second
	}
	without := true
	for {
		w, err := Do[client.Workflow](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
			return api.GetWorkflow(ctx, id, &client.GetWorkflowParams{WithoutNodesAndEdges: &without})
		})
		if err != nil || w.ReadablePromptStatus != client.PromptStatusInProgress {
			return w, err
		}
		if err := sleepContext(ctx, interval); err != nil {
			return w, err
		}
	}
}

// GraphOf answers a workflow's graph, ready to save or export.
func GraphOf(w client.Workflow) Graph {
	g := Graph{Nodes: []client.WorkflowNode{}, Edges: []client.WorkflowEdge{}}
	if w.Nodes != nil {
		g.Nodes = *w.Nodes
	}
	if w.Edges != nil {
		g.Edges = *w.Edges
	}
	return g
}
