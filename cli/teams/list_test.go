package teams

import (
	"testing"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
)

func TestNewCmdList(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		limit   int
		format  string
		wantErr string
	}{
		{name: "defaults", limit: 30},
		{name: "limit and json", args: []string{"-L", "5", "--json"}, limit: 5, format: "json"},
		{name: "yaml", args: []string{"-o", "yaml", "--limit", "0"}, format: "yaml"},
		{name: "unknown format", args: []string{"-o", "xml"}, wantErr: `unknown output format "xml"`},
		{name: "negative limit", args: []string{"--limit", "-1"}, wantErr: "want a number, 0 or more"},
		{name: "argument", args: []string{"acme"}, wantErr: `unexpected argument "acme"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := clitest.NewFactory(t, clitest.Options{})
			var got *ListOptions
			err := clitest.Run(NewCmdList(f, func(o *ListOptions) error { got = o; return nil }), tt.args...)
			if clitest.CheckErr(t, err, tt.wantErr) {
				return
			}
			if got.Limit != tt.limit || got.Output.Format != tt.format {
				t.Errorf("got limit %d format %q, want %d %q", got.Limit, got.Output.Format, tt.limit, tt.format)
			}
		})
	}
}

func TestListRun(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/team/list", clitest.Page([]client.Organization{
		clitest.Team("team-1", "Acme support", client.TeamRoleOwner),
		clitest.Team("team-2", "Beta\tlabs", client.TeamRoleReadonly),
	}))
	clitest.GoldenOutputs(t, "list", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdList(f, nil) })
	req := stub.Last()
	if got := req.Query.Get("sizePerPage"); got != "30" {
		t.Errorf("sizePerPage = %q, want 30 (the limit)", got)
	}
	if got := req.Header.Get("Authorization"); got != "Bearer access-1" {
		t.Errorf("Authorization = %q", got)
	}
}

func TestListEmpty(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/team/list", clitest.Page([]client.Organization{}))
	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdList(f, nil), "--json"); err != nil {
		t.Fatal(err)
	}
	if got := s.Out.String(); got != "[]\n" {
		t.Errorf("out = %q, want []", got)
	}
}
