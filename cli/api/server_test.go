package api_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bettyhq/betty/cli/api"
	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/config"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/server/testserver"
)

// betty api against the real server: POST with typed and nested fields, GET with --paginate
// over several pages, --input from standard input, DELETE with query parameters, a 404's exit
// code with the problem on stdout and its detail for stderr, and an API key from the
// environment.
func TestAgainstTheRealServer(t *testing.T) {
	env := testserver.Start(t)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	profile := &config.Profile{Server: env.URL, AccessToken: ada.Access, RefreshToken: ada.Refresh, Email: ada.Email, Team: team}
	run := func(opts clitest.Options, args ...string) (string, string, error) {
		t.Helper()
		f, s := clitest.NewFactory(t, opts)
		err := clitest.Run(api.NewCmdAPI(f, nil), args...)
		var printed strings.Builder
		cmdutil.PrintError(&printed, nil, err)
		return s.Out.String(), s.ErrOut.String() + printed.String(), err
	}
	signedIn := clitest.Options{Profile: profile}

	var ids []string
	for _, name := range []string{"Ava", "Bo", "Cy"} {
		out, errOut, err := run(signedIn, "POST", "/v1/agent/create", "-F", "organizationId={team}", "-f", "name="+name)
		var created struct {
			Status int
			Data   struct{ ID, Name string }
		}
		if err != nil || json.Unmarshal([]byte(out), &created) != nil || created.Status != 201 || created.Data.Name != name {
			t.Fatalf("POST %s: %v %s %s", name, err, out, errOut)
		}
		ids = append(ids, created.Data.ID)
	}
	// Three pages of one agent each, printed as one array, compact in a pipe.
	out, errOut, err := run(signedIn, "GET", "/v1/agent/list/{team}?sizePerPage=1", "--paginate")
	var agents []struct{ Name string }
	if err != nil || json.Unmarshal([]byte(out), &agents) != nil || len(agents) != 3 || strings.Count(out, "\n") != 1 {
		t.Fatalf("GET --paginate: %v %q %s", err, out, errOut)
	}
	// On a terminal, indented; without --paginate, the envelope as the server sent it.
	out, _, err = run(clitest.Options{Profile: profile, TTY: true}, "GET", "v1/agent/list/"+team, "-F", "page=2", "-F", "sizePerPage=2")
	if err != nil || !strings.Contains(out, "\n  \"data\": [") || !strings.Contains(out, `"page": 2`) {
		t.Fatalf("GET on a terminal: %v %s", err, out)
	}

	// Nested fields and arrays make the body; a body from standard input.
	out, errOut, err = run(signedIn, "POST", "/v1/campaigns/create", "-F", "organizationId={team}", "-f", "name=Renewals",
		"-F", "settings[retryAttempts]=2", "-F", "settings[recordCalls]=false", "-f", "settings[callWindow][start]=08:00",
		"-f", "settings[callWindow][end]=18:00", "-f", "settings[callWindow][days][]=mon", "-f", "settings[callWindow][days][]=sat")
	if err != nil || !strings.Contains(out, `"retryAttempts":2`) || !strings.Contains(out, `"recordCalls":false`) || !strings.Contains(out, `"days":["mon","sat"]`) {
		t.Fatalf("POST nested: %v %s %s", err, out, errOut)
	}
	out, errOut, err = run(clitest.Options{Profile: profile, Stdin: `{"organizationId":"` + team + `","name":"From stdin"}`}, "POST", "/v1/campaigns/create", "--input", "-")
	if err != nil || !strings.Contains(out, `"name":"From stdin"`) {
		t.Fatalf("POST --input -: %v %s %s", err, out, errOut)
	}

	// DELETE with a query parameter, by an API key from the environment.
	key := clitest.Options{Env: map[string]string{"BETTY_SERVER": env.URL, "BETTY_API_KEY": env.APIKey(t, team, "developer")}}
	if out, errOut, err = run(key, "DELETE", "/v1/agent/delete/"+ids[0], "-F", "organizationId={team}"); err != nil || !strings.Contains(out, ids[0]) {
		t.Fatalf("DELETE: %v %s %s", err, out, errOut)
	}

	// A 404: the problem on stdout, its detail for stderr, exit 8; a 400 names the field, exit 1.
	out, errOut, err = run(signedIn, "GET", "/v1/agent/"+ids[0], "-F", "organizationId={team}")
	if cmdutil.ExitCode(err) != cmdutil.ExitNotFound || !strings.Contains(out, `"status":404`) || !strings.Contains(errOut, "Error: Agent profile not found.") {
		t.Fatalf("404: exit %d %s %s", cmdutil.ExitCode(err), out, errOut)
	}
	out, errOut, err = run(signedIn, "POST", "/v1/agent/create", "-F", "organizationId={team}")
	if cmdutil.ExitCode(err) != cmdutil.ExitError || !strings.Contains(out, `"status":400`) || !strings.Contains(errOut, "name") {
		t.Fatalf("400: exit %d %s %s", cmdutil.ExitCode(err), out, errOut)
	}
	// Signed out: exit 4.
	out, errOut, err = run(clitest.Options{Profile: &config.Profile{Server: env.URL, AccessToken: "stale", RefreshToken: "stale"}}, "GET", "/v1/team/list")
	if cmdutil.ExitCode(err) != cmdutil.ExitAuth {
		t.Fatalf("401: exit %d %s %s", cmdutil.ExitCode(err), out, errOut)
	}
}
