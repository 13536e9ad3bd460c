package workflows

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/bettyhq/betty/cli/calls"
	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// The follower's pace: the transcript of a call in progress is read every followTick; the job
// and the call are polled every followPoll (the contract's 5 s) without the event stream, every
// followSafety with it, should an event be lost.
var (
	followTick   = time.Second
	followPoll   = 5 * time.Second
	followSafety = 30 * time.Second
)

// follower prints a test run's call turn by turn: it learns of the job and the call from the
// team's event stream (job.updated, call.updated), or by polling when the stream is not
// available, and reads the call's transcript as it grows.
type follower struct {
	c          *betty.Client
	team       string
	workflowID string
	to         string
	s          *cmdutil.IOStreams
	json       bool // the job goes to Out as JSON: the conversation goes to ErrOut

	job     client.Job
	call    *client.CallLog
	printed int
}

func (f *follower) out() io.Writer {
	if f.json {
		return f.s.ErrOut
	}
	return f.s.Out
}

// matches says whether a call is the test's: its job's, or (for a call that names no job) the
// workflow's call to the tested number placed since the job started.
func (f *follower) matches(cl client.CallLog) bool {
	if cl.JobId != nil {
		return *cl.JobId == f.job.Id
	}
	return cl.WorkflowId != nil && *cl.WorkflowId == f.workflowID && cl.To == f.to && !cl.StartTime.Before(f.job.CreatedAt.Add(-time.Minute))
}

func (f *follower) run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type msg struct {
		ev        betty.Event
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
		opts := betty.EventsOptions{Types: []client.EventType{client.JobUpdated, client.CallUpdated}, OnConnect: func() { send(msg{connected: true}) }}
		for ev, err := range f.c.Events(ctx, f.team, opts) {
			if !send(msg{ev: ev, err: err}) {
				return
			}
		}
	}()

	streaming := false
	var polled time.Time
	tick := time.NewTicker(followTick)
	defer tick.Stop()
	for {
		if betty.JobFinished(f.job) {
			return f.finish(ctx)
		}
		var err error
		select {
		case <-ctx.Done():
			return ctx.Err()
		case m := <-msgs:
			switch {
			case m.connected:
				streaming, polled = true, time.Now()
				err = f.poll(ctx)
			case m.err != nil:
				streaming = false
			case m.ev.Type == betty.EventReset:
				err = f.poll(ctx)
			case m.ev.Type == string(client.JobUpdated):
				if j, jerr := m.ev.Job(); jerr == nil && j.Id == f.job.Id {
					f.job = j
				}
			case m.ev.Type == string(client.CallUpdated):
				if cl, cerr := m.ev.Call(); cerr == nil && f.matches(cl) {
					f.setCall(cl)
					err = f.transcript(ctx)
				}
			}
		case <-tick.C:
			every := followPoll
			if streaming {
				every = followSafety
			}
			if time.Since(polled) >= every {
				polled = time.Now()
				err = f.poll(ctx)
			}
			if err == nil && f.call != nil && f.call.EndTime == nil {
				err = f.transcript(ctx)
			}
		}
		if err != nil {
			return err
		}
	}
}

// poll reads the job, and the call (found among the team's latest calls until known).
func (f *follower) poll(ctx context.Context) error {
	j, err := f.c.Job(ctx, f.job.Id)
	if err != nil {
		return err
	}
	f.job = j
	if f.call != nil {
		cl, err := f.c.CallLog(ctx, f.team, f.call.Id)
		if err != nil {
			return err
		}
		f.setCall(cl)
		return f.transcript(ctx)
	}
	p, err := betty.DoPage[client.CallLog](ctx, f.c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		page, size := 1, 20
		return api.ListCallLogs(ctx, &client.ListCallLogsParams{OrganizationId: f.team, Page: &page, SizePerPage: &size})
	})
	if err != nil {
		return err
	}
	for _, cl := range p.Items {
		if f.matches(cl) {
			f.setCall(cl)
			return f.transcript(ctx)
		}
	}
	return nil
}

// setCall keeps the call's latest state and says on ErrOut how it went on.
func (f *follower) setCall(cl client.CallLog) {
	if f.call == nil || f.call.Status != cl.Status {
		fmt.Fprintf(f.s.ErrOut, "Call %s from %s to %s: %s\n", cl.Id, cl.From, cl.To, cl.Status)
	}
	f.call = &cl
}

// transcript prints the turns said since the last read.
func (f *follower) transcript(ctx context.Context) error {
	if f.call == nil || f.call.CallControlId == "" {
		return nil
	}
	tr, err := f.c.CallTranscript(ctx, f.team, f.call.CallControlId)
	if errors.Is(err, betty.ErrNotFound) {
		return nil // nothing said yet
	}
	if err != nil {
		return err
	}
	calls.PrintTurns(f.out(), tr.Entries[min(f.printed, len(tr.Entries)):])
	f.printed = max(f.printed, len(tr.Entries))
	return nil
}

// finish reads the call as it ended and the rest of its transcript.
func (f *follower) finish(ctx context.Context) error {
	if f.call == nil || f.call.EndTime == nil {
		if err := f.poll(ctx); err != nil {
			return err
		}
		if f.call == nil {
			fmt.Fprintln(f.s.ErrOut, "No call was placed.")
			return nil
		}
	}
	return f.transcript(ctx)
}
