package workflows_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/config"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/cli/workflows"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/testserver"
)

// create --campaign (by name) --phone-number (in E.164) makes a workflow that runs; without
// them a workflow had no number and every run answered "The workflow has no phone number".
// A name two campaigns have, a campaign of the other type and a number the team lacks are
// refused before anything is made. set-number and set-agent change a workflow's number and
// agent.
func TestCreateRunnableAgainstTheRealServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	env := testserver.Start(t)
	t.Cleanup(http.DefaultTransport.(*http.Transport).CloseIdleConnections)
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
	// A campaign without a number that calls at any hour, so the run does not wait for a window.
	name, out, utc, zero := "Spring renewals", client.CallDirectionOutbound, "UTC", 0
	camp, err := c.CreateCampaign(ctx, client.CreateCampaignRequest{OrganizationId: team, Name: &name, Type: &out,
		Settings: &client.CampaignSettingsInput{Timezone: &utc, RetryAttempts: &zero, CallWindow: &client.CampaignCallWindow{Start: "00:00", End: "23:59",
			Days: []client.CampaignWeekday{"mon", "tue", "wed", "thu", "fri", "sat", "sun"}}}})
	if err != nil {
		t.Fatal(err)
	}
	profile := &config.Profile{Server: env.URL, AccessToken: ada.Access, RefreshToken: ada.Refresh, Email: ada.Email, Team: team}
	run := func(args ...string) (string, string, error) {
		t.Helper()
		f, s := clitest.NewFactory(t, clitest.Options{Profile: profile})
		err := clitest.Run(workflows.NewCmdWorkflow(f), args...)
		var printed strings.Builder
		cmdutil.PrintError(&printed, nil, err)
		return s.Out.String(), s.ErrOut.String() + printed.String(), err
	}

	stdout, errOut, err := run("create", "Reminders", "--campaign", "spring RENEWALS", "--phone-number", "+14155550100",
		"--template", "template-appointment-reminder", "--activate")
	id := strings.TrimSpace(stdout)
	if err != nil || !strings.Contains(errOut, `Created workflow "Reminders" in campaign "Spring renewals".`) ||
		!strings.Contains(errOut, `It is the workflow campaign "Spring renewals" runs.`) {
		t.Fatalf("create: %v %q %s", err, stdout, errOut)
	}
	w, err := c.Workflow(ctx, id)
	if err != nil || w.CampaignId == nil || *w.CampaignId != camp.Id || w.PhoneNumberId == nil || *w.PhoneNumberId != number ||
		w.AgentId != nil || w.WorkflowType != client.WorkflowTypeOutbound {
		t.Fatalf("the workflow: %+v %v", w, err)
	}
	if got, err := c.Campaign(ctx, camp.Id); err != nil || got.WorkflowId == nil || *got.WorkflowId != id {
		t.Fatalf("--activate: %+v %v", got.WorkflowId, err)
	}
	// The campaign has no agent: the workflow takes one.
	if _, errOut, err := run("set-agent", id, ava.Id); err != nil || !strings.Contains(errOut, `Agent `+ava.Id+` speaks in workflow "Reminders".`) {
		t.Fatalf("set-agent: %v %s", err, errOut)
	}

	// It runs: two contacts called from the number given.
	path := filepath.Join(t.TempDir(), "contacts.csv")
	if err := os.WriteFile(path, []byte("phone,firstName\n+14155551000,Ann\n+14155551001,Ben\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	node := betty.ContactsNode(w)
	if _, err := c.ImportContacts(ctx, team, id, node, path, betty.UploadOptions{}, betty.CSVOptions{}); err != nil {
		t.Fatal(err)
	}
	if csv, _, err := c.WaitForContacts(ctx, id, node, 20*time.Millisecond); err != nil || csv.Status != client.ContactsImportStatusSuccess {
		t.Fatalf("contacts: %+v %v", csv.Status, err)
	}
	job, err := c.RunWorkflow(ctx, team, id, betty.RunOptions{})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if job, err = c.WaitForJob(ctx, team, job.Id, nil); err != nil || job.Status != client.JobStatusSuccess || job.Progress.Total != 2 {
		t.Fatalf("the job: %+v %v", job, err)
	}
	for cl, err := range c.CallLogs(ctx, team) {
		if err != nil || cl.From != "+14155550100" {
			t.Fatalf("call %+v %v", cl, err)
		}
	}

	// Outside a campaign: --agent and --type, and the number by its id.
	stdout, _, err = run("create", "Plain", "--type", "outbound", "--agent", ava.Id, "--phone-number", number)
	plain := strings.TrimSpace(stdout)
	if w, err2 := c.Workflow(ctx, plain); err != nil || err2 != nil || w.PhoneNumberId == nil || *w.PhoneNumberId != number || w.CampaignId != nil {
		t.Fatalf("create outside a campaign: %v %v %+v", err, err2, w)
	}
	if _, errOut, err := run("set-number", plain, "--remove"); err != nil || !strings.Contains(errOut, `Workflow "Plain" has no number now`) {
		t.Fatalf("set-number --remove: %v %s", err, errOut)
	}
	if _, errOut, err := run("set-number", plain, "+14155550100"); err != nil || !strings.Contains(errOut, `Workflow "Plain" calls from +14155550100.`) {
		t.Fatalf("set-number: %v %s", err, errOut)
	}
	if w, err := c.Workflow(ctx, plain); err != nil || w.PhoneNumberId == nil || *w.PhoneNumberId != number {
		t.Fatalf("after set-number: %+v %v", w, err)
	}
	if _, errOut, err := run("set-number", plain, "+14155559999"); cmdutil.ExitCode(err) != cmdutil.ExitNotFound ||
		!strings.Contains(errOut, "the team has no number +14155559999 (see betty numbers list)") {
		t.Fatalf("set-number of a number the team lacks: %v %s", err, errOut)
	}
	if _, _, err := run("set-agent", plain, bo.Id); err != nil {
		t.Fatal(err)
	}
	if w, err := c.Workflow(ctx, plain); err != nil || w.AgentId == nil || *w.AgentId != bo.Id {
		t.Fatalf("after set-agent: %+v %v", w, err)
	}

	// Refused before anything is made.
	second := "spring renewals"
	if _, err := c.CreateCampaign(ctx, client.CreateCampaignRequest{OrganizationId: team, Name: &second, Type: &out}); err != nil {
		t.Fatal(err)
	}
	in := client.CallDirectionInbound
	if _, err := c.CreateCampaign(ctx, client.CreateCampaignRequest{OrganizationId: team, Name: &[]string{"Helpdesk"}[0], Type: &in}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		exit int
		want string
	}{
		{[]string{"--campaign", "Spring renewals"}, cmdutil.ExitUsage, `2 campaigns are named "Spring renewals": give the id of one`},
		{[]string{"--campaign", "Autumn"}, cmdutil.ExitNotFound, `the team has no campaign named "Autumn" (see betty campaigns list)`},
		{[]string{"--campaign", "Helpdesk", "--type", "outbound"}, cmdutil.ExitUsage, `campaign "Helpdesk" is inbound: its workflows are too (leave out --type)`},
		{[]string{"--campaign", camp.Id, "--phone-number", "+14155559999"}, cmdutil.ExitNotFound, "the team has no number +14155559999"},
		{[]string{"--type", "outbound", "--agent", ava.Id, "--phone-number", "0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10"}, cmdutil.ExitNotFound, "not found"},
	} {
		_, errOut, err := run(append([]string{"create", "Refused"}, tc.args...)...)
		if cmdutil.ExitCode(err) != tc.exit || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d %s", tc.args, cmdutil.ExitCode(err), errOut)
		}
	}
	for w, err := range c.Workflows(ctx, team, "") {
		if err != nil || w.Name == "Refused" {
			t.Fatalf("made by a refused create: %+v %v", w, err)
		}
	}
}
