package workflows_test

import (
	"context"
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

// Post-call fields travel with the graph file: a template's are shown and exported, an edited
// file sets them, a broken one is refused naming the field.
func TestPostCallFieldsAgainstTheRealServer(t *testing.T) {
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
	out, _, err := run("create", "Leads", "--type", "outbound", "--agent", ag.Id, "--template", "template-lead-qualification")
	if err != nil {
		t.Fatal(err)
	}
	id := strings.TrimSpace(out)
	if out, _, err = run("view", id); err != nil || !strings.Contains(out, "email (email) What is the best e-mail address to send the invitation to?") ||
		!strings.Contains(out, "interested (yes-no)") {
		t.Fatalf("view: %v %s", err, out)
	}
	out, _, err = run("export", id)
	var doc map[string]any
	if err != nil || yaml.Unmarshal([]byte(out), &doc) != nil || len(doc["postCallFields"].([]any)) != 3 {
		t.Fatalf("export: %v %s", err, out)
	}
	doc["postCallFields"] = append(doc["postCallFields"].([]any), map[string]any{"name": "plan", "type": "choice",
		"description": "Which plan do they want?", "options": []string{"Basic", "Pro"}})
	path := filepath.Join(t.TempDir(), "flow.yaml")
	edited, _ := yaml.Marshal(doc)
	os.WriteFile(path, edited, 0o600)
	if _, _, err = run("import", path); err != nil {
		t.Fatal(err)
	}
	if out, _, err = run("view", id); err != nil || !strings.Contains(out, "plan (choice) Which plan do they want? [Basic | Pro]") {
		t.Fatalf("view after import: %v %s", err, out)
	}
	doc["postCallFields"] = append(doc["postCallFields"].([]any), map[string]any{"name": "plan", "type": "text", "description": "Again"})
	edited, _ = yaml.Marshal(doc)
	os.WriteFile(path, edited, 0o600)
	_, _, err = run("import", path, "--force")
	var printed strings.Builder
	cmdutil.PrintError(&printed, nil, err)
	if err == nil || !strings.Contains(printed.String(), "postCallFields[4].name") {
		t.Fatalf("a field named twice: %v %s", err, printed.String())
	}
}
