package apps_test

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/bettyhq/betty/cli/apps"
	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/config"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/server/integrations/hubspot/hubspottest"
	"github.com/bettyhq/betty/server/testserver"
)

// lines hands each line written to it to a channel (a person reading the terminal).
type lines struct {
	mu  sync.Mutex
	buf strings.Builder
	ch  chan string
}

func (l *lines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.Write(p)
	for {
		s := l.buf.String()
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return len(p), nil
		}
		l.ch <- s[:i]
		l.buf.Reset()
		l.buf.WriteString(s[i+1:])
	}
}

// Connected apps against the real server and the fake HubSpot: connect (printing the page to
// open; --wait sees the approval), list, disconnect; API keys cannot connect.
func TestAgainstTheRealServer(t *testing.T) {
	f := hubspottest.New(hubspottest.Options{})
	defer f.Close()
	env := testserver.Start(t, testserver.WithHubSpot(f))
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	owner := &config.Profile{Server: env.URL, AccessToken: ada.Access, RefreshToken: ada.Refresh, Email: ada.Email, Team: team}
	key := &config.Profile{Server: env.URL, APIKey: env.APIKey(t, team, "owner"), Team: team}
	run := func(p *config.Profile, args ...string) (string, string, error) {
		t.Helper()
		fac, s := clitest.NewFactory(t, clitest.Options{Profile: p})
		err := clitest.Run(apps.NewCmdApps(fac), args...)
		return s.Out.String(), s.ErrOut.String(), err
	}

	out, errOut, err := run(owner, "connect", "hubspot")
	if err != nil || !strings.HasPrefix(out, f.URL+"/oauth/authorize?") || !strings.Contains(errOut, "Open this page in a browser") {
		t.Fatalf("connect: %v %q %q", err, out, errOut)
	}
	if _, _, err := run(key, "connect", "hubspot"); cmdutil.ExitCode(err) != cmdutil.ExitError {
		t.Fatalf("an API key connected: %v", err)
	}
	if _, _, err := run(owner, "connect", "zapier"); err == nil {
		t.Fatal("connect zapier was accepted")
	}

	// --wait: the command prints the page, the person approves, the command sees it.
	fac, s := clitest.NewFactory(t, clitest.Options{Profile: owner})
	printed := &lines{ch: make(chan string, 10)}
	fac.IO.Out = printed
	done := make(chan error, 1)
	go func() {
		done <- clitest.Run(apps.NewCmdApps(fac), "connect", "hubspot", "--wait", "--interval", "50ms", "--timeout", "20s")
	}()
	testserver.ApproveHubSpot(t, env, f, ada, <-printed.ch)
	if err := <-done; err != nil {
		t.Fatalf("connect --wait: %v %s", err, s.ErrOut)
	}
	id := <-printed.ch
	if !strings.Contains(s.ErrOut.String(), "Connected acme.hubspot.com (HubSpot portal 24017381).") || id == "" {
		t.Fatalf("connect --wait: %q %q", id, s.ErrOut)
	}

	out, _, err = run(owner, "list", "--json")
	var list []struct{ ID, Name, Status, IntegrationID string }
	if err != nil || json.Unmarshal([]byte(out), &list) != nil || len(list) != 1 || list[0].ID != id || list[0].Status != "connected" {
		t.Fatalf("list: %v %s", err, out)
	}
	if _, errOut, err = run(owner, "disconnect", id, "--yes"); err != nil || errOut != "Disconnected acme.hubspot.com (hubspot).\n" {
		t.Fatalf("disconnect: %v %q", err, errOut)
	}
	if _, _, err = run(owner, "disconnect", "nope", "--yes"); cmdutil.ExitCode(err) != cmdutil.ExitNotFound {
		t.Fatalf("disconnect unknown: %v", err)
	}
	out, _, _ = run(owner, "list", "--json")
	if !strings.Contains(out, `"disconnected"`) {
		t.Fatalf("after disconnect: %s", out)
	}
}
