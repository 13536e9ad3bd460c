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

// A server that e-mails a confirmation link signs nobody in before it is followed.
func TestSignupToConfirmAgainstTheRealServer(t *testing.T) {
	env := testserver.Start(t, testserver.WithMailDelivery())
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

// A team's members come and go against the real server: invitations read from the outbox by a
// site admin, API keys made by members, and what removing a member does to their keys.
func TestMembersAndTheirKeysAgainstTheRealServer(t *testing.T) {
	env := testserver.Start(t)
	signup := func(email string) func(string, map[string]string, ...string) (int, string, string) {
		t.Helper()
		run := newCLI(t).run
		if code, _, errOut := run("correct horse battery\n", nil, "signup", "--server", env.URL, "--email", email, "--password-stdin"); code != 0 {
			t.Fatalf("signup %s: exit %d: %s", email, code, errOut)
		}
		return run
	}
	ada, bob, carol := signup("ada@example.com"), signup("bob@example.com"), signup("carol@example.com")
	if code, _, errOut := ada("", nil, "teams", "create", "Acme support"); code != 0 {
		t.Fatalf("teams create: exit %d: %s", code, errOut)
	}
	_, out, _ := ada("", nil, "teams", "list", "--json")
	var teams []struct{ ID string }
	if err := json.Unmarshal([]byte(out), &teams); err != nil || len(teams) != 1 {
		t.Fatalf("teams list: %v %s", err, out)
	}
	team := teams[0].ID

	// Without SMTP the invitation's link is read from the outbox, by site admins only (queued
	// until the sending job has kept it).
	if code, _, errOut := ada("", nil, "members", "invite", "bob@example.com", "--role", "developer"); code != 0 {
		t.Fatalf("invite: exit %d: %s", code, errOut)
	}
	if code, _, errOut := ada("", nil, "admin", "mail", "list"); code != cmdutil.ExitError || !strings.Contains(errOut, "Error: ") {
		t.Fatalf("mail list by a non-admin: exit %d: %s", code, errOut)
	}
	if _, err := env.DB.SetSiteAdmin(context.Background(), "ada@example.com", true); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := ada("", nil, "admin", "mail", "list", "--recipient", "bob@example.com", "--json")
	var mails []struct{ Kind, Status, Link string }
	if err := json.Unmarshal([]byte(out), &mails); code != 0 || err != nil || len(mails) != 2 ||
		mails[0].Kind != "invitation" || (mails[0].Status != "kept" && mails[0].Status != "queued") || !strings.Contains(mails[0].Link, "http://betty.test/") {
		t.Fatalf("mail list --recipient: exit %d %v: %s %s", code, err, out, errOut)
	}
	if code, out, _ := ada("", nil, "admin", "mail", "list", "--recipient", "bob@example.com"); code != 0 || !strings.Contains(out, "bob@example.com\tinvitation\t") || !strings.Contains(out, "\thttp://betty.test/invite?") {
		t.Fatalf("mail list piped: exit %d: %q", code, out)
	}

	join := func(run func(string, map[string]string, ...string) (int, string, string), who string) {
		t.Helper()
		_, out, _ := run("", nil, "invitations", "list", "--json")
		var invs []struct{ ID string }
		if err := json.Unmarshal([]byte(out), &invs); err != nil || len(invs) != 1 {
			t.Fatalf("%s: invitations list: %v %s", who, err, out)
		}
		if code, _, errOut := run("", nil, "invitations", "accept", invs[0].ID); code != 0 {
			t.Fatalf("%s: accept: exit %d: %s", who, code, errOut)
		}
		if code, _, errOut := run("", nil, "api-keys", "create", who+"-ci", "--team", team); code != 0 {
			t.Fatalf("%s: api-keys create: exit %d: %s", who, code, errOut)
		}
	}
	join(bob, "bob")
	if code, _, errOut := ada("", nil, "members", "invite", "carol@example.com", "--role", "developer"); code != 0 {
		t.Fatalf("invite carol: exit %d: %s", code, errOut)
	}
	join(carol, "carol")

	code, _, errOut = ada("", nil, "members", "remove", "carol@example.com", "--keep-api-keys", "--yes")
	if code != 0 || errOut != "Removed carol@example.com from team "+team+"; the API keys they made keep working.\n" {
		t.Fatalf("remove carol keeping keys: exit %d: %q", code, errOut)
	}
	code, _, errOut = ada("", nil, "members", "remove", "bob@example.com", "--yes")
	if code != 0 || errOut != "Removed bob@example.com from team "+team+"; revoked the 1 API key they made.\n" {
		t.Fatalf("remove bob: exit %d: %q", code, errOut)
	}
	code, out, _ = ada("", nil, "api-keys", "list")
	if code != 0 || !strings.Contains(out, "\tcarol@example.com (removed)\t") || strings.Contains(out, "bob-ci") {
		t.Fatalf("api-keys list: exit %d: %q", code, out)
	}
	code, out, _ = ada("", nil, "api-keys", "list", "--json")
	var keys []struct {
		Name            string
		CreatedBy       struct{ Email string }
		CreatedByStatus string
	}
	if err := json.Unmarshal([]byte(out), &keys); code != 0 || err != nil || len(keys) != 1 ||
		keys[0].Name != "carol-ci" || keys[0].CreatedBy.Email != "carol@example.com" || keys[0].CreatedByStatus != "removed" {
		t.Fatalf("api-keys list --json: exit %d %v: %s", code, err, out)
	}
}
