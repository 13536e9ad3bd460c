package betty

import (
	"context"
	"iter"
	"net/http"
	"strconv"
	"strings"

	"github.com/bettyhq/betty/sdk/client"
)

// Campaigns: a team's inbound and outbound calling campaigns — list, read, create, change,
// copy and delete them, see which campaigns a phone number is assigned to, and manage their
// workflows (create, list, activate, copy).

// CampaignFilter narrows a list of campaigns; zero fields keep every campaign.
type CampaignFilter struct {
	// Status keeps campaigns in this status; "" and client.CampaignStatusFilterAll keep all.
	Status client.CampaignStatusFilter
	// Name keeps campaigns whose name contains it, ignoring case.
	Name string
}

func (f CampaignFilter) params(team string) client.ListCampaignsParams {
	p := client.ListCampaignsParams{OrganizationId: team}
	if f.Status != "" {
		p.Status = &f.Status
	}
	if f.Name != "" {
		p.Name = &f.Name
	}
	return p
}

// CampaignsPage answers one page of a team's campaigns, newest first: page is 1-based and
// size 0 takes the server's default (5). A page past the last is clamped to the last one, which
// Meta.Page says.
func (c *Client) CampaignsPage(ctx context.Context, team string, f CampaignFilter, page, size int) (Page[client.Campaign], error) {
	p := f.params(team)
	if page > 0 {
		p.Page = &page
	}
	if size > 0 {
		p.SizePerPage = &size
	}
	return DoPage[client.Campaign](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.ListCampaigns(ctx, &p)
	})
}

// Campaigns walks a team's campaigns that f keeps, newest first.
func (c *Client) Campaigns(ctx context.Context, team string, f CampaignFilter) iter.Seq2[client.Campaign, error] {
	size := 100
	return All[client.Campaign](ctx, c, func(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
		p := f.params(team)
		p.Page, p.SizePerPage = &page, &size
		return api.ListCampaigns(ctx, &p)
	})
}

// Campaign reads one campaign with its workflow and agent summaries. A campaign of a team the
// caller is not in matches ErrNotFound.
func (c *Client) Campaign(ctx context.Context, id string) (client.Campaign, error) {
	return Do[client.Campaign](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.GetCampaign(ctx, id)
	})
}

// CreateCampaign creates a campaign; only req.OrganizationId is required, every other field
// takes the server's default (a draft outbound "Untitled campaign").
func (c *Client) CreateCampaign(ctx context.Context, req client.CreateCampaignRequest) (client.Campaign, error) {
	return Do[client.Campaign](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.CreateCampaign(ctx, req)
	})
}

// UpdateCampaign changes the fields set in req and keeps the others. Activating a campaign
// without an active workflow and a phone number is a 422 *APIError; assigning a number another
// inbound campaign answers is a 409 (ErrConflict).
func (c *Client) UpdateCampaign(ctx context.Context, id string, req client.UpdateCampaignRequest) (client.Campaign, error) {
	return Do[client.Campaign](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.UpdateCampaign(ctx, id, req)
	})
}

// DuplicateCampaign copies a campaign with its workflows and agents, as a draft named
// "Copy of …" with no phone number, and answers the copy.
func (c *Client) DuplicateCampaign(ctx context.Context, id string) (client.Campaign, error) {
	return Do[client.Campaign](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.DuplicateCampaign(ctx, id)
	})
}

// DeleteCampaign deletes a campaign and its workflows; its agents are kept, unlinked. A
// campaign with a job in progress is refused with a 422 *APIError.
func (c *Client) DeleteCampaign(ctx context.Context, id string) error {
	return NoContent(ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.DeleteCampaign(ctx, id)
	})
}

// CampaignsOfPhoneNumber answers up to limit (0: the server's default, 1) of the campaigns the
// phone number phoneNumberID is assigned to, newest first, keeping only campaigns of direction
// dir unless it is "". Meta.TotalSize counts every assignment, so
//
//	p, err := c.CampaignsOfPhoneNumber(ctx, number, client.CallDirectionInbound, 2)
//
// tells whether an inbound campaign other than the one being edited answers the number.
func (c *Client) CampaignsOfPhoneNumber(ctx context.Context, phoneNumberID string, dir client.CallDirection, limit int) (Page[client.CampaignPhoneNumberAssignment], error) {
	var p client.ListCampaignPhoneNumberAssignmentsParams
	if dir != "" {
		p.CampaignType = &dir
	}
	if limit > 0 {
		p.Limit = &limit
	}
	return DoPage[client.CampaignPhoneNumberAssignment](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.ListCampaignPhoneNumberAssignments(ctx, phoneNumberID, &p)
	})
}

// CampaignWorkflowInput is a new workflow of a campaign; every field is optional.
type CampaignWorkflowInput struct {
	// Name is the campaign's name + " workflow" when empty.
	Name string
	// AgentID is the campaign's active agent when empty (none when it has none).
	AgentID string
	// Template is a template id of the campaign's type (WorkflowTemplates); TemplateValues
	// fills its placeholders.
	Template       string
	TemplateValues map[string]string
}

// CreateCampaignWorkflow creates a workflow in a campaign, of the campaign's type, empty or
// copied from a template, and answers its summary (Workflow reads it whole). It is not the
// campaign's active workflow until ActivateCampaignWorkflow. CreateWorkflow with a CampaignID
// does the same and can set the workflow's number too.
func (c *Client) CreateCampaignWorkflow(ctx context.Context, campaignID string, in CampaignWorkflowInput) (client.CampaignWorkflowSummary, error) {
	var req client.CreateCampaignWorkflowRequest
	if in.Name != "" {
		req.Name = &in.Name
	}
	if in.AgentID != "" {
		req.AgentId = &in.AgentID
	}
	if in.Template != "" {
		req.WorkflowTemplate = &in.Template
	}
	if len(in.TemplateValues) > 0 {
		req.TemplateValues = &in.TemplateValues
	}
	return Do[client.CampaignWorkflowSummary](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.CreateCampaignWorkflow(ctx, campaignID, req)
	})
}

// CampaignWorkflowFilter narrows a campaign's workflows; zero fields keep every one.
type CampaignWorkflowFilter struct {
	// Name keeps workflows whose name contains it, ignoring case (it cannot hold a comma).
	Name string
	// Active, when set, keeps the campaign's active workflow (true) or the others (false).
	Active *bool
}

func (f CampaignWorkflowFilter) filters() *string {
	var conds []string
	if f.Name != "" {
		conds = append(conds, "name:"+f.Name)
	}
	if f.Active != nil {
		conds = append(conds, "active:"+strconv.FormatBool(*f.Active))
	}
	if len(conds) == 0 {
		return nil
	}
	s := strings.Join(conds, ",")
	return &s
}

// CampaignWorkflows walks a campaign's workflows that f keeps, newest first, without their
// graphs.
func (c *Client) CampaignWorkflows(ctx context.Context, campaignID string, f CampaignWorkflowFilter) iter.Seq2[client.CampaignWorkflowSummary, error] {
	size := 100
	return All[client.CampaignWorkflowSummary](ctx, c, func(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
		return api.ListCampaignWorkflows(ctx, campaignID, &client.ListCampaignWorkflowsParams{Page: &page, SizePerPage: &size, Filters: f.filters()})
	})
}

// ActivateCampaignWorkflow makes a workflow of a campaign the one the campaign runs (the one
// active before stops being it) and answers the campaign.
func (c *Client) ActivateCampaignWorkflow(ctx context.Context, campaignID, workflowID string) (client.Campaign, error) {
	return c.toggleCampaignWorkflow(ctx, campaignID, workflowID, true)
}

// DeactivateCampaignWorkflow leaves a campaign without an active workflow when workflowID is
// it (an active campaign is then paused), and answers the campaign.
func (c *Client) DeactivateCampaignWorkflow(ctx context.Context, campaignID, workflowID string) (client.Campaign, error) {
	return c.toggleCampaignWorkflow(ctx, campaignID, workflowID, false)
}

func (c *Client) toggleCampaignWorkflow(ctx context.Context, campaignID, workflowID string, active bool) (client.Campaign, error) {
	return Do[client.Campaign](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.ToggleCampaignWorkflow(ctx, workflowID, client.ToggleCampaignWorkflowRequest{CampaignId: campaignID, Active: active})
	})
}

// DuplicateCampaignWorkflow copies a campaign's workflow into the same campaign, inactive, as
// "Copy of …" with the same graph, agent and number and no contacts, and answers the copy's
// summary.
func (c *Client) DuplicateCampaignWorkflow(ctx context.Context, id string) (client.CampaignWorkflowSummary, error) {
	return Do[client.CampaignWorkflowSummary](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.DuplicateCampaignWorkflow(ctx, id)
	})
}
