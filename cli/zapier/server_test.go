package zapier_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/config"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/cli/zapier"
	"github.com/bettyhq/betty/server/integrations/zapier/zapiertest"
	"github.com/bettyhq/betty/server/testserver"
)

// Against the real server and a fake Zapier: a hook subscribed with the team's key is
// listed; templates come from Zapier; zaps need the team's connection.
func TestAgainstTheRealServer(t *testing.T) {
	fake := zapiertest.New()
	defer fake.Close()
	env := testserver.Start(t, testserver.WithZapier(fake.URL, fake.TokenURL(), zapiertest.ClientID, zapiertest.ClientSecret))
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	key := env.APIKey(t, team, "developer")
	owner := &config.Profile{Server: env.URL, AccessToken: ada.Access, RefreshToken: ada.Refresh, Email: ada.Email, Team: team}
	run := func(p *config.Profile, args ...string) (string, string, error) {
		t.Helper()
		f, s := clitest.NewFactory(t, clitest.Options{Profile: p})
		err := clitest.Run(zapier.NewCmdZapier(f), args...)
		return s.Out.String(), s.ErrOut.String(), err
	}
	post := func(token, path string, body any) *http.Response {
		t.Helper()
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest("POST", env.URL+path, bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}

	// Zapier's subscribe call, as Betty's Zapier app makes it (a public https URL).
	if res := post(key, "/v1/apps/zapier/hooks", map[string]any{"hookUrl": "https://1.1.1.1/hooks/standard/1/abc/", "event": "call.completed"}); res.StatusCode != http.StatusCreated {
		t.Fatalf("subscribe: %d", res.StatusCode)
	}
	out, _, err := run(owner, "hooks", "list", "--json")
	var hooks []struct{ Event, HookURL string }
	if err != nil || json.Unmarshal([]byte(out), &hooks) != nil || len(hooks) != 1 || hooks[0].Event != "call.completed" {
		t.Fatalf("hooks list: %v %s", err, out)
	}
	if out, _, err = run(&config.Profile{Server: env.URL, APIKey: key, Team: team}, "hooks", "list"); err != nil || !strings.Contains(out, "https://1.1.1.1/hooks/standard/1/abc/") {
		t.Fatalf("hooks list with the key: %v %q", err, out)
	}

	if out, _, err = run(owner, "templates"); err != nil || !strings.Contains(out, "Call new Google Sheets rows 1") {
		t.Fatalf("templates: %v %q", err, out)
	}
	if _, _, err = run(owner, "zaps"); err == nil || !strings.Contains(err.Error(), "connect Zapier") || cmdutil.ExitCode(err) != cmdutil.ExitError {
		t.Fatalf("zaps before connecting: %v", err)
	}
	if res := post(ada.Access, "/v1/auth/zapier/callback", map[string]any{"code": zapiertest.GoodCode, "organizationId": team}); res.StatusCode != http.StatusOK {
		t.Fatalf("callback: %d", res.StatusCode)
	}
	fake.Set(func(s *zapiertest.Server) {
		s.Zaps = []zapiertest.Zap{{ID: "zap-1", Title: "Sheets to calls", Enabled: true, Apps: []string{"Google Sheets", "Betty"}}}
	})
	if out, _, err = run(owner, "zaps"); err != nil || !strings.Contains(out, "Sheets to calls") || !strings.Contains(out, "Google Sheets → Betty") {
		t.Fatalf("zaps: %v %q", err, out)
	}
}
