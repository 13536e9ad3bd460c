package clitest

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/testserver"
)

// OutboundWorkflow makes a workflow of team that may run: an agent speaks, the team has
// credits, a number to call from and n contacts. It answers the workflow's and the agent's ids.
// Outside campaigns it follows the default settings: busy and unanswered contacts are called
// again an hour later.
func OutboundWorkflow(t *testing.T, env *testserver.Env, c *betty.Client, team string, n int) (string, string) {
	return runnable(t, env, c, team, n, false)
}

// CampaignWorkflow is OutboundWorkflow in a campaign that may call at any time and calls each
// contact once: a run of it ends as soon as every contact was called once.
func CampaignWorkflow(t *testing.T, env *testserver.Env, c *betty.Client, team string, n int) (string, string) {
	return runnable(t, env, c, team, n, true)
}

func runnable(t *testing.T, env *testserver.Env, c *betty.Client, team string, n int, inCampaign bool) (string, string) {
	t.Helper()
	ctx := context.Background()
	ag, err := betty.Do[client.AgentProfile](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.CreateAgent(ctx, client.CreateAgentRequest{OrganizationId: team, Name: "Ava"})
	})
	if err != nil {
		t.Fatal(err)
	}
	number := env.PhoneNumber(t, team, "+14155550100")
	var w client.Workflow
	if inCampaign {
		name, out := "Renewals", client.CallDirectionOutbound
		zero, five, lines, utc, hangUp, record := 0, 5, 10, "UTC", client.CampaignVoicemailAction("hang-up"), true
		camp, err := c.CreateCampaign(ctx, client.CreateCampaignRequest{OrganizationId: team, Name: &name, Type: &out, PhoneNumberId: &number,
			Settings: &client.CampaignSettingsInput{CallWindow: &client.CampaignCallWindow{Start: "00:00", End: "23:59",
				Days: []client.CampaignWeekday{"mon", "tue", "wed", "thu", "fri", "sat", "sun"}}, Timezone: &utc,
				RetryAttempts: &zero, RetryDelayMinutes: &five, MaxConcurrentCalls: &lines, VoicemailAction: &hangUp, RecordCalls: &record}})
		if err != nil {
			t.Fatal(err)
		}
		if w, err = c.CreateWorkflow(ctx, team, betty.WorkflowInput{Name: "Renewals", AgentID: ag.Id, CampaignID: camp.Id}); err != nil {
			t.Fatal(err)
		}
	} else if w, err = c.CreateWorkflow(ctx, team, betty.WorkflowInput{Name: "Renewals", AgentID: ag.Id, Type: client.WorkflowTypeOutbound}); err != nil {
		t.Fatal(err)
	}
	node, hello := "contacts-"+w.Id, "Greet {{firstName}}."
	g := betty.Graph{Nodes: []client.WorkflowNode{
		{Id: node, Type: client.NodeKindContacts},
		{Id: "start-" + w.Id, Type: client.NodeKindStart},
		{Id: "hello-" + w.Id, Type: client.NodeKindAgent, Data: client.WorkflowNodeData{Instruction: &hello}},
		{Id: "end-" + w.Id, Type: client.NodeKindEndCall},
	}, Edges: []client.WorkflowEdge{
		{Id: "e1-" + w.Id, Source: "start-" + w.Id, Target: "hello-" + w.Id, Type: client.AddStep},
		{Id: "e2-" + w.Id, Source: "hello-" + w.Id, Target: "end-" + w.Id, Type: client.AddStep},
	}}
	if _, err := c.SaveWorkflow(ctx, w.Id, g, 0); err != nil {
		t.Fatal(err)
	}
	if !inCampaign {
		if _, err := c.SetWorkflowPhoneNumber(ctx, w.Id, number); err != nil {
			t.Fatal(err)
		}
	}
	if err := env.DB.AddCredits(ctx, team, 100, store.LedgerGrant, nil, nil); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("phone,firstName\n")
	for i := range n {
		// +1415555<1000+i>; outside a campaign the default calling window applies, so numbers
		// whose local time is within it now (the campaign's window is always open).
		phone := fmt.Sprintf("+1415555%04d", 1000+i)
		if !inCampaign {
			phone = testserver.AwakeNumber(t, fmt.Sprintf("%04d", 1000+i))
		}
		fmt.Fprintf(&b, "%s,Ann%d\n", phone, i)
	}
	path := filepath.Join(t.TempDir(), "contacts.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ImportContacts(ctx, team, w.Id, node, path, betty.UploadOptions{}, betty.CSVOptions{}); err != nil {
		t.Fatal(err)
	}
	if csv, _, err := c.WaitForContacts(ctx, w.Id, node, 20*time.Millisecond); err != nil || csv.Status != client.ContactsImportStatusSuccess {
		t.Fatalf("contacts: %s %v", csv.Status, err)
	}
	return w.Id, ag.Id
}
