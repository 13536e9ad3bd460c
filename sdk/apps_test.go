package betty_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/integrations/hubspot/hubspottest"
	"github.com/bettyhq/betty/server/testserver"
)

// Connected apps through the SDK: connect HubSpot (the browser's approval played by the
// fake), list, contacts, a node calling a HubSpot list, stages, disconnect.
func TestConnectedAppsSDK(t *testing.T) {
	ctx := context.Background()
	f := hubspottest.New(hubspottest.Options{})
	defer f.Close()
	ada := f.AddContact(map[string]string{"firstname": "Ada", "lastname": "Lovelace", "phone": "+14155550123", "lifecyclestage": "customer"})
	list := f.AddList("Customers", ada)
	env := testserver.Start(t, testserver.WithHubSpot(f))
	owner := env.SignUp(t, "ada@example.com")
	org := env.Team(t, owner, "Acme")
	c, err := betty.New(env.URL, betty.WithTokens(owner.Access, owner.Refresh))
	if err != nil {
		t.Fatal(err)
	}
	auth, err := c.ConnectHubSpot(ctx, org)
	if err != nil {
		t.Fatal(err)
	}
	testserver.ApproveHubSpot(t, env, f, owner, auth.AuthorizationUrl)
	apps, err := c.ConnectedApps(ctx, org)
	if err != nil || len(apps) != 1 || apps[0].Name != "acme.hubspot.com" {
		t.Fatalf("apps: %+v %v", apps, err)
	}
	id := apps[0].Id
	found, err := c.SearchHubSpotContacts(ctx, org, id, "lovelace", nil)
	if err != nil || len(found.Items) != 1 || found.Items[0].Id != ada || found.Meta.TotalSize != 1 {
		t.Fatalf("search: %+v %v", found, err)
	}
	page, err := c.HubSpotContacts(ctx, org, id, 1, nil)
	if err != nil || len(page.Items) != 1 {
		t.Fatalf("list: %+v %v", page, err)
	}
	// A node calling a HubSpot list: set, read by the server, listed with its source.
	ag, err := betty.Do[client.AgentProfile](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.CreateAgent(ctx, client.CreateAgentRequest{OrganizationId: org, Name: "Ava"})
	})
	if err != nil {
		t.Fatal(err)
	}
	w, err := c.CreateWorkflow(ctx, org, betty.WorkflowInput{Name: "Renewals", AgentID: ag.Id, Type: client.WorkflowTypeOutbound})
	if err != nil {
		t.Fatal(err)
	}
	node := "contacts-" + w.Id
	if _, err = c.SaveWorkflow(ctx, w.Id, betty.Graph{Nodes: []client.WorkflowNode{{Id: node, Type: client.NodeKindContacts}, {Id: "start-" + w.Id, Type: client.NodeKindStart}}}, 0); err != nil {
		t.Fatal(err)
	}
	src, err := c.SetContactsHubSpot(ctx, org, w.Id, node, id, list)
	if err != nil || src.Status != client.ContactsImportStatusParsing || src.ListId == nil || *src.ListId != list {
		t.Fatalf("set a list: %+v %v", src, err)
	}
	wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	read, err := c.WaitForHubSpotList(wctx, org, id, betty.HubSpotNode{WorkflowID: w.Id, NodeID: node}, 50*time.Millisecond)
	if err != nil || read.Source == nil || read.Source.Status != client.ContactsImportStatusSuccess || len(read.Items) != 1 || read.Items[0].Id != ada {
		t.Fatalf("the list read: %+v %v", read, err)
	}
	stages, err := c.HubSpotLifecycleStages(ctx, org, id)
	if err != nil || len(stages) != 8 || stages[0].Id != "subscriber" {
		t.Fatalf("stages: %+v %v", stages, err)
	}
	if _, err := c.ReconnectHubSpot(ctx, org, id); err != nil {
		t.Fatal(err)
	}
	app, err := c.DisconnectApp(ctx, org, id)
	if err != nil || app.Status != "disconnected" {
		t.Fatalf("disconnect: %+v %v", app, err)
	}
	var ae *betty.APIError
	if _, err := c.HubSpotLifecycleStages(ctx, org, id); !errors.As(err, &ae) || ae.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("stages of a disconnected app: %v", err)
	}
}
