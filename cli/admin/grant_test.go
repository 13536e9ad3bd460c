package admin

import (
	"context"
	"errors"
	"testing"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/server/store"
)

func TestGrantOnTheDatabase(t *testing.T) {
	dir := t.TempDir()
	db, err := store.Open(context.Background(), store.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateUser(context.Background(), &store.User{Email: "ada@example.com"}); err != nil {
		t.Fatal(err)
	}
	db.Close()

	f, s := clitest.NewFactory(t, clitest.Options{})
	if err := clitest.Run(NewCmdGrant(f, nil), "Ada@Example.com", "--data-dir", dir); err != nil {
		t.Fatal(err)
	}
	if s.ErrOut.String() != "ada@example.com is now a site administrator.\n" {
		t.Errorf("stderr %q", s.ErrOut)
	}
	db, _ = store.Open(context.Background(), store.Options{DataDir: dir})
	u, err := db.UserByEmail(context.Background(), "ada@example.com")
	db.Close()
	if err != nil || !u.IsSiteAdmin || u.SiteAdminSince == nil {
		t.Fatalf("not granted: %+v %v", u, err)
	}
	if err := clitest.Run(NewCmdGrant(f, nil), "ada@example.com", "--data-dir", dir, "--revoke"); err != nil {
		t.Fatal(err)
	}
	err = clitest.Run(NewCmdGrant(f, nil), "nobody@example.com", "--data-dir", dir)
	if cmdutil.ExitCode(err) != cmdutil.ExitNotFound {
		t.Fatalf("unknown user: %v (exit %d)", err, cmdutil.ExitCode(err))
	}
	if err := clitest.Run(NewCmdGrant(f, nil)); cmdutil.ExitCode(err) != cmdutil.ExitUsage || errors.Is(err, nil) {
		t.Fatalf("no argument: %v", err)
	}
}
