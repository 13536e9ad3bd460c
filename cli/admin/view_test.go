package admin

import (
	"net/http"
	"testing"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
)

func TestNewCmdView(t *testing.T) {
	f, _ := clitest.NewFactory(t, clitest.Options{})
	var got *ViewOptions
	if err := clitest.Run(NewCmdView(f, func(o *ViewOptions) error { got = o; return nil }), "team-1", "--refresh"); err != nil {
		t.Fatal(err)
	}
	if got.ID != "team-1" || !got.Refresh {
		t.Errorf("options %+v", got)
	}
	clitest.CheckErr(t, clitest.Run(NewCmdView(f, nil)), "give the organisation's id")
}

func TestViewRun(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/admin/organization/refresh-organization-id/team-1", clitest.Data(http.StatusOK, adminOrg()))
	clitest.GoldenOutputs(t, "view", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdView(f, nil) }, "team-1")
	if got := stub.Last().Query.Get("refresh"); got != "false" {
		t.Errorf("refresh = %q", got)
	}
}
