package betty

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bettyhq/betty/sdk/client"
)

// The parser follows the event-stream format: comments, multi-line data, the three line
// endings, an id kept across events, retry, a BOM, and an event cut off by the end dropped.
func TestSSEParser(t *testing.T) {
	stream := "\ufeff: keep-alive\r\n" +
		"retry: 5000\n\n" +
		"id: 1\nevent: job.updated\ndata: {\"a\":\n" + "data:  1}\n\n" +
		"id: 2\r\nevent: call.updated\r\ndata:{}\r\n\r\n" +
		"data: no id or name\r\r" +
		"id: 3\n\n" + // an id without data moves the last id, dispatches nothing
		"event: ignored-without-data\n\n" +
		"retry: soon\n" + // not digits: ignored
		"id: 4\nevent: job.updated\ndata: {\"cut\":true}" // no blank line: dropped
	s := &sseReader{retry: defaultEventsRetry}
	var got []Event
	if err := s.read(strings.NewReader(stream), func(ev Event) bool { got = append(got, ev); return true }); err != nil {
		t.Fatal(err)
	}
	want := []Event{
		{ID: "1", Type: "job.updated", Data: json.RawMessage("{\"a\":\n 1}")},
		{ID: "2", Type: "call.updated", Data: json.RawMessage("{}")},
		{ID: "2", Type: "message", Data: json.RawMessage("no id or name")},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d events: %+v", len(got), got)
	}
	for i := range want {
		if got[i].ID != want[i].ID || got[i].Type != want[i].Type || string(got[i].Data) != string(want[i].Data) {
			t.Errorf("event %d: %+v (%s), want %+v (%s)", i, got[i], got[i].Data, want[i], want[i].Data)
		}
	}
	if s.lastID != "3" || s.retry != 5*time.Second {
		t.Errorf("last id %q, retry %s", s.lastID, s.retry)
	}
	// A consumer that stops is not sent more.
	n := 0
	err := (&sseReader{}).read(strings.NewReader("data: 1\n\ndata: 2\n\n"), func(Event) bool { n++; return false })
	if !errors.Is(err, errStopped) || n != 1 {
		t.Errorf("stop: %v after %d", err, n)
	}
}

func jobJSON(id string, status client.JobStatus, done int) string {
	j := client.Job{Id: id, Type: client.WorkflowRun, WorkflowId: "wf-1", OrganizationId: "team-1", Status: status,
		Progress: client.JobProgress{Total: 10, Completed: done, Pending: 10 - done, Percent: done * 10}, TriggeredBy: "ada@example.com"}
	raw, _ := json.Marshal(j)
	return string(raw)
}

// sseServer answers GET /v1/events with what each connection's handler writes, in turn.
type sseServer struct {
	mu    sync.Mutex
	conns []func(w http.ResponseWriter, r *http.Request)
	seen  []*http.Request
}

func (s *sseServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	n := len(s.seen)
	s.seen = append(s.seen, r)
	var h func(w http.ResponseWriter, r *http.Request)
	if n < len(s.conns) {
		h = s.conns[n]
	}
	s.mu.Unlock()
	if h == nil {
		<-r.Context().Done() // stay open, silent, until the client leaves
		return
	}
	h(w, r)
}

func (s *sseServer) requests() []*http.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*http.Request(nil), s.seen...)
}

func eventStream(body string) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		fmt.Fprint(w, body)
	}
}

// Events sends the credentials and the types, reconnects after the server's retry delay with
// Last-Event-ID, passes a reset on, and backs off while the server fails.
func TestEventsReconnect(t *testing.T) {
	srv := &sseServer{conns: []func(http.ResponseWriter, *http.Request){
		eventStream("retry: 250\n\nid: 7\nevent: job.updated\ndata: " + jobJSON("job-1", client.JobStatusInProgress, 3) + "\n\n: keep-alive\n\n"),
		func(w http.ResponseWriter, r *http.Request) {
			writeProblem(w, http.StatusInternalServerError, "internal", "Something went wrong.")
		},
		eventStream("id: 12\nevent: reset\ndata: {}\n\nid: 13\nevent: job.updated\ndata: " + jobJSON("job-1", client.JobStatusSuccess, 10) + "\n\n"),
	}}
	c, sl := newTestClient(t, srv, WithAPIKey("betty_sk_test"))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	var events []Event
	var errs []error
	for ev, err := range c.Events(ctx, "team-1", EventsOptions{Types: []client.EventType{client.JobUpdated}}) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		events = append(events, ev)
		if len(events) == 3 {
			break
		}
	}
	if len(events) != 3 || events[0].ID != "7" || events[1].Type != EventReset || events[2].ID != "13" {
		t.Fatalf("events %+v", events)
	}
	if j, err := events[2].Job(); err != nil || j.Status != client.JobStatusSuccess || j.Progress.Completed != 10 {
		t.Errorf("job: %+v %v", j, err)
	}
	if _, err := events[1].Job(); err == nil {
		t.Error("a reset decoded as a job")
	}
	var se *StreamError
	if len(errs) != 1 || !errors.As(errs[0], &se) || se.Permanent || !errors.Is(errs[0], ErrServer) {
		t.Errorf("errors %v", errs)
	}
	reqs := srv.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d connections", len(reqs))
	}
	for i, r := range reqs {
		if r.Header.Get("Authorization") != "Bearer betty_sk_test" || r.Header.Get("Accept") != "text/event-stream" ||
			r.URL.Query().Get("organizationId") != "team-1" || r.URL.Query().Get("types") != "job.updated" {
			t.Errorf("connection %d: %v %v", i, r.Header, r.URL)
		}
	}
	if reqs[0].Header.Get("Last-Event-ID") != "" || reqs[1].Header.Get("Last-Event-ID") != "7" || reqs[2].Header.Get("Last-Event-ID") != "7" {
		t.Errorf("Last-Event-ID: %q %q %q", reqs[0].Header.Get("Last-Event-ID"), reqs[1].Header.Get("Last-Event-ID"), reqs[2].Header.Get("Last-Event-ID"))
	}
	// After the clean end: the server's 250 ms; after the failure: within 250 ms, jittered.
	waits := sl.all()
	if len(waits) != 2 || waits[0] != 250*time.Millisecond || waits[1] < 125*time.Millisecond || waits[1] > 250*time.Millisecond {
		t.Errorf("waits %v", waits)
	}
	if eventsBackoff(time.Second, 3) < 2*time.Second || eventsBackoff(time.Second, 30) > maxEventsRetry {
		t.Errorf("backoff does not grow within its cap: %s %s", eventsBackoff(time.Second, 3), eventsBackoff(time.Second, 30))
	}
}

// A refusal that asking again cannot change ends the stream; so does the end of ctx, silently.
func TestEventsStop(t *testing.T) {
	for _, c := range []struct {
		name string
		h    http.HandlerFunc
		want error
	}{
		{"unauthorized", func(w http.ResponseWriter, r *http.Request) {
			writeProblem(w, http.StatusUnauthorized, "unauthorized", "Sign in.")
		}, ErrUnauthorized},
		{"not implemented", func(w http.ResponseWriter, r *http.Request) {
			writeProblem(w, http.StatusNotImplemented, "not_implemented", "Not built.")
		}, ErrNotImplemented},
		{"not a stream", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, http.StatusOK, map[string]any{}, nil) }, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			bc, _ := newTestClient(t, c.h)
			var errs []error
			for _, err := range bc.Events(context.Background(), "team-1", EventsOptions{}) {
				errs = append(errs, err)
			}
			var se *StreamError
			if len(errs) != 1 || !errors.As(errs[0], &se) || !se.Permanent || c.want != nil && !errors.Is(errs[0], c.want) {
				t.Errorf("errors %v", errs)
			}
		})
	}

	srv := &sseServer{}
	bc, _ := newTestClient(t, srv)
	ctx, cancel := context.WithCancel(context.Background())
	connected := make(chan struct{})
	done := make(chan []error)
	go func() {
		var errs []error
		for _, err := range bc.Events(ctx, "team-1", EventsOptions{LastEventID: "41", OnConnect: func() { close(connected) }}) {
			errs = append(errs, err)
		}
		done <- errs
	}()
	// The silent server never sends its headers, so OnConnect is never called: cancel anyway.
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case errs := <-done:
		if len(errs) != 0 {
			t.Errorf("errors after cancel: %v", errs)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Events did not end with its context")
	}
	if reqs := srv.requests(); len(reqs) != 1 || reqs[0].Header.Get("Last-Event-ID") != "41" {
		t.Errorf("requests %d", len(reqs))
	}
}
