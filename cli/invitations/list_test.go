package invitations

import (
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
)

func TestNewCmdList(t *testing.T) {
	f, _ := clitest.NewFactory(t, clitest.Options{})
	var got *ListOptions
	if err := clitest.Run(NewCmdList(f, func(o *ListOptions) error { got = o; return nil }), "-o", "yaml"); err != nil {
		t.Fatal(err)
	}
	if got.Output.Format != "yaml" {
		t.Errorf("format %q", got.Output.Format)
	}
	clitest.CheckErr(t, clitest.Run(NewCmdList(f, nil), "extra"), "unexpected argument")
}

func TestListRun(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/team/get-valid-pending-invitations", clitest.Data(200, []client.Invitation{{
		Id:                   "m-7",
		OrganizationMemberId: "m-7",
		OrganizationId:       "team-3",
		OrganizationName:     "Gamma",
		Email:                "ada@example.com",
		Role:                 client.TeamRoleDeveloper,
		InvitedBy:            &clitest.Owner,
		ExpiresAt:            clitest.When.Add(7 * 24 * time.Hour),
		CreatedAt:            clitest.When,
		UpdatedAt:            clitest.When,
	}}))
	clitest.GoldenOutputs(t, "list", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdList(f, nil) })
}
