package httpapi

import (
	"context"
	"errors"
	"net/http"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/integrations/hubspot"
	"github.com/bettyhq/betty/server/problem"
	"github.com/bettyhq/betty/server/store"
)

// HubSpot is the HubSpot integration's operations: connecting a portal (OAuth), its contacts
// and lifecycle stages, and its webhooks.
type HubSpot struct {
	svc     *hubspot.Service
	baseURL string
}

// hubspotErr turns a server without HubSpot's credentials into the honest 501.
func hubspotErr(err error) error {
	if errors.Is(err, hubspot.ErrNotConfigured) {
		return problem.New(http.StatusNotImplemented, api.ProblemCodeNotImplemented, err.Error())
	}
	return err
}

// ConnectHubspotApp answers the authorisation URL to connect a portal.
func (h *HubSpot) ConnectHubspotApp(ctx context.Context, req api.ConnectHubspotAppRequestObject) (api.ConnectHubspotAppResponseObject, error) {
	u, exp, err := h.svc.Authorize(ctx, req.Body.OrganizationId, principal(ctx).UserID, "")
	if err != nil {
		return nil, hubspotErr(err)
	}
	return api.ConnectHubspotApp200JSONResponse{Status: http.StatusOK, Data: api.AppAuthorization{AuthorizationUrl: u, ExpiresAt: exp}}, nil
}

// ReconnectHubspotApp answers the authorisation URL to reconnect a HubSpot connected app.
func (h *HubSpot) ReconnectHubspotApp(ctx context.Context, req api.ReconnectHubspotAppRequestObject) (api.ReconnectHubspotAppResponseObject, error) {
	u, exp, err := h.svc.Authorize(ctx, req.Body.OrganizationId, principal(ctx).UserID, req.Body.Id)
	if err != nil {
		return nil, hubspotErr(err)
	}
	return api.ReconnectHubspotApp200JSONResponse{Status: http.StatusOK, Data: api.AppAuthorization{AuthorizationUrl: u, ExpiresAt: exp}}, nil
}

// CompleteHubspotAuthorization is HubSpot's redirect back: always a 302 to the dashboard.
func (h *HubSpot) CompleteHubspotAuthorization(ctx context.Context, req api.CompleteHubspotAuthorizationRequestObject) (api.CompleteHubspotAuthorizationResponseObject, error) {
	p := req.Params
	if p.Code == nil && p.State == nil && p.Error == nil {
		return nil, problem.New(http.StatusBadRequest, api.ProblemCodeBadRequest,
			"This is HubSpot's OAuth redirect: it needs code and state (or error) in the query string.")
	}
	loc := h.svc.Callback(deref(p.Code), deref(p.State), deref(p.Error))
	return api.CompleteHubspotAuthorization302Response{Headers: api.CompleteHubspotAuthorization302ResponseHeaders{Location: loc}}, nil
}

// FinishHubspotAuthorization finishes the flow for its user: the dashboard relays the code.
func (h *HubSpot) FinishHubspotAuthorization(ctx context.Context, req api.FinishHubspotAuthorizationRequestObject) (api.FinishHubspotAuthorizationResponseObject, error) {
	app, err := h.svc.Complete(ctx, actor(ctx), req.Body.Code, req.Body.State)
	if err != nil {
		return nil, hubspotErr(err)
	}
	return api.FinishHubspotAuthorization200JSONResponse{Status: http.StatusOK, Data: renderConnectedApp(app)}, nil
}

// SearchHubspotContacts searches a portal's contacts (and picks them for a node).
func (h *HubSpot) SearchHubspotContacts(ctx context.Context, req api.SearchHubspotContactsRequestObject) (api.SearchHubspotContactsResponseObject, error) {
	p := req.Params
	rows, total, err := h.svc.Search(ctx, p.OrganizationId, p.ConnectedAppId, deref(p.Match), p.NodeId, p.WorkflowId)
	if err != nil {
		return nil, err
	}
	pg := page{Number: 1, Size: hubspot.PageSize}
	return api.SearchHubspotContacts200JSONResponse{Status: http.StatusOK, Data: mapped(rows, renderHubspotContact),
		Meta: pg.meta(total, len(rows))}, nil
}

// ListHubspotContacts lists a portal's contacts, or a node's HubSpot contacts, 100 a page.
func (h *HubSpot) ListHubspotContacts(ctx context.Context, req api.ListHubspotContactsRequestObject) (api.ListHubspotContactsResponseObject, error) {
	p := req.Params
	var src *store.ContactSource
	rows, meta, err := paged(newPage(p.Page, nil, hubspot.PageSize), func(limit, offset int) ([]hubspot.Row, int, error) {
		rows, total, s, err := h.svc.List(ctx, p.OrganizationId, p.ConnectedAppId, p.NodeId, p.WorkflowId, limit, offset)
		src = s
		return rows, total, err
	})
	if err != nil {
		return nil, err
	}
	out := api.ListHubspotContacts200JSONResponse{Status: http.StatusOK, Data: mapped(rows, renderHubspotContact), Meta: meta}
	if src != nil {
		rendered := renderContactSource(*src)
		out.Source = &rendered
	}
	return out, nil
}

// ListHubspotLifecycleStages answers a portal's lifecycle stages.
func (h *HubSpot) ListHubspotLifecycleStages(ctx context.Context, req api.ListHubspotLifecycleStagesRequestObject) (api.ListHubspotLifecycleStagesResponseObject, error) {
	st, err := h.svc.Stages(ctx, req.Params.OrganizationId, req.Params.ConnectedAppId)
	if err != nil {
		return nil, err
	}
	return api.ListHubspotLifecycleStages200JSONResponse{Status: http.StatusOK, Data: mapped(st, func(s hubspot.Stage) api.HubspotLifecycleStage {
		return api.HubspotLifecycleStage{Id: s.Value, Name: s.Label}
	})}, nil
}

// ReceiveHubspotWebhook checks HubSpot's v3 signature on the raw body and applies the batch.
func (h *HubSpot) ReceiveHubspotWebhook(ctx context.Context, req api.ReceiveHubspotWebhookRequestObject) (api.ReceiveHubspotWebhookResponseObject, error) {
	raw, _ := ctx.Value(rawBodyKey{}).([]byte)
	uri := h.baseURL + "/v1/webhooks/hubspot"
	if q := requestFrom(ctx).rawQuery; q != "" {
		uri += "?" + q
	}
	if err := h.svc.Receive(ctx, http.MethodPost, uri, raw, req.Params.XHubSpotSignatureV3, req.Params.XHubSpotRequestTimestamp); err != nil {
		return nil, err
	}
	return api.ReceiveHubspotWebhook200JSONResponse{Status: http.StatusOK, Data: api.Message{Message: "Events received."}}, nil
}

// crmUpdates answers what a call's lifecycle-stage steps wrote back to HubSpot (nil when none).
func crmUpdates(ctx context.Context, svc *hubspot.Service, orgID, callLogID string) (*[]api.CrmUpdate, error) {
	if svc == nil {
		return nil, nil
	}
	ups, err := svc.StageUpdatesOfCall(ctx, orgID, callLogID)
	if err != nil || len(ups) == 0 {
		return nil, err
	}
	out := mapped(ups, func(u store.StageUpdate) api.CrmUpdate {
		return api.CrmUpdate{Stage: u.Stage, Status: api.CrmUpdateStatus(u.Status), Reason: u.Reason, UpdatedAt: u.UpdatedAt}
	})
	return &out, nil
}

// renderHubspotContact is a HubSpot contact as a Contact: its id is HubSpot's record id.
func renderHubspotContact(r hubspot.Row) api.Contact {
	c := r.Contact
	c.ID = r.ExternalID
	if c.Status == "" {
		c.Status = store.ContactPending
	}
	return renderContact(c)
}
