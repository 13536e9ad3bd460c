package members

import (
	"net/http"
	"testing"

	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
)

func TestNewCmdRole(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{name: "email and role", args: []string{"grace@example.com", "readonly"}},
		{name: "unknown role", args: []string{"grace@example.com", "boss"}, wantErr: `invalid role "boss"`},
		{name: "role missing", args: []string{"grace@example.com"}, wantErr: "give the member's e-mail address and the new role"},
		{name: "not an address", args: []string{"grace", "admin"}, wantErr: `invalid e-mail address "grace"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := clitest.NewFactory(t, clitest.Options{})
			var got *RoleOptions
			err := clitest.Run(NewCmdRole(f, func(o *RoleOptions) error { got = o; return nil }), tt.args...)
			if clitest.CheckErr(t, err, tt.wantErr) {
				return
			}
			if got.Email != "grace@example.com" || got.Role != client.AssignableTeamRoleReadonly {
				t.Errorf("options %+v", got)
			}
		})
	}
}

func TestRoleRun(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("PATCH /v1/team/member/role", clitest.Data(http.StatusOK, clitest.Member("m-2", "grace@example.com", client.TeamRoleReadonly)))
	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdRole(f, nil), "grace@example.com", "readonly", "--team", "team-2", "-o", "json"); err != nil {
		t.Fatal(err)
	}
	want := `{"email":"grace@example.com","organizationId":"team-2","role":"readonly"}`
	if body := string(stub.Last().Body); body != want {
		t.Errorf("sent %s, want %s", body, want)
	}
	clitest.Golden(t, "role.json", s.Out.Bytes())
}
