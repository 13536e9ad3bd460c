package calls_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/cli/calls"
	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/config"
	"github.com/bettyhq/betty/cli/internal/clitest"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
	servercalls "github.com/bettyhq/betty/server/calls"
	"github.com/bettyhq/betty/server/events"
	"github.com/bettyhq/betty/server/runs"
	"github.com/bettyhq/betty/server/storage"
	"github.com/bettyhq/betty/server/testserver"
)

// placeCall makes a call of org in the server's database the way the dialer does (open, ring,
// answer, close) and answers its call log id.
func placeCall(t *testing.T, svc *servercalls.Service, org, to, controlID string, closed runs.CallClosed) string {
	t.Helper()
	ctx := context.Background()
	id, err := svc.Open(ctx, runs.CallOpened{OrganizationID: org, Direction: "outbound", From: "+14155550100", To: to, AttemptID: "attempt-" + controlID})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Now()
	for _, st := range []string{"ringing", "in-progress"} {
		if err := svc.Progress(ctx, org, id, runs.CallProgress{CallControlID: controlID, Status: st, At: at}); err != nil {
			t.Fatal(err)
		}
	}
	closed.AnsweredAt, closed.EndedAt = &at, at.Add(90*time.Second)
	if err := svc.Close(ctx, org, id, closed); err != nil {
		t.Fatal(err)
	}
	return id
}

// The calls commands against the real server, over calls made the way the dialer makes them.
func TestAgainstTheRealServer(t *testing.T) {
	env := testserver.Start(t)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	other := env.Team(t, env.SignUp(t, "bob@example.com"), "Bob's")
	files, err := storage.NewDisk(filepath.Join(t.TempDir(), "files"))
	if err != nil {
		t.Fatal(err)
	}
	svc := servercalls.New(env.DB, files, nil, events.New(env.DB, nil))
	answered := placeCall(t, svc, team, "+14155550123", "v3:answered", runs.CallClosed{Status: "completed", BilledMinutes: 2, Cost: 0.54,
		Turns: []runs.Turn{{Speaker: "agent", Text: "Hello, this is Betty."}, {Speaker: "customer", Text: "Call me back on Tuesday.", Offset: 2500 * time.Millisecond}},
		Title: "Customer wants a call back", Summary: "Asked to be called back on Tuesday.", Outcome: "completed"})
	busy := placeCall(t, svc, team, "+14155550124", "v3:busy", runs.CallClosed{Status: "busy"})
	theirs := placeCall(t, svc, other, "+14155550125", "v3:theirs", runs.CallClosed{Status: "completed", Turns: []runs.Turn{{Speaker: "agent", Text: "Private"}}})

	profile := &config.Profile{Server: env.URL, AccessToken: ada.Access, RefreshToken: ada.Refresh, Email: ada.Email, Team: team}
	run := func(args ...string) (string, string, error) {
		t.Helper()
		f, s := clitest.NewFactory(t, clitest.Options{Profile: profile})
		err := clitest.Run(calls.NewCmdCalls(f), args...)
		return s.Out.String(), s.ErrOut.String(), err
	}

	out, _, err := run("list", "--json")
	var list []struct {
		ID, Status, To string
		Cost           float64
		HasTranscript  bool
	}
	if err != nil || json.Unmarshal([]byte(out), &list) != nil || len(list) != 2 || list[0].ID != busy || list[1].ID != answered ||
		list[1].Cost != 0.54 || !list[1].HasTranscript || list[0].HasTranscript {
		t.Fatalf("list: %v %s", err, out)
	}
	if out, _, err = run("view", answered); err != nil || !strings.Contains(out, "STATUS\tcompleted\n") || !strings.Contains(out, "DURATION\t1m30s\n") {
		t.Fatalf("view: %v %s", err, out)
	}
	if out, _, err = run("transcript", answered); err != nil || out != "0:00\tAgent\tHello, this is Betty.\n0:02\tCustomer\tCall me back on Tuesday.\n" {
		t.Fatalf("transcript: %v %q", err, out)
	}
	if _, _, err = run("transcript", busy); cmdutil.ExitCode(err) != cmdutil.ExitNotFound || !strings.Contains(err.Error(), "has no transcript (it is busy)") {
		t.Fatalf("transcript of a busy call: %v", err)
	}
	if _, _, err = run("recording", answered, "-o", filepath.Join(t.TempDir(), "call.mp3")); cmdutil.ExitCode(err) != cmdutil.ExitNotFound ||
		!strings.Contains(err.Error(), "No call recording exists") {
		t.Fatalf("recording of a call without one: %v", err)
	}
	if _, _, err = run("view", theirs); cmdutil.ExitCode(err) != cmdutil.ExitNotFound {
		t.Fatalf("another team's call: %v", err)
	}

	today := time.Now().UTC().Format(time.DateOnly)
	out, errOut, err := run("stats")
	if err != nil || strings.Count(out, "\n") != 7 || !strings.HasSuffix(out, today+"\t2\n") || !strings.HasSuffix(errOut, " to "+today+".\n") ||
		!strings.HasPrefix(errOut, "2 calls from ") {
		t.Fatalf("stats: %v %q %q", err, out, errOut)
	}
	if _, _, err = run("stats", "--from", "2025-01-01", "--to", "2026-12-31"); err == nil || cmdutil.ExitCode(err) != cmdutil.ExitError {
		t.Fatalf("a range over 366 days: %v", err)
	}
	if out, _, err = run("stats", "--time-zone", "Pacific/Kiritimati", "--json"); err != nil || !strings.Contains(out, `"totalCalls": 2`) {
		t.Fatalf("stats in another zone: %v %s", err, out)
	}
	if _, _, err = run("stats", "--time-zone", "Mars/Olympus_Mons"); err == nil || cmdutil.ExitCode(err) != cmdutil.ExitError {
		t.Fatalf("an unknown zone: %v", err)
	}
}

// A test call with the sim carrier is recorded: the recording downloads as an MP3.
func TestRecordingAgainstTheRealServer(t *testing.T) {
	env := testserver.Start(t)
	t.Cleanup(http.DefaultTransport.(*http.Transport).CloseIdleConnections)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	c, err := betty.New(env.URL, betty.WithTokens(ada.Access, ada.Refresh))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	wf, _ := clitest.CampaignWorkflow(t, env, c, team, 1)
	job, err := c.TestRunWorkflow(ctx, team, wf, betty.TestRun{To: "+14155550199", Persona: "A customer whose parcel is late", Name: "Ada", TriggeredBy: "ada@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if job, err = c.WaitForJob(ctx, team, job.Id, nil); err != nil || job.Status != client.JobStatusSuccess {
		t.Fatalf("test run: %+v %v", job, err)
	}
	var call client.CallLog
	for call.Id == "" || !call.HasRecording {
		list, err := cmdutil.Collect(c.CallLogs(ctx, team), 1)
		if err != nil || len(list) != 1 {
			t.Fatalf("calls: %v %+v", err, list)
		}
		call = list[0]
		if !call.HasRecording {
			select { // the recording is rendered after the hang-up
			case <-ctx.Done():
				t.Fatalf("no recording: %+v", call)
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
	// The server signs URLs with its public base URL, http://betty.test in tests: resolve that
	// name to the test server, as DNS would.
	tr := http.DefaultTransport.(*http.Transport).Clone()
	dial := tr.DialContext
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		if addr == "betty.test:80" {
			addr = strings.TrimPrefix(env.URL, "http://")
		}
		return dial(ctx, network, addr)
	}
	old := http.DefaultTransport
	http.DefaultTransport = tr
	t.Cleanup(func() { http.DefaultTransport = old; tr.CloseIdleConnections() })

	profile := &config.Profile{Server: env.URL, AccessToken: ada.Access, RefreshToken: ada.Refresh, Email: ada.Email, Team: team}
	f, s := clitest.NewFactory(t, clitest.Options{Profile: profile})
	path := filepath.Join(t.TempDir(), "call.mp3")
	if err := clitest.Run(calls.NewCmdCalls(f), "recording", call.Id, "-o", path); err != nil {
		t.Fatalf("recording: %v %s", err, s.ErrOut)
	}
	mp3, err := os.ReadFile(path)
	if err != nil || len(mp3) < 1000 || !(bytes.HasPrefix(mp3, []byte("ID3")) || mp3[0] == 0xff && mp3[1]&0xe0 == 0xe0) {
		t.Fatalf("not an MP3: %v, %d bytes % x", err, len(mp3), mp3[:min(len(mp3), 8)])
	}
	if !strings.Contains(s.ErrOut.String(), fmt.Sprintf("(%d bytes)", len(mp3))) {
		t.Errorf("stderr %q", s.ErrOut)
	}
}
