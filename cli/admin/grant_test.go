package admin

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/server/store"
)

// serverData is the data dir of a server that has run: migrated, with ada signed up.
func serverData(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	db, err := store.Open(context.Background(), store.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateUser(context.Background(), &store.User{Email: "ada@example.com"}); err != nil {
		t.Fatal(err)
	}
	return dir
}

func isSiteAdmin(t *testing.T, dir string) bool {
	t.Helper()
	db, err := store.Open(context.Background(), store.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	u, err := db.UserByEmail(context.Background(), "ada@example.com")
	if err != nil {
		t.Fatal(err)
	}
	return u.IsSiteAdmin && u.SiteAdminSince != nil
}

func TestGrantOnTheDatabase(t *testing.T) {
	dir := serverData(t)
	source := filepath.Join(dir, "betty.db")

	f, s := clitest.NewFactory(t, clitest.Options{})
	if err := clitest.Run(NewCmdGrant(f, nil), "Ada@Example.com", "--data-dir", dir); err != nil {
		t.Fatal(err)
	}
	if want := "Using the database " + source + ".\nada@example.com is now a site administrator.\n"; s.ErrOut.String() != want {
		t.Errorf("stderr %q, want %q", s.ErrOut, want)
	}
	if !isSiteAdmin(t, dir) {
		t.Fatal("not granted")
	}
	if err := clitest.Run(NewCmdGrant(f, nil), "ada@example.com", "--data-dir", dir, "--revoke"); err != nil {
		t.Fatal(err)
	}
	if isSiteAdmin(t, dir) {
		t.Fatal("not revoked")
	}
	err := clitest.Run(NewCmdGrant(f, nil), "nobody@example.com", "--data-dir", dir)
	if cmdutil.ExitCode(err) != cmdutil.ExitNotFound {
		t.Fatalf("unknown user: %v (exit %d)", err, cmdutil.ExitCode(err))
	}
	if err := clitest.Run(NewCmdGrant(f, nil)); cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Fatalf("no argument: %v", err)
	}
	if err := clitest.Run(NewCmdGrant(f, nil), "ada", "--data-dir", dir); cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Fatalf("not an e-mail address: %v", err)
	}
}

// The database is found as betty serve finds it: flag, then environment, then file.
func TestGrantFindsTheDatabaseAsServeDoes(t *testing.T) {
	dir := serverData(t)
	file := filepath.Join(t.TempDir(), "betty.yaml")
	if err := os.WriteFile(file, []byte("data_dir: "+dir+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, env := range map[string]map[string]string{
		"environment":                   {"BETTY_DATA_DIR": dir},
		"file named by the flag":        nil,
		"file named in the environment": {"BETTY_CONFIG": file},
	} {
		t.Run(name, func(t *testing.T) {
			args := []string{"ada@example.com"}
			if env == nil {
				args = append(args, "--config", file)
			}
			f, s := clitest.NewFactory(t, clitest.Options{Env: env})
			if err := clitest.Run(NewCmdGrant(f, nil), args...); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(s.ErrOut.String(), "Using the database "+filepath.Join(dir, "betty.db")+".\n") {
				t.Errorf("stderr %q", s.ErrOut)
			}
		})
	}
}

// Without settings, betty serve's default data dir is tried; no database is made there, and
// the error says where it looked and how to point at make run's.
func TestGrantDoesNotCreateADatabase(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	f, s := clitest.NewFactory(t, clitest.Options{})
	err := clitest.Run(NewCmdGrant(f, nil), "ada@example.com")
	if !clitest.ErrorIs(err, store.ErrNoDatabase) || cmdutil.ExitCode(err) != cmdutil.ExitError {
		t.Fatalf("err = %v (exit %d)", err, cmdutil.ExitCode(err))
	}
	var printed bytes.Buffer
	cmdutil.PrintError(&printed, nil, err)
	tried := filepath.Join(home, ".local", "share", "betty", "betty.db")
	for _, want := range []string{tried + " does not exist", "--data-dir, BETTY_DATA_DIR or --config",
		"make run keeps its data in ./data: betty admin grant ada@example.com --data-dir ./data\n"} {
		if !strings.Contains(printed.String(), want) {
			t.Errorf("message %q lacks %q", printed.String(), want)
		}
	}
	if _, err := os.Stat(filepath.Dir(tried)); !os.IsNotExist(err) {
		t.Errorf("the default data dir was made: %v", err)
	}
	if s.ErrOut.Len() != 0 {
		t.Errorf("stderr %q before the error", s.ErrOut)
	}
}

// A database file no server has migrated is refused, and left unmigrated.
func TestGrantRefusesAnUnmigratedDatabase(t *testing.T) {
	dir := t.TempDir()
	db, err := store.Open(context.Background(), store.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	f, _ := clitest.NewFactory(t, clitest.Options{})
	err = clitest.Run(NewCmdGrant(f, nil), "ada@example.com", "--data-dir", dir)
	if err == nil || !strings.Contains(err.Error(), "has no Betty tables: betty serve has not run on it") {
		t.Fatalf("err = %v", err)
	}
	var printed bytes.Buffer
	cmdutil.PrintError(&printed, nil, err)
	if !strings.Contains(printed.String(), "Run betty serve (or betty migrate) with the same settings first") {
		t.Errorf("message %q", printed.String())
	}
	db, _ = store.Open(context.Background(), store.Options{DataDir: dir})
	defer db.Close()
	if v, err := db.MigrationVersion(context.Background()); v != 0 || err != nil {
		t.Errorf("migrated to %d (%v)", v, err)
	}
}
