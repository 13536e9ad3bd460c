package betty

import (
	"context"
	"fmt"
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

// WorkflowInput is a new workflow. Only Name is always required; outside a campaign AgentID
// and Type are too.
type WorkflowInput struct {
	Name    string
	AgentID string
	Type    client.WorkflowType
	// Template is a template id (Templates lists them); TemplateValues fills its placeholders.
	Template       string
	TemplateValues map[string]string
	// CampaignID makes it a workflow of that campaign: of the campaign's type (Type, when set,
	// must be it), spoken by AgentID or else the campaign's active agent, calling from the
	// campaign's number unless PhoneNumberID names another. It is not made the campaign's
	// active workflow (ActivateCampaignWorkflow does that).
	CampaignID string
	// PhoneNumberID is the team's number it calls from (outbound) or answers (inbound). A
	// workflow outside a campaign cannot run without one.
	PhoneNumberID string
}

// Graph is a workflow's nodes and edges, as sent to SaveWorkflow.
type Graph struct {
	Nodes []client.WorkflowNode `json:"nodes"`
	Edges []client.WorkflowEdge `json:"edges"`
	// PostCallFields are what the post-call analysis reads from each call; nil keeps the
	// stored ones when saving.
	PostCallFields *[]client.PostCallField `json:"postCallFields,omitempty"`
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

// CreateWorkflow creates a workflow in a team, empty or copied from a template, in a campaign
// when in.CampaignID is set and with its own number when in.PhoneNumberID is. Those take more
// than one call: when setting the number fails (a number the team does not have, an inbound
// number another inbound workflow answers), the workflow just made is deleted again and the
// error answered, so a failed CreateWorkflow leaves nothing behind.
func (c *Client) CreateWorkflow(ctx context.Context, team string, in WorkflowInput) (client.Workflow, error) {
	if in.CampaignID == "" {
		req := client.CreateWorkflowRequest{OrganizationId: team, Name: in.Name, AgentId: in.AgentID, WorkflowType: in.Type}
		if in.Template != "" {
			req.WorkflowTemplate = &in.Template
		}
		if len(in.TemplateValues) > 0 {
			req.TemplateValues = &in.TemplateValues
		}
		w, err := Do[client.Workflow](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
			return api.CreateWorkflow(ctx, req)
		})
		if err != nil || in.PhoneNumberID == "" {
			return w, err
		}
		return c.withNumber(ctx, w.Id, in.PhoneNumberID)
	}
	if in.Type != "" {
		camp, err := c.Campaign(ctx, in.CampaignID)
		if err != nil {
			return client.Workflow{}, err
		}
		if string(camp.Type) != string(in.Type) {
			return client.Workflow{}, fmt.Errorf("betty: campaign %q is %s: its workflows cannot be %s", camp.Name, camp.Type, in.Type)
		}
	}
	s, err := c.CreateCampaignWorkflow(ctx, in.CampaignID, CampaignWorkflowInput{Name: in.Name, AgentID: in.AgentID,
		Template: in.Template, TemplateValues: in.TemplateValues})
	if err != nil {
		return client.Workflow{}, err
	}
	if in.PhoneNumberID == "" {
		return c.Workflow(ctx, s.Id)
	}
	return c.withNumber(ctx, s.Id, in.PhoneNumberID)
}

// withNumber gives a workflow just created its number and answers it whole, or deletes it
// when the number is refused.
func (c *Client) withNumber(ctx context.Context, id, phoneNumberID string) (client.Workflow, error) {
	if _, err := c.SetWorkflowPhoneNumber(ctx, id, phoneNumberID); err != nil {
		// The caller asked for a workflow with this number, not for one without it.
		undo, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		if delErr := c.DeleteWorkflow(undo, id); delErr != nil {
			return client.Workflow{}, fmt.Errorf("%w (and deleting the workflow %s made without it failed: %v)", err, id, delErr)
		}
		return client.Workflow{}, err
	}
	return c.Workflow(ctx, id)
}

// SetWorkflowPhoneNumber makes one of the team's numbers the one a workflow calls from
// (outbound) or answers (inbound); "" removes the workflow's own number, and a campaign
// workflow then uses its campaign's. A number of another team matches ErrNotFound; an
// inbound number another inbound workflow answers is a 409 (ErrConflict, WorkflowsOfPhoneNumber
// tells which). It answers the workflow without its graph.
func (c *Client) SetWorkflowPhoneNumber(ctx context.Context, workflowID, phoneNumberID string) (client.Workflow, error) {
	req := client.SetWorkflowPhoneNumberRequest{WorkflowId: workflowID}
	if phoneNumberID != "" {
		req.PhoneNumberId = &phoneNumberID
	}
	return Do[client.Workflow](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.SetWorkflowPhoneNumber(ctx, req)
	})
}

// SetWorkflowAgent makes an agent of the team the one that speaks in a workflow; the readable
// prompt is compiled again (WaitForWorkflowPrompt). It answers the workflow without its graph.
func (c *Client) SetWorkflowAgent(ctx context.Context, workflowID, agentID string) (client.Workflow, error) {
	return Do[client.Workflow](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.SetWorkflowAgent(ctx, client.SetWorkflowAgentRequest{WorkflowId: workflowID, AgentId: agentID})
	})
}

// WorkflowsOfPhoneNumber answers up to limit (0: the server's default, 1) of the workflows
// whose own number is phoneNumberID, most recently updated first, of type typ unless it is
// "", without their graphs; Meta.TotalSize counts them all.
func (c *Client) WorkflowsOfPhoneNumber(ctx context.Context, phoneNumberID string, typ client.WorkflowType, limit int) (Page[client.Workflow], error) {
	var p client.ListWorkflowsByPhoneNumberParams
	if typ != "" {
		p.WorkflowType = &typ
	}
	if limit > 0 {
		p.Limit = &limit
	}
	return DoPage[client.Workflow](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.ListWorkflowsByPhoneNumber(ctx, phoneNumberID, &p)
	})
}

// UpdateWorkflowNode merges params into one node's data: each field set replaces the stored
// one (an empty string clears a text), the others are kept. The workflow's version goes up;
// it answers the workflow with its graph.
func (c *Client) UpdateWorkflowNode(ctx context.Context, workflowID, nodeID string, params client.WorkflowNodeData) (client.Workflow, error) {
	return Do[client.Workflow](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.UpdateWorkflowNode(ctx, nodeID, client.UpdateWorkflowNodeRequest{WorkflowId: workflowID, Params: params})
	})
}

// ConfigureWorkflowShopify makes an outbound workflow the one the team's storefront widget
// starts when a shopper asks for a call (the team's previous one stops being it), and answers
// it without its graph.
func (c *Client) ConfigureWorkflowShopify(ctx context.Context, team, workflowID string) (client.Workflow, error) {
	return Do[client.Workflow](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.ConfigureWorkflowShopify(ctx, client.ConfigureWorkflowShopifyRequest{OrganizationId: team, WorkflowId: workflowID})
	})
}

// SaveWorkflow replaces a workflow's graph. With version > 0 it saves only over that version
// (ErrConflict otherwise, CurrentVersion in the *APIError); 0 saves whatever is stored.
func (c *Client) SaveWorkflow(ctx context.Context, id string, g Graph, version int) (client.Workflow, error) {
	req := client.SaveWorkflowRequest{WorkflowId: id, Nodes: g.Nodes, Edges: g.Edges, PostCallFields: g.PostCallFields}
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
	g.PostCallFields = w.PostCallFields
	return g
}
