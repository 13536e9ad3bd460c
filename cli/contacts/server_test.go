package contacts_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bettyhq/betty/cli/config"
	"github.com/bettyhq/betty/cli/contacts"
	"github.com/bettyhq/betty/cli/internal/clitest"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/integrations/hubspot/hubspottest"
	"github.com/bettyhq/betty/server/testserver"
)

// Importing a CSV with bad rows and listing them, against the real server.
func TestAgainstTheRealServer(t *testing.T) {
	env := testserver.Start(t)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	profile := &config.Profile{Server: env.URL, AccessToken: ada.Access, RefreshToken: ada.Refresh, Email: ada.Email, Team: team}
	run := func(args ...string) (string, string, error) {
		t.Helper()
		f, s := clitest.NewFactory(t, clitest.Options{Profile: profile})
		err := clitest.Run(contacts.NewCmdContacts(f), args...)
		return s.Out.String(), s.ErrOut.String(), err
	}
	ctx := context.Background()
	c, err := betty.New(env.URL, betty.WithTokens(ada.Access, ada.Refresh))
	if err != nil {
		t.Fatal(err)
	}
	ag, err := betty.Do[client.AgentProfile](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.CreateAgent(ctx, client.CreateAgentRequest{OrganizationId: team, Name: "Ava"})
	})
	if err != nil {
		t.Fatal(err)
	}
	w, err := c.CreateWorkflow(ctx, team, betty.WorkflowInput{Name: "Calls", AgentID: ag.Id, Type: client.WorkflowTypeOutbound})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err = run("list", w.Id); err == nil || !strings.Contains(err.Error(), "has no Contacts node") {
		t.Fatalf("no node: %v", err)
	}
	if _, err = c.SaveWorkflow(ctx, w.Id, betty.Graph{Nodes: []client.WorkflowNode{{Id: "c-" + w.Id, Type: client.NodeKindContacts},
		{Id: "s-" + w.Id, Type: client.NodeKindStart}}}, 0); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("Phone Number,First Name\n")
	for i := 0; i < 100; i++ {
		if i%10 == 9 {
			fmt.Fprintf(&b, "nope,Bad%d\n", i)
		} else {
			fmt.Fprintf(&b, "415-555-%04d,Ann%d\n", i, i)
		}
	}
	path := filepath.Join(t.TempDir(), "people.csv")
	os.WriteFile(path, []byte(b.String()), 0o600)
	if _, errOut, err := run("import", w.Id, path, "--wait"); err != nil || !strings.Contains(errOut, "90 contacts, 10 rejected") {
		t.Fatalf("import: %v %s", err, errOut)
	}
	out, _, err := run("list", w.Id, "--failed", "--json")
	var failed []struct {
		Phone         string
		BettyMetadata struct{ LastError string } `json:"betty_metadata"`
	}
	if json.Unmarshal([]byte(out), &failed); err != nil || len(failed) != 10 || failed[0].BettyMetadata.LastError != "Invalid phone number" {
		t.Fatalf("list --failed: %v %s", err, out)
	}
	file := filepath.Join(t.TempDir(), "rejected.csv")
	if _, errOut, err := run("rejected", w.Id, "-o", file); err != nil || errOut != "Wrote "+file+" (10 rejected rows).\n" {
		t.Fatalf("rejected -o: %v %s", err, errOut)
	}
	got, _ := os.ReadFile(file)
	out, _, err = run("rejected", w.Id, "--node", "c-"+w.Id)
	if err != nil || out != string(got) || !strings.HasPrefix(out, "Phone Number,First Name,reason\nnope,Bad9,Invalid phone number\n") || strings.Count(out, "\n") != 11 {
		t.Fatalf("rejected: %v %q", err, out)
	}
	// A number written with letters is rejected, unless --convert-letters reads it on a keypad.
	vanity := filepath.Join(t.TempDir(), "vanity.csv")
	os.WriteFile(vanity, []byte("phone\n+1-41A-555-ZZZZ\n+1 415 555 0100\n"), 0o600)
	if _, errOut, err := run("import", w.Id, vanity, "--wait"); err != nil || !strings.Contains(errOut, "1 contact, 1 rejected") {
		t.Fatalf("import with letters: %v %s", err, errOut)
	}
	if out, _, err = run("rejected", w.Id); err != nil || !strings.Contains(out, "+1-41A-555-ZZZZ,Invalid phone number: letters in the number") {
		t.Fatalf("rejected with letters: %v %q", err, out)
	}
	if _, errOut, err := run("import", w.Id, vanity, "--wait", "--convert-letters"); err != nil || !strings.Contains(errOut, "2 contacts, 0 rejected") {
		t.Fatalf("import --convert-letters: %v %s", err, errOut)
	}
	if out, _, err = run("list", w.Id, "--json"); err != nil || !strings.Contains(out, `"+14125559999"`) {
		t.Fatalf("list after --convert-letters: %v %s", err, out)
	}
	if _, _, err = run("rejected", "--node", "c-"+w.Id); err == nil || !strings.Contains(err.Error(), "give the workflow's id") {
		t.Fatalf("no workflow: %v", err)
	}
}

// A workflow's contacts from a HubSpot list, against the real server and the fake HubSpot.
func TestHubSpotListAgainstTheRealServer(t *testing.T) {
	f := hubspottest.New(hubspottest.Options{})
	defer f.Close()
	ada := f.AddContact(map[string]string{"firstname": "Ada", "phone": "+14155550161"})
	bad := f.AddContact(map[string]string{"firstname": "Bad", "phone": "12"})
	list := f.AddList("Renewals", ada, bad)
	env := testserver.Start(t, testserver.WithHubSpot(f))
	owner := env.SignUp(t, "ada@example.com")
	team := env.Team(t, owner, "Acme")
	profile := &config.Profile{Server: env.URL, AccessToken: owner.Access, RefreshToken: owner.Refresh, Email: owner.Email, Team: team}
	run := func(args ...string) (string, error) {
		t.Helper()
		fac, s := clitest.NewFactory(t, clitest.Options{Profile: profile})
		err := clitest.Run(contacts.NewCmdContacts(fac), args...)
		return s.ErrOut.String(), err
	}
	ctx := context.Background()
	c, err := betty.New(env.URL, betty.WithTokens(owner.Access, owner.Refresh))
	if err != nil {
		t.Fatal(err)
	}
	auth, err := c.ConnectHubSpot(ctx, team)
	if err != nil {
		t.Fatal(err)
	}
	app := testserver.ApproveHubSpot(t, env, f, owner, auth.AuthorizationUrl)
	ag, err := betty.Do[client.AgentProfile](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.CreateAgent(ctx, client.CreateAgentRequest{OrganizationId: team, Name: "Ava"})
	})
	if err != nil {
		t.Fatal(err)
	}
	w, err := c.CreateWorkflow(ctx, team, betty.WorkflowInput{Name: "Renewals", AgentID: ag.Id, Type: client.WorkflowTypeOutbound})
	if err != nil {
		t.Fatal(err)
	}
	if _, err = c.SaveWorkflow(ctx, w.Id, betty.Graph{Nodes: []client.WorkflowNode{{Id: "c-" + w.Id, Type: client.NodeKindContacts},
		{Id: "s-" + w.Id, Type: client.NodeKindStart}}}, 0); err != nil {
		t.Fatal(err)
	}

	if _, err := run("hubspot", w.Id, "--app", app, "--list", "999999"); err == nil || !strings.Contains(err.Error(), "HubSpot has no list 999999") {
		t.Fatalf("a list HubSpot does not have: %v", err)
	}
	errOut, err := run("hubspot", w.Id, "--app", app, "--list", list, "--wait")
	if err != nil || errOut != `Read HubSpot list `+list+` into "Renewals": 1 to call, 1 without a number to call.`+"\n" {
		t.Fatalf("--list --wait: %v %q", err, errOut)
	}
	errOut, err = run("hubspot", w.Id, "--app", app)
	if err != nil || !strings.Contains(errOut, "pick them on the workflow canvas") {
		t.Fatalf("picked contacts: %v %q", err, errOut)
	}
}
