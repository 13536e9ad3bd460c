package httpapi

import (
	"context"
	"net/http"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/calls"
)

// ListDoNotCall lists the team's do-not-call list, newest first.
func (h *Calls) ListDoNotCall(ctx context.Context, req api.ListDoNotCallRequestObject) (api.ListDoNotCallResponseObject, error) {
	items, meta, err := paged(newPage(req.Params.Page, req.Params.SizePerPage, callPageSize), func(limit, offset int) ([]calls.DoNotCall, int, error) {
		return h.svc.DoNotCallList(ctx, actor(ctx), deref(req.Params.Search), limit, offset)
	})
	if err != nil {
		return nil, err
	}
	return api.ListDoNotCall200JSONResponse{Status: http.StatusOK, Data: mapped(items, renderDoNotCall), Meta: meta}, nil
}

// AddDoNotCall puts a number on the list: 201 when new, 200 when it was there.
func (h *Calls) AddDoNotCall(ctx context.Context, req api.AddDoNotCallRequestObject) (api.AddDoNotCallResponseObject, error) {
	e, created, err := h.svc.AddDoNotCall(ctx, actor(ctx), req.Body.PhoneNumber, deref(req.Body.DefaultRegion), deref(req.Body.Reason))
	if err != nil {
		return nil, err
	}
	if created {
		return api.AddDoNotCall201JSONResponse{Status: http.StatusCreated, Data: renderDoNotCall(e)}, nil
	}
	return api.AddDoNotCall200JSONResponse{Status: http.StatusOK, Data: renderDoNotCall(e)}, nil
}

// RemoveDoNotCall takes an entry off the list.
func (h *Calls) RemoveDoNotCall(ctx context.Context, req api.RemoveDoNotCallRequestObject) (api.RemoveDoNotCallResponseObject, error) {
	if err := h.svc.RemoveDoNotCall(ctx, actor(ctx), req.Id); err != nil {
		return nil, err
	}
	return api.RemoveDoNotCall200JSONResponse{Status: http.StatusOK, Data: api.Deleted{Id: req.Id}}, nil
}

// ImportDoNotCall adds the numbers of a CSV body.
func (h *Calls) ImportDoNotCall(ctx context.Context, req api.ImportDoNotCallRequestObject) (api.ImportDoNotCallResponseObject, error) {
	r, err := h.svc.ImportDoNotCall(ctx, actor(ctx), req.Body, deref(req.Params.DefaultRegion), deref(req.Params.Reason))
	if err != nil {
		return nil, err
	}
	out := api.DoNotCallImport{Added: r.Added, AlreadyListed: r.AlreadyListed, Rejected: make([]api.DoNotCallRejectedRow, len(r.Rejected))}
	for i, x := range r.Rejected {
		out.Rejected[i] = api.DoNotCallRejectedRow{Row: x.Row, Value: x.Value, Reason: x.Reason}
	}
	return api.ImportDoNotCall200JSONResponse{Status: http.StatusOK, Data: out}, nil
}

func renderDoNotCall(e calls.DoNotCall) api.DoNotCallEntry {
	return api.DoNotCallEntry{Id: e.ID, OrganizationId: e.OrganizationID, PhoneNumber: e.PhoneNumber, Reason: e.Reason,
		AddedBy: e.AddedBy, Source: api.DoNotCallEntrySource(e.Source), CreatedAt: e.CreatedAt}
}
