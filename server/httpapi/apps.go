package httpapi

import (
	"context"
	"net/http"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/integrations"
)

// Apps is the connected apps of every integration (the HubSpot and Zapier handlers add
// their own operations).
type Apps struct{ svc *integrations.Service }

// ListConnectedApps answers every connected app of the organisation, newest first.
func (h *Apps) ListConnectedApps(ctx context.Context, req api.ListConnectedAppsRequestObject) (api.ListConnectedAppsResponseObject, error) {
	apps, err := h.svc.List(ctx, req.Params.OrganizationId)
	if err != nil {
		return nil, err
	}
	return api.ListConnectedApps200JSONResponse{Status: http.StatusOK, Data: mapped(apps, renderConnectedApp)}, nil
}

// DisconnectApp disconnects a connected app of any integration.
func (h *Apps) DisconnectApp(ctx context.Context, req api.DisconnectAppRequestObject) (api.DisconnectAppResponseObject, error) {
	a, err := h.svc.Disconnect(ctx, req.Body.OrganizationId, req.Body.Id, "")
	if err != nil {
		return nil, err
	}
	return api.DisconnectApp200JSONResponse{Status: http.StatusOK, Data: renderConnectedApp(a)}, nil
}

// renderConnectedApp is a connected app as the contract answers it: never its credential.
func renderConnectedApp(a integrations.App) api.ConnectedApp {
	return api.ConnectedApp{Id: a.ID, OrganizationId: a.OrganizationID, ConnectedAppId: a.ID,
		IntegrationId: api.AppIntegration(a.Integration), Status: api.ConnectedAppStatus(a.Status),
		ConnectionId: a.ConnectionID, Name: a.Name, AccountId: a.AccountID, CreatedAt: a.CreatedAt, UpdatedAt: a.UpdatedAt}
}
