package dnc_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/config"
	"github.com/bettyhq/betty/cli/dnc"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/server/testserver"
)

// The do-not-call list against the real server: add (a national number too, and twice),
// import a CSV with a bad row, search, a developer refused the removal an owner may make.
func TestAgainstTheRealServer(t *testing.T) {
	env := testserver.Start(t)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	owner := &config.Profile{Server: env.URL, AccessToken: ada.Access, RefreshToken: ada.Refresh, Email: ada.Email, Team: team}
	developer := &config.Profile{Server: env.URL, APIKey: env.APIKey(t, team, "developer"), Team: team}
	run := func(p *config.Profile, args ...string) (string, string, error) {
		t.Helper()
		f, s := clitest.NewFactory(t, clitest.Options{Profile: p})
		err := clitest.Run(dnc.NewCmdDNC(f), args...)
		return s.Out.String(), s.ErrOut.String(), err
	}
	type entry struct{ ID, PhoneNumber, AddedBy, Source string }
	list := func(args ...string) []entry {
		t.Helper()
		out, _, err := run(owner, append([]string{"list", "--json"}, args...)...)
		var got []entry
		if err != nil || json.Unmarshal([]byte(out), &got) != nil {
			t.Fatalf("list: %v %s", err, out)
		}
		return got
	}

	out, errOut, err := run(owner, "add", "+14155550123", "--reason", "asked by e-mail")
	id := strings.TrimSpace(out)
	if err != nil || id == "" || errOut != "Added +14155550123 to the do-not-call list.\n" {
		t.Fatalf("add: %v %q %q", err, out, errOut)
	}
	if out, errOut, err = run(developer, "add", "(415) 555-0123"); err != nil || strings.TrimSpace(out) != id ||
		!strings.Contains(errOut, "+14155550123 was on the do-not-call list already (added by ada@example.com") {
		t.Fatalf("add again: %v %q %q", err, out, errOut)
	}
	csv := filepath.Join(t.TempDir(), "opt-outs.csv")
	os.WriteFile(csv, []byte("Phone Number,Reason\n020 7183 8750,complained\n+14155550123,\nnot a number,\n"), 0o600)
	if _, errOut, err = run(developer, "import", csv, "--region", "GB"); err != nil ||
		!strings.Contains(errOut, "Added 1 number to the do-not-call list; 1 was already on it; 1 row refused.") {
		t.Fatalf("import: %v %q", err, errOut)
	}
	got := list()
	if len(got) != 2 || got[0].PhoneNumber != "+442071838750" || got[0].Source != "import" || got[1].AddedBy != "ada@example.com" {
		t.Fatalf("list: %+v", got)
	}
	if got = list("--search", "2071"); len(got) != 1 || got[0].PhoneNumber != "+442071838750" {
		t.Fatalf("search: %+v", got)
	}

	_, _, err = run(developer, "remove", "+14155550123", "--yes")
	if err == nil || cmdutil.ExitCode(err) != cmdutil.ExitError {
		t.Fatalf("a developer removed a number: %v", err)
	}
	if _, errOut, err = run(owner, "remove", "+14155550123", "--yes"); err != nil || errOut != "Removed +14155550123 from the do-not-call list.\n" {
		t.Fatalf("remove: %v %q", err, errOut)
	}
	if _, _, err = run(owner, "remove", "+14155550123", "--yes"); cmdutil.ExitCode(err) != cmdutil.ExitNotFound {
		t.Fatalf("removed twice: %v", err)
	}
	if got = list(); len(got) != 1 {
		t.Fatalf("after remove: %+v", got)
	}
}
