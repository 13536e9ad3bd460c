package cmdutil_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
	betty "github.com/bettyhq/betty/sdk"
)

func TestExitCode(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want int
	}{
		{name: "success", want: 0},
		{name: "failure", err: errors.New("boom"), want: 1},
		{name: "conflict", err: &betty.APIError{StatusCode: 409}, want: 1},
		{name: "forbidden", err: &betty.APIError{StatusCode: 403}, want: 1},
		{name: "server", err: &betty.APIError{StatusCode: 500}, want: 1},
		{name: "cancelled", err: cmdutil.ErrCancelled, want: 1},
		{name: "usage", err: cmdutil.FlagErrorf("bad"), want: 2},
		{name: "wrapped usage", err: fmt.Errorf("x: %w", cmdutil.FlagErrorf("bad")), want: 2},
		{name: "unknown command", err: errors.New(`unknown command "tems" for "betty"`), want: 2},
		{name: "not logged in", err: cmdutil.ErrNotLoggedIn, want: 4},
		{name: "refused credentials", err: &betty.APIError{StatusCode: 401, Code: "invalid_token"}, want: 4},
		{name: "server's not found", err: &betty.APIError{StatusCode: 404}, want: 8},
		{name: "CLI's not found", err: cmdutil.NotFoundf("team x"), want: 8},
		{name: "server unreachable", err: &betty.UnreachableError{Server: "http://localhost:8080", Err: errors.New("refused")}, want: 1},
		{name: "hint kept the code", err: cmdutil.WithHint(cmdutil.FlagErrorf("bad"), "do this"), want: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := cmdutil.ExitCode(tt.err); got != tt.want {
				t.Errorf("ExitCode(%v) = %d, want %d", tt.err, got, tt.want)
			}
		})
	}
}

func TestPrintError(t *testing.T) {
	cmd := &cobra.Command{Use: "create"}
	(&cobra.Command{Use: "betty"}).AddCommand(cmd)
	tests := []struct {
		name string
		err  error
		want string
	}{
		{
			name: "validation",
			err: &betty.APIError{StatusCode: 400, Code: "validation_failed", Title: "Bad Request", Detail: "The request is not valid.",
				Fields: []betty.FieldError{{Field: "body.name", Message: "must not be empty"}, {Field: "query.page", Message: "must be 1 or more"}}},
			want: "Error: The request is not valid.\n  - name: must not be empty\n  - page: must be 1 or more\n",
		},
		{
			name: "expired session",
			err:  &betty.APIError{StatusCode: 401, Code: "refresh_token_reused", Title: "Unauthorized"},
			want: "Error: Unauthorized\nRun `betty login` to sign in again.\n",
		},
		{
			name: "wrong password",
			err:  &betty.APIError{StatusCode: 401, Code: "invalid_credentials", Detail: "The e-mail or password is not correct."},
			want: "Error: The e-mail or password is not correct.\n",
		},
		{
			name: "server failure",
			err:  &betty.APIError{StatusCode: 500, Title: "Internal Server Error", Detail: "Something went wrong.", RequestID: "req-1"},
			want: "Error: Something went wrong.\nThe server failed (HTTP 500); quote request id req-1 when reporting it.\n",
		},
		{
			name: "usage",
			err:  cmdutil.FlagErrorf("give the team's name"),
			want: "Error: give the team's name\nRun 'betty create --help' for usage.\n",
		},
		{name: "cancelled", err: cmdutil.ErrCancelled, want: "Cancelled.\n"},
		{
			name: "server unreachable",
			err:  fmt.Errorf("list: %w", &betty.UnreachableError{Server: "http://localhost:8080", Err: errors.New("dial tcp: connection refused")}),
			want: "Error: cannot reach the Betty server at http://localhost:8080 — is `betty serve` running?\n",
		},
		{
			name: "hint",
			err:  cmdutil.WithHint(&betty.APIError{StatusCode: 401, Code: "invalid_credentials", Detail: "The e-mail or password is not correct."}, "Try this."),
			want: "Error: The e-mail or password is not correct.\nTry this.\n",
		},
		{name: "other", err: errors.New("dial tcp: refused"), want: "Error: dial tcp: refused\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			cmdutil.PrintError(&b, cmd, tt.err)
			if b.String() != tt.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tt.want)
			}
		})
	}
}

func TestConfirmDestructive(t *testing.T) {
	tests := []struct {
		name  string
		tty   bool
		stdin string
		yes   bool
		want  error
	}{
		{name: "--yes", yes: true},
		{name: "yes on a terminal", tty: true, stdin: "y\n"},
		{name: "YES on a terminal", tty: true, stdin: "YES\n"},
		{name: "no on a terminal", tty: true, stdin: "\n", want: cmdutil.ErrCancelled},
		{name: "script", want: &cmdutil.FlagError{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, s := clitest.NewFactory(t, clitest.Options{TTY: tt.tty, Stdin: tt.stdin})
			err := cmdutil.ConfirmDestructive(f.IO, tt.yes, "Delete it?")
			if !clitest.ErrorIs(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
			if tt.tty && s.ErrOut.String() != "Delete it? (y/N): " {
				t.Errorf("prompt = %q", s.ErrOut)
			}
		})
	}
}
