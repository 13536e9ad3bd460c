package teams

import (
	"errors"
	"testing"

	"github.com/bettyhq/betty/cli/config"
	"github.com/bettyhq/betty/cli/internal/clitest"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

func TestNewCmdSwitch(t *testing.T) {
	f, _ := clitest.NewFactory(t, clitest.Options{})
	var got *SwitchOptions
	cmd := NewCmdSwitch(f, func(o *SwitchOptions) error { got = o; return nil })
	if err := clitest.Run(cmd, "team-2"); err != nil || got.Team != "team-2" {
		t.Fatalf("err %v, options %+v", err, got)
	}
	clitest.CheckErr(t, clitest.Run(NewCmdSwitch(f, nil)), "give the id of the team")
}

func TestSwitchRun(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/team/list", clitest.Page([]client.Organization{
		clitest.Team("team-1", "Acme support", client.TeamRoleOwner),
		clitest.Team("team-2", "Beta", client.TeamRoleMember),
	}))
	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdSwitch(f, nil), "team-2"); err != nil {
		t.Fatal(err)
	}
	if got := clitest.LoadConfig(t, f).Profile(config.DefaultProfile).Team; got != "team-2" {
		t.Errorf("current team = %q", got)
	}
	if want := "Switched to team Beta (team-2).\n"; s.ErrOut.String() != want {
		t.Errorf("stderr = %q, want %q", s.ErrOut, want)
	}

	err := clitest.Run(NewCmdSwitch(f, nil), "team-9")
	if !errors.Is(err, betty.ErrNotFound) {
		t.Errorf("switching to a stranger's team: err = %v, want not found", err)
	}
}
