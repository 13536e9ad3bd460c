package calls

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	openapi_types "github.com/oapi-codegen/runtime/types"
	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/api"
)

func ptr[T any](v T) *T { return &v }

var (
	ended = clitest.When.Add(65 * time.Second)
	call  = client.CallLog{Id: "call-1", CallControlId: "v3:cc-1", OrganizationId: "team-1", Direction: client.CallDirectionOutbound,
		From: "+14155550100", To: "+442071838750", Status: client.CallLogStatusCompleted, StartTime: clitest.When, EndTime: &ended,
		DurationSeconds: 65, Cost: 0.18, CampaignId: ptr("camp-1"), AgentId: ptr("agent-1"), WorkflowId: ptr("wf-1"), JobId: ptr("job-1"),
		HasRecording: true, HasTranscript: true, CreatedAt: clitest.When, UpdatedAt: ended,
		Analysis: &client.CallAnalysis{Summary: `Ann said "Yes, go ahead."; the flow took "Renews". Renewal day: Next week.`, Outcome: "completed",
			AnalysedBy: "patterns", Fields: []client.CallFieldValue{{Name: "renewal_day", Value: "Next week", Turn: 1}}}}
	live = client.CallLog{Id: "call-2", CallControlId: "v3:cc-2", OrganizationId: "team-1", Direction: client.CallDirectionInbound,
		From: "+14155550199", To: "+14155550100", Status: client.CallLogStatusInProgress, StartTime: ended, DurationSeconds: 12,
		Simulated: true, CreatedAt: ended, UpdatedAt: ended}
	transcript = client.Transcript{Id: "tr-1", CallLogId: "call-1", CallControlId: "v3:cc-1", OrganizationId: "team-1", CreatedAt: clitest.When, UpdatedAt: ended,
		Entries: []client.TranscriptEntry{
			{Speaker: client.TranscriptSpeakerAgent, Text: "Hi, this is Betty from Acme. Is now a good time?", OffsetSeconds: 0.4},
			{Speaker: client.TranscriptSpeakerCustomer, Text: "Yes, go ahead.", OffsetSeconds: 4.2},
			{Speaker: client.TranscriptSpeakerAgent, Text: "Your renewal is due next week.", OffsetSeconds: 61.9},
		}}
)

func TestListViewTranscript(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/call/logs", clitest.Page([]client.CallLog{live, call}))
	stub.Handle("GET /v1/call/log/call-1", clitest.Data(http.StatusOK, call))
	stub.Handle("GET /v1/call/log/call-2", clitest.Data(http.StatusOK, live))
	stub.Handle("GET /v1/call/transcripts/v3:cc-1", clitest.Data(http.StatusOK, transcript))
	stub.Handle("GET /v1/call/transcripts/v3:cc-2", clitest.Problem(http.StatusNotFound, client.ProblemCodeNotFound, "No transcript."))
	clitest.GoldenOutputs(t, "list", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdList(f, nil) })
	if q := stub.Last().Query; q.Get("organizationId") != "team-1" {
		t.Errorf("query %v", q)
	}
	clitest.GoldenOutputs(t, "view", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdView(f, nil) }, "call-1")
	clitest.GoldenOutputs(t, "transcript", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdTranscript(f, nil) }, "call-1")
	f, _ := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	err := clitest.Run(NewCmdTranscript(f, nil), "call-2")
	if cmdutil.ExitCode(err) != cmdutil.ExitNotFound || err.Error() != "call call-2 has no transcript (it is in-progress)" {
		t.Errorf("no transcript: %v", err)
	}
}

func TestRecording(t *testing.T) {
	audio := bytes.Repeat([]byte("ID3\x03mp3 frame "), 500)
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/call/recordings/call-1", func(w http.ResponseWriter, r *http.Request) {
		clitest.Data(http.StatusOK, client.CallRecording{CallLogId: "call-1", Url: stub.URL + "/v1/files/rec-1?token=signed",
			MimeType: "audio/mpeg", ExpiresAt: clitest.When.Add(time.Hour)})(w, r)
	})
	stub.Handle("GET /v1/call/recordings/call-2", clitest.Problem(http.StatusNotFound, client.ProblemCodeNotFound, "No call recording exists"))
	stub.Handle("GET /v1/files/rec-1", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" || r.URL.Query().Get("token") != "signed" {
			t.Errorf("download with %q %v", r.Header.Get("Authorization"), r.URL)
		}
		w.Header().Set("Content-Type", "audio/mpeg")
		w.Write(audio)
	})
	dir := t.TempDir()
	path := filepath.Join(dir, "call.mp3")
	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL), TTY: true})
	if err := clitest.Run(NewCmdCalls(f), "recording", "call-1", "-o", path); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, audio) || !strings.Contains(s.ErrOut.String(), "Wrote "+path+" (7000 bytes).") {
		t.Errorf("file %d bytes, %q", len(got), s.ErrOut)
	}
	// In a pipe the audio goes to standard output.
	f, s = clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdCalls(f), "recording", "call-1"); err != nil || !bytes.Equal(s.Out.Bytes(), audio) {
		t.Errorf("stdout: %v %d bytes", err, s.Out.Len())
	}
	f, s = clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdCalls(f), "recording", "call-1", "--json"); err != nil || !strings.Contains(s.Out.String(), `"url": "`+stub.URL+`/v1/files/rec-1?token=signed"`) {
		t.Errorf("--json: %v %s", err, s.Out)
	}
	// No recording: an error, and no file left behind.
	f, _ = clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	other := filepath.Join(dir, "none.mp3")
	err := clitest.Run(NewCmdCalls(f), "recording", "call-2", "-o", other)
	if cmdutil.ExitCode(err) != cmdutil.ExitNotFound || !strings.Contains(err.Error(), "No call recording exists") {
		t.Errorf("no recording: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left: %v", entries)
	}
	f, _ = clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL), TTY: true})
	if err := clitest.Run(NewCmdCalls(f), "recording", "call-1"); cmdutil.ExitCode(err) != cmdutil.ExitUsage || !strings.Contains(err.Error(), "give the file to write with -o") {
		t.Errorf("terminal without -o: %v", err)
	}
}

func TestStats(t *testing.T) {
	day := func(s string) openapi_types.Date {
		d, _ := time.Parse(time.DateOnly, s)
		return openapi_types.Date{Time: d}
	}
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/call/organization/team-1", clitest.Data(http.StatusOK, client.CallStatistics{StartDate: day("2026-03-01"), EndDate: day("2026-03-03"), TotalCalls: 7,
		DailyData: []client.CallDailyCount{{Date: day("2026-03-01"), Count: 5}, {Date: day("2026-03-02"), Count: 0}, {Date: day("2026-03-03"), Count: 2}}}))
	clitest.GoldenOutputs(t, "stats", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdStats(f, nil) }, "--from", "2026-03-01", "--to", "2026-03-03", "--time-zone", "Europe/Paris")
	if q := stub.Last().Query; q.Get("startDate") != "2026-03-01" || q.Get("endDate") != "2026-03-03" || q.Get("timeZone") != "Europe/Paris" {
		t.Errorf("query %v", q)
	}
	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdStats(f, nil)); err != nil || s.ErrOut.String() != "7 calls from 2026-03-01 to 2026-03-03.\n" || len(stub.Last().Query) != 0 {
		t.Errorf("defaults: %v %q %v", err, s.ErrOut, stub.Last().Query)
	}
}

func TestUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"view"}, "give the id of the call"},
		{[]string{"stats", "--from", "March"}, `invalid --from "March": want a date such as 2026-03-31`},
		{[]string{"stats", "--from", "2026-03-05", "--to", "2026-03-01"}, "--from 2026-03-05 is after --to 2026-03-01"},
		{[]string{"recording", "call-1", "-o", "x.mp3", "--json"}, "not both"},
		{[]string{"list", "extra"}, `unexpected argument "extra"`},
	} {
		f, _ := clitest.NewFactory(t, clitest.Options{})
		err := clitest.Run(NewCmdCalls(f), c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) || cmdutil.ExitCode(err) != cmdutil.ExitUsage {
			t.Errorf("%v: %v (exit %d), want %q", c.args, err, cmdutil.ExitCode(err), c.want)
		}
	}
	f, _ := clitest.NewFactory(t, clitest.Options{})
	clitest.CheckErr(t, clitest.Run(NewCmdCalls(f), "stats", "--time-zone", strings.Repeat("z", 65)), "want at most 64 characters")
}

// The rule of --time-zone copies the contract's.
func TestRulesAgreeWithTheContract(t *testing.T) {
	spec, err := api.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, p := range spec.Paths.Find("/v1/call/organization/{teamId}").Get.Parameters {
		if p.Value.Name == "timeZone" {
			s := p.Value.Schema.Value
			found = int(s.MinLength) == timeZone.Min && s.MaxLength != nil && int(*s.MaxLength) == timeZone.Max
		}
	}
	if !found {
		t.Errorf("timeZone: the rule %+v differs from the contract's", timeZone)
	}
}

func TestBookings(t *testing.T) {
	stub := clitest.NewStub(t)
	placed := client.StorefrontBooking{Id: "booking-1", PhoneNumber: "+14155550123", Name: ptr("Grace"), WorkflowId: "wf-1", JobId: "job-1",
		CallLogId: ptr("call-1"), CallStatus: ptr("completed"), CreatedAt: clitest.When,
		Consent: client.CallConsent{Text: "I agree to receive a phone call at this number from this store.", PageUrl: ptr("https://mugs.example/big-mug"),
			ClientIp: "203.0.113.9", GivenAt: clitest.When}}
	waiting := client.StorefrontBooking{Id: "booking-2", PhoneNumber: "+442079460142", WorkflowId: "wf-1", JobId: "job-2", CreatedAt: ended,
		Consent: client.CallConsent{Text: "I agree to receive a phone call at this number from this store.", ClientIp: "198.51.100.4", GivenAt: ended}}
	stub.Handle("GET /v1/call/bookings", clitest.Page([]client.StorefrontBooking{waiting, placed}))
	clitest.GoldenOutputs(t, "bookings", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdBookings(f, nil) })
	if q := stub.Last().Query; q.Get("organizationId") != "team-1" {
		t.Errorf("query %v", q)
	}
}
