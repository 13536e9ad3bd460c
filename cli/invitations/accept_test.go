package invitations

import (
	"net/http"
	"strings"
	"testing"

	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
)

func TestNewCmdAccept(t *testing.T) {
	tests := []struct {
		name      string
		args      []string
		id, token string
		wantErr   string
	}{
		{name: "by id", args: []string{"m-7"}, id: "m-7"},
		{name: "by token", args: []string{"--token", "tok"}, token: "tok"},
		{name: "both", args: []string{"m-7", "--token", "tok"}, wantErr: "either an invitation id or --token"},
		{name: "neither", wantErr: "either an invitation id or --token"},
		{name: "empty token", args: []string{"--token", ""}, wantErr: "must not be empty"},
		{name: "long id", args: []string{strings.Repeat("m", 65)}, wantErr: "want at most 64 characters"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := clitest.NewFactory(t, clitest.Options{})
			var got *AcceptOptions
			err := clitest.Run(NewCmdAccept(f, func(o *AcceptOptions) error { got = o; return nil }), tt.args...)
			if clitest.CheckErr(t, err, tt.wantErr) {
				return
			}
			if got.ID != tt.id || got.Token != tt.token {
				t.Errorf("options %+v", got)
			}
		})
	}
}

func TestAcceptRun(t *testing.T) {
	joined := clitest.Member("m-7", "ada@example.com", client.TeamRoleDeveloper)
	tests := []struct {
		name, pattern string
		args          []string
		wantBody      string
	}{
		{name: "by id", pattern: "POST /v1/team/accept-team-invite-from-popup", args: []string{"m-7"}, wantBody: `{"organizationMemberId":"m-7"}`},
		{name: "by token", pattern: "POST /v1/team/accept-invite", args: []string{"--token", "tok"}, wantBody: `{"token":"tok"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stub := clitest.NewStub(t)
			stub.Handle(tt.pattern, clitest.Data(http.StatusOK, joined))
			f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
			if err := clitest.Run(NewCmdAccept(f, nil), tt.args...); err != nil {
				t.Fatal(err)
			}
			if body := string(stub.Last().Body); body != tt.wantBody {
				t.Errorf("sent %s, want %s", body, tt.wantBody)
			}
			clitest.Golden(t, "accept.tsv", s.Out.Bytes())
		})
	}
}
