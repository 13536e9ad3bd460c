package members

import (
	"net/http"
	"testing"

	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
)

func TestNewCmdInvite(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		role    client.AssignableTeamRole
		wantErr string
	}{
		{name: "member by default", args: []string{"grace@example.com"}, role: "member"},
		{name: "role", args: []string{"grace@example.com", "-r", "admin"}, role: "admin"},
		{name: "owner cannot be given", args: []string{"grace@example.com", "--role", "owner"}, wantErr: `invalid role "owner"`},
		{name: "no address", wantErr: "give the e-mail address to invite"},
		{name: "not an address", args: []string{"not-an-email"}, wantErr: `invalid e-mail address "not-an-email"`},
		{name: "bad team id", args: []string{"grace@example.com", "--team", ""}, wantErr: `invalid argument "" for "--team" flag: must not be empty`},
		{name: "bad origin", args: []string{"grace@example.com", "--origin", "app.example.com"}, wantErr: "want an http:// or https:// URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := clitest.NewFactory(t, clitest.Options{})
			var got *InviteOptions
			err := clitest.Run(NewCmdInvite(f, func(o *InviteOptions) error { got = o; return nil }), tt.args...)
			if clitest.CheckErr(t, err, tt.wantErr) {
				return
			}
			if got.Email != "grace@example.com" || got.Role != tt.role {
				t.Errorf("options %+v", got)
			}
		})
	}
}

func TestInviteRun(t *testing.T) {
	stub := clitest.NewStub(t)
	invited := clitest.Member("m-2", "grace@example.com", client.TeamRoleAdmin)
	invited.Status = client.MemberStatusInvited
	stub.Handle("POST /v1/team/invite", clitest.Data(http.StatusCreated, invited))
	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	err := clitest.Run(NewCmdInvite(f, nil), "grace@example.com", "--role", "admin", "--origin", "https://app.example.com")
	if err != nil {
		t.Fatal(err)
	}
	want := `{"email":"grace@example.com","organizationId":"team-1","origin":"https://app.example.com","role":"admin"}`
	if body := string(stub.Last().Body); body != want {
		t.Errorf("sent %s, want %s", body, want)
	}
	if want := "Invited grace@example.com as admin; the link works for 7 days.\n"; s.ErrOut.String() != want {
		t.Errorf("stderr = %q", s.ErrOut)
	}
}
