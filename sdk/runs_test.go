package betty

import (
	"context"
	"errors"
	"fmt"
	"net/http"
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
