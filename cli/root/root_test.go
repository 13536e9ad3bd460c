package root

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/config"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
)

// ownedElsewhere are commands whose flags belong to the server's configuration
// (server/config), which has its own tests.
var ownedElsewhere = map[string]bool{"betty serve": true, "betty migrate": true}

func walk(cmd *cobra.Command, fn func(*cobra.Command)) {
	fn(cmd)
	for _, c := range cmd.Commands() {
		if !c.Hidden {
			walk(c, fn)
		}
	}
}

func TestHelp(t *testing.T) {
	f, _ := clitest.NewFactory(t, clitest.Options{})
	walk(NewCmdRoot(f), func(cmd *cobra.Command) {
		path := cmd.CommandPath()
		if ownedElsewhere[path] {
			return
		}
		t.Run(path, func(t *testing.T) {
			f, s := clitest.NewFactory(t, clitest.Options{})
			args := append(strings.Fields(path)[1:], "--help")
			if code := Run(context.Background(), f, args); code != 0 {
				t.Fatalf("exit %d: %s", code, s.ErrOut)
			}
			clitest.Golden(t, "help/"+strings.ReplaceAll(path, " ", "_"), s.Out.Bytes())
		})
	})
}

func TestEveryCommandHasExamples(t *testing.T) {
	f, _ := clitest.NewFactory(t, clitest.Options{})
	walk(NewCmdRoot(f), func(cmd *cobra.Command) {
		// cobra's own help and completion commands explain themselves.
		if name := cmd.Name(); name == "help" || name == "completion" || cmd.HasParent() && cmd.Parent().Name() == "completion" {
			return
		}
		if cmd.Example == "" {
			t.Errorf("%s has no examples", cmd.CommandPath())
		}
	})
}

// readVerbs are the verbs that only show data; scripts read it with --json or -o.
var readVerbs = map[string]bool{"list": true, "view": true, "search": true, "whoami": true}

func TestEveryReadCommandPrintsJSON(t *testing.T) {
	f, _ := clitest.NewFactory(t, clitest.Options{})
	walk(NewCmdRoot(f), func(cmd *cobra.Command) {
		if !readVerbs[cmd.Name()] {
			return
		}
		if cmd.Flags().Lookup("json") == nil || cmd.Flags().ShorthandLookup("o") == nil {
			t.Errorf("%s takes no --json or -o", cmd.CommandPath())
		}
	})
}

func TestExitCodes(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/team/list", clitest.Page([]client.Organization{clitest.Team("team-1", "Acme support", client.TeamRoleOwner)}))
	stub.Handle("GET /v1/team/members/list", clitest.Problem(http.StatusUnauthorized, client.ProblemCodeRefreshTokenReused, "Your session has ended; sign in again."))
	stub.Handle("GET /v1/team/api-keys", clitest.Problem(http.StatusInternalServerError, client.ProblemCodeInternal, "Something went wrong."))
	stub.Handle("DELETE /v1/team/api-keys/key-9", clitest.Problem(http.StatusNotFound, client.ProblemCodeNotFound, "The API key was not found."))
	stub.Handle("POST /v1/team/new", clitest.Problem(http.StatusBadRequest, client.ProblemCodeValidationFailed, "The request is not valid.",
		client.FieldError{Field: "body.platformKey", Message: "must be lower-case letters, digits, - or _"}))

	tests := []struct {
		name       string
		loggedOut  bool
		args       string
		want       int
		wantStderr string
	}{
		{name: "success", args: "teams list", want: 0},
		{name: "help", args: "teams", want: 0},
		{name: "unknown command", args: "tems list", want: 2, wantStderr: `unknown command "tems" for "betty"`},
		{name: "unknown verb", args: "teams lst", want: 2, wantStderr: "Run 'betty teams --help' for usage."},
		{name: "suggested command", args: "tems list", want: 2, wantStderr: "\n\nDid you mean this?\n\tteams\n\nRun 'betty --help' for usage."},
		{name: "suggested verb", args: "teams lst", want: 2, wantStderr: "Error: unknown command \"lst\" for \"betty teams\"\n\nDid you mean this?\n\tlist\n\nRun 'betty teams --help' for usage."},
		{name: "suggested nested verb", args: "admin orgs serch", want: 2, wantStderr: "Did you mean this?\n\tsearch\n"},
		{name: "suggested by prefix", args: "api-keys del", want: 2, wantStderr: "Did you mean this?\n\tdelete\n"},
		{name: "nothing alike", args: "teams frobnicate", want: 2, wantStderr: "Error: unknown command \"frobnicate\" for \"betty teams\"\nRun"},
		{name: "unknown flag", args: "teams list --colour", want: 2, wantStderr: "unknown flag: --colour"},
		{name: "missing argument", args: "teams switch", want: 2, wantStderr: "give the id of the team"},
		{name: "too many arguments", args: "teams view a b", want: 2, wantStderr: "accepts at most 1 arg"},
		{name: "destructive without --yes", args: "api-keys delete key-9", want: 2, wantStderr: "--yes is required"},
		{name: "rejected by the server", args: "teams create Acme --platform shopify", want: 1, wantStderr: "  - platformKey: must be lower-case"},
		{name: "refused by the CLI", args: "teams create Acme --platform Shopify", want: 2, wantStderr: `invalid argument "Shopify" for "--platform" flag: want lower-case letters`},
		{name: "not an e-mail address", args: "members invite not-an-email", want: 2, wantStderr: `Error: invalid e-mail address "not-an-email": want an address such as ada@example.com`},
		{name: "bad server URL", args: "teams list --profile broken", want: 2, wantStderr: "want an http:// or https:// URL"},
		{name: "server failure", args: "api-keys list", want: 1, wantStderr: "Error: Something went wrong."},
		{name: "not logged in", loggedOut: true, args: "teams list", want: 4, wantStderr: "not logged in"},
		{name: "credentials refused", args: "members list", want: 4, wantStderr: "Run `betty login` to sign in again."},
		{name: "not found on the server", args: "api-keys delete key-9 --yes", want: 8, wantStderr: "Error: The API key was not found."},
		{name: "not found by the CLI", args: "teams view team-9", want: 8, wantStderr: "team team-9 is not one of your teams"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := clitest.Options{Profile: clitest.LoggedIn(stub.URL)}
			if tt.loggedOut {
				opts.Profile = nil
			}
			f, s := clitest.NewFactory(t, opts)
			cfg := clitest.LoadConfig(t, f)
			*cfg.Profile("broken") = config.Profile{Server: "localhost:8080", APIKey: "betty_sk_x"}
			if err := cfg.Save(); err != nil {
				t.Fatal(err)
			}
			if got := Run(context.Background(), f, strings.Fields(tt.args)); got != tt.want {
				t.Errorf("exit %d, want %d; stderr:\n%s", got, tt.want, s.ErrOut)
			}
			if !strings.Contains(s.ErrOut.String(), tt.wantStderr) {
				t.Errorf("stderr %q, want it to contain %q", s.ErrOut, tt.wantStderr)
			}
		})
	}
}

// A server that does not answer is named, with the likely cause.
func TestServerDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	server := "http://" + ln.Addr().String()
	ln.Close()
	for _, args := range [][]string{{"teams", "list"}, {"whoami"}, {"api-keys", "create", "ci"}} {
		f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(server)})
		if code := Run(context.Background(), f, args); code != cmdutil.ExitError {
			t.Errorf("%v: exit %d", args, code)
		}
		if want := "Error: cannot reach the Betty server at " + server + " — is `betty serve` running?\n"; s.ErrOut.String() != want {
			t.Errorf("%v: stderr %q, want %q", args, s.ErrOut, want)
		}
	}
}

func TestProfileFlag(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/team/list", clitest.Page([]client.Organization{clitest.Team("team-2", "Beta", client.TeamRoleOwner)}))
	f, _ := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn("http://betty.invalid")})
	cfg := clitest.LoadConfig(t, f)
	*cfg.Profile("staging") = *clitest.LoggedIn(stub.URL)
	if err := cfg.Save(); err != nil {
		t.Fatal(err)
	}
	if code := Run(context.Background(), f, []string{"teams", "switch", "team-2", "--profile", "staging"}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	cfg = clitest.LoadConfig(t, f)
	if cfg.Profile("staging").Team != "team-2" || cfg.Profile("default").Team != "team-1" {
		t.Errorf("--profile staging changed the wrong profile: %+v %+v", cfg.Profile("staging"), cfg.Profile("default"))
	}
}
