package members

import (
	"net/http"
	"testing"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
)

func TestNewCmdRemove(t *testing.T) {
	f, _ := clitest.NewFactory(t, clitest.Options{})
	var got *RemoveOptions
	if err := clitest.Run(NewCmdRemove(f, func(o *RemoveOptions) error { got = o; return nil }), "grace@example.com", "-y"); err != nil {
		t.Fatal(err)
	}
	if got.Email != "grace@example.com" || !got.Yes || got.KeepKeys {
		t.Errorf("options %+v", got)
	}
	clitest.CheckErr(t, clitest.Run(NewCmdRemove(f, nil)), "give the e-mail address of the member to remove")
}

func TestRemoveRun(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("DELETE /v1/team/member", func(w http.ResponseWriter, r *http.Request) {
		n := 2
		if r.URL.Query().Get("keepApiKeys") == "true" {
			n = 0
		}
		clitest.Data(http.StatusOK, client.MemberRemoval{Id: "m-2", RevokedApiKeys: n})(w, r)
	})

	f, _ := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	err := clitest.Run(NewCmdRemove(f, nil), "grace@example.com")
	if !clitest.ErrorIs(err, &cmdutil.FlagError{}) {
		t.Fatalf("without --yes in a script: err = %v, want a usage error", err)
	}
	if n := len(stub.Requests()); n != 0 {
		t.Fatalf("%d requests sent before confirmation", n)
	}

	tests := []struct {
		name       string
		opts       clitest.Options
		args       []string
		wantKeep   string
		wantPrompt string
		wantStderr string
	}{
		{
			name:       "asked on a terminal",
			opts:       clitest.Options{TTY: true, Stdin: "yes\n"},
			wantKeep:   "false",
			wantPrompt: "Remove grace@example.com from team team-1 and revoke the API keys they made? (y/N): ",
			wantStderr: "Removed grace@example.com from team team-1; revoked the 2 API keys they made.\n",
		},
		{
			name:       "keys kept",
			args:       []string{"--keep-api-keys", "--yes"},
			wantKeep:   "true",
			wantStderr: "Removed grace@example.com from team team-1; the API keys they made keep working.\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Profile = clitest.LoggedIn(stub.URL)
			f, s := clitest.NewFactory(t, tt.opts)
			if err := clitest.Run(NewCmdRemove(f, nil), append([]string{"grace@example.com"}, tt.args...)...); err != nil {
				t.Fatal(err)
			}
			q := stub.Last().Query
			if q.Get("email") != "grace@example.com" || q.Get("organizationId") != "team-1" || q.Get("keepApiKeys") != tt.wantKeep {
				t.Errorf("query %v", q)
			}
			if s.ErrOut.String() != tt.wantPrompt+tt.wantStderr {
				t.Errorf("stderr %q, want %q", s.ErrOut, tt.wantPrompt+tt.wantStderr)
			}
		})
	}
}

func TestRevoked(t *testing.T) {
	for _, tt := range []struct {
		n    int
		kept bool
		want string
	}{
		{0, false, "they had no API keys to revoke"},
		{1, false, "revoked the 1 API key they made"},
		{3, false, "revoked the 3 API keys they made"},
		{0, true, "the API keys they made keep working"},
	} {
		if got := revoked(tt.n, tt.kept); got != tt.want {
			t.Errorf("revoked(%d, %v) = %q, want %q", tt.n, tt.kept, got, tt.want)
		}
	}
}
