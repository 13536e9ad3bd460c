package teams

import (
	"net/http"
	"testing"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/config"
	"github.com/bettyhq/betty/cli/internal/clitest"
)

func TestNewCmdDelete(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		yes     bool
		wantErr string
	}{
		{name: "asks", args: []string{"team-1"}},
		{name: "--yes", args: []string{"team-1", "--yes"}, yes: true},
		{name: "-y", args: []string{"team-1", "-y"}, yes: true},
		{name: "no id", wantErr: "give the id of the team to delete"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := clitest.NewFactory(t, clitest.Options{})
			var got *DeleteOptions
			err := clitest.Run(NewCmdDelete(f, func(o *DeleteOptions) error { got = o; return nil }), tt.args...)
			if clitest.CheckErr(t, err, tt.wantErr) {
				return
			}
			if got.Team != "team-1" || got.Yes != tt.yes {
				t.Errorf("got team %q yes %v", got.Team, got.Yes)
			}
		})
	}
}

func TestDeleteRun(t *testing.T) {
	tests := []struct {
		name       string
		tty        bool
		stdin      string
		args       []string
		wantErr    error
		wantCalled bool
	}{
		{name: "confirmed on a terminal", tty: true, stdin: "y\n", wantCalled: true},
		{name: "declined on a terminal", tty: true, stdin: "n\n", wantErr: cmdutil.ErrCancelled},
		{name: "--yes in a script", args: []string{"--yes"}, wantCalled: true},
		{name: "no --yes in a script", wantErr: &cmdutil.FlagError{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stub := clitest.NewStub(t)
			called := false
			stub.Handle("DELETE /v1/team/delete/team-1", func(w http.ResponseWriter, r *http.Request) {
				called = true
				clitest.Data(http.StatusOK, map[string]string{"id": "team-1"})(w, r)
			})
			f, _ := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL), TTY: tt.tty, Stdin: tt.stdin})
			err := clitest.Run(NewCmdDelete(f, nil), append([]string{"team-1"}, tt.args...)...)
			if !clitest.ErrorIs(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if called != tt.wantCalled {
				t.Errorf("server called = %v, want %v", called, tt.wantCalled)
			}
			if team := clitest.LoadConfig(t, f).Profile(config.DefaultProfile).Team; tt.wantCalled && team != "" {
				t.Errorf("the deleted team is still current: %q", team)
			}
		})
	}
}
