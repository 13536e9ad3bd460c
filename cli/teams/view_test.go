package teams

import (
	"errors"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

func TestNewCmdView(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		team    string
		wantErr string
	}{
		{name: "current team"},
		{name: "by id", args: []string{"team-2", "-o", "json"}, team: "team-2"},
		{name: "two ids", args: []string{"a", "b"}, wantErr: "accepts at most 1 arg"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := clitest.NewFactory(t, clitest.Options{})
			var got *ViewOptions
			err := clitest.Run(NewCmdView(f, func(o *ViewOptions) error { got = o; return nil }), tt.args...)
			if clitest.CheckErr(t, err, tt.wantErr) {
				return
			}
			if got.Team != tt.team {
				t.Errorf("team = %q, want %q", got.Team, tt.team)
			}
		})
	}
}

func TestViewRun(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/team/list", clitest.Page([]client.Organization{
		clitest.Team("team-1", "Acme support", client.TeamRoleOwner),
		clitest.Team("team-2", "Beta", client.TeamRoleMember),
	}))
	clitest.GoldenOutputs(t, "view", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdView(f, nil) }, "team-2")
	t.Run("current team", func(t *testing.T) {
		f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
		if err := clitest.Run(NewCmdView(f, nil)); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(s.Out.String(), "ID\tteam-1\nNAME\tAcme support\n") {
			t.Errorf("out = %q", s.Out)
		}
	})
	t.Run("not one of mine", func(t *testing.T) {
		f, _ := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
		err := clitest.Run(NewCmdView(f, nil), "team-9")
		if !errors.Is(err, betty.ErrNotFound) {
			t.Errorf("err = %v, want not found", err)
		}
	})
}
