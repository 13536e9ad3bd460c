package admin

import (
	"net/http"
	"strings"
	"testing"

	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
)

func TestNewCmdLevel(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{name: "l2", args: []string{"team-1", "l2"}},
		{name: "unknown level", args: []string{"team-1", "l3"}, wantErr: `invalid level "l3"`},
		{name: "level missing", args: []string{"team-1"}, wantErr: "give the organisation's id and the level"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := clitest.NewFactory(t, clitest.Options{})
			var got *LevelOptions
			err := clitest.Run(NewCmdLevel(f, func(o *LevelOptions) error { got = o; return nil }), tt.args...)
			if clitest.CheckErr(t, err, tt.wantErr) {
				return
			}
			if got.ID != "team-1" || got.Value != client.VerificationLevelL2 {
				t.Errorf("options %+v", got)
			}
		})
	}
}

func TestLevelRun(t *testing.T) {
	stub := clitest.NewStub(t)
	org := adminOrg()
	org.Organization.VerificationLevel, org.PendingVerificationRequest = client.VerificationLevelL1, nil
	stub.Handle("POST /v1/admin/organization/update-organization-level", clitest.Data(http.StatusOK, org))
	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdLevel(f, nil), "team-1", "l1", "--json"); err != nil {
		t.Fatal(err)
	}
	q := stub.Last().Query
	if q.Get("organizationId") != "team-1" || q.Get("verificationLevel") != "l1" {
		t.Errorf("query %v", q)
	}
	if s.ErrOut.String() != "Set the verification level of Acme support to l1.\n" {
		t.Errorf("stderr = %q", s.ErrOut)
	}
}

func TestLevelCompletes(t *testing.T) {
	f, _ := clitest.NewFactory(t, clitest.Options{})
	cmd := NewCmdLevel(f, nil)
	got, _ := cmd.ValidArgsFunction(cmd, []string{"team-1"}, "")
	if strings.Join(got, " ") != "none l1 l2" {
		t.Errorf("completions %v", got)
	}
	if got, _ := cmd.ValidArgsFunction(cmd, nil, ""); len(got) != 0 {
		t.Errorf("the id completes to %v", got)
	}
}
