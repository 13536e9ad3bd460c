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

func TestWhoamiRun(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/auth/me", clitest.Data(http.StatusOK, clitest.User()))
	stub.Handle("GET /v1/team/list", clitest.Page([]client.Organization{clitest.Team("team-1", "Acme support", client.TeamRoleOwner)}))
	tests := []struct {
		name    string
		profile *config.Profile
		env     map[string]string
		want    string
	}{
		{
			name:    "session",
			profile: clitest.LoggedIn(stub.URL),
			want: "Server   SERVER\nE-mail   ada@example.com\nName     Ada Lovelace\nUser ID  user-1\n" +
				"Team     Acme support (team-1), role owner\n",
		},
		{
			name:    "session without a current team",
			profile: &config.Profile{Server: stub.URL, AccessToken: "a", RefreshToken: "r"},
			want: "Server   SERVER\nE-mail   ada@example.com\nName     Ada Lovelace\nUser ID  user-1\n" +
				"Team     none (see `betty teams switch`)\n",
		},
		{
			name: "API key from the environment",
			env:  map[string]string{"BETTY_SERVER": stub.URL, "BETTY_API_KEY": "betty_sk_Q3vT9xLm0123456789"},
			want: "Server   SERVER\nAPI key  betty_sk_Q3vT9xLm…\nTeam     Acme support (team-1), role owner\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, s := clitest.NewFactory(t, clitest.Options{Profile: tt.profile, Env: tt.env, TTY: true})
			if err := clitest.Run(NewCmdWhoami(f, nil)); err != nil {
				t.Fatal(err)
			}
			if got := strings.ReplaceAll(s.Out.String(), stub.URL, "SERVER"); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestWhoamiJSON(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/auth/me", clitest.Data(http.StatusOK, clitest.User()))
	stub.Handle("GET /v1/team/list", clitest.Page([]client.Organization{clitest.Team("team-1", "Acme support", client.TeamRoleOwner)}))
	tests := []struct {
		name    string
		profile *config.Profile
		env     map[string]string
		args    []string
	}{
		{name: "session", profile: clitest.LoggedIn(stub.URL), args: []string{"--json"}},
		{name: "stale-team", profile: &config.Profile{Server: stub.URL, AccessToken: "a", RefreshToken: "r", Team: "team-9"}, args: []string{"-o", "json"}},
		{name: "api-key", env: map[string]string{"BETTY_SERVER": stub.URL, "BETTY_API_KEY": "betty_sk_Q3vT9xLm0123456789"}, args: []string{"--json"}},
		{name: "session-yaml", profile: clitest.LoggedIn(stub.URL), args: []string{"-o", "yaml"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, s := clitest.NewFactory(t, clitest.Options{Profile: tt.profile, Env: tt.env})
			if err := clitest.Run(NewCmdWhoami(f, nil), tt.args...); err != nil {
				t.Fatal(err)
			}
			clitest.Golden(t, "whoami."+tt.name, []byte(strings.ReplaceAll(s.Out.String(), stub.URL, "SERVER")))
		})
	}
}
