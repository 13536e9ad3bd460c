package workflows

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/config"
	"github.com/bettyhq/betty/cli/internal/clitest"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/testserver"
)

// run --wait against the real server follows the run from its event stream; Ctrl-C stops the
// wait with 130 and leaves the run going. A test run answers a test job.
func TestRunAgainstTheRealServer(t *testing.T) {
	env := testserver.Start(t)
	// The CLI streams and polls at once on the default transport: a connection it dialled and
	// never used would hold the server's graceful shutdown for 5 s. Close them first.
	t.Cleanup(http.DefaultTransport.(*http.Transport).CloseIdleConnections)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	c, err := betty.New(env.URL, betty.WithTokens(ada.Access, ada.Refresh))
	if err != nil {
		t.Fatal(err)
	}
	id, _ := clitest.OutboundWorkflow(t, env, c, team, 5)
	profile := &config.Profile{Server: env.URL, AccessToken: ada.Access, RefreshToken: ada.Refresh, Email: ada.Email, Team: team}

	f, s := clitest.NewFactory(t, clitest.Options{Profile: profile})
	cmd := NewCmdRun(f, func(o *RunOptions) error {
		var press context.CancelFunc
		o.Interrupt = func(ctx context.Context) (context.Context, context.CancelFunc) {
			ctx, press = context.WithCancel(ctx)
			return ctx, press
		}
		// Ctrl-C once a contact was called (the second progress line; the event stream is up by
		// then, no request is under way): five contacts from one number take seconds.
		o.IO = &cmdutil.IOStreams{In: o.IO.In, Out: o.IO.Out, ErrOut: &watch{w: o.IO.ErrOut, want: "(in-progress)", n: 2, then: func() { press() }}}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		return runRun(ctx, o)
	})
	err = clitest.Run(cmd, id, "--wait")
	var printed strings.Builder
	cmdutil.PrintError(&printed, nil, err)
	errOut := s.ErrOut.String() + printed.String()
	if cmdutil.ExitCode(err) != cmdutil.ExitInterrupted || !strings.Contains(errOut, "Started job ") || !strings.Contains(errOut, "pending of 5") ||
		!strings.Contains(errOut, "End it with: betty jobs end "+id) {
		t.Fatalf("interrupted: exit %d\n%s", cmdutil.ExitCode(err), errOut)
	}
	j, err := c.WorkflowProgress(context.Background(), id)
	if err != nil || j.Status != client.JobStatusInProgress {
		t.Fatalf("the run after Ctrl-C: %+v %v", j, err)
	}
	if _, err := c.EndWorkflowJob(context.Background(), id); err != nil {
		t.Fatal(err)
	}

	f, s = clitest.NewFactory(t, clitest.Options{Profile: profile})
	if err := clitest.Run(NewCmdWorkflow(f), "test-run", id, "--to", "+14155550199", "--persona", "Busy, wants a call back", "--json"); err != nil {
		t.Fatalf("test-run: %v %s", err, s.ErrOut)
	}
	var test client.Job
	if err := json.Unmarshal(s.Out.Bytes(), &test); err != nil || !test.IsTest || test.Progress.Total != 1 || test.TriggeredBy != "ada@example.com" {
		t.Fatalf("test job: %+v %v", test, err)
	}
}

// run --wait over a campaign's three contacts with the sim carrier, one of them on the
// do-not-call list: the progress as it goes, exit 0 once every contact was handled, a call log
// for each of the two others and none for the suppressed one.
func TestRunWaitAgainstTheRealServer(t *testing.T) {
	env := testserver.Start(t)
	t.Cleanup(http.DefaultTransport.(*http.Transport).CloseIdleConnections)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	c, err := betty.New(env.URL, betty.WithTokens(ada.Access, ada.Refresh))
	if err != nil {
		t.Fatal(err)
	}
	id, _ := clitest.CampaignWorkflow(t, env, c, team, 3)
	// The first contact asked not to be called: it is never dialled.
	if _, _, err := c.AddDoNotCall(context.Background(), team, "+14155551000", betty.DoNotCallOptions{Reason: "asked"}); err != nil {
		t.Fatal(err)
	}
	profile := &config.Profile{Server: env.URL, AccessToken: ada.Access, RefreshToken: ada.Refresh, Email: ada.Email, Team: team}
	f, s := clitest.NewFactory(t, clitest.Options{Profile: profile})
	start := time.Now()
	err = clitest.Run(NewCmdWorkflow(f), "run", id, "--wait", "--json")
	t.Logf("run --wait took %s:\n%s", time.Since(start), s.ErrOut)
	if err != nil {
		t.Fatalf("run --wait: %v", err)
	}
	var job client.Job
	if err := json.Unmarshal(s.Out.Bytes(), &job); err != nil || job.Status != client.JobStatusSuccess || job.Progress.Completed+job.Progress.Failed != 3 {
		t.Fatalf("the job: %+v %v", job, err)
	}
	if job.Progress.Suppressed == nil || *job.Progress.Suppressed != 1 || !strings.Contains(s.ErrOut.String(), "100%  ") ||
		!strings.Contains(s.ErrOut.String(), "(1 on the do-not-call list), 0 not called of 3.") {
		t.Errorf("stderr:\n%s", s.ErrOut)
	}
	n := 0
	for cl, err := range c.CallLogs(context.Background(), team) {
		if err != nil {
			t.Fatal(err)
		}
		if cl.JobId == nil || *cl.JobId != job.Id || cl.EndTime == nil || cl.To == "+14155551000" {
			t.Errorf("call %+v", cl)
		}
		n++
	}
	if n != 2 {
		t.Errorf("%d calls", n)
	}
}

// test-run --follow with the sim carrier: the simulated customer plays the persona and the
// conversation is printed turn by turn.
func TestTestRunFollowAgainstTheRealServer(t *testing.T) {
	env := testserver.Start(t)
	t.Cleanup(http.DefaultTransport.(*http.Transport).CloseIdleConnections)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	c, err := betty.New(env.URL, betty.WithTokens(ada.Access, ada.Refresh))
	if err != nil {
		t.Fatal(err)
	}
	id, _ := clitest.CampaignWorkflow(t, env, c, team, 1)
	profile := &config.Profile{Server: env.URL, AccessToken: ada.Access, RefreshToken: ada.Refresh, Email: ada.Email, Team: team}
	f, s := clitest.NewFactory(t, clitest.Options{Profile: profile})
	start := time.Now()
	err = clitest.Run(NewCmdWorkflow(f), "test-run", id, "--to", "+14155550199", "--persona", "A customer whose parcel is late", "--name", "Ada", "--follow")
	t.Logf("test-run --follow took %s:\n%s\n%s", time.Since(start), s.Out, s.ErrOut)
	if err != nil {
		t.Fatalf("test-run --follow: %v", err)
	}
	if !strings.Contains(s.Out.String(), "] Agent: ") || !strings.Contains(s.ErrOut.String(), "to +14155550199: completed") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", s.Out, s.ErrOut)
	}
}

// --wait against the real server while the campaign's window is closed: the wait says the
// contacts wait for their calling window and until when; once the window opens (the running
// job follows its campaign's settings) the run calls them and ends.
func TestRunWaitSaysWhyAgainstTheRealServer(t *testing.T) {
	env := testserver.Start(t)
	t.Cleanup(http.DefaultTransport.(*http.Transport).CloseIdleConnections)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	c, err := betty.New(env.URL, betty.WithTokens(ada.Access, ada.Refresh))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	id, _ := clitest.CampaignWorkflow(t, env, c, team, 2)
	wf, err := c.Workflow(ctx, id)
	if err != nil || wf.CampaignId == nil {
		t.Fatalf("workflow: %+v %v", wf, err)
	}
	window := func(days ...client.CampaignWeekday) {
		t.Helper()
		zero, five, lines, utc, hangUp, record := 0, 5, 10, "UTC", client.CampaignVoicemailAction("hang-up"), true
		if _, err := c.UpdateCampaign(ctx, *wf.CampaignId, client.UpdateCampaignRequest{Settings: &client.CampaignSettingsInput{
			CallWindow: &client.CampaignCallWindow{Start: "00:00", End: "23:59", Days: days}, Timezone: &utc, RetryAttempts: &zero,
			RetryDelayMinutes: &five, MaxConcurrentCalls: &lines, VoicemailAction: &hangUp, RecordCalls: &record}}); err != nil {
			t.Fatal(err)
		}
	}
	// Open only the day after tomorrow (in the contacts' zone, San Francisco).
	la, _ := time.LoadLocation("America/Los_Angeles")
	window(client.CampaignWeekday(strings.ToLower(time.Now().In(la).AddDate(0, 0, 2).Weekday().String()[:3])))
	profile := &config.Profile{Server: env.URL, AccessToken: ada.Access, RefreshToken: ada.Refresh, Email: ada.Email, Team: team}
	f, s := clitest.NewFactory(t, clitest.Options{Profile: profile})
	done := make(chan error, 1)
	go func() { done <- clitest.Run(NewCmdWorkflow(f), "run", id, "--wait") }()
	// Once the job says its contacts wait (and --wait has had time to read it), open the window.
	deadline := time.Now().Add(20 * time.Second)
	for {
		j, err := c.WorkflowProgress(ctx, id)
		if err == nil && j != nil && len(betty.JobWaiting(*j)) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the run never said its contacts wait: %+v %v", j, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(2 * time.Second)
	window("mon", "tue", "wed", "thu", "fri", "sat", "sun")
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run --wait: %v\n%s", err, s.ErrOut)
		}
	case <-time.After(90 * time.Second):
		t.Fatal("the run did not end once the window opened")
	}
	out := s.ErrOut.String()
	if !strings.Contains(out, "      waiting: 2 contacts wait for their calling window; the next opens ") ||
		!strings.Contains(out, " America/Los_Angeles (in ") || !regexp.MustCompile(`The run succeeded: \d completed, \d failed, 0 not called of 2\.`).MatchString(out) {
		t.Errorf("stderr:\n%s", out)
	}
	// (That a reason read again is not printed again is TestRunWaitSaysWhyContactsWait's.)
}
