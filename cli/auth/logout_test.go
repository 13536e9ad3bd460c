package auth

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/config"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
)

func TestNewCmdLogout(t *testing.T) {
	f, _ := clitest.NewFactory(t, clitest.Options{})
	called := false
	if err := clitest.Run(NewCmdLogout(f, func(*LogoutOptions) error { called = true; return nil })); err != nil || !called {
		t.Fatalf("err %v, called %v", err, called)
	}
	clitest.CheckErr(t, clitest.Run(NewCmdLogout(f, nil), "now"), "unexpected argument")
}

func TestLogoutRun(t *testing.T) {
	t.Run("session", func(t *testing.T) {
		stub := clitest.NewStub(t)
		stub.Handle("POST /v1/auth/sign-out", clitest.Data(http.StatusOK, client.Message{Message: "Signed out."}))
		f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
		if err := clitest.Run(NewCmdLogout(f, nil)); err != nil {
			t.Fatal(err)
		}
		h := stub.Last().Header
		if h.Get("Authorization") != "Bearer access-1" || h.Get("X-RefreshToken") != "refresh-1" {
			t.Errorf("sign-out sent %v", h)
		}
		want := config.Profile{Server: stub.URL, Team: "team-1"}
		if got := *clitest.LoadConfig(t, f).Profile(""); got != want {
			t.Errorf("profile %+v, want %+v", got, want)
		}
		if s.ErrOut.String() != "Logged out of "+stub.URL+".\n" {
			t.Errorf("stderr = %q", s.ErrOut)
		}
	})
	t.Run("server refuses", func(t *testing.T) {
		stub := clitest.NewStub(t)
		stub.Handle("POST /v1/auth/sign-out", clitest.Problem(http.StatusForbidden, client.ProblemCodeForbidden, "Another session."))
		f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
		if err := clitest.Run(NewCmdLogout(f, nil)); err != nil {
			t.Fatal(err)
		}
		if p := clitest.LoadConfig(t, f).Profile(""); p.LoggedIn() {
			t.Errorf("credentials kept: %+v", p)
		}
		if !strings.Contains(s.ErrOut.String(), "warning: the server did not close the session") {
			t.Errorf("stderr = %q", s.ErrOut)
		}
	})
	t.Run("API key is only forgotten", func(t *testing.T) {
		f, _ := clitest.NewFactory(t, clitest.Options{Profile: &config.Profile{Server: "http://betty.invalid", APIKey: "betty_sk_x"}})
		if err := clitest.Run(NewCmdLogout(f, nil)); err != nil {
			t.Fatal(err)
		}
		if p := clitest.LoadConfig(t, f).Profile(""); p.LoggedIn() {
			t.Errorf("credentials kept: %+v", p)
		}
	})
	t.Run("not logged in", func(t *testing.T) {
		f, _ := clitest.NewFactory(t, clitest.Options{})
		if err := clitest.Run(NewCmdLogout(f, nil)); !errors.Is(err, cmdutil.ErrNotLoggedIn) {
			t.Errorf("err = %v", err)
		}
	})
}
