package jobs_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/config"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/cli/jobs"
	"github.com/bettyhq/betty/cli/workflows"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/testserver"
)

// Runs and jobs against the real server: a run refused with the server's reason, one started,
// its status by id and by workflow, the history, and ending it.
func TestAgainstTheRealServer(t *testing.T) {
	env := testserver.Start(t)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	c, err := betty.New(env.URL, betty.WithTokens(ada.Access, ada.Refresh))
	if err != nil {
		t.Fatal(err)
	}
	profile := &config.Profile{Server: env.URL, AccessToken: ada.Access, RefreshToken: ada.Refresh, Email: ada.Email, Team: team}
	wf := func(args ...string) (string, string, error) {
		t.Helper()
		f, s := clitest.NewFactory(t, clitest.Options{Profile: profile})
		err := clitest.Run(workflows.NewCmdWorkflow(f), args...)
		return s.Out.String(), s.ErrOut.String(), err
	}
	run := func(args ...string) (string, string, error) {
		t.Helper()
		f, s := clitest.NewFactory(t, clitest.Options{Profile: profile})
		err := clitest.Run(jobs.NewCmdJobs(f), args...)
		return s.Out.String(), s.ErrOut.String(), err
	}

	id, agent := clitest.OutboundWorkflow(t, env, c, team, 5)
	empty, err := c.CreateWorkflow(context.Background(), team, betty.WorkflowInput{Name: "Empty", AgentID: agent, Type: client.WorkflowTypeOutbound})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = wf("run", empty.Id)
	var printed strings.Builder
	cmdutil.PrintError(&printed, nil, err)
	if cmdutil.ExitCode(err) != cmdutil.ExitError || !strings.Contains(printed.String(), "The workflow is empty") {
		t.Fatalf("empty workflow: %v %s", err, printed.String())
	}

	out, errOut, err := wf("run", id, "--triggered-by", "nightly")
	job := strings.TrimSpace(out)
	if err != nil || job == "" || !strings.Contains(errOut, "Started job "+job+": 5 contacts to call.") {
		t.Fatalf("run: %v %q %q", err, out, errOut)
	}
	type jobJSON struct {
		ID, Status, TriggeredBy string
		Progress                struct{ Total, Completed, Failed, Pending int }
	}
	decode := func(out string) []jobJSON {
		t.Helper()
		var got []jobJSON
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		return got
	}
	if out, _, err = run("status", job, "--json"); err != nil {
		t.Fatal(err)
	}
	if got := decode(out); len(got) != 1 || got[0].ID != job || got[0].Progress.Total != 5 || got[0].TriggeredBy != "nightly" {
		t.Fatalf("status: %+v", got)
	}
	if out, _, err = run("status", "--workflow", id, "--json"); err != nil || decode(out)[0].ID != job {
		t.Fatalf("status --workflow: %v %s", err, out)
	}
	if out, _, err = run("list", "--workflow", id, "--json"); err != nil || len(decode(out)) != 1 {
		t.Fatalf("list: %v %s", err, out)
	}
	if _, _, err = run("status", "0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10"); cmdutil.ExitCode(err) != cmdutil.ExitNotFound {
		t.Fatalf("an unknown job: %v", err)
	}
	// Five contacts from one number take seconds at the dialer's 1 call a second: it runs still.
	if out, errOut, err = run("end", id); err != nil || strings.TrimSpace(out) != job || !strings.Contains(errOut, "Ended job "+job+" (cancelled)") {
		t.Fatalf("end: %v %q %q", err, out, errOut)
	}
	if _, _, err = run("end", id); err == nil || cmdutil.ExitCode(err) != cmdutil.ExitError || !strings.Contains(err.Error(), "no run in progress") {
		t.Fatalf("end again: %v", err)
	}
}
