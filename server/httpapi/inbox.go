package httpapi

import (
	"context"
	"net/http"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/calls"
)

// Inbox answers the Inbox tag: the outcomes finished calls file.
type Inbox struct {
	svc *calls.Service
}

// inboxPageSize is the default page of the inbox.
const inboxPageSize = 10

// ListInboxItems lists the team's inbox.
func (h *Inbox) ListInboxItems(ctx context.Context, req api.ListInboxItemsRequestObject) (api.ListInboxItemsResponseObject, error) {
	p := req.Params
	items, meta, err := h.list(ctx, newPage(p.Page, p.SizePerPage, inboxPageSize), nil, p.SortBy, p.Ascending)
	if err != nil {
		return nil, err
	}
	return api.ListInboxItems200JSONResponse{Status: http.StatusOK, Data: mapped(items, renderInboxItem), Meta: meta}, nil
}

// SearchInboxItems searches the team's inbox.
func (h *Inbox) SearchInboxItems(ctx context.Context, req api.SearchInboxItemsRequestObject) (api.SearchInboxItemsResponseObject, error) {
	p := req.Params
	items, meta, err := h.list(ctx, newPage(p.Page, p.SizePerPage, inboxPageSize), &p.Query, p.SortBy, p.Ascending)
	if err != nil {
		return nil, err
	}
	return api.SearchInboxItems200JSONResponse{Status: http.StatusOK, Data: mapped(items, renderInboxItem), Meta: meta}, nil
}

func (h *Inbox) list(ctx context.Context, pg page, search *string, sortBy *api.InboxSortBy, ascending *bool) ([]calls.InboxItem, api.PageMeta, error) {
	q := calls.InboxQuery{Search: search, Ascending: ascending != nil && *ascending}
	if sortBy != nil {
		q.SortBy = string(*sortBy)
	}
	return paged(pg, func(limit, offset int) ([]calls.InboxItem, int, error) {
		q.Limit, q.Offset = limit, offset
		return h.svc.Inbox(ctx, actor(ctx), q)
	})
}

// GetInboxItem answers an item of the team, whatever its visibility.
func (h *Inbox) GetInboxItem(ctx context.Context, req api.GetInboxItemRequestObject) (api.GetInboxItemResponseObject, error) {
	i, err := h.svc.InboxItem(ctx, actor(ctx), req.Id)
	if err != nil {
		return nil, err
	}
	return api.GetInboxItem200JSONResponse{Status: http.StatusOK, Data: renderInboxItem(i)}, nil
}

// GetPublicInboxItem answers a public item to anyone.
func (h *Inbox) GetPublicInboxItem(ctx context.Context, req api.GetPublicInboxItemRequestObject) (api.GetPublicInboxItemResponseObject, error) {
	i, err := h.svc.PublicInboxItem(ctx, req.Params.OrganizationId, req.Id)
	if err != nil {
		return nil, err
	}
	return api.GetPublicInboxItem200JSONResponse{Status: http.StatusOK, Data: renderInboxItem(i)}, nil
}

// UpdateInboxItem changes an item's priority or visibility (skipped when the body has
// neither).
func (h *Inbox) UpdateInboxItem(ctx context.Context, req api.UpdateInboxItemRequestObject) (api.UpdateInboxItemResponseObject, error) {
	c := calls.InboxChange{Priority: req.Body.Priority}
	if req.Body.Visibility != nil {
		v := string(*req.Body.Visibility)
		c.Visibility = &v
	}
	i, err := h.svc.UpdateInboxItem(ctx, actor(ctx), req.InboxId, c)
	if err != nil {
		return nil, err
	}
	return api.UpdateInboxItem200JSONResponse{Status: http.StatusOK, Data: renderInboxItem(i)}, nil
}

// DeleteInboxItem deletes an item softly.
func (h *Inbox) DeleteInboxItem(ctx context.Context, req api.DeleteInboxItemRequestObject) (api.DeleteInboxItemResponseObject, error) {
	if err := h.svc.DeleteInboxItem(ctx, actor(ctx), req.InboxId); err != nil {
		return nil, err
	}
	return api.DeleteInboxItem200JSONResponse{Status: http.StatusOK, Data: api.Deleted{Id: req.InboxId}}, nil
}

func renderInboxItem(i calls.InboxItem) api.InboxItem {
	return api.InboxItem{Id: i.ID, OrganizationId: i.OrganizationID, Title: i.Title, Summary: i.Summary, Priority: i.Priority,
		Visibility: api.InboxVisibility(i.Visibility), Deleted: i.DeletedAt != nil, DeletedAt: i.DeletedAt, CallLogId: i.CallLogID,
		CallControlId: i.CallControlID, CampaignId: i.CampaignID, CreatedAt: i.CreatedAt, UpdatedAt: i.UpdatedAt}
}
