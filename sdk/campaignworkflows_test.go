package betty_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/testserver"
)

// The typed helpers of every workflow operation, against the real server: CreateWorkflow in a
// campaign and with a number (and nothing left behind when the number is refused), a
// campaign's workflows listed, activated, deactivated and copied, a workflow's number and
// agent set, the workflows of a number, one node's data, the storefront workflow, and a
// Contacts node cleared.
func TestWorkflowHelpersAgainstTheRealServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	env := testserver.Start(t)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	c, err := betty.New(env.URL, betty.WithTokens(ada.Access, ada.Refresh))
	if err != nil {
		t.Fatal(err)
	}
	ava, err := c.CreateAgent(ctx, client.CreateAgentRequest{OrganizationId: team, Name: "Ava"})
	if err != nil {
		t.Fatal(err)
	}
	bo, err := c.CreateAgent(ctx, client.CreateAgentRequest{OrganizationId: team, Name: "Bo"})
	if err != nil {
		t.Fatal(err)
	}
	number := env.PhoneNumber(t, team, "+14155550100")
	name, out := "Renewals", client.CallDirectionOutbound
	camp, err := c.CreateCampaign(ctx, client.CreateCampaignRequest{OrganizationId: team, Name: &name, Type: &out})
	if err != nil {
		t.Fatal(err)
	}

	// In a campaign, with a number: one call of the caller's, a workflow that has both.
	w, err := c.CreateWorkflow(ctx, team, betty.WorkflowInput{Name: "Reminders", AgentID: ava.Id, CampaignID: camp.Id,
		PhoneNumberID: number, Template: "template-appointment-reminder"})
	if err != nil || w.CampaignId == nil || *w.CampaignId != camp.Id || w.PhoneNumberId == nil || *w.PhoneNumberId != number ||
		w.WorkflowType != client.WorkflowTypeOutbound || w.Nodes == nil || len(*w.Nodes) == 0 {
		t.Fatalf("create in a campaign with a number: %+v %v", w, err)
	}
	// A campaign's workflows are of its type.
	if _, err := c.CreateWorkflow(ctx, team, betty.WorkflowInput{Name: "Inbound", CampaignID: camp.Id, Type: client.WorkflowTypeInbound}); err == nil ||
		!strings.Contains(err.Error(), "is outbound") {
		t.Fatalf("inbound in an outbound campaign: %v", err)
	}
	// A number the team does not have: refused, and no workflow is left without it.
	_, err = c.CreateWorkflow(ctx, team, betty.WorkflowInput{Name: "Orphan", AgentID: ava.Id, Type: client.WorkflowTypeOutbound,
		PhoneNumberID: "0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10"})
	if !errors.Is(err, betty.ErrNotFound) {
		t.Fatalf("unknown number: %v", err)
	}
	for got, err := range c.Workflows(ctx, team, "") {
		if err != nil || got.Name == "Orphan" {
			t.Fatalf("left behind: %+v %v", got, err)
		}
	}
	// Outside a campaign, with a number.
	plain, err := c.CreateWorkflow(ctx, team, betty.WorkflowInput{Name: "Plain", AgentID: ava.Id, Type: client.WorkflowTypeOutbound, PhoneNumberID: number})
	if err != nil || plain.PhoneNumberId == nil || *plain.PhoneNumberId != number || plain.CampaignId != nil {
		t.Fatalf("create with a number: %+v %v", plain, err)
	}

	// The campaign's workflows: create (summary), list with filters, activate, copy, deactivate.
	s, err := c.CreateCampaignWorkflow(ctx, camp.Id, betty.CampaignWorkflowInput{})
	if err != nil || s.Name != "Renewals workflow" || s.Active || s.CampaignId != camp.Id {
		t.Fatalf("create campaign workflow: %+v %v", s, err)
	}
	if got, err := c.ActivateCampaignWorkflow(ctx, camp.Id, w.Id); err != nil || got.WorkflowId == nil || *got.WorkflowId != w.Id {
		t.Fatalf("activate: %+v %v", got, err)
	}
	yes, no := true, false
	names := func(f betty.CampaignWorkflowFilter) []string {
		t.Helper()
		var out []string
		for s, err := range c.CampaignWorkflows(ctx, camp.Id, f) {
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, s.Name)
		}
		return out
	}
	if got := names(betty.CampaignWorkflowFilter{}); strings.Join(got, ",") != "Renewals workflow,Reminders" {
		t.Errorf("every workflow: %v", got)
	}
	if got := names(betty.CampaignWorkflowFilter{Active: &yes}); strings.Join(got, ",") != "Reminders" {
		t.Errorf("active: %v", got)
	}
	if got := names(betty.CampaignWorkflowFilter{Name: "REN", Active: &no}); strings.Join(got, ",") != "Renewals workflow" {
		t.Errorf("inactive named ren: %v", got)
	}
	cp, err := c.DuplicateCampaignWorkflow(ctx, w.Id)
	if err != nil || cp.Name != "Copy of Reminders" || cp.Active || cp.PhoneNumberId == nil || *cp.PhoneNumberId != number {
		t.Fatalf("duplicate: %+v %v", cp, err)
	}
	if got, err := c.DeactivateCampaignWorkflow(ctx, camp.Id, w.Id); err != nil || got.WorkflowId != nil {
		t.Fatalf("deactivate: %+v %v", got, err)
	}

	// A workflow's number and agent, and the workflows of a number.
	if got, err := c.SetWorkflowPhoneNumber(ctx, s.Id, number); err != nil || got.PhoneNumberId == nil || *got.PhoneNumberId != number {
		t.Fatalf("set number: %+v %v", got, err)
	}
	p, err := c.WorkflowsOfPhoneNumber(ctx, number, client.WorkflowTypeOutbound, 10)
	if err != nil || p.Meta.TotalSize != 4 || len(p.Items) != 4 { // Reminders, Plain, the copy, Renewals workflow
		t.Fatalf("workflows of the number: %d %+v %v", len(p.Items), p.Meta, err)
	}
	if got, err := c.SetWorkflowPhoneNumber(ctx, s.Id, ""); err != nil || got.PhoneNumberId != nil {
		t.Fatalf("remove number: %+v %v", got, err)
	}
	if got, err := c.SetWorkflowAgent(ctx, w.Id, bo.Id); err != nil || got.AgentId == nil || *got.AgentId != bo.Id {
		t.Fatalf("set agent: %+v %v", got, err)
	}

	// One node's data.
	var agentNode string
	for _, n := range *w.Nodes {
		if n.Type == client.NodeKindAgent {
			agentNode = n.Id
			break
		}
	}
	say := "Remind {{firstName}} of the appointment."
	got, err := c.UpdateWorkflowNode(ctx, w.Id, agentNode, client.WorkflowNodeData{Instruction: &say})
	if err != nil || got.Version != w.Version+1 {
		t.Fatalf("update node: %+v %v", got.Version, err)
	}
	for _, n := range *got.Nodes {
		if n.Id == agentNode && (n.Data.Instruction == nil || *n.Data.Instruction != say) {
			t.Errorf("node after the update: %+v", n.Data)
		}
	}

	// The storefront's workflow: outbound only.
	if got, err := c.ConfigureWorkflowShopify(ctx, team, plain.Id); err != nil || !got.ShopifyEnabled {
		t.Fatalf("storefront: %+v %v", got, err)
	}

	// A Contacts node cleared, then one whose CSV is deleted.
	node := betty.ContactsNode(got)
	if node == "" {
		t.Fatal("the template has no Contacts node")
	}
	path := filepath.Join(t.TempDir(), "contacts.csv")
	if err := os.WriteFile(path, []byte("phone,firstName\n+14155551000,Ann\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	imported := func() {
		t.Helper()
		if _, err := c.ImportContacts(ctx, team, w.Id, node, path, betty.UploadOptions{}, betty.CSVOptions{}); err != nil {
			t.Fatal(err)
		}
		if csv, _, err := c.WaitForContacts(ctx, w.Id, node, 20*time.Millisecond); err != nil || csv.Status != client.ContactsImportStatusSuccess {
			t.Fatalf("import: %+v %v", csv.Status, err)
		}
	}
	imported()
	if err := c.ClearContacts(ctx, w.Id, node, client.ContactSourceHubspot); err != nil {
		t.Fatalf("clear another source: %v", err)
	}
	if _, _, err := c.ContactsCSV(ctx, w.Id, node, 1, 10); err != nil {
		t.Fatalf("a clear of another source cleared the CSV: %v", err)
	}
	if err := c.ClearContacts(ctx, w.Id, node, ""); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.ContactsCSV(ctx, w.Id, node, 1, 10); !errors.Is(err, betty.ErrNotFound) {
		t.Fatalf("after clearing: %v", err)
	}
	imported()
	if err := c.DeleteContactsCSV(ctx, w.Id, node); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteContactsCSV(ctx, w.Id, node); !errors.Is(err, betty.ErrNotFound) {
		t.Fatalf("deleting it again: %v", err)
	}
}

// KeyTeam tells an API key which team it belongs to, with the key's role; a person's client
// is told to use a key.
func TestKeyTeamAgainstTheRealServer(t *testing.T) {
	ctx := context.Background()
	env := testserver.Start(t)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	env.Team(t, ada, "Other")
	k, err := betty.New(env.URL, betty.WithAPIKey(env.APIKey(t, team, "member")))
	if err != nil {
		t.Fatal(err)
	}
	org, err := k.KeyTeam(ctx)
	if err != nil || org.Id != team || org.Name != "Acme" || org.MyRole == nil || *org.MyRole != client.TeamRoleMember {
		t.Fatalf("key team: %+v %v", org, err)
	}
	s, _ := betty.New(env.URL, betty.WithTokens(ada.Access, ada.Refresh))
	if _, err := s.KeyTeam(ctx); err == nil {
		t.Fatal("a session's client has a key team")
	}
}

// Request sends any operation with the client's credentials and answers the response whole; a
// non-2xx one is an *APIError too, with its body.
func TestRequestAgainstTheRealServer(t *testing.T) {
	ctx := context.Background()
	env := testserver.Start(t)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	c, _ := betty.New(env.URL, betty.WithAPIKey(env.APIKey(t, team, "developer")))

	body, _ := json.Marshal(map[string]any{"organizationId": team, "name": "Ava"})
	r, err := c.Request(ctx, http.MethodPost, "/v1/agent/create", nil, body)
	if err != nil || r.StatusCode != http.StatusCreated || !strings.Contains(string(r.Body), `"name":"Ava"`) {
		t.Fatalf("POST: %+v %v", r, err)
	}
	r, err = c.Request(ctx, http.MethodGet, "/v1/agent/list/"+team, nil, nil)
	if err != nil || r.StatusCode != http.StatusOK || !strings.Contains(string(r.Body), `"totalSize":1`) {
		t.Fatalf("GET: %+v %v", r, err)
	}
	r, err = c.Request(ctx, http.MethodGet, "/v1/workflow/0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10", nil, nil)
	var apiErr *betty.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusNotFound || r == nil || !strings.Contains(string(r.Body), `"code":"not_found"`) {
		t.Fatalf("404: %+v %v", r, err)
	}
	for _, path := range []string{"v1/team/list", "//evil.example/v1/team/list", "http://evil.example/"} {
		if _, err := c.Request(ctx, http.MethodGet, path, nil, nil); err == nil {
			t.Errorf("%s was sent", path)
		}
	}
}

// Every operation on workflows (the Workflows tag) and on a campaign's workflows has a typed
// helper, so no program needs Do with a type picked by hand for them.
func TestEveryWorkflowOperationHasAHelper(t *testing.T) {
	spec, err := api.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	var code strings.Builder
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		code.Write(raw)
	}
	n := 0
	for _, item := range spec.Paths.Map() {
		for _, op := range item.Operations() {
			if !slices.Contains(op.Tags, "Workflows") && !strings.Contains(op.OperationID, "CampaignWorkflow") {
				continue
			}
			n++
			method := strings.ToUpper(op.OperationID[:1]) + op.OperationID[1:]
			if !strings.Contains(code.String(), "api."+method+"(") {
				t.Errorf("%s has no typed helper in the SDK", op.OperationID)
			}
		}
	}
	if n < 25 {
		t.Errorf("found %d workflow operations: is the filter still right?", n)
	}
}
