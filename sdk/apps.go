package betty

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/bettyhq/betty/sdk/client"
)

// Connected apps (issue 13): a team's connections to HubSpot and Zapier. Connecting HubSpot
// is an OAuth round trip in a browser: ConnectHubSpot answers the URL to open, HubSpot sends
// the browser back to the server, which hands it to the dashboard's callback page, where the
// user who called ConnectHubSpot, signed in there, finishes it (only that user may); the new
// connection then shows in ConnectedApps. Tokens never leave the server.

// ConnectedApps answers every connected app of a team, newest first (connected and
// disconnected, of every integration).
func (c *Client) ConnectedApps(ctx context.Context, team string) ([]client.ConnectedApp, error) {
	return Do[[]client.ConnectedApp](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.ListConnectedApps(ctx, &client.ListConnectedAppsParams{OrganizationId: team})
	})
}

// ConnectHubSpot starts connecting a HubSpot portal to a team and answers the authorisation
// URL to open in a browser (valid 10 minutes). It needs a signed-in person (API keys are
// refused); a server without a HubSpot app configured answers 501.
func (c *Client) ConnectHubSpot(ctx context.Context, team string) (client.AppAuthorization, error) {
	return Do[client.AppAuthorization](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.ConnectHubspotApp(ctx, client.ConnectHubspotAppJSONRequestBody{OrganizationId: team})
	})
}

// ReconnectHubSpot answers the authorisation URL that reconnects the team's HubSpot
// connected app id (for one disconnected, or whose access HubSpot revoked).
func (c *Client) ReconnectHubSpot(ctx context.Context, team, id string) (client.AppAuthorization, error) {
	return Do[client.AppAuthorization](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.ReconnectHubspotApp(ctx, client.ReconnectHubspotAppJSONRequestBody{OrganizationId: team, Id: id})
	})
}

// DisconnectApp disconnects a team's connected app of any integration (its tokens are revoked
// and deleted; the record stays, disconnected) and answers it.
func (c *Client) DisconnectApp(ctx context.Context, team, id string) (client.ConnectedApp, error) {
	return Do[client.ConnectedApp](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.DisconnectApp(ctx, client.DisconnectAppJSONRequestBody{OrganizationId: team, Id: id})
	})
}

// HubSpotNode names a workflow's Contacts node whose source is a HubSpot app.
type HubSpotNode struct{ WorkflowID, NodeID string }

// SearchHubSpotContacts answers up to 100 contacts of the HubSpot app whose name, e-mail or
// number contains match (Meta.TotalSize counts all matches). With a node, the matches are
// picked for it: they become the node's contacts, called by its runs.
func (c *Client) SearchHubSpotContacts(ctx context.Context, team, appID, match string, node *HubSpotNode) (Page[client.Contact], error) {
	return DoPage[client.Contact](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		p := &client.SearchHubspotContactsParams{OrganizationId: team, ConnectedAppId: appID}
		if match != "" {
			p.Match = &match
		}
		if node != nil {
			p.WorkflowId, p.NodeId = &node.WorkflowID, &node.NodeID
		}
		return api.SearchHubspotContacts(ctx, p)
	})
}

// HubSpotPage is a page of HubSpot contacts; with a node, its contacts source too (Status
// parsing while the server first reads a HubSpot list, error with the reason).
type HubSpotPage struct {
	Page[client.Contact]
	Source *client.WorkflowContactsSource
}

// HubSpotContacts answers one page (100 contacts) of the HubSpot app's contacts; with a node,
// of the node's HubSpot contacts with their call state, and the node's source.
func (c *Client) HubSpotContacts(ctx context.Context, team, appID string, page int, node *HubSpotNode) (HubSpotPage, error) {
	var out HubSpotPage
	env, err := send(ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		p := &client.ListHubspotContactsParams{OrganizationId: team, ConnectedAppId: appID}
		if page > 0 {
			p.Page = &page
		}
		if node != nil {
			p.WorkflowId, p.NodeId = &node.WorkflowID, &node.NodeID
		}
		return api.ListHubspotContacts(ctx, p)
	}, false)
	if err != nil {
		return out, err
	}
	if err := decodePage(env, &out.Page); err != nil {
		return out, err
	}
	var extra struct {
		Source *client.WorkflowContactsSource `json:"source"`
	}
	if err := json.Unmarshal(env.body, &extra); err != nil {
		return out, fmt.Errorf("betty: %s: decoding the source: %w", env.what, err)
	}
	out.Source = extra.Source
	return out, nil
}

// SetContactsHubSpot makes the HubSpot app appID the contacts source of a node: with listID,
// the members of that HubSpot list (the server reads it in the background and keeps the node
// in step with it; WaitForHubSpotList waits for the first read), else the contacts picked for
// the node with SearchHubSpotContacts.
func (c *Client) SetContactsHubSpot(ctx context.Context, team, workflowID, nodeID, appID, listID string) (client.WorkflowContactsSource, error) {
	req := client.SetWorkflowContactsRequest{OrganizationId: team, WorkflowId: workflowID, NodeId: nodeID,
		Source: client.ContactSourceHubspot, ConnectedAppId: &appID}
	if listID != "" {
		req.ListId = &listID
	}
	return Do[client.WorkflowContactsSource](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.SetWorkflowContacts(ctx, req)
	})
}

// WaitForHubSpotList polls a node's HubSpot contacts every interval (1 s when 0) until its
// list is no longer being read, and answers the first page with the node's source.
func (c *Client) WaitForHubSpotList(ctx context.Context, team, appID string, node HubSpotNode, interval time.Duration) (HubSpotPage, error) {
	if interval <= 0 {
		interval = time.Second
	}
	for {
		p, err := c.HubSpotContacts(ctx, team, appID, 1, &node)
		if err != nil || p.Source == nil || p.Source.Status != client.ContactsImportStatusParsing {
			return p, err
		}
		select {
		case <-ctx.Done():
			return p, ctx.Err()
		case <-time.After(interval):
		}
	}
}

// HubSpotLifecycleStages answers the HubSpot app's contact lifecycle stages in display order.
func (c *Client) HubSpotLifecycleStages(ctx context.Context, team, appID string) ([]client.HubspotLifecycleStage, error) {
	return Do[[]client.HubspotLifecycleStage](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.ListHubspotLifecycleStages(ctx, &client.ListHubspotLifecycleStagesParams{OrganizationId: team, ConnectedAppId: appID})
	})
}
