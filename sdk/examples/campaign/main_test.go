package main

import (
	"bytes"
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/testserver"
)

// The example against a real server, with an API key of a team that has a number: it prints
// the team, number, campaign, workflow, five contacts imported, a job that called all five,
// and a line per contact with its outcome and its call's summary.
func TestExampleWithAnAPIKey(t *testing.T) {
	env := testserver.Start(t)
	t.Cleanup(http.DefaultTransport.(*http.Transport).CloseIdleConnections)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	env.PhoneNumber(t, team, "+14155550100")
	stdout := runExample(t, map[string]string{"BETTY_SERVER": env.URL, "BETTY_API_KEY": env.APIKey(t, team, "developer")})
	for _, want := range []string{"Team      Acme (" + team + ")", "Number    +14155550100", "Contacts  5 imported from contacts.csv, 0 rows rejected"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in\n%s", want, stdout)
		}
	}
	checkOutcomes(t, stdout)
}

// The example on a fresh server: -signup makes the account, then its team, and buys a number
// from the simulator, with nothing done by hand; its calls are simulated, so free.
func TestExampleOnAFreshServer(t *testing.T) {
	env := testserver.Start(t)
	t.Cleanup(http.DefaultTransport.(*http.Transport).CloseIdleConnections)
	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// The test server's dashboard is at http://betty.test, not at its listener's address.
	err := run(ctx, []string{"-server", env.URL, "-dashboard-url", "http://betty.test", "-signup", "-email", "ada@example.com", "-password", "correct horse battery"},
		func(string) string { return "" }, &stdout, &stderr)
	if err != nil {
		t.Fatalf("%v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "Team      Example team (") || !regexp.MustCompile(`Number    \+1\d{10}\n`).MatchString(stdout.String()) {
		t.Errorf("stdout:\n%s", stdout.String())
	}
	checkOutcomes(t, stdout.String())
}

func runExample(t *testing.T, env map[string]string, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := run(ctx, args, func(k string) string { return env[k] }, &stdout, &stderr); err != nil {
		t.Fatalf("%v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	t.Logf("stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	if !strings.Contains(stderr.String(), "progress: 100%") {
		t.Errorf("no progress to 100%% on stderr:\n%s", stderr.String())
	}
	return stdout.String()
}

// checkOutcomes wants the job to have called all five contacts, and a line for each with its
// outcome and a summary. The simulator draws each call's outcome at random.
func checkOutcomes(t *testing.T, stdout string) {
	t.Helper()
	job := regexp.MustCompile(`Job       \S+: success, (\d) completed, (\d) failed of 5\n`).FindStringSubmatch(stdout)
	if job == nil || int(job[1][0]-'0')+int(job[2][0]-'0') != 5 {
		t.Errorf("the job:\n%s", stdout)
	}
	for _, who := range []string{"Ann Lee", "Ben Okafor", "Chloe Martin", "Dev Patel", "Eva Novak"} {
		line := regexp.MustCompile(regexp.QuoteMeta(who) + `\s+\+1415555100\d\s+(completed|busy|no-answer|voicemail)\s+Call (with|to) .+: .+\n`)
		if !line.MatchString(stdout) {
			t.Errorf("no outcome and summary for %s in\n%s", who, stdout)
		}
	}
}
