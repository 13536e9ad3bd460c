package apikeys

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
	if err := clitest.Run(NewCmdList(f, func(o *ListOptions) error { got = o; return nil }), "--team", "team-2", "--json"); err != nil {
		t.Fatal(err)
	}
	if got.Team != "team-2" || got.Output.Format != "json" {
		t.Errorf("options %+v", got)
	}
}

func TestListRun(t *testing.T) {
	stub := clitest.NewStub(t)
	active, removed := client.MemberStatusActive, client.MemberStatusRemoved
	stub.Handle("GET /v1/team/api-keys", clitest.Data(200, []client.ApiKey{{
		Id:              "key-2",
		OrganizationId:  "team-1",
		Name:            "Zapier",
		Prefix:          "betty_sk_Zr8wPq1c",
		Role:            client.TeamRoleMember,
		CreatedBy:       &client.UserSummary{Id: "user-2", Email: "grace@example.com"},
		CreatedByStatus: &removed,
		CreatedAt:       clitest.When,
		UpdatedAt:       clitest.When,
	}, {
		Id:              "key-1",
		OrganizationId:  "team-1",
		Name:            "CRM sync",
		Prefix:          "betty_sk_Q3vT9xLm",
		Role:            client.TeamRoleDeveloper,
		CreatedBy:       &clitest.Owner,
		CreatedByStatus: &active,
		LastUsedAt:      &clitest.When,
		CreatedAt:       clitest.When,
		UpdatedAt:       clitest.When,
	}}))
	clitest.GoldenOutputs(t, "list", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdList(f, nil) })
	if got := stub.Last().Query.Get("organizationId"); got != "team-1" {
		t.Errorf("organizationId = %q", got)
	}
}
