package cmdutil_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/config"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
)

func TestCredentials(t *testing.T) {
	session := clitest.LoggedIn("http://profile.test")
	tests := []struct {
		name    string
		profile *config.Profile
		env     map[string]string
		want    cmdutil.Credentials
		wantErr error
	}{
		{name: "profile", profile: session, want: cmdutil.Credentials{Server: "http://profile.test", AccessToken: "access-1", RefreshToken: "refresh-1"}},
		{
			name:    "environment wins",
			profile: session,
			env:     map[string]string{"BETTY_SERVER": "http://env.test", "BETTY_API_KEY": "betty_sk_env"},
			want:    cmdutil.Credentials{Server: "http://env.test", APIKey: "betty_sk_env", FromEnv: true},
		},
		{name: "environment only", env: map[string]string{"BETTY_SERVER": "http://env.test", "BETTY_API_KEY": "k"}, want: cmdutil.Credentials{Server: "http://env.test", APIKey: "k", FromEnv: true}},
		{name: "nothing", wantErr: cmdutil.ErrNotLoggedIn},
		{name: "key without a server", env: map[string]string{"BETTY_API_KEY": "k"}, wantErr: cmdutil.ErrNotLoggedIn},
		{name: "server without credentials", profile: &config.Profile{Server: "http://profile.test"}, wantErr: cmdutil.ErrNotLoggedIn},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := clitest.NewFactory(t, clitest.Options{Profile: tt.profile, Env: tt.env})
			got, err := f.Credentials()
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if err == nil && got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestTeamID(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/team/list", clitest.Page([]client.Organization{clitest.Team("team-key", "Key's team", client.TeamRoleDeveloper)}))
	noTeam := clitest.LoggedIn(stub.URL)
	noTeam.Team = ""
	tests := []struct {
		name    string
		profile *config.Profile
		env     map[string]string
		flag    string
		want    string
		wantErr error
	}{
		{name: "flag", profile: clitest.LoggedIn(stub.URL), flag: "team-9", want: "team-9"},
		{name: "profile", profile: clitest.LoggedIn(stub.URL), want: "team-1"},
		{name: "stored API key's team", profile: &config.Profile{Server: stub.URL, APIKey: "k"}, want: "team-key"},
		{name: "environment's key ignores the profile's team", profile: clitest.LoggedIn(stub.URL), env: map[string]string{"BETTY_API_KEY": "k"}, want: "team-key"},
		{name: "session without a team", profile: noTeam, wantErr: &cmdutil.FlagError{}},
		{name: "not logged in", wantErr: cmdutil.ErrNotLoggedIn},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := clitest.NewFactory(t, clitest.Options{Profile: tt.profile, Env: tt.env})
			got, err := f.TeamID(context.Background(), tt.flag)
			if !clitest.ErrorIs(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// A refresh token works once: the pair the server rotates to must reach the file before the
// command goes on, or the next command is logged out.
func TestRotatedTokensAreSaved(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/team/list", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer access-2" {
			clitest.Problem(http.StatusUnauthorized, client.ProblemCodeTokenExpired, "The access token has expired.")(w, r)
			return
		}
		clitest.Page([]client.Organization{})(w, r)
	})
	stub.Handle("POST /v1/auth/refresh", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-RefreshToken") != "refresh-1" {
			t.Errorf("refreshed with %q", r.Header.Get("X-RefreshToken"))
		}
		clitest.Data(http.StatusOK, client.Session{AccessToken: "access-2", RefreshToken: "refresh-2", TokenType: "Bearer", User: clitest.User()})(w, r)
	})
	f, _ := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	c, err := f.Client()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cmdutil.ListTeams(context.Background(), c, 0); err != nil {
		t.Fatal(err)
	}
	p := clitest.LoadConfig(t, f).Profile("")
	if p.AccessToken != "access-2" || p.RefreshToken != "refresh-2" {
		t.Errorf("saved tokens %q %q, want the rotated pair", p.AccessToken, p.RefreshToken)
	}
}

func TestCollect(t *testing.T) {
	seq := func(yield func(int, error) bool) {
		for i := range 5 {
			if !yield(i, nil) {
				return
			}
		}
		yield(0, errors.New("page 2 failed"))
	}
	if got, err := cmdutil.Collect(seq, 3); err != nil || len(got) != 3 {
		t.Errorf("limit 3: %v, %v", got, err)
	}
	if _, err := cmdutil.Collect(seq, 0); err == nil {
		t.Error("the walk's error was dropped")
	}
	if got := cmdutil.PageSize(0); got != 100 {
		t.Errorf("PageSize(0) = %d", got)
	}
	if got := cmdutil.PageSize(7); got != 7 {
		t.Errorf("PageSize(7) = %d", got)
	}
}
