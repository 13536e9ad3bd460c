package teams

import (
	"net/http"
	"strings"
	"testing"

	"github.com/bettyhq/betty/cli/config"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
)

func TestNewCmdCreate(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    string // the request body as JSON
		wantErr string
	}{
		{name: "name only", args: []string{"Acme"}, want: `{"name":"Acme"}`},
		{
			name: "every property",
			args: []string{"Acme", "--company", "Acme Inc.", "--platform", "shopify", "--purpose", "Returns", "--industry", ""},
			want: `{"companyName":"Acme Inc.","industry":"","name":"Acme","platformKey":"shopify","purpose":"Returns"}`,
		},
		{name: "no name", wantErr: "give the team's name"},
		{name: "blank name", args: []string{"  "}, wantErr: `invalid team name "  ": must not be empty`},
		{name: "empty platform", args: []string{"Acme", "--platform", ""}, wantErr: "must not be empty"},
		{name: "long purpose", args: []string{"Acme", "--purpose", strings.Repeat("x", 501)}, wantErr: "want at most 500 characters, not 501"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := clitest.NewFactory(t, clitest.Options{})
			var got *CreateOptions
			err := clitest.Run(NewCmdCreate(f, func(o *CreateOptions) error { got = o; return nil }), tt.args...)
			if clitest.CheckErr(t, err, tt.wantErr) {
				return
			}
			if body := clitest.JSON(t, got.Request); body != tt.want {
				t.Errorf("request = %s, want %s", body, tt.want)
			}
		})
	}
}

func TestCreateRun(t *testing.T) {
	tests := []struct {
		name     string
		current  string
		args     []string
		wantTeam string
	}{
		{name: "first team becomes current", wantTeam: "team-3"},
		{name: "current team is kept", current: "team-1", wantTeam: "team-1"},
		{name: "--switch", current: "team-1", args: []string{"--switch"}, wantTeam: "team-3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stub := clitest.NewStub(t)
			stub.Handle("POST /v1/team/new", clitest.Data(http.StatusCreated, clitest.Team("team-3", "Gamma", client.TeamRoleOwner)))
			profile := clitest.LoggedIn(stub.URL)
			profile.Team = tt.current
			f, s := clitest.NewFactory(t, clitest.Options{Profile: profile})
			if err := clitest.Run(NewCmdCreate(f, nil), append([]string{"Gamma", "--json"}, tt.args...)...); err != nil {
				t.Fatal(err)
			}
			var sent client.CreateTeamRequest
			stub.Last().Decode(t, &sent)
			if sent.Name != "Gamma" {
				t.Errorf("sent name %q", sent.Name)
			}
			if !strings.Contains(s.Out.String(), `"id": "team-3"`) {
				t.Errorf("out = %s", s.Out)
			}
			if got := clitest.LoadConfig(t, f).Profile(config.DefaultProfile).Team; got != tt.wantTeam {
				t.Errorf("current team = %q, want %q", got, tt.wantTeam)
			}
		})
	}
}
