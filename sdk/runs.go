package betty

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"strings"
	"time"

	"github.com/bettyhq/betty/sdk/client"
)

// Runs: a workflow run is a job (type workflow-run) that calls the workflow's pending
// contacts; a test run calls one number with a described customer. A job is in-progress, then
// success, error or cancelled, with progress counters. WaitForJob follows one to its end, from
// the event stream when the server offers it, else by polling GET /v2/jobs/status every 5
// seconds as the contract asks.

// RunOptions are the optional settings of a run.
type RunOptions struct {
	// TriggeredBy is who the history shows as starting it (the caller's e-mail when empty).
	TriggeredBy string
	// Origin is the dashboard's URL for links in notifications (the server's when empty).
	Origin string
}

// RunWorkflow starts a run of a workflow over its pending contacts and answers the job.
func (c *Client) RunWorkflow(ctx context.Context, team, workflowID string, opts RunOptions) (client.Job, error) {
	req := client.RunWorkflowRequest{OrganizationId: team}
	if opts.TriggeredBy != "" {
		req.TriggeredBy = &opts.TriggeredBy
	}
	if opts.Origin != "" {
		req.Origin = &opts.Origin
	}
	return Do[client.Job](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.RunWorkflow(ctx, workflowID, req)
	})
}

// TestRun is a test call of a workflow: who is called and who the agent takes them for.
type TestRun struct {
	// To is the number called, E.164.
	To string
	// Persona describes the person answering (situation, history, mood); with the sim
	// provider the simulated customer plays it.
	Persona string
	// Name is the name or e-mail address the agent uses for them.
	Name string
	// TriggeredBy is who the history shows as starting it.
	TriggeredBy string
	// WriteToCRM lets HubSpot lifecycle-stage nodes write (isTestWorkflow false).
	WriteToCRM bool
}

// TestRunWorkflow starts a test run of a workflow: one call to t.To.
func (c *Client) TestRunWorkflow(ctx context.Context, team, workflowID string, t TestRun) (client.Job, error) {
	req := client.TestRunWorkflowRequest{OrganizationId: team, WorkflowId: workflowID, DestinationPhoneNumber: t.To,
		CustomerDescription: t.Persona, NameOrEmail: t.Name, TriggeredBy: t.TriggeredBy, IsTestWorkflow: !t.WriteToCRM}
	return Do[client.Job](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.TestRunWorkflow(ctx, workflowID, req)
	})
}

// WorkflowProgress answers a workflow's run in progress, or else its latest one; nil (and no
// error) when the workflow has not run yet, as the server's `data: null` says.
func (c *Client) WorkflowProgress(ctx context.Context, workflowID string) (*client.Job, error) {
	return Do[*client.Job](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.GetWorkflowProgress(ctx, workflowID)
	})
}

// EndWorkflowJob cancels a workflow's run in progress: no new call is placed, calls connected
// finish. It answers the job, cancelled.
func (c *Client) EndWorkflowJob(ctx context.Context, workflowID string) (client.Job, error) {
	return Do[client.Job](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.EndWorkflowJob(ctx, workflowID)
	})
}

// WorkflowHistory walks a workflow's runs (test runs included), newest first.
func (c *Client) WorkflowHistory(ctx context.Context, workflowID string) iter.Seq2[client.Job, error] {
	size := 100
	return All[client.Job](ctx, c, func(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
		return api.ListWorkflowHistory(ctx, workflowID, &client.ListWorkflowHistoryParams{Page: &page, SizePerPage: &size})
	})
}

// JobStatuses answers the jobs of ids that the caller may see, in the order of ids (at most
// 100); of one type when typ is not empty.
func (c *Client) JobStatuses(ctx context.Context, ids []string, typ client.JobType) ([]client.Job, error) {
	p := &client.ListJobStatusesParams{Ids: ids}
	if typ != "" {
		p.Type = &typ
	}
	return Do[[]client.Job](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.ListJobStatuses(ctx, p)
	})
}

// Job answers one job's current state.
func (c *Client) Job(ctx context.Context, id string) (client.Job, error) {
	jobs, err := c.JobStatuses(ctx, []string{id}, "")
	if err != nil {
		return client.Job{}, err
	}
	for _, j := range jobs {
		if j.Id == id {
			return j, nil
		}
	}
	return client.Job{}, &APIError{StatusCode: http.StatusNotFound, Code: string(client.ProblemCodeNotFound), Title: "Not Found", Detail: "The job was not found."}
}

// JobFinished says whether a job has ended (success, error or cancelled); a finished job
// never changes again.
func JobFinished(j client.Job) bool { return j.Status != client.JobStatusInProgress && j.Status != "" }

// How often WaitForJob reads the job: every 5 s (the contract's interval) without the event
// stream, every 30 s with it, should an event be lost.
var (
	jobPollInterval   = 5 * time.Second
	jobSafetyInterval = 30 * time.Second
)

// JobChanged says whether b reports something a reports not: another status, other progress
// counters, or other waiting reasons (their reasons, counts and times; the "in 2 d 6 h" of a
// message growing older is no change).
func JobChanged(a, b client.Job) bool {
	return a.Status != b.Status || progressKey(a.Progress) != progressKey(b.Progress) || waitingKey(a) != waitingKey(b)
}

func progressKey(p client.JobProgress) string {
	n := func(v *int) int {
		if v == nil {
			return 0
		}
		return *v
	}
	return fmt.Sprint(p.Total, p.Completed, p.Failed, p.Pending, p.Percent, n(p.Queued), n(p.Dialling), n(p.InCall), n(p.Suppressed), n(p.Refused))
}

func waitingKey(j client.Job) string {
	var b strings.Builder
	for _, w := range JobWaiting(j) {
		fmt.Fprint(&b, w.Reason, w.Contacts)
		if w.Until != nil {
			b.WriteString(w.Until.UTC().Format(time.RFC3339))
		}
		b.WriteByte(';')
	}
	return b.String()
}

// SameWaiting says whether two states of a job give the same waiting reasons (reasons,
// counts and times).
func SameWaiting(a, b client.Job) bool { return waitingKey(a) == waitingKey(b) }

// JobWaiting answers why a job's queued contacts wait (none when it does not say).
func JobWaiting(j client.Job) []client.JobWaiting {
	if j.Waiting == nil {
		return nil
	}
	return *j.Waiting
}

// PreviewWorkflowRun answers what a run of the workflow would do if it started now: the
// contacts it would call, how many could be dialled at once and why the others would wait.
func (c *Client) PreviewWorkflowRun(ctx context.Context, workflowID string) (client.RunPreview, error) {
	return Do[client.RunPreview](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.PreviewWorkflowRun(ctx, workflowID)
	})
}

// WorkflowRunActivity answers where the calls of the workflow's run stand, step by step: the
// run in progress, else the latest (how many calls are on each step now and have passed through
// it, and the calls still going on; a test run's one call even after it ended). Follow it live
// with the call.updated events of the team's stream (each CallLog's currentNodeId and path).
func (c *Client) WorkflowRunActivity(ctx context.Context, workflowID string) (client.RunActivity, error) {
	return Do[client.RunActivity](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.GetWorkflowRunActivity(ctx, workflowID)
	})
}

// WaitForJob follows a job of team until it finishes and answers it as it ended; onProgress
// (may be nil) is called with the job each time what it reports changes (JobChanged: status,
// progress counters or waiting reasons, in job.Waiting), starting with its state now, and
// never twice with the same. It listens to the team's event stream (job.updated) and, while the stream is
// unavailable, polls the job every 5 seconds (every 30 while it is, in case an event is lost). A server that cannot be reached for a while is
// waited for; the end of ctx stops the wait (the job goes on) and answers the last state seen
// with ctx's error.
func (c *Client) WaitForJob(ctx context.Context, team, jobID string, onProgress func(client.Job)) (client.Job, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	type msg struct {
		ev        Event
		err       error
		connected bool
	}
	msgs := make(chan msg)
	send := func(m msg) bool {
		select {
		case msgs <- m:
			return true
		case <-ctx.Done():
			return false
		}
	}
	go func() {
		opts := EventsOptions{Types: []client.EventType{client.JobUpdated}, OnConnect: func() { send(msg{connected: true}) }}
		for ev, err := range c.Events(ctx, team, opts) {
			if !send(msg{ev: ev, err: err}) {
				return
			}
		}
	}()

	var last client.Job
	seen := false
	report := func(j client.Job) {
		if seen && !JobChanged(last, j) {
			return
		}
		last, seen = j, true
		if onProgress != nil {
			onProgress(j)
		}
	}
	// poll reads the job; failures a later poll may not meet are waited out.
	poll := func() error {
		j, err := c.Job(ctx, jobID)
		switch {
		case err == nil:
			report(j)
			return nil
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.Is(err, ErrUnreachable), errors.Is(err, ErrServer) && !errors.Is(err, ErrNotImplemented), errors.Is(err, ErrRateLimited):
			return nil
		}
		return err
	}

	if err := poll(); err != nil {
		return last, err
	}
	streaming := false
	timer := time.NewTimer(jobPollInterval)
	defer timer.Stop()
	// arm sets the next poll for the stream's state (Go 1.23 timers need no draining).
	arm := func() {
		if streaming {
			timer.Reset(jobSafetyInterval)
		} else {
			timer.Reset(jobPollInterval)
		}
	}
	for !seen || !JobFinished(last) {
		select {
		case <-ctx.Done():
			return last, ctx.Err()
		case m := <-msgs:
			switch {
			case m.connected:
				// What happened before this connection is not replayed: read it now.
				streaming = true
				arm()
				if err := poll(); err != nil {
					return last, err
				}
			case m.err != nil:
				streaming = false
				arm()
				if err := poll(); err != nil {
					return last, err
				}
			case m.ev.Type == EventReset:
				if err := poll(); err != nil {
					return last, err
				}
			case m.ev.Type == string(client.JobUpdated):
				if j, err := m.ev.Job(); err == nil && j.Id == jobID {
					report(j)
				}
			}
		case <-timer.C:
			if err := poll(); err != nil {
				return last, err
			}
			arm()
		}
	}
	return last, nil
}
