package betty

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bettyhq/betty/sdk/client"
)

// jobsServer answers GET /v2/jobs/status with the states of states in turn (the last one
// thereafter) and GET /v1/events with events.
type jobsServer struct {
	states []string
	polls  atomic.Int32
	events http.HandlerFunc
}

func (s *jobsServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/v2/jobs/status":
		n := int(s.polls.Add(1)) - 1
		state := s.states[min(n, len(s.states)-1)]
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"status":200,"data":[%s]}`, state)
	case "/v1/events":
		s.events(w, r)
	default:
		http.NotFound(w, r)
	}
}

func withPollInterval(t *testing.T, d time.Duration) {
	old, safety := jobPollInterval, jobSafetyInterval
	jobPollInterval, jobSafetyInterval = d, d
	t.Cleanup(func() { jobPollInterval, jobSafetyInterval = old, safety })
}

// With the event stream, progress comes from job.updated events of the job only.
func TestWaitForJobFromEvents(t *testing.T) {
	withPollInterval(t, time.Hour) // a poll on the timer would fail the count below
	srv := &jobsServer{states: []string{jobJSON("job-1", client.JobStatusInProgress, 0)}}
	srv.events = eventStream("id: 1\nevent: job.updated\ndata: " + jobJSON("job-2", client.JobStatusSuccess, 10) + "\n\n" +
		"id: 2\nevent: job.updated\ndata: " + jobJSON("job-1", client.JobStatusInProgress, 4) + "\n\n" +
		"id: 3\nevent: job.updated\ndata: " + jobJSON("job-1", client.JobStatusInProgress, 4) + "\n\n" +
		"id: 4\nevent: job.updated\ndata: " + jobJSON("job-1", client.JobStatusError, 6) + "\n\n")
	c, _ := newTestClient(t, srv)
	var seen []client.Job
	j, err := c.WaitForJob(context.Background(), "team-1", "job-1", func(j client.Job) { seen = append(seen, j) })
	if err != nil || j.Status != client.JobStatusError || j.Progress.Completed != 6 {
		t.Fatalf("wait: %+v %v", j, err)
	}
	if len(seen) != 3 || seen[0].Progress.Completed != 0 || seen[1].Progress.Completed != 4 || seen[2].Status != client.JobStatusError {
		t.Errorf("progress %+v", seen)
	}
	if n := srv.polls.Load(); n != 2 { // before listening, and once connected
		t.Errorf("%d polls", n)
	}
}

// Without the stream (a server that does not have it), the job is polled.
func TestWaitForJobPolls(t *testing.T) {
	withPollInterval(t, 5*time.Millisecond)
	srv := &jobsServer{states: []string{jobJSON("job-1", client.JobStatusInProgress, 1), jobJSON("job-1", client.JobStatusInProgress, 5),
		jobJSON("job-1", client.JobStatusInProgress, 5), jobJSON("job-1", client.JobStatusSuccess, 10)}}
	srv.events = func(w http.ResponseWriter, r *http.Request) {
		writeProblem(w, http.StatusNotImplemented, "not_implemented", "Not built.")
	}
	c, _ := newTestClient(t, srv)
	var mu sync.Mutex
	var seen []int
	j, err := c.WaitForJob(context.Background(), "team-1", "job-1", func(j client.Job) {
		mu.Lock()
		seen = append(seen, j.Progress.Completed)
		mu.Unlock()
	})
	if err != nil || j.Status != client.JobStatusSuccess {
		t.Fatalf("wait: %+v %v", j, err)
	}
	if fmt.Sprint(seen) != "[1 5 10]" {
		t.Errorf("progress %v", seen)
	}
	if srv.polls.Load() < 4 {
		t.Errorf("%d polls", srv.polls.Load())
	}
}

// A stream that says nothing of the job does not stop the wait: the job is read every 30 s.
func TestWaitForJobSafetyPolls(t *testing.T) {
	withPollInterval(t, time.Hour)
	jobSafetyInterval = 5 * time.Millisecond
	srv := &jobsServer{states: []string{jobJSON("job-1", client.JobStatusInProgress, 2), jobJSON("job-1", client.JobStatusInProgress, 2),
		jobJSON("job-1", client.JobStatusSuccess, 10)}, events: (&sseServer{conns: []func(http.ResponseWriter, *http.Request){
		eventStream("retry: 1000\n\n")}}).ServeHTTP}
	c, _ := newTestClient(t, srv)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if j, err := c.WaitForJob(ctx, "team-1", "job-1", nil); err != nil || j.Status != client.JobStatusSuccess {
		t.Errorf("wait: %+v %v", j, err)
	}
}

// The end of ctx stops the wait with the last state; an unknown job is an error at once.
func TestWaitForJobStops(t *testing.T) {
	withPollInterval(t, time.Hour)
	srv := &jobsServer{states: []string{jobJSON("job-1", client.JobStatusInProgress, 2)}, events: (&sseServer{}).ServeHTTP}
	c, _ := newTestClient(t, srv)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	j, err := c.WaitForJob(ctx, "team-1", "job-1", nil)
	if !errors.Is(err, context.DeadlineExceeded) || j.Progress.Completed != 2 {
		t.Errorf("interrupted: %+v %v", j, err)
	}
	if _, err := c.WaitForJob(context.Background(), "team-1", "job-9", nil); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown job: %v", err)
	}
}

// The callback is called on change only: the same state read again (fresh pointers and all)
// is no call, and a change of the waiting reasons is one.
func TestWaitForJobReportsChangesOnly(t *testing.T) {
	withPollInterval(t, time.Millisecond)
	queued := func(q int, waiting string) string {
		return fmt.Sprintf(`{"id":"job-1","type":"workflow-run","workflowId":"wf-1","organizationId":"team-1","status":"in-progress",
			"progress":{"total":18,"completed":%d,"failed":0,"pending":%d,"percent":%d,"queued":%d,"dialling":0,"inCall":0},
			"triggeredBy":"ada","isTest":false,"startedAt":"2026-12-05T20:00:00Z","finishedAt":null,"error":null,
			"createdAt":"2026-12-05T20:00:00Z","updatedAt":"2026-12-05T20:00:00Z","waiting":[%s]}`, 18-q, q, (18-q)*100/18, q, waiting)
	}
	window := func(msg string) string {
		return `{"reason":"calling-window","contacts":18,"until":"2026-12-07T15:00:00Z","timeZone":"America/Chicago","message":"` + msg + `"}`
	}
	var states []string
	for i := 0; i < 30; i++ { // polled over and over while it waits; the message ages
		states = append(states, queued(18, window(fmt.Sprintf("18 contacts wait … (in 1 d %d h)", 18-i%3))))
	}
	for q := 17; q >= 0; q-- { // then each contact is called, each state read twice
		states = append(states, queued(q, ""), queued(q, ""))
	}
	states = append(states, strings.Replace(queued(0, ""), `"in-progress"`, `"success"`, 1))
	srv := &jobsServer{states: states, events: func(w http.ResponseWriter, r *http.Request) {
		writeProblem(w, http.StatusNotImplemented, "not_implemented", "Not built.")
	}}
	c, _ := newTestClient(t, srv)
	var seen []client.Job
	j, err := c.WaitForJob(context.Background(), "team-1", "job-1", func(j client.Job) { seen = append(seen, j) })
	if err != nil || j.Status != client.JobStatusSuccess {
		t.Fatalf("wait: %+v %v", j, err)
	}
	// The waiting state, 18 steps of progress, the end.
	if len(seen) != 20 {
		t.Errorf("%d calls for 18 contacts", len(seen))
	}
	for i := 1; i < len(seen); i++ {
		if !JobChanged(seen[i-1], seen[i]) {
			t.Errorf("call %d repeats call %d: %+v", i, i-1, seen[i])
		}
	}
	if w := JobWaiting(seen[0]); len(w) != 1 || w[0].Reason != client.JobWaitingReasonCallingWindow || w[0].Contacts != 18 {
		t.Errorf("the job passed carries no waiting: %+v", w)
	}
}
