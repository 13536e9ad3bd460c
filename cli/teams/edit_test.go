package teams

import (
	"net/http"
	"testing"

	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
)

func TestNewCmdEdit(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		team    string
		want    string
		wantErr string
	}{
		{name: "rename current team", args: []string{"--name", "Acme care"}, want: `{"id":"","name":"Acme care"}`},
		{name: "clear a property", args: []string{"team-2", "--purpose", ""}, team: "team-2", want: `{"id":"","purpose":""}`},
		{name: "nothing to change", args: []string{"team-2"}, wantErr: "give at least one property"},
		{name: "clear the platform", args: []string{"--platform", ""}, want: `{"id":"","platformKey":""}`},
		{name: "bad platform", args: []string{"--platform", "Web"}, wantErr: "want lower-case letters"},
		{name: "empty name", args: []string{"--name", ""}, wantErr: "must not be empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := clitest.NewFactory(t, clitest.Options{})
			var got *EditOptions
			err := clitest.Run(NewCmdEdit(f, func(o *EditOptions) error { got = o; return nil }), tt.args...)
			if clitest.CheckErr(t, err, tt.wantErr) {
				return
			}
			if got.Team != tt.team {
				t.Errorf("team = %q, want %q", got.Team, tt.team)
			}
			if body := clitest.JSON(t, got.Request); body != tt.want {
				t.Errorf("request = %s, want %s", body, tt.want)
			}
		})
	}
}

func TestEditRun(t *testing.T) {
	stub := clitest.NewStub(t)
	updated := clitest.Team("team-1", "Acme care", client.TeamRoleOwner)
	stub.Handle("PATCH /v1/team/properties", clitest.Data(http.StatusOK, updated))
	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdEdit(f, nil), "--name", "Acme care", "--json"); err != nil {
		t.Fatal(err)
	}
	if body := string(stub.Last().Body); body != `{"id":"team-1","name":"Acme care"}` {
		t.Errorf("sent %s", body)
	}
	clitest.Golden(t, "edit.json", s.Out.Bytes())
}
