package betty

import (
	"context"
	"iter"
	"net/http"

	"github.com/bettyhq/betty/sdk/client"
)

// Campaigns: a team's inbound and outbound calling campaigns — list, read, create, change,
// copy and delete them, and see which campaigns a phone number is assigned to.

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
