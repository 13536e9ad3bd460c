package root_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/cli/root"
	"github.com/bettyhq/betty/server/httpapi"
	"github.com/bettyhq/betty/server/mail"
	"github.com/bettyhq/betty/server/testserver"
)

// cli runs betty commands with their own configuration directory, as one person's machine.
type cli struct {
	t   *testing.T
	dir string
}

func newCLI(t *testing.T) *cli { return &cli{t: t, dir: t.TempDir()} }

func (c *cli) run(stdin string, extraEnv map[string]string, args ...string) (int, string, string) {
	c.t.Helper()
	e := map[string]string{"BETTY_CONFIG_DIR": c.dir}
	for k, v := range extraEnv {
		e[k] = v
	}
	f, s := clitest.NewFactory(c.t, clitest.Options{Stdin: stdin, Env: e})
	code := root.Run(context.Background(), f, args)
	return code, s.Out.String(), s.ErrOut.String()
}

// The newcomer's path against the real server in process: sign up, create a team, make an API
// key, use it; then members, JSON output, exit codes and logging out.
func TestAgainstTheRealServer(t *testing.T) {
	env := testserver.Start(t)
	betty := newCLI(t).run

	code, _, errOut := betty("correct horse battery\n", nil, "login", "--server", env.URL, "--email", "ada@example.com", "--password-stdin")
	if code != cmdutil.ExitAuth || !strings.Contains(errOut, "No account on this server yet? Create one with `betty signup`.") {
		t.Fatalf("login before signing up: exit %d: %s", code, errOut)
	}
	code, _, errOut = betty("correct horse battery\n", nil, "signup", "--server", env.URL, "--email", "ada@example.com", "--name", "Ada", "--password-stdin")
	if code != 0 || !strings.Contains(errOut, "Signed up and logged in to "+env.URL+" as ada@example.com.") {
		t.Fatalf("signup: exit %d: %s", code, errOut)
	}
	if code, _, errOut := betty("correct horse battery\n", nil, "signup", "--email", "ada@example.com", "--password-stdin"); code != cmdutil.ExitError ||
		!strings.Contains(errOut, "An account with this e-mail already exists.") {
		t.Fatalf("signup again: exit %d: %s", code, errOut)
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
	code, out, _ = betty("", nil, "whoami", "--json")
	var who struct {
		User struct{ Email string }
		Team struct{ Name, MyRole string }
	}
	if err := json.Unmarshal([]byte(out), &who); code != 0 || err != nil || who.User.Email != "ada@example.com" || who.Team.Name != "Acme support" || who.Team.MyRole != "owner" {
		t.Fatalf("whoami --json: exit %d %v: %s", code, err, out)
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

// withMailDelivery makes the test server say it delivers e-mail, as with SMTP configured.
func withMailDelivery() testserver.Option {
	return func(d *httpapi.Deps) { d.Mailer = delivering{d.Mailer} }
}

type delivering struct{ mail.Mailer }

func (delivering) Delivers() bool { return true }

// A server that e-mails a confirmation link signs nobody in before it is followed.
func TestSignupToConfirmAgainstTheRealServer(t *testing.T) {
	env := testserver.Start(t, withMailDelivery())
	betty := newCLI(t).run
	code, _, errOut := betty("correct horse battery\n", nil, "signup", "--server", env.URL, "--email", "ada@example.com", "--password-stdin")
	want := "Created your account on " + env.URL + ". Confirm your e-mail from the link we sent to ada@example.com, then run `betty login`.\n"
	if code != 0 || errOut != want {
		t.Fatalf("signup: exit %d: %q, want %q", code, errOut, want)
	}
	code, _, errOut = betty("correct horse battery\n", nil, "login", "--server", env.URL, "--email", "ada@example.com", "--password-stdin")
	if code != cmdutil.ExitError || !strings.Contains(errOut, "Confirm your e-mail first") {
		t.Fatalf("login before confirming: exit %d: %s", code, errOut)
	}
	if code, _, _ := betty("", nil, "whoami"); code != cmdutil.ExitAuth {
		t.Fatalf("whoami: exit %d, want not logged in", code)
	}
}
