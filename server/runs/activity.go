package runs

// Where a run's calls stand in their workflow, for the canvas to show a run as it goes: how
// many calls are on each step now and how many have passed through it. The driver records
// each call's step and path on its call log as the call moves (CallLogs.Walked); a canvas
// opened mid-run seeds its counts from Activity and follows the call.updated events after.

import (
	"context"
	"errors"
	"sort"
	"time"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/store"
)

// StepCount is how many calls of a run are on one workflow step now, and how many were on it
// and moved on (or ended there). A call that comes back to a step it left is on it now, not
// counted as passed too; a call counts once per step however often it went through.
type StepCount struct {
	NodeID      string
	Now, Passed int
}

// StepCounts counts calls per step from where each stands (its node now, nil once it ended)
// and the path it took; steps no call reached are left out. Sorted by node id.
func StepCounts(calls []store.CallPosition) []StepCount {
	by := map[string]*StepCount{}
	at := func(id string) *StepCount {
		c, ok := by[id]
		if !ok {
			c = &StepCount{NodeID: id}
			by[id] = c
		}
		return c
	}
	for _, c := range calls {
		current := ""
		if c.EndTime == nil && c.CurrentNodeID != nil {
			current = *c.CurrentNodeID
			at(current).Now++
		}
		seen := map[string]bool{current: true}
		for _, id := range c.Path {
			if !seen[id] {
				seen[id] = true
				at(id).Passed++
			}
		}
	}
	out := make([]StepCount, 0, len(by))
	for _, c := range by {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].NodeID < out[j].NodeID })
	return out
}

// Activity is where the calls of a workflow's run stand: its run in progress, else its latest
// run (JobID "" when it never ran).
type Activity struct {
	JobID      string
	InProgress bool
	IsTest     bool
	// AsOf is when it was read: a call.updated of a call not among Calls, dated at or before
	// it, is counted in Steps already.
	AsOf  time.Time
	Steps []StepCount
	// Calls are the run's calls still going on, with where each stands; for a test run, its
	// one call however it stands (once it ended: on no step, the path it took).
	Calls []store.CallPosition
}

// Activity answers where the calls of the workflow's current (else latest) run stand.
func (s *Service) Activity(ctx context.Context, a auth.Actor, workflowID string) (Activity, error) {
	out := Activity{Steps: []StepCount{}, Calls: []store.CallPosition{}}
	j, err := s.db.CurrentWorkflowJob(ctx, a.OrganizationID, workflowID)
	if errors.Is(err, store.ErrNotFound) {
		if _, err := s.db.WorkflowByID(ctx, a.OrganizationID, workflowID); errors.Is(err, store.ErrNotFound) {
			return out, errNoWorkflow
		} else if err != nil {
			return out, err
		}
		out.AsOf = s.d.Now()
		return out, nil
	}
	if err != nil {
		return out, err
	}
	calls, err := s.db.JobCallPositions(ctx, a.OrganizationID, j.ID)
	if err != nil {
		return out, err
	}
	// Read after the calls: an update between the two is missed until the call's next one,
	// never counted twice.
	out.AsOf = s.d.Now()
	out.JobID, out.InProgress, out.IsTest, out.Steps = j.ID, j.Status == store.JobInProgress, j.IsTest, StepCounts(calls)
	for _, c := range calls {
		if c.EndTime == nil || j.IsTest { // a test run's one call is followed to its end
			out.Calls = append(out.Calls, c)
		}
	}
	return out, nil
}

// turns answers the conversation so far of an engine's state and the result it reads from
// (where the call stands in its workflow); none without one.
func (s *Service) turns(st conversation.State) ([]Turn, conversation.Result, error) {
	if s.d.Conversation == nil || len(st) == 0 {
		return nil, conversation.Result{}, nil
	}
	r, err := s.d.Conversation.Result(st)
	if err != nil {
		return nil, r, err
	}
	out := make([]Turn, len(r.Turns))
	for i, t := range r.Turns {
		out[i] = Turn{Speaker: t.Speaker, Text: t.Text, Offset: t.Offset}
	}
	return out, r, nil
}
