package auth

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bettyhq/betty/cli/config"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/server/testserver"
)

// whoami with an API key shows the team the server says the key belongs to, and the key's
// role, wherever the key comes from: a profile naming another team showed that team as "no
// longer one of yours" and not the key's.
func TestWhoamiWithAKeyAgainstTheRealServer(t *testing.T) {
	env := testserver.Start(t)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	other := env.Team(t, ada, "Other")
	key := env.APIKey(t, team, "developer")
	for _, tc := range []struct {
		name     string
		opts     clitest.Options
		wantNote string
	}{
		{name: "BETTY_API_KEY", opts: clitest.Options{Env: map[string]string{"BETTY_SERVER": env.URL, "BETTY_API_KEY": key}}},
		{name: "a profile's key", opts: clitest.Options{Profile: &config.Profile{Server: env.URL, APIKey: key, Team: team}}},
		{name: "a profile naming another team", opts: clitest.Options{Profile: &config.Profile{Server: env.URL, APIKey: key, Team: other}},
			wantNote: "The profile's current team " + other + " is not this key's: run `betty teams switch " + team + "`."},
	} {
		f, s := clitest.NewFactory(t, tc.opts)
		if err := clitest.Run(NewCmdWhoami(f, nil)); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !strings.Contains(s.Out.String(), "TEAM\tAcme ("+team+"), role developer") || !strings.Contains(s.Out.String(), "API KEY\tbetty_sk_") ||
			!strings.Contains(s.ErrOut.String(), tc.wantNote) {
			t.Errorf("%s:\n%s\n%s", tc.name, s.Out, s.ErrOut)
		}
		f, s = clitest.NewFactory(t, tc.opts)
		if err := clitest.Run(NewCmdWhoami(f, nil), "--json"); err != nil {
			t.Fatal(err)
		}
		var who struct {
			TeamID string
			Team   struct{ ID, Name, MyRole string }
		}
		if err := json.Unmarshal(s.Out.Bytes(), &who); err != nil || who.TeamID != team || who.Team.Name != "Acme" || who.Team.MyRole != "developer" {
			t.Errorf("%s --json: %v %s", tc.name, err, s.Out)
		}
	}
}
