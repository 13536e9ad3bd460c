package auth

import (
	"net/http"
	"strings"
	"testing"

	"github.com/bettyhq/betty/cli/config"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
)

func TestNewCmdWhoami(t *testing.T) {
	f, _ := clitest.NewFactory(t, clitest.Options{})
	clitest.CheckErr(t, clitest.Run(NewCmdWhoami(f, nil), "ada"), "unexpected argument")
}

// Each case's output is kept in testdata/whoami.<name>.golden, with the server's URL as SERVER.
func TestWhoamiRun(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/auth/me", clitest.Data(http.StatusOK, clitest.User()))
	stub.Handle("GET /v1/team/list", clitest.Page([]client.Organization{clitest.Team("team-1", "Acme support", client.TeamRoleOwner)}))
	apiKey := map[string]string{"BETTY_SERVER": stub.URL, "BETTY_API_KEY": "betty_sk_Q3vT9xLm0123456789"}
	tests := []struct {
		name    string
		profile *config.Profile
		env     map[string]string
		args    []string
	}{
		{name: "session", profile: clitest.LoggedIn(stub.URL)},
		{name: "no-team", profile: &config.Profile{Server: stub.URL, AccessToken: "a", RefreshToken: "r"}},
		{name: "api-key", env: apiKey},
		{name: "stale-team", profile: &config.Profile{Server: stub.URL, AccessToken: "a", RefreshToken: "r", Team: "team-9"}},
		{name: "session.json", profile: clitest.LoggedIn(stub.URL), args: []string{"--json"}},
		{name: "session.yaml", profile: clitest.LoggedIn(stub.URL), args: []string{"-o", "yaml"}},
		{name: "stale-team.json", profile: &config.Profile{Server: stub.URL, AccessToken: "a", RefreshToken: "r", Team: "team-9"}, args: []string{"-o", "json"}},
		{name: "api-key.json", env: apiKey, args: []string{"--json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, s := clitest.NewFactory(t, clitest.Options{Profile: tt.profile, Env: tt.env, TTY: true})
			if err := clitest.Run(NewCmdWhoami(f, nil), tt.args...); err != nil {
				t.Fatal(err)
			}
			clitest.Golden(t, "whoami."+tt.name, []byte(strings.ReplaceAll(s.Out.String(), stub.URL, "SERVER")))
		})
	}
}
