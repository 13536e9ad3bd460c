package root_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/cli/root"
	"github.com/bettyhq/betty/server/testserver"
)

// The newcomer's path against the real server in process: log in, create a team, make an API
// key, use it; then members, JSON output, exit codes and logging out.
func TestAgainstTheRealServer(t *testing.T) {
	env := testserver.Start(t)
	env.SignUp(t, "ada@example.com") // people sign up in the dashboard
	dir := t.TempDir()
	betty := func(stdin string, extraEnv map[string]string, args ...string) (int, string, string) {
		t.Helper()
		e := map[string]string{"BETTY_CONFIG_DIR": dir}
		for k, v := range extraEnv {
			e[k] = v
		}
		f, s := clitest.NewFactory(t, clitest.Options{Stdin: stdin, Env: e})
		code := root.Run(context.Background(), f, args)
		return code, s.Out.String(), s.ErrOut.String()
	}

	if code, _, errOut := betty("wrong password\n", nil, "login", "--server", env.URL, "--email", "ada@example.com", "--password-stdin"); code != cmdutil.ExitAuth {
		t.Fatalf("login with a wrong password: exit %d: %s", code, errOut)
	}
	if code, _, errOut := betty("correct horse battery\n", nil, "login", "--server", env.URL, "--email", "ada@example.com", "--password-stdin"); code != 0 {
		t.Fatalf("login: exit %d: %s", code, errOut)
	}
	if code, _, errOut := betty("", nil, "teams", "create", "Acme support", "--switch"); code != 0 {
		t.Fatalf("teams create: exit %d: %s", code, errOut)
	}
	code, key, errOut := betty("", nil, "api-keys", "create", "ci")
	key = strings.TrimSpace(key)
	if code != 0 || !strings.HasPrefix(key, "betty_sk_") {
		t.Fatalf("api-keys create: exit %d: %q %s", code, key, errOut)
	}
	code, out, errOut := betty("", map[string]string{"BETTY_API_KEY": key, "BETTY_SERVER": env.URL}, "whoami")
	if code != 0 || !strings.Contains(out+errOut, "Acme support") {
		t.Fatalf("whoami with the key: exit %d: %s %s", code, out, errOut)
	}

	if code, _, errOut := betty("", nil, "members", "invite", "bob@example.com", "--role", "developer"); code != 0 {
		t.Fatalf("members invite: exit %d: %s", code, errOut)
	}
	code, out, _ = betty("", nil, "members", "list", "--json")
	var members []struct{ Email, Role, Status string }
	if err := json.Unmarshal([]byte(out), &members); code != 0 || err != nil || len(members) != 2 ||
		members[1].Email != "bob@example.com" || members[1].Status != "invited" || members[1].Role != "developer" {
		t.Fatalf("members list --json: exit %d %v: %s", code, err, out)
	}
	code, out, _ = betty("", nil, "teams", "list")
	if code != 0 || !strings.Contains(out, "Acme support") || !strings.Contains(out, "\t") {
		t.Fatalf("teams list piped: exit %d: %q", code, out)
	}
	if code, _, _ := betty("", nil, "teams", "switch", "no-such-team"); code != cmdutil.ExitNotFound {
		t.Fatalf("switch to a missing team: exit %d", code)
	}
	if code, _, _ := betty("", nil, "teams", "frobnicate"); code != cmdutil.ExitUsage {
		t.Fatalf("unknown verb: exit %d", code)
	}
	if code, _, errOut := betty("", nil, "logout"); code != 0 {
		t.Fatalf("logout: exit %d: %s", code, errOut)
	}
	if code, _, _ := betty("", nil, "teams", "list"); code != cmdutil.ExitAuth {
		t.Fatalf("after logout: exit %d", code)
	}
}
