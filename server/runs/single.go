package runs

import (
	"context"
	"strings"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/workflow"
)

// SingleInput is a single-contact run: one call to one number with a workflow, outside its
// Contacts node (the storefront's book-a-call).
type SingleInput struct {
	OrganizationID, WorkflowID string
	// Phone is the number to call, in E.164; TimeZone its zone (nil: the campaign's, else UTC),
	// where the calling window is read.
	Phone    string
	TimeZone *string
	// Name is the person's name, the flow's {{firstName}} (or e-mail when it holds an @).
	Name string
	// TriggeredBy is what the job's history shows as its starter ("Storefront widget").
	TriggeredBy string
	// Origin is who gave the number: phones.Team follows the campaign's allowedNumberTypes;
	// anything else (the zero value too) calls landlines and mobiles only.
	Origin phones.Origin
}

// StartSingle starts a single-contact run of a workflow: the job (total 1, no node, not a
// test), the one attempt and the dispatcher, in the transaction in ctx (or one of its own),
// so a caller writes its own rows beside them in the same transaction. The call goes through
// the dialer's rules like any run's: the number's kind (refused here first, 422 naming
// body.phoneNumber), the calling window in the number's zone, the do-not-call list, the
// frequency cap, concurrency and credits. The workflow must be runnable as for Start
// (the 422 of prepare: outbound, a valid graph, an agent, a number, a minute of credits).
// A Contacts node without a source does not stop it (its number is the contact); every other
// rule of the graph does. Single-contact runs have no node, so they run beside the workflow's run over its contacts
// and beside each other (workflow_jobs_running_key covers runs with a node only).
func (s *Service) StartSingle(ctx context.Context, in SingleInput) (Job, error) {
	if !workflow.ValidE164(in.Phone) {
		return Job{}, errs.InvalidField("body.phoneNumber", "the number must be in E.164 form, like +14155550123")
	}
	var j store.WorkflowJob
	err := s.db.InTx(ctx, func(ctx context.Context) error {
		p, err := s.prepare(context.WithValue(ctx, singleKey{}, true), in.OrganizationID, in.WorkflowID, false)
		if err != nil {
			return err
		}
		if p.campaign != nil && p.campaign.Status == store.CampaignPaused { // a completed campaign runs again
			return errs.UnprocessableErr("The campaign is " + string(p.campaign.Status) + ": resume it before its workflows place calls.")
		}
		st := p.st
		if in.Origin != phones.Team {
			st.Numbers = phones.Policy{Origin: phones.Outside}
		}
		if why := NumberRefusal(st.Numbers, in.Phone); why != "" {
			return errs.UnprocessableField("body.phoneNumber", why)
		}
		st.ContactName = strings.TrimSpace(in.Name)
		j = store.WorkflowJob{OrganizationID: in.OrganizationID, WorkflowID: in.WorkflowID, CampaignID: p.wf.CampaignID,
			Type: store.JobTypeWorkflowRun, Status: store.JobInProgress, TriggeredBy: in.TriggeredBy,
			DispatcherUntil: ptr(s.d.Now().Add(leaseFor)), PhoneNumberID: &p.phoneID, FromNumber: p.from, AgentID: p.wf.AgentID,
			Graph: p.wf.Graph, Settings: mustJSON(st), Total: 1}
		if err := s.db.CreateWorkflowJob(ctx, &j); err != nil {
			return err
		}
		if _, err := s.db.InsertAttempt(ctx, &store.Attempt{ID: store.AttemptID(j.ID, 1, 1), OrganizationID: j.OrganizationID,
			JobID: j.ID, Seq: 1, Attempt: 1, Phone: in.Phone, TimeZone: in.TimeZone, State: store.AttemptScheduled,
			DueAt: j.StartedAt}); err != nil {
			return err
		}
		if err := s.insertDispatcher(ctx, j.ID); err != nil {
			return err
		}
		if err := s.campaignFollowsRuns(ctx, j); err != nil {
			return err
		}
		return s.publish(ctx, j.OrganizationID, "job.updated", j.ID)
	})
	if err != nil {
		return Job{}, err
	}
	return s.withProgress(ctx, j)
}

// singleKey marks the context of a single-contact run's prepare.
type singleKey struct{}

// forRun drops, for a single-contact run, the violations it does not care about: the Contacts
// node's missing source (the run calls one number, not the node's contacts).
func forRun(ctx context.Context, vs []workflow.Violation) []workflow.Violation {
	if single, _ := ctx.Value(singleKey{}).(bool); !single {
		return vs
	}
	out := vs[:0:0]
	for _, v := range vs {
		if v.Rule != "source-missing" {
			out = append(out, v)
		}
	}
	return out
}
