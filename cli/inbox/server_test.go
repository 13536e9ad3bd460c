package inbox_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/config"
	"github.com/bettyhq/betty/cli/inbox"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/server/calls"
	"github.com/bettyhq/betty/server/events"
	"github.com/bettyhq/betty/server/runs"
	"github.com/bettyhq/betty/server/storage"
	"github.com/bettyhq/betty/server/testserver"
)

// The inbox commands against the real server, over the items calls file when they end.
func TestAgainstTheRealServer(t *testing.T) {
	env := testserver.Start(t)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	files, err := storage.NewDisk(filepath.Join(t.TempDir(), "files"))
	if err != nil {
		t.Fatal(err)
	}
	svc := calls.New(env.DB, files, nil, events.New(env.DB, nil))
	ctx := context.Background()
	for i, c := range []runs.CallClosed{
		{Status: "completed", Title: "Customer asked to reschedule delivery", Summary: "Tuesday morning instead.", Priority: 40},
		{Status: "completed", Title: "Order confirmed", Summary: "Nothing to do.", Priority: 5},
	} {
		id, err := svc.Open(ctx, runs.CallOpened{OrganizationID: team, Direction: "outbound", From: "+14155550100", To: "+14155550123", AttemptID: string(rune('a' + i))})
		if err != nil {
			t.Fatal(err)
		}
		c.EndedAt = time.Now()
		if err := svc.Close(ctx, team, id, c); err != nil {
			t.Fatal(err)
		}
	}

	profile := &config.Profile{Server: env.URL, AccessToken: ada.Access, RefreshToken: ada.Refresh, Email: ada.Email, Team: team}
	readonly := &config.Profile{Server: env.URL, APIKey: env.APIKey(t, team, "readonly"), Team: team}
	run := func(p *config.Profile, args ...string) (string, string, error) {
		t.Helper()
		f, s := clitest.NewFactory(t, clitest.Options{Profile: p})
		err := clitest.Run(inbox.NewCmdInbox(f), args...)
		return s.Out.String(), s.ErrOut.String(), err
	}
	type item struct {
		ID, Title, Visibility string
		Priority              int
		Deleted               bool
	}
	list := func(args ...string) []item {
		t.Helper()
		out, _, err := run(profile, append(args, "--json")...)
		var got []item
		if err != nil || json.Unmarshal([]byte(out), &got) != nil {
			t.Fatalf("%v: %v %s", args, err, out)
		}
		return got
	}

	got := list("list", "--sort", "priority")
	if len(got) != 2 || got[0].Title != "Customer asked to reschedule delivery" || got[0].Priority != 40 || got[0].Visibility != "private" {
		t.Fatalf("list: %+v", got)
	}
	id := got[0].ID
	if got = list("list", "--sort", "priority", "--asc"); len(got) != 2 || got[0].Title != "Order confirmed" {
		t.Fatalf("ascending: %+v", got)
	}
	if got = list("search", "deliv resched"); len(got) != 1 || got[0].ID != id {
		t.Fatalf("search: %+v", got)
	}
	if out, _, err := run(profile, "view", id); err != nil || !strings.Contains(out, "SUMMARY\tTuesday morning instead.\n") {
		t.Fatalf("view: %v %s", err, out)
	}
	if _, _, err := run(readonly, "update", id, "--priority", "90"); err == nil || cmdutil.ExitCode(err) != cmdutil.ExitError {
		t.Fatalf("a read-only key updated: %v", err)
	}
	if out, errOut, err := run(profile, "update", id, "--priority", "90", "--visibility", "public"); err != nil || strings.TrimSpace(out) != id ||
		!strings.Contains(errOut, "priority 90, public") {
		t.Fatalf("update: %v %q %q", err, out, errOut)
	}
	if _, errOut, err := run(profile, "delete", id, "--yes"); err != nil || !strings.Contains(errOut, `Deleted inbox item "Customer asked to reschedule delivery".`) {
		t.Fatalf("delete: %v %s", err, errOut)
	}
	if got = list("list"); len(got) != 1 || got[0].Title != "Order confirmed" {
		t.Fatalf("after delete: %+v", got)
	}
	if _, _, err := run(profile, "delete", id, "--yes"); err == nil || !strings.Contains(err.Error(), "was deleted already") {
		t.Fatalf("deleted twice: %v", err)
	}
}
