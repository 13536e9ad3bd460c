package zapier

import (
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
)

func ptr[T any](v T) *T { return &v }

func TestHooksList(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/apps/zapier/hooks", clitest.Data(200, []client.ZapierHook{
		{Id: "hook-2", OrganizationId: "team-1", Event: "call.completed", HookUrl: "https://hooks.zapier.com/hooks/standard/1/abc/", CreatedAt: clitest.When, UpdatedAt: clitest.When,
			LastDelivery: &client.ZapierDelivery{Event: "call.completed", Status: "failed", Attempts: 4, HttpStatus: ptr(500), Error: ptr("the hook answered 500"), UpdatedAt: clitest.When}},
		{Id: "hook-1", OrganizationId: "team-1", Event: "contact.added", HookUrl: "https://hooks.zapier.com/hooks/standard/1/def/", CreatedAt: clitest.When, UpdatedAt: clitest.When},
	}))
	clitest.GoldenOutputs(t, "hooks", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdHooksList(f, nil) })
	if q := stub.Last().Query; q.Get("organizationId") != "team-1" {
		t.Errorf("query %v", q)
	}
}

func TestTemplatesAndZaps(t *testing.T) {
	stub := clitest.NewStub(t)
	steps := []client.ZapierStep{{Title: "Google Sheets", ImageUrl: ptr("https://cdn.zapier.com/sheets.png")}, {Title: "Betty"}}
	stub.Handle("GET /v1/apps/zapier/templates", clitest.Data(200, []client.ZapierTemplate{
		{Id: "1001", Title: "Call new Google Sheets rows", Description: "When a row is added, Betty calls it.", Url: "https://zapier.com/app/editor/template/1001", Steps: steps}}))
	changed := clitest.When.Add(-time.Hour)
	stub.Handle("GET /v1/apps/zapier/zaps", clitest.Page([]client.ZapierZap{
		{Id: "zap-1", Title: "Sheets to calls", State: "on", Url: "https://zapier.com/webintent/edit-zap/zap-1", Steps: steps, ModifiedAt: &changed}}))
	clitest.GoldenOutputs(t, "templates", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdTemplates(f, nil) })
	clitest.GoldenOutputs(t, "zaps", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdZaps(f, nil) })
}
