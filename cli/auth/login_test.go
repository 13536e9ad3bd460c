package auth

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/config"
	"github.com/bettyhq/betty/cli/internal/clitest"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

func TestNewCmdLogin(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    LoginOptions
		wantErr string
	}{
		{name: "no flags"},
		{
			name: "password from stdin",
			args: []string{"--server", "https://betty.example.com", "--email", "ada@example.com", "--password-stdin"},
			want: LoginOptions{account: account{Server: "https://betty.example.com", Email: "ada@example.com", PasswordStdin: true}},
		},
		{name: "API key", args: []string{"--with-token"}, want: LoginOptions{WithToken: true}},
		{name: "API key and e-mail", args: []string{"--with-token", "--email", "ada@example.com"}, wantErr: "--with-token cannot be used with --email"},
		{name: "argument", args: []string{"ada"}, wantErr: "unexpected argument"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := clitest.NewFactory(t, clitest.Options{})
			var got *LoginOptions
			err := clitest.Run(NewCmdLogin(f, func(o *LoginOptions) error { got = o; return nil }), tt.args...)
			if clitest.CheckErr(t, err, tt.wantErr) {
				return
			}
			if got.Server != tt.want.Server || got.Email != tt.want.Email || got.PasswordStdin != tt.want.PasswordStdin || got.WithToken != tt.want.WithToken {
				t.Errorf("options %+v, want %+v", got, tt.want)
			}
		})
	}
}

// signInStub answers sign-in for ada@example.com with password "s3cret" and lists her teams.
func signInStub(t *testing.T) *clitest.Stub {
	stub := clitest.NewStub(t)
	stub.Handle("POST /v1/auth/sign-in", func(w http.ResponseWriter, r *http.Request) {
		var req client.SignInRequest
		_ = json.NewDecoder(r.Body).Decode(&req)
		if req.Email != "ada@example.com" || req.Password != "s3cret" {
			clitest.Problem(http.StatusUnauthorized, client.ProblemCodeInvalidCredentials, "The e-mail address or password is wrong.")(w, r)
			return
		}
		clitest.Data(http.StatusOK, client.Session{AccessToken: "access-9", RefreshToken: "refresh-9", TokenType: "Bearer", User: clitest.User()})(w, r)
	})
	stub.Handle("GET /v1/team/list", clitest.Page([]client.Organization{
		clitest.Team("team-1", "Acme support", client.TeamRoleOwner),
		clitest.Team("team-2", "Beta", client.TeamRoleMember),
	}))
	return stub
}

func TestLoginWithPassword(t *testing.T) {
	stub := signInStub(t)
	tests := []struct {
		name    string
		opts    clitest.Options
		args    []string
		want    config.Profile
		wantErr error
	}{
		{
			name: "password from stdin",
			opts: clitest.Options{Stdin: "s3cret\n"},
			args: []string{"--server", stub.URL, "--email", "ada@example.com", "--password-stdin"},
			want: config.Profile{Server: stub.URL, AccessToken: "access-9", RefreshToken: "refresh-9", Email: "ada@example.com", Team: "team-1"},
		},
		{
			name: "asked on a terminal, server from the environment",
			opts: clitest.Options{TTY: true, Stdin: "ada@example.com\ns3cret\n", Env: map[string]string{"BETTY_SERVER": stub.URL}},
			want: config.Profile{Server: stub.URL, AccessToken: "access-9", RefreshToken: "refresh-9", Email: "ada@example.com", Team: "team-1"},
		},
		{
			name: "current team kept, API key replaced",
			opts: clitest.Options{Stdin: "s3cret", Profile: &config.Profile{Server: stub.URL, APIKey: "betty_sk_old", Team: "team-2"}},
			args: []string{"--email", "ada@example.com", "--password-stdin"},
			want: config.Profile{Server: stub.URL, AccessToken: "access-9", RefreshToken: "refresh-9", Email: "ada@example.com", Team: "team-2"},
		},
		{
			name:    "wrong password",
			opts:    clitest.Options{Stdin: "guess\n"},
			args:    []string{"--server", stub.URL, "--email", "ada@example.com", "--password-stdin"},
			wantErr: betty.ErrUnauthorized,
		},
		{
			name:    "not an e-mail address",
			opts:    clitest.Options{Stdin: "s3cret\n"},
			args:    []string{"--server", stub.URL, "--email", "ada", "--password-stdin"},
			wantErr: &cmdutil.FlagError{},
		},
		{
			name:    "empty password",
			opts:    clitest.Options{Stdin: "\n"},
			args:    []string{"--server", stub.URL, "--email", "ada@example.com", "--password-stdin"},
			wantErr: &cmdutil.FlagError{},
		},
		{
			name:    "no server in a script",
			args:    []string{"--email", "ada@example.com", "--password-stdin"},
			wantErr: &cmdutil.FlagError{},
		},
		{
			name:    "no password in a script",
			args:    []string{"--server", stub.URL, "--email", "ada@example.com"},
			wantErr: &cmdutil.FlagError{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, s := clitest.NewFactory(t, tt.opts)
			err := clitest.Run(NewCmdLogin(f, nil), tt.args...)
			if !clitest.ErrorIs(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			cfg := clitest.LoadConfig(t, f)
			if tt.wantErr != nil {
				if p := cfg.Profile(""); p.AccessToken != "" {
					t.Errorf("a failed login stored %+v", p)
				}
				return
			}
			if got := *cfg.Profile(""); got != tt.want {
				t.Errorf("profile %+v, want %+v", got, tt.want)
			}
			if cfg.CurrentProfile != config.DefaultProfile {
				t.Errorf("current profile %q", cfg.CurrentProfile)
			}
			if !strings.Contains(s.ErrOut.String(), "Logged in to "+stub.URL+" as ada@example.com.") {
				t.Errorf("stderr = %q", s.ErrOut)
			}
			if s.Out.Len() != 0 {
				t.Errorf("stdout = %q, want nothing", s.Out)
			}
		})
	}
}

// The server does not tell an unknown address from a wrong password; a newcomer is pointed at
// signup.
func TestLoginRefusedSuggestsSignup(t *testing.T) {
	stub := signInStub(t)
	f, _ := clitest.NewFactory(t, clitest.Options{Stdin: "s3cret\n"})
	err := clitest.Run(NewCmdLogin(f, nil), "--server", stub.URL, "--email", "grace@example.com", "--password-stdin")
	var printed bytes.Buffer
	cmdutil.PrintError(&printed, nil, err)
	want := "Error: The e-mail address or password is wrong.\nNo account on this server yet? Create one with `betty signup`.\n"
	if printed.String() != want || cmdutil.ExitCode(err) != cmdutil.ExitAuth {
		t.Errorf("printed %q (exit %d), want %q (exit 4)", printed.String(), cmdutil.ExitCode(err), want)
	}
}

func TestLoginWithToken(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/team/list", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer betty_sk_good" {
			clitest.Problem(http.StatusUnauthorized, client.ProblemCodeUnauthorized, "The API key is not valid.")(w, r)
			return
		}
		clitest.Page([]client.Organization{clitest.Team("team-2", "Beta", client.TeamRoleDeveloper)})(w, r)
	})

	f, s := clitest.NewFactory(t, clitest.Options{Stdin: "betty_sk_good\n"})
	if err := clitest.Run(NewCmdLogin(f, nil), "--server", stub.URL, "--with-token"); err != nil {
		t.Fatal(err)
	}
	want := config.Profile{Server: stub.URL, APIKey: "betty_sk_good", Team: "team-2"}
	if got := *clitest.LoadConfig(t, f).Profile(""); got != want {
		t.Errorf("profile %+v, want %+v", got, want)
	}
	if !strings.Contains(s.ErrOut.String(), "with an API key") {
		t.Errorf("stderr = %q", s.ErrOut)
	}

	f, _ = clitest.NewFactory(t, clitest.Options{Stdin: "betty_sk_bad\n"})
	err := clitest.Run(NewCmdLogin(f, nil), "--server", stub.URL, "--with-token")
	if !errors.Is(err, betty.ErrUnauthorized) {
		t.Errorf("bad key: err = %v", err)
	}
	if p := clitest.LoadConfig(t, f).Profile(""); p.LoggedIn() {
		t.Errorf("a refused key was stored: %+v", p)
	}

	f, _ = clitest.NewFactory(t, clitest.Options{})
	clitest.CheckErr(t, clitest.Run(NewCmdLogin(f, nil), "--server", stub.URL, "--with-token"), "stdin was empty")
	f, _ = clitest.NewFactory(t, clitest.Options{Stdin: "ghp_0123456789\n"})
	err = clitest.Run(NewCmdLogin(f, nil), "--server", stub.URL, "--with-token")
	if clitest.CheckErr(t, err, "invalid API key: want a key such as betty_sk_"); strings.Contains(err.Error(), "ghp_") {
		t.Errorf("the secret is in the message: %v", err)
	}
}

// Teams are listed to pick the current one; a server that cannot list them does not undo a
// successful sign-in.
func TestLoginKeepsSessionWhenTeamsFail(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("POST /v1/auth/sign-in", clitest.Data(http.StatusOK, client.Session{AccessToken: "a", RefreshToken: "r", TokenType: "Bearer", User: clitest.User()}))
	stub.Handle("GET /v1/team/list", clitest.Problem(http.StatusNotImplemented, client.ProblemCodeNotImplemented, "listTeams is not built yet."))
	f, s := clitest.NewFactory(t, clitest.Options{Stdin: "pw\n"})
	if err := clitest.Run(NewCmdLogin(f, nil), "--server", stub.URL, "--email", "ada@example.com", "--password-stdin"); err != nil {
		t.Fatal(err)
	}
	if p := clitest.LoadConfig(t, f).Profile(""); p.AccessToken != "a" || p.RefreshToken != "r" {
		t.Errorf("profile %+v", p)
	}
	if !strings.Contains(s.ErrOut.String(), "warning: could not list your teams") {
		t.Errorf("stderr = %q", s.ErrOut)
	}
}
