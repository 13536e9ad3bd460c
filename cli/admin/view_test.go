package admin

import (
	"net/http"
	"testing"

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
	for _, tt := range []struct {
		name string
		tty  bool
		args []string
	}{
		{name: "table", tty: true},
		{name: "json", args: []string{"--json"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL), TTY: tt.tty})
			if err := clitest.Run(NewCmdView(f, nil), append([]string{"team-1"}, tt.args...)...); err != nil {
				t.Fatal(err)
			}
			clitest.Golden(t, "view."+tt.name, s.Out.Bytes())
		})
	}
	if got := stub.Last().Query.Get("refresh"); got != "false" {
		t.Errorf("refresh = %q", got)
	}
}
