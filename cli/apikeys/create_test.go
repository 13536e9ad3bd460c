package apikeys

import (
	"net/http"
	"strings"
	"testing"

	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
)

func TestNewCmdCreate(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		role    client.AssignableTeamRole
		wantErr string
	}{
		{name: "developer by default", args: []string{"ci"}, role: "developer"},
		{name: "role", args: []string{"ci", "--role", "readonly"}, role: "readonly"},
		{name: "bad role", args: []string{"ci", "--role", "owner"}, wantErr: `invalid role "owner"`},
		{name: "no name", wantErr: "give a name for the key"},
		{name: "long name", args: []string{strings.Repeat("k", 101)}, wantErr: "want at most 100 characters, not 101"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := clitest.NewFactory(t, clitest.Options{})
			var got *CreateOptions
			err := clitest.Run(NewCmdCreate(f, func(o *CreateOptions) error { got = o; return nil }), tt.args...)
			if clitest.CheckErr(t, err, tt.wantErr) {
				return
			}
			if got.Name != "ci" || got.Role != tt.role {
				t.Errorf("options %+v", got)
			}
		})
	}
}

func TestCreateRun(t *testing.T) {
	const secret = "betty_sk_Q3vT9xLm0000000000000000000000000000000000"
	stub := clitest.NewStub(t)
	stub.Handle("POST /v1/team/api-keys", clitest.Data(http.StatusCreated, client.CreatedApiKey{
		Id: "key-2", OrganizationId: "team-1", Name: "ci", Prefix: secret[:17], Key: secret,
		Role: client.TeamRoleReadonly, CreatedAt: clitest.When, UpdatedAt: clitest.When,
	}))

	t.Run("the secret alone on stdout", func(t *testing.T) {
		f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
		if err := clitest.Run(NewCmdCreate(f, nil), "ci", "--role", "readonly"); err != nil {
			t.Fatal(err)
		}
		if s.Out.String() != secret+"\n" {
			t.Errorf("stdout = %q, want the secret", s.Out)
		}
		if !strings.Contains(s.ErrOut.String(), "will not be shown again") {
			t.Errorf("stderr has no warning: %q", s.ErrOut)
		}
		want := `{"name":"ci","organizationId":"team-1","role":"readonly"}`
		if body := string(stub.Last().Body); body != want {
			t.Errorf("sent %s, want %s", body, want)
		}
	})
	t.Run("json", func(t *testing.T) {
		f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
		if err := clitest.Run(NewCmdCreate(f, nil), "ci", "--json"); err != nil {
			t.Fatal(err)
		}
		clitest.Golden(t, "create.json", s.Out.Bytes())
	})
}
