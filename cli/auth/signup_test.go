package auth

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/config"
	"github.com/bettyhq/betty/cli/internal/clitest"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

func TestNewCmdSignup(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    SignupOptions
		wantErr string
	}{
		{name: "no flags"},
		{
			name: "every flag",
			args: []string{"--server", "http://localhost:8080", "--email", "ada@example.com", "--name", "Ada", "--password-stdin"},
			want: SignupOptions{account: account{Server: "http://localhost:8080", Email: "ada@example.com", PasswordStdin: true}, Name: "Ada"},
		},
		{name: "empty name", args: []string{"--name", " "}, wantErr: "must not be empty"},
		{name: "argument", args: []string{"ada@example.com"}, wantErr: "unexpected argument"},
		{name: "no password flag", args: []string{"--password", "x"}, wantErr: "unknown flag: --password"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := clitest.NewFactory(t, clitest.Options{})
			var got *SignupOptions
			err := clitest.Run(NewCmdSignup(f, func(o *SignupOptions) error { got = o; return nil }), tt.args...)
			if clitest.CheckErr(t, err, tt.wantErr) {
				return
			}
			if got.Server != tt.want.Server || got.Email != tt.want.Email || got.PasswordStdin != tt.want.PasswordStdin || got.Name != tt.want.Name {
				t.Errorf("options %+v, want %+v", got, tt.want)
			}
		})
	}
}

// signUpStub answers sign-up as a server that requires confirmation (when delivery is not
// "") or signs the account in at once, and lists no teams.
func signUpStub(t *testing.T, delivery client.MailDelivery) *clitest.Stub {
	stub := clitest.NewStub(t)
	stub.Handle("POST /v1/auth/sign-up", func(w http.ResponseWriter, r *http.Request) {
		var req client.SignUpRequest
		_ = json.NewDecoder(r.Body).Decode(&req)
		if req.Email == "taken@example.com" {
			clitest.Problem(http.StatusConflict, client.ProblemCodeConflict, "An account with this e-mail already exists. Sign in instead.")(w, r)
			return
		}
		result := client.SignUpResult{User: clitest.User(), EmailConfirmationRequired: delivery != ""}
		if delivery == "" {
			result.Session = &client.Session{AccessToken: "access-9", RefreshToken: "refresh-9", TokenType: "Bearer", User: clitest.User()}
		}
		clitest.Data(http.StatusCreated, result)(w, r)
	})
	stub.Handle("GET /v1/server/info", func(w http.ResponseWriter, r *http.Request) {
		if delivery == "broken" {
			clitest.Problem(http.StatusInternalServerError, client.ProblemCodeInternal, "Something went wrong.")(w, r)
			return
		}
		clitest.Data(http.StatusOK, client.ServerInfo{Version: "test", MailDelivery: delivery, EmailConfirmationRequired: true})(w, r)
	})
	stub.Handle("GET /v1/team/list", clitest.Page([]client.Organization{}))
	return stub
}

func TestSignupRun(t *testing.T) {
	signedIn := signUpStub(t, "")
	smtp := signUpStub(t, client.Smtp)
	outbox := signUpStub(t, client.Outbox)
	broken := signUpStub(t, "broken")
	tests := []struct {
		name       string
		stub       *clitest.Stub
		opts       clitest.Options
		args       []string
		wantErr    error
		wantStderr []string // parts of stderr, in order
		notStderr  string
		loggedIn   bool
	}{
		{
			name:     "signed in at once",
			stub:     signedIn,
			opts:     clitest.Options{Stdin: "correct horse\n"},
			args:     []string{"--email", "ada@example.com", "--name", "Ada Lovelace", "--password-stdin"},
			loggedIn: true,
			wantStderr: []string{"Signed up and logged in to SERVER as ada@example.com.\n",
				"You are in no team yet: create one with `betty teams create <name>`.\n"},
		},
		{
			name:       "asked on a terminal",
			stub:       signedIn,
			opts:       clitest.Options{TTY: true, Stdin: "ada@example.com\ncorrect horse\ncorrect horse\n"},
			loggedIn:   true,
			wantStderr: []string{"E-mail: ", "Password: ", "Password again: ", "Signed up and logged in"},
		},
		{
			name:    "passwords differ",
			stub:    signedIn,
			opts:    clitest.Options{TTY: true, Stdin: "ada@example.com\ncorrect horse\ncorrect horsf\n"},
			wantErr: &cmdutil.FlagError{},
		},
		{name: "short password", stub: signedIn, opts: clitest.Options{Stdin: "short\n"}, args: []string{"--email", "ada@example.com", "--password-stdin"}, wantErr: &cmdutil.FlagError{}},
		{name: "not an e-mail address", stub: signedIn, opts: clitest.Options{Stdin: "correct horse\n"}, args: []string{"--email", "ada", "--password-stdin"}, wantErr: &cmdutil.FlagError{}},
		{name: "no password in a script", stub: signedIn, args: []string{"--email", "ada@example.com"}, wantErr: &cmdutil.FlagError{}},
		{
			name:       "confirmation e-mailed",
			stub:       smtp,
			opts:       clitest.Options{Stdin: "correct horse\n"},
			args:       []string{"--email", "ada@example.com", "--password-stdin"},
			wantStderr: []string{"Created your account on SERVER. Confirm your e-mail from the link we sent to ada@example.com, then run `betty login`.\n"},
		},
		{
			name: "confirmation kept in the outbox",
			stub: outbox,
			opts: clitest.Options{Stdin: "correct horse\n"},
			args: []string{"--email", "ada@example.com", "--password-stdin"},
			wantStderr: []string{"This server sends no e-mail: the link to confirm ada@example.com is in the server's log, ",
				"`betty admin mail list --recipient ada@example.com`. Open it, then run `betty login`.\n"},
			notStderr: "we sent",
		},
		{
			name:       "server says nothing about e-mail",
			stub:       broken,
			opts:       clitest.Options{Stdin: "correct horse\n"},
			args:       []string{"--email", "ada@example.com", "--password-stdin"},
			wantStderr: []string{"Confirm your e-mail with the link the server made for ada@example.com, then run `betty login`."},
			notStderr:  "we sent",
		},
		{
			name:    "address taken",
			stub:    signedIn,
			opts:    clitest.Options{Stdin: "correct horse\n"},
			args:    []string{"--email", "taken@example.com", "--password-stdin"},
			wantErr: betty.ErrConflict,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Env = map[string]string{"BETTY_SERVER": tt.stub.URL}
			f, s := clitest.NewFactory(t, tt.opts)
			err := clitest.Run(NewCmdSignup(f, nil), tt.args...)
			if !clitest.ErrorIs(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			stderr := strings.ReplaceAll(s.ErrOut.String(), tt.stub.URL, "SERVER")
			rest := stderr
			for _, part := range tt.wantStderr {
				i := strings.Index(rest, part)
				if i < 0 {
					t.Fatalf("stderr %q lacks %q", stderr, part)
				}
				rest = rest[i+len(part):]
			}
			if tt.notStderr != "" && strings.Contains(stderr, tt.notStderr) {
				t.Errorf("stderr %q says %q", stderr, tt.notStderr)
			}
			cfg := clitest.LoadConfig(t, f)
			want := config.Profile{}
			if tt.loggedIn {
				want = config.Profile{Server: tt.stub.URL, AccessToken: "access-9", RefreshToken: "refresh-9", Email: "ada@example.com"}
			}
			if got := *cfg.Profile(""); got != want {
				t.Errorf("profile %+v, want %+v", got, want)
			}
			if s.Out.Len() != 0 {
				t.Errorf("stdout = %q, want nothing", s.Out)
			}
		})
	}
	var sent client.SignUpRequest
	for _, r := range signedIn.Requests() {
		if r.Path == "/v1/auth/sign-up" {
			r.Decode(t, &sent)
			break
		}
	}
	if sent.Name == nil || *sent.Name != "Ada Lovelace" || sent.Password != "correct horse" {
		t.Errorf("first sign-up sent %+v", sent)
	}
}
