package members

import (
	"testing"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
)

func TestNewCmdList(t *testing.T) {
	f, _ := clitest.NewFactory(t, clitest.Options{})
	var got *ListOptions
	err := clitest.Run(NewCmdList(f, func(o *ListOptions) error { got = o; return nil }), "--team", "team-2", "-L", "0", "--json")
	if err != nil {
		t.Fatal(err)
	}
	if got.Team != "team-2" || got.Limit != 0 || got.Output.Format != "json" {
		t.Errorf("options %+v", got)
	}
}

func TestListRun(t *testing.T) {
	stub := clitest.NewStub(t)
	invited := clitest.Member("m-2", "grace@example.com", client.TeamRoleDeveloper)
	invited.Status, invited.JoinedAt, invited.UserId = client.MemberStatusInvited, nil, nil
	owner := clitest.Member("m-1", "ada@example.com", client.TeamRoleOwner)
	owner.Name = clitest.Owner.Name
	stub.Handle("GET /v1/team/members/list", clitest.Page([]client.TeamMember{owner, invited}))
	clitest.GoldenOutputs(t, "list", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdList(f, nil) })
	if got := stub.Last().Query.Get("organizationId"); got != "team-1" {
		t.Errorf("organizationId = %q, want the current team", got)
	}
}
