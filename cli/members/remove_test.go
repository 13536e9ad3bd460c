package members

import (
	"net/http"
	"testing"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
)

func TestNewCmdRemove(t *testing.T) {
	f, _ := clitest.NewFactory(t, clitest.Options{})
	var got *RemoveOptions
	if err := clitest.Run(NewCmdRemove(f, func(o *RemoveOptions) error { got = o; return nil }), "grace@example.com", "-y"); err != nil {
		t.Fatal(err)
	}
	if got.Email != "grace@example.com" || !got.Yes {
		t.Errorf("options %+v", got)
	}
	clitest.CheckErr(t, clitest.Run(NewCmdRemove(f, nil)), "give the e-mail address of the member to remove")
}

func TestRemoveRun(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("DELETE /v1/team/member", clitest.Data(http.StatusOK, map[string]string{"id": "m-2"}))

	f, _ := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	err := clitest.Run(NewCmdRemove(f, nil), "grace@example.com")
	if !clitest.ErrorIs(err, &cmdutil.FlagError{}) {
		t.Fatalf("without --yes in a script: err = %v, want a usage error", err)
	}
	if n := len(stub.Requests()); n != 0 {
		t.Fatalf("%d requests sent before confirmation", n)
	}

	f, _ = clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL), TTY: true, Stdin: "yes\n"})
	if err := clitest.Run(NewCmdRemove(f, nil), "grace@example.com"); err != nil {
		t.Fatal(err)
	}
	q := stub.Last().Query
	if q.Get("email") != "grace@example.com" || q.Get("organizationId") != "team-1" {
		t.Errorf("query %v", q)
	}
}
