package betty_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/testserver"
)

// The workflow helpers against the real server: templates, create from a template, the
// version guard, normalisation and per-node errors, the prompt, rename, delete.
func TestWorkflowsAgainstTheRealServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	env := testserver.Start(t)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	c, err := betty.New(env.URL, betty.WithTokens(ada.Access, ada.Refresh))
	if err != nil {
		t.Fatal(err)
	}
	agentName := "Ava"
	ag, err := betty.Do[client.AgentProfile](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.CreateAgent(ctx, client.CreateAgentRequest{OrganizationId: team, Name: agentName})
	})
	if err != nil {
		t.Fatal(err)
	}
	var support string
	n := 0
	for tp, err := range c.WorkflowTemplates(ctx, client.WorkflowTypeInbound) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		if tp.Name == "Customer support" {
			support = tp.Id
		}
	}
	if n != 3 || support == "" { // customer support, after-hours receptionist, answer calls
		t.Fatalf("%d inbound templates", n)
	}
	w, err := c.CreateWorkflow(ctx, team, betty.WorkflowInput{Name: "Support", AgentID: ag.Id, Type: client.WorkflowTypeInbound,
		Template: support, TemplateValues: map[string]string{"companyName": "Acme"}})
	if err != nil || w.Version != 1 {
		t.Fatalf("create: %+v %v", w, err)
	}
	if w, err = c.WaitForWorkflowPrompt(ctx, w.Id, 20*time.Millisecond); err != nil || w.ReadablePrompt == nil || !strings.Contains(*w.ReadablePrompt, "Acme support") {
		t.Fatalf("prompt: %+v %v", w.ReadablePrompt, err)
	}
	w, err = c.Workflow(ctx, w.Id)
	if err != nil {
		t.Fatal(err)
	}
	g := betty.GraphOf(w)
	lonely := "lonely-" + w.Id
	g.Nodes = append(g.Nodes, client.WorkflowNode{Id: lonely, Type: client.NodeKindEndCall})
	saved, err := c.SaveWorkflow(ctx, w.Id, g, 1)
	if err != nil || saved.Version != 2 || saved.Normalization == nil || len(*saved.Normalization) != 1 {
		t.Fatalf("save: %+v %v", saved.Normalization, err)
	}
	_, err = c.SaveWorkflow(ctx, w.Id, g, 1)
	var apiErr *betty.APIError
	if !errors.Is(err, betty.ErrConflict) || !errors.As(err, &apiErr) || apiErr.CurrentVersion != 2 {
		t.Fatalf("stale save: %v", err)
	}
	bad := betty.GraphOf(saved)
	bad.Nodes = append(bad.Nodes, client.WorkflowNode{Id: "start-2-" + w.Id, Type: client.NodeKindStart})
	_, err = c.SaveWorkflow(ctx, w.Id, bad, 0)
	if !errors.Is(err, betty.ErrValidation) || !errors.As(err, &apiErr) || len(apiErr.Fields) != 1 || apiErr.Fields[0].Field != "nodes[start-2-"+w.Id+"].type" {
		t.Fatalf("two starts: %v", err)
	}
	if w, err = c.RenameWorkflow(ctx, w.Id, "Helpdesk"); err != nil || w.Name != "Helpdesk" {
		t.Fatalf("rename: %v", err)
	}
	count := 0
	for got, err := range c.Workflows(ctx, team, "") {
		if err != nil || got.Id != w.Id {
			t.Fatalf("list: %+v %v", got, err)
		}
		count++
	}
	if count != 1 {
		t.Fatalf("%d workflows", count)
	}
	if err := c.DeleteWorkflow(ctx, w.Id); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Workflow(ctx, w.Id); !errors.Is(err, betty.ErrNotFound) {
		t.Fatalf("after delete: %v", err)
	}
}
