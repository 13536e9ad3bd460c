package httpapi

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/integrations"
	"github.com/bettyhq/betty/server/integrations/zapier"
	"github.com/bettyhq/betty/server/workflows"
)

// Zapier is the Zapier integration: the connection (OAuth callback, disconnect), Zapier's
// templates and zaps, and what a team's zaps call with its API key (REST hooks, contacts).
type Zapier struct {
	apps      zapier.Apps
	hooks     *zapier.Hooks
	workflows *workflows.Service
}

// ConnectZapierApp answers Zapier's authorise URL for the team.
func (h *Zapier) ConnectZapierApp(ctx context.Context, req api.ConnectZapierAppRequestObject) (api.ConnectZapierAppResponseObject, error) {
	a := actor(ctx)
	u, exp, err := h.apps.Authorize(a.OrganizationID, a.UserID)
	if err != nil {
		return nil, err
	}
	return api.ConnectZapierApp200JSONResponse{Status: http.StatusOK, Data: api.AppAuthorization{AuthorizationUrl: u, ExpiresAt: exp}}, nil
}

// CompleteZapierAuthorization exchanges Zapier's authorisation code for the team (checking
// the state of the flow connectZapierApp started, when the callback carries one).
func (h *Zapier) CompleteZapierAuthorization(ctx context.Context, req api.CompleteZapierAuthorizationRequestObject) (api.CompleteZapierAuthorizationResponseObject, error) {
	a := actor(ctx)
	if req.Body.State != nil {
		if err := h.apps.CheckState(ctx, a, *req.Body.State); err != nil {
			return nil, err
		}
	}
	app, err := h.apps.Connect(ctx, a.OrganizationID, a.UserID, req.Body.Code)
	if err != nil {
		return nil, err
	}
	return api.CompleteZapierAuthorization200JSONResponse{Status: http.StatusOK, Data: renderConnectedApp(app)}, nil
}

// DisconnectZapierApp disconnects the team's Zapier connected app.
func (h *Zapier) DisconnectZapierApp(ctx context.Context, req api.DisconnectZapierAppRequestObject) (api.DisconnectZapierAppResponseObject, error) {
	app, err := h.apps.Integrations.Disconnect(ctx, req.Body.OrganizationId, req.Body.Id, integrations.Zapier)
	if err != nil {
		return nil, err
	}
	return api.DisconnectZapierApp200JSONResponse{Status: http.StatusOK, Data: renderConnectedApp(app)}, nil
}

// ListZapierTemplates answers the Zap templates that use Betty's app.
func (h *Zapier) ListZapierTemplates(ctx context.Context, _ api.ListZapierTemplatesRequestObject) (api.ListZapierTemplatesResponseObject, error) {
	ts, err := h.apps.Templates(ctx)
	if err != nil {
		return nil, err
	}
	return api.ListZapierTemplates200JSONResponse{Status: http.StatusOK, Data: mapped(ts, func(t zapier.Template) api.ZapierTemplate {
		return api.ZapierTemplate{Id: t.ID, Title: t.Title, Description: t.Description, Url: t.URL, Steps: mapped(t.Steps, renderZapierStep)}
	})}, nil
}

// ListZapierZaps answers a page of the team's zaps (4 a page by default).
func (h *Zapier) ListZapierZaps(ctx context.Context, req api.ListZapierZapsRequestObject) (api.ListZapierZapsResponseObject, error) {
	p := newPage(req.Params.Page, req.Params.Limit, 4)
	zaps, meta, err := paged(p, func(limit, offset int) ([]zapier.Zap, int, error) {
		return h.apps.Zaps(ctx, req.Params.OrganizationId, limit, offset)
	})
	if err != nil {
		return nil, err
	}
	return api.ListZapierZaps200JSONResponse{Status: http.StatusOK, Meta: meta, Data: mapped(zaps, func(z zapier.Zap) api.ZapierZap {
		return api.ZapierZap{Id: z.ID, Title: z.Title, State: api.ZapierZapState(z.State), Url: z.URL, ModifiedAt: z.ModifiedAt,
			Steps: mapped(z.Steps, renderZapierStep)}
	})}, nil
}

// ListZapierHooks answers the team's REST-hook subscriptions.
func (h *Zapier) ListZapierHooks(ctx context.Context, req api.ListZapierHooksRequestObject) (api.ListZapierHooksResponseObject, error) {
	hooks, err := h.hooks.List(ctx, req.Params.OrganizationId)
	if err != nil {
		return nil, err
	}
	return api.ListZapierHooks200JSONResponse{Status: http.StatusOK, Data: mapped(hooks, renderZapierHook)}, nil
}

// SubscribeZapierHook subscribes a zap's hook URL to an event of the key's team.
func (h *Zapier) SubscribeZapierHook(ctx context.Context, req api.SubscribeZapierHookRequestObject) (api.SubscribeZapierHookResponseObject, error) {
	ev, err := zapier.ParseEvent(string(req.Body.Event), "body.event")
	if err != nil {
		return nil, err
	}
	hook, _, err := h.hooks.Subscribe(ctx, actor(ctx), req.Body.HookUrl, ev)
	if err != nil {
		return nil, err
	}
	return api.SubscribeZapierHook201JSONResponse{Status: http.StatusCreated, Data: renderZapierHook(hook)}, nil
}

// UnsubscribeZapierHook removes a subscription of the key's team.
func (h *Zapier) UnsubscribeZapierHook(ctx context.Context, req api.UnsubscribeZapierHookRequestObject) (api.UnsubscribeZapierHookResponseObject, error) {
	if err := h.hooks.Unsubscribe(ctx, actor(ctx).OrganizationID, req.Id); err != nil {
		return nil, err
	}
	return api.UnsubscribeZapierHook200JSONResponse{Status: http.StatusOK, Data: api.Deleted{Id: req.Id}}, nil
}

// ListZapierHookSamples answers recent payloads of an event, as they are POSTed.
func (h *Zapier) ListZapierHookSamples(ctx context.Context, req api.ListZapierHookSamplesRequestObject) (api.ListZapierHookSamplesResponseObject, error) {
	ev, err := zapier.ParseEvent(string(req.Params.Event), "query.event")
	if err != nil {
		return nil, err
	}
	samples, err := h.hooks.Samples(ctx, actor(ctx).OrganizationID, ev)
	if err != nil {
		return nil, err
	}
	data := make([]map[string]any, 0, len(samples))
	for _, s := range samples {
		var m map[string]any
		if err := json.Unmarshal(s, &m); err != nil {
			return nil, err
		}
		data = append(data, m)
	}
	return api.ListZapierHookSamples200JSONResponse{Status: http.StatusOK, Data: data}, nil
}

// AddZapierContacts pushes a zap's contacts into a zapier Contacts node of the key's team.
func (h *Zapier) AddZapierContacts(ctx context.Context, req api.AddZapierContactsRequestObject) (api.AddZapierContactsResponseObject, error) {
	in := make([]workflows.ZapierContact, len(req.Body.Contacts))
	for i, c := range req.Body.Contacts {
		in[i] = workflows.ZapierContact{Phone: c.Phone, FirstName: c.FirstName, LastName: c.LastName, Email: c.Email,
			LifecycleStage: (*string)(c.LifecycleStage), Extra: c.AdditionalProperties}
	}
	res, err := h.workflows.AddZapierContacts(ctx, actor(ctx), req.Body.WorkflowId, req.Body.NodeId, in, h.hooks.ContactAdded)
	if err != nil {
		return nil, err
	}
	return api.AddZapierContacts201JSONResponse{Status: http.StatusCreated, Data: api.ZapierContactsResult{WorkflowId: res.WorkflowID,
		NodeId: res.NodeID, Added: res.Added, Updated: res.Updated, Contacts: mapped(res.Contacts, renderContact)}}, nil
}

func renderZapierStep(s zapier.Step) api.ZapierStep {
	return api.ZapierStep{Title: s.Title, ImageUrl: s.ImageURL}
}

func renderZapierHook(h zapier.Hook) api.ZapierHook {
	out := api.ZapierHook{Id: h.ID, OrganizationId: h.OrganizationID, Event: api.ZapierHookEvent(h.Event), HookUrl: h.HookURL,
		CreatedAt: h.CreatedAt, UpdatedAt: h.UpdatedAt}
	if d := h.LastDelivery; d != nil {
		out.LastDelivery = &api.ZapierDelivery{Event: api.ZapierHookEvent(d.Event), Status: api.ZapierDeliveryStatus(d.Status),
			Attempts: d.Attempts, HttpStatus: d.LastStatus, Error: d.LastError, UpdatedAt: d.UpdatedAt}
	}
	return out
}
