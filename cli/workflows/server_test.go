package workflows_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/config"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/cli/workflows"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/testserver"
)

// The commands against the real server: templates, create from one, view, export to YAML,
// validate and import back (normalised), a stale import refused and forced, rename, delete.
func TestAgainstTheRealServer(t *testing.T) {
	env := testserver.Start(t)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	profile := &config.Profile{Server: env.URL, AccessToken: ada.Access, RefreshToken: ada.Refresh, Email: ada.Email, Team: team}
	run := func(args ...string) (string, string, error) {
		t.Helper()
		f, s := clitest.NewFactory(t, clitest.Options{Profile: profile})
		err := clitest.Run(workflows.NewCmdWorkflow(f), args...)
		return s.Out.String(), s.ErrOut.String(), err
	}
	c, err := betty.New(env.URL, betty.WithTokens(ada.Access, ada.Refresh))
	if err != nil {
		t.Fatal(err)
	}
	ag, err := betty.Do[client.AgentProfile](context.Background(), c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.CreateAgent(ctx, client.CreateAgentRequest{OrganizationId: team, Name: "Ava"})
	})
	if err != nil {
		t.Fatal(err)
	}

	out, _, err := run("templates", "--type", "inbound")
	if err != nil || !strings.Contains(out, "template-customer-support") || !strings.Contains(out, "companyName") {
		t.Fatalf("templates: %v %s", err, out)
	}
	out, errOut, err := run("create", "Support line", "--type", "inbound", "--agent", ag.Id, "--template", "template-customer-support",
		"--set", "companyName=Acme", "--set", "supportEmail=help@acme.example")
	id := strings.TrimSpace(out)
	if err != nil || len(id) != 36 || !strings.Contains(errOut, `Created workflow "Support line"`) {
		t.Fatalf("create: %v %q %q", err, out, errOut)
	}
	if _, err := c.WaitForWorkflowPrompt(context.Background(), id, 0); err != nil {
		t.Fatal(err)
	}
	out, _, err = run("view", id, "--prompt")
	if err != nil || !strings.Contains(out, "Thank the caller for calling Acme support") {
		t.Fatalf("view --prompt: %v %s", err, out)
	}

	out, _, err = run("export", id)
	if err != nil || !strings.Contains(out, "workflowType: inbound") || !strings.Contains(out, "version: 1") {
		t.Fatalf("export: %v %s", err, out)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "flow.yaml")
	var doc map[string]any
	if err := yaml.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	doc["nodes"] = append(doc["nodes"].([]any), map[string]any{"id": "extra-" + id, "type": "end-call", "position": map[string]any{"x": 0, "y": 0}, "data": map[string]any{}})
	edited, _ := yaml.Marshal(doc)
	os.WriteFile(path, edited, 0o600)
	if out, _, err = run("validate", path); err == nil || !strings.Contains(out, "normalised: placeholder-added (extra-"+id+")") ||
		!strings.Contains(out, "nodes[extra-"+id+"] (end-call): No path from Start") {
		t.Fatalf("validate: %v %s", err, out)
	}
	out, errOut, err = run("import", path)
	if err != nil || strings.TrimSpace(out) != id || !strings.Contains(errOut, "at version 2") || !strings.Contains(errOut, "normalised: placeholder-added extra-"+id) ||
		!strings.Contains(errOut, "Will sound generic, the server having no language model (1):\n  - nodes[extra-"+id+"].say: No spoken line") {
		t.Fatalf("import: %v %s %s", err, out, errOut)
	}
	// The file still says version 1: importing it again is refused, --force overwrites.
	_, _, err = run("import", path)
	var printed strings.Builder
	cmdutil.PrintError(&printed, nil, err)
	if err == nil || !strings.Contains(printed.String(), "the workflow is at version 2, the file at 1") {
		t.Fatalf("stale import: %v %s", err, printed.String())
	}
	if _, errOut, err = run("import", path, "--force"); err != nil || !strings.Contains(errOut, "at version 3") {
		t.Fatalf("forced import: %v %s", err, errOut)
	}
	// A file naming no workflow creates one.
	js, _ := json.Marshal(map[string]any{"name": "From git", "workflowType": "outbound", "nodes": []any{}, "edges": []any{}})
	newPath := filepath.Join(dir, "new.json")
	os.WriteFile(newPath, js, 0o600)
	if out, errOut, err = run("import", newPath, "--agent", ag.Id); err != nil || !strings.Contains(errOut, `Created workflow "From git"`) {
		t.Fatalf("import new: %v %s", err, errOut)
	}
	out, _, err = run("list", "--json")
	var list []struct{ ID, Name string }
	if json.Unmarshal([]byte(out), &list); err != nil || len(list) != 2 {
		t.Fatalf("list: %v %s", err, out)
	}
	if _, _, err = run("rename", id, "Helpdesk"); err != nil {
		t.Fatal(err)
	}
	if out, _, err = run("view", id); err != nil || !strings.Contains(out, "Helpdesk") {
		t.Fatalf("view: %v %s", err, out)
	}
	if _, errOut, err = run("delete", id, "--yes"); err != nil || !strings.Contains(errOut, `Deleted workflow "Helpdesk"`) {
		t.Fatalf("delete: %v %s", err, errOut)
	}
}

// A flow exported from one workflow imports into any other: another team's (it answered 409
// "already used by another workflow" while node ids were unique across teams) or another of
// the same team, keeping its node ids.
func TestImportIntoAnyWorkflow(t *testing.T) {
	env := testserver.Start(t)
	ctx := context.Background()
	type who struct {
		profile *config.Profile
		client  *betty.Client
		agent   string
	}
	caller := func(email, name string) who {
		c := env.SignUp(t, email)
		team := env.Team(t, c, name)
		sdk, err := betty.New(env.URL, betty.WithTokens(c.Access, c.Refresh))
		if err != nil {
			t.Fatal(err)
		}
		ag, err := betty.Do[client.AgentProfile](ctx, sdk, func(ctx context.Context, api *client.Client) (*http.Response, error) {
			return api.CreateAgent(ctx, client.CreateAgentRequest{OrganizationId: team, Name: "Ava"})
		})
		if err != nil {
			t.Fatal(err)
		}
		return who{&config.Profile{Server: env.URL, AccessToken: c.Access, RefreshToken: c.Refresh, Email: c.Email, Team: team}, sdk, ag.Id}
	}
	run := func(w who, args ...string) (string, string, error) {
		t.Helper()
		f, s := clitest.NewFactory(t, clitest.Options{Profile: w.profile})
		err := clitest.Run(workflows.NewCmdWorkflow(f), args...)
		return s.Out.String(), s.ErrOut.String(), err
	}
	create := func(w who, name string, extra ...string) string {
		t.Helper()
		out, errOut, err := run(w, append([]string{"create", name, "--type", "outbound", "--agent", w.agent}, extra...)...)
		if err != nil {
			t.Fatalf("create %s: %v %s", name, err, errOut)
		}
		return strings.TrimSpace(out)
	}
	ada, bob := caller("ada@example.com", "Acme"), caller("bob@example.com", "Bob's")
	source := create(ada, "Reminders", "--template", "template-appointment-reminder")
	out, _, err := run(ada, "export", source)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "flow.yaml")
	if err := os.WriteFile(path, []byte(out), 0o600); err != nil {
		t.Fatal(err)
	}
	exported, err := ada.client.Workflow(ctx, source)
	if err != nil {
		t.Fatal(err)
	}
	for _, into := range []struct {
		who  who
		what string
	}{{bob, "another team's workflow"}, {ada, "another workflow of the team"}} {
		target := create(into.who, "Imported")
		out, errOut, err := run(into.who, "import", path, "--into", target)
		if err != nil || strings.TrimSpace(out) != target {
			var printed strings.Builder
			cmdutil.PrintError(&printed, nil, err)
			t.Fatalf("import into %s: %s %s", into.what, printed.String(), errOut)
		}
		got, err := into.who.client.Workflow(ctx, target)
		if err != nil || len(*got.Nodes) != len(*exported.Nodes) {
			t.Fatalf("%s after the import: %v", into.what, err)
		}
		for i, n := range *got.Nodes {
			if n.Id != (*exported.Nodes)[i].Id {
				t.Errorf("%s: node %d is %s, the file's %s", into.what, i, n.Id, (*exported.Nodes)[i].Id)
			}
		}
	}
}
