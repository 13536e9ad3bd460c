// Package clitest runs commands the way a person or a script does, against a server given by
// its base URL: a Stub answering the documented wire format, or a real server. To run a
// command against the real API, serve it in process (httptest.NewServer), sign in, and pass
// its URL with the session's tokens (or an API key) as Options.Profile: commands cannot tell
// the difference.
package clitest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/config"
)

// update is `go test ./cli/... -update`. Every test package under cli/ imports clitest, so
// every test binary knows the flag.
var update = flag.Bool("update", false, "rewrite golden files")

// Options describe the machine a command runs on.
type Options struct {
	// Profile is written as the "default" profile of a fresh configuration directory;
	// nil leaves the directory empty (not logged in).
	Profile *config.Profile
	// TTY makes stdin and stdout terminals: tables get headers, prompts are allowed.
	TTY bool
	// Stdin is what the command reads.
	Stdin string
	// Env is the process environment; BETTY_CONFIG_DIR is set to the test's directory.
	Env map[string]string
}

// Streams are the command's outputs.
type Streams struct {
	Out, ErrOut *bytes.Buffer
}

// NewFactory returns a factory for one test with its own configuration directory.
func NewFactory(t testing.TB, opts Options) (*cmdutil.Factory, *Streams) {
	t.Helper()
	dir := t.TempDir()
	env := map[string]string{"BETTY_CONFIG_DIR": dir}
	for k, v := range opts.Env {
		env[k] = v
	}
	if opts.Profile != nil {
		cfg, err := config.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		*cfg.Profile(config.DefaultProfile) = *opts.Profile
		if err := cfg.Save(); err != nil {
			t.Fatal(err)
		}
	}
	s := &Streams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}
	f := cmdutil.New(&cmdutil.IOStreams{
		In:        strings.NewReader(opts.Stdin),
		Out:       s.Out,
		ErrOut:    s.ErrOut,
		StdinTTY:  opts.TTY,
		StdoutTTY: opts.TTY,
	}, func(k string) string { return env[k] })
	f.Version = "test"
	return f, s
}

// LoadConfig reads the configuration the factory's commands wrote.
func LoadConfig(t testing.TB, f *cmdutil.Factory) *config.Config {
	t.Helper()
	cfg, err := config.Load(f.Getenv("BETTY_CONFIG_DIR"))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// Run executes cmd with args as a sub-command run on its own.
func Run(cmd *cobra.Command, args ...string) error {
	// nil would make cobra read the test binary's own arguments.
	cmd.SetArgs(append([]string{}, args...))
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	return cmd.ExecuteContext(context.Background())
}

// Golden compares got with testdata/<name>.golden, or rewrites the file under -update.
func Golden(t testing.TB, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cli/... -update to create it)", err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s differs from the output (run go test ./cli/... -update if the change is right)\n--- want\n%s\n--- got\n%s", path, want, got)
	}
}

// LoggedIn is a profile signed in to server as the fixtures' Owner, with team-1 current.
func LoggedIn(server string) *config.Profile {
	return &config.Profile{
		Server:       server,
		AccessToken:  "access-1",
		RefreshToken: "refresh-1",
		Email:        string(Owner.Email),
		Team:         "team-1",
	}
}

// CheckErr checks err against want, a part of the expected message ("" for no error). It
// reports whether the test should stop there (an error was expected or unexpectedly got).
func CheckErr(t testing.TB, err error, want string) bool {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Fatalf("unexpected error: %v", err)
	case want != "" && err == nil:
		t.Fatalf("want an error containing %q, got none", want)
	case want != "" && !strings.Contains(err.Error(), want):
		t.Fatalf("error %q, want one containing %q", err, want)
	}
	return err != nil
}

// JSON is v encoded, to compare request bodies.
func JSON(t testing.TB, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// ErrorIs reports whether err matches want: nil only nil, a *cmdutil.FlagError any usage
// error, anything else by errors.Is.
func ErrorIs(err, want error) bool {
	if _, ok := want.(*cmdutil.FlagError); ok {
		var flagErr *cmdutil.FlagError
		return errors.As(err, &flagErr)
	}
	if want == nil {
		return err == nil
	}
	return errors.Is(err, want)
}

// Output is one way a read command prints its data.
type Output struct {
	Name string   // the golden file's suffix
	TTY  bool     // a terminal: an aligned table with headers
	Args []string // the flags that choose it
}

// Outputs are the ways every read command's data is kept in golden files: a table on a
// terminal, tab-separated in a pipe, JSON and YAML.
var Outputs = []Output{{Name: "table", TTY: true}, {Name: "tsv"}, {Name: "json", Args: []string{"--json"}}, {Name: "yaml", Args: []string{"-o", "yaml"}}}

// GoldenOutputs runs the command newCmd makes with args, signed in to server (see LoggedIn),
// once per output, and compares what it prints with testdata/<name>.<output>.golden.
func GoldenOutputs(t *testing.T, name, server string, newCmd func(*cmdutil.Factory) *cobra.Command, args ...string) {
	t.Helper()
	for _, o := range Outputs {
		t.Run(o.Name, func(t *testing.T) {
			f, s := NewFactory(t, Options{Profile: LoggedIn(server), TTY: o.TTY})
			if err := Run(newCmd(f), append(append([]string{}, args...), o.Args...)...); err != nil {
				t.Fatal(err)
			}
			Golden(t, name+"."+o.Name, s.Out.Bytes())
		})
	}
}
