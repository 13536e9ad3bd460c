package httpapi_test

import (
	"context"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/calls"
	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/events"
	"github.com/bettyhq/betty/server/internal/apitest"
	"github.com/bettyhq/betty/server/runs"
	"github.com/bettyhq/betty/server/storage"
	"github.com/bettyhq/betty/server/store"
)

// callsEnv runs fn on every dialect with a calls service over the server's own database and
// file storage, so call logs are made as the dialer makes them (Open, Progress, Close).
func callsEnv(t *testing.T, fn func(t *testing.T, env *apitest.Env, svc *calls.Service)) {
	var dataDir string
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		files, err := storage.NewDisk(filepath.Join(dataDir, "files"))
		if err != nil {
			t.Fatal(err)
		}
		fn(t, env, calls.New(env.DB, files, nil, events.New(env.DB, nil)))
	}, apitest.WithConfig(func(c *config.Config) { dataDir = c.DataDir }))
}

// fakeMP3 stands for a recording: the download serves bytes as stored.
var fakeMP3 = []byte("ID3\x04\x00\x00\x00\x00\x00\x00 a recording of the call")

// placeCall opens, answers and closes a call of org the way the dialer does, and answers its
// call log id.
func placeCall(t *testing.T, svc *calls.Service, org, to, controlID string, closed runs.CallClosed) string {
	t.Helper()
	ctx := context.Background()
	id, err := svc.Open(ctx, runs.CallOpened{OrganizationID: org, Direction: "outbound", From: "+14155550100", To: to, AttemptID: "attempt-" + controlID})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Now()
	if err := svc.Progress(ctx, org, id, runs.CallProgress{CallControlID: controlID, Status: "ringing", At: at}); err != nil {
		t.Fatal(err)
	}
	if closed.Status == "" {
		return id
	}
	if err := svc.Progress(ctx, org, id, runs.CallProgress{CallControlID: controlID, Status: "in-progress", At: at}); err != nil {
		t.Fatal(err)
	}
	closed.AnsweredAt, closed.EndedAt = &at, at.Add(90*time.Second)
	if err := svc.Close(ctx, org, id, closed); err != nil {
		t.Fatal(err)
	}
	return id
}

type callLogJSON struct {
	ID, CallControlID, OrganizationID, Direction, From, To, Status string
	EndTime                                                        *time.Time
	DurationSeconds                                                int
	Cost                                                           float64
	HasRecording, HasTranscript                                    bool
}

func TestCallLogsTranscriptsRecordingsAndStatistics(t *testing.T) {
	callsEnv(t, func(t *testing.T, env *apitest.Env, svc *calls.Service) {
		api := newTeamAPI(t, env)
		owner := env.SignUp(t, "owner@example.com")
		org := env.Team(t, owner, "Acme")
		done := runs.CallClosed{Status: "completed", BilledMinutes: 2, Cost: 0.54, Recording: fakeMP3,
			Turns:   []runs.Turn{{Speaker: "agent", Text: "Hello, this is Betty."}, {Speaker: "customer", Text: "Hi!", Offset: 2500 * time.Millisecond}},
			Title:   "Customer wants a call back",
			Summary: "Asked to be called back on Tuesday.", Outcome: "completed", Priority: 3}
		first := placeCall(t, svc, org, "+14155550123", "v3:first", done)
		// Closing again (a redelivered webhook) changes nothing.
		if err := svc.Close(context.Background(), org, first, runs.CallClosed{Status: "failed", EndedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
		ringing := placeCall(t, svc, org, "+14155550124", "v3:second", runs.CallClosed{})

		var list struct {
			Data []callLogJSON
			Meta struct{ TotalSize, Page int }
		}
		api.want(http.StatusOK, owner.Access, "GET", "/v1/call/logs?organizationId="+org, nil, &list)
		if list.Meta.TotalSize != 2 || len(list.Data) != 2 || list.Data[0].ID != ringing || list.Data[1].ID != first {
			t.Fatalf("call logs: %+v", list)
		}
		if l := list.Data[0]; l.Status != "ringing" || l.EndTime != nil || l.HasRecording || l.CallControlID != "v3:second" {
			t.Fatalf("the call under way: %+v", l)
		}
		var one struct{ Data callLogJSON }
		api.want(http.StatusOK, owner.Access, "GET", "/v1/call/log/"+first+"?organizationId="+org, nil, &one)
		if l := one.Data; l.Status != "completed" || l.EndTime == nil || l.DurationSeconds != 90 || l.Cost != 0.54 || !l.HasRecording || !l.HasTranscript {
			t.Fatalf("the finished call: %+v", l)
		}

		var tr struct {
			Data struct {
				CallLogID string
				Entries   []struct {
					Speaker, Text string
					OffsetSeconds float64
				}
			}
		}
		api.want(http.StatusOK, owner.Access, "GET", "/v1/call/transcripts/v3:first?organizationId="+org, nil, &tr)
		if tr.Data.CallLogID != first || len(tr.Data.Entries) != 2 || tr.Data.Entries[1].Speaker != "customer" || tr.Data.Entries[1].OffsetSeconds != 2.5 {
			t.Fatalf("transcript: %+v", tr)
		}
		api.problem(http.StatusNotFound, owner.Access, "GET", "/v1/call/transcripts/v3:second?organizationId="+org, nil)

		var rec struct {
			Data struct {
				CallLogID, URL, MimeType string
				ExpiresAt                time.Time
			}
		}
		api.want(http.StatusOK, owner.Access, "GET", "/v1/call/recordings/"+first+"?organizationId="+org, nil, &rec)
		if rec.Data.MimeType != "audio/mpeg" || rec.Data.ExpiresAt.Before(time.Now().Add(23*time.Hour)) {
			t.Fatalf("recording: %+v", rec)
		}
		path := strings.TrimPrefix(rec.Data.URL, "http://betty.test")
		whole := env.Do(apitest.Request{Method: "GET", Path: path})
		if whole.Status != http.StatusOK || string(whole.Body) != string(fakeMP3) || whole.Header.Get("Content-Type") != "audio/mpeg" {
			t.Fatalf("download: %d %q %s", whole.Status, whole.Header.Get("Content-Type"), whole.Body)
		}
		part := env.Do(apitest.Request{Method: "GET", Path: path, Header: http.Header{"Range": {"bytes=0-2"}}})
		if part.Status != http.StatusPartialContent || string(part.Body) != "ID3" {
			t.Fatalf("a range of the recording: %d %q", part.Status, part.Body)
		}
		if p := api.problem(http.StatusNotFound, owner.Access, "GET", "/v1/call/recordings/"+ringing+"?organizationId="+org, nil); p.Detail != "No call recording exists" {
			t.Fatalf("no recording: %+v", p)
		}

		var stats struct {
			Data struct {
				StartDate, EndDate string
				TotalCalls         int
				DailyData          []struct {
					Date  string
					Count int
				}
			}
		}
		api.want(http.StatusOK, owner.Access, "GET", "/v1/call/organization/"+org, nil, &stats)
		today := time.Now().UTC().Format(time.DateOnly)
		if s := stats.Data; s.TotalCalls != 2 || len(s.DailyData) != 7 || s.EndDate != today || s.DailyData[6].Count != 2 || s.DailyData[0].Count != 0 {
			t.Fatalf("statistics: %+v", s)
		}
		api.want(http.StatusOK, owner.Access, "GET", "/v1/call/organization/"+org+"?startDate=2026-01-01&endDate=2026-01-31&timeZone=Europe/Paris", nil, &stats)
		if s := stats.Data; s.TotalCalls != 0 || len(s.DailyData) != 31 || s.DailyData[30].Date != "2026-01-31" {
			t.Fatalf("statistics of January: %+v", s)
		}
		for query, field := range map[string]string{
			"?timeZone=Mars/Olympus":                   "query.timeZone",
			"?startDate=2026-02-01&endDate=2026-01-01": "query.startDate",
			"?startDate=2024-01-01&endDate=2026-01-01": "query.startDate",
		} {
			if p := api.problem(http.StatusBadRequest, owner.Access, "GET", "/v1/call/organization/"+org+query, nil); len(p.Errors) == 0 || p.Errors[0].Field != field {
				t.Fatalf("%s: %+v", query, p)
			}
		}

		// The costs of the month come from the call logs: 2 billed minutes at the team's rate.
		now := time.Now().UTC()
		var usage struct {
			Data struct {
				Calls   int
				Minutes float64
				Cost    float64
			}
		}
		api.want(http.StatusOK, owner.Access, "GET", "/v1/team/team-costs-usage/"+org+"?month="+strconv.Itoa(int(now.Month()))+"&year="+strconv.Itoa(now.Year()), nil, &usage)
		if usage.Data.Calls != 2 || usage.Data.Minutes != 2 || usage.Data.Cost != 0.54 {
			t.Fatalf("costs usage: %+v", usage.Data)
		}

		// Another team sees none of it, even naming the ids.
		other := env.SignUp(t, "other@example.com")
		orgB := env.Team(t, other, "Other")
		for _, path := range []string{"/v1/call/log/" + first, "/v1/call/recordings/" + first, "/v1/call/transcripts/v3:first"} {
			api.problem(http.StatusNotFound, other.Access, "GET", path+"?organizationId="+orgB, nil)
		}
		api.want(http.StatusOK, other.Access, "GET", "/v1/call/logs?organizationId="+orgB, nil, &list)
		if list.Meta.TotalSize != 0 {
			t.Fatalf("another team's call logs: %+v", list)
		}
	})
}

// Fixtures of team A's calls, inbox items and do-not-call entries: their operations take the
// team from the query or body, and the fixtures give the fuzz test real rows to aim at.
func init() {
	for _, op := range []string{"getCallLog", "getCallRecording", "getCallTranscript"} {
		resourceFixtures[op] = callLogFixture
	}
	for _, op := range []string{"getInboxItem", "getPublicInboxItem", "updateInboxItem", "deleteInboxItem"} {
		resourceFixtures[op] = inboxItemFixture
	}
	resourceFixtures["removeDoNotCall"] = doNotCallFixture
}

// fixtureCall is a finished call of org (without a recording), made through the dialer's port.
func fixtureCall(t *testing.T, env *apitest.Env, org string) (callLogID, controlID string) {
	svc := calls.New(env.DB, nil, nil, events.New(env.DB, nil))
	controlID = "v3:fixture-" + org
	return placeCall(t, svc, org, "+14155550123", controlID, runs.CallClosed{Status: "completed", Title: "Fixture call",
		Turns: []runs.Turn{{Speaker: "agent", Text: "Hello"}}}), controlID
}

func callLogFixture(t *testing.T, env *apitest.Env, _ apitest.Caller, org string) map[string]string {
	id, controlID := fixtureCall(t, env, org)
	return map[string]string{"id": id, "callLogId": id, "callControlId": controlID}
}

func inboxItemFixture(t *testing.T, env *apitest.Env, _ apitest.Caller, org string) map[string]string {
	id, _ := fixtureCall(t, env, org)
	item, err := env.DB.InboxItemOfCall(context.Background(), org, id)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{"id": item.ID, "inboxId": item.ID}
}

func doNotCallFixture(t *testing.T, env *apitest.Env, _ apitest.Caller, org string) map[string]string {
	e := store.DoNotCall{OrganizationID: org, PhoneNumber: "+14155550123", AddedBy: "owner@example.com", Source: store.DoNotCallManual}
	if _, err := env.DB.AddDoNotCall(context.Background(), &e); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"id": e.ID}
}
