package apikeys

import (
	"net/http"
	"testing"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
)

func TestNewCmdDelete(t *testing.T) {
	f, _ := clitest.NewFactory(t, clitest.Options{})
	var got *DeleteOptions
	if err := clitest.Run(NewCmdDelete(f, func(o *DeleteOptions) error { got = o; return nil }), "key-1", "--yes", "--team", "team-2"); err != nil {
		t.Fatal(err)
	}
	if got.ID != "key-1" || !got.Yes || got.Team != "team-2" {
		t.Errorf("options %+v", got)
	}
	clitest.CheckErr(t, clitest.Run(NewCmdDelete(f, nil)), "give the id of the key to revoke")
}

func TestDeleteRun(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("DELETE /v1/team/api-keys/key-1", clitest.Data(http.StatusOK, map[string]string{"id": "key-1"}))

	f, _ := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL), TTY: true, Stdin: "n\n"})
	if err := clitest.Run(NewCmdDelete(f, nil), "key-1"); !clitest.ErrorIs(err, cmdutil.ErrCancelled) {
		t.Fatalf("declined: err = %v", err)
	}
	if n := len(stub.Requests()); n != 0 {
		t.Fatalf("%d requests sent after a no", n)
	}

	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdDelete(f, nil), "key-1", "--yes"); err != nil {
		t.Fatal(err)
	}
	if got := stub.Last().Query.Get("organizationId"); got != "team-1" {
		t.Errorf("organizationId = %q", got)
	}
	if s.ErrOut.String() != "Revoked API key key-1.\n" {
		t.Errorf("stderr = %q", s.ErrOut)
	}
}
