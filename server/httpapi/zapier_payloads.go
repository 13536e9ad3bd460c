package httpapi

import (
	"context"
	"encoding/json"
	"time"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/calls"
	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/integrations/zapier"
	"github.com/bettyhq/betty/server/runs"
	"github.com/bettyhq/betty/server/store"
)

// ZapierEntities renders Zapier hook payloads with the contract's renderers, so a delivery is
// exactly the entity's JSON as the API answers it (zapier.Entities).
type ZapierEntities struct {
	calls *calls.Service
	jobs  JobSource
	db    *store.DB
}

// NewZapierEntities is the zapier.Entities of the server's services.
func NewZapierEntities(c *calls.Service, r *runs.Service, db *store.DB) *ZapierEntities {
	return &ZapierEntities{calls: c, jobs: runJobs{svc: r}, db: db}
}

var _ zapier.Entities = (*ZapierEntities)(nil)

// Render answers the payload of an entity (nil when it is gone) and its state.
func (z *ZapierEntities) Render(ctx context.Context, orgID string, ev zapier.Event, id string) ([]byte, zapier.State, error) {
	var v any
	var st zapier.State
	switch ev {
	case zapier.CallCompleted:
		l, err := z.calls.CallLogOf(ctx, orgID, id)
		if err != nil {
			return nil, st, ignoreMissing(err)
		}
		out := renderCallLog(l)
		a, err := z.calls.AnalysisOf(ctx, orgID, id)
		if err != nil {
			return nil, st, err
		}
		out.Analysis = renderAnalysis(a)
		v, st.Final = out, l.Status.Final()
	case zapier.JobFinished:
		// Every call of a run changes its job: its status alone first, the whole job (with
		// its progress, counted over its attempts) only once it finished.
		if s, err := z.db.WorkflowJobStatus(ctx, id); err != nil || s == store.JobInProgress {
			return nil, st, ignoreMissing(err) // not a sample either: samples are finished runs
		}
		j, err := z.jobs.JobByID(ctx, orgID, id)
		if err != nil {
			return nil, st, ignoreMissing(err)
		}
		v, st.Final, st.Test = j, j.Status != api.JobStatusInProgress, j.IsTest
	case zapier.InboxItemCreated:
		i, err := z.calls.InboxItemOf(ctx, orgID, id)
		if err != nil {
			return nil, st, ignoreMissing(err)
		}
		v, st.Created, st.Deleted = renderInboxItem(i), i.CreatedAt, i.DeletedAt != nil
	case zapier.ContactAdded:
		c, err := z.db.ContactByID(ctx, orgID, id)
		if err != nil {
			return nil, st, ignoreMissing(err)
		}
		src, err := z.db.ContactSourceByNode(ctx, orgID, c.WorkflowID, c.NodeID)
		if err != nil {
			return nil, st, ignoreMissing(err)
		}
		v = contactPayload(renderContact(c), src.WorkflowID, c.NodeID)
	}
	if v == nil {
		return nil, st, nil
	}
	b, err := json.Marshal(v)
	return b, st, err
}

// contactPayload is a Contact with the workflow and node it was added to.
func contactPayload(c api.Contact, workflowID, nodeID string) map[string]any {
	b, _ := json.Marshal(c)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	m["workflowId"], m["nodeId"] = workflowID, nodeID
	return m
}

// Example is a made-up payload of ev, rendered by the same renderers as real ones.
func (z *ZapierEntities) Example(ev zapier.Event) []byte {
	const org, wf, node, job, call = "00000000-0000-7000-8000-000000000001", "00000000-0000-7000-8000-000000000002",
		"00000000-0000-7000-8000-000000000003", "00000000-0000-7000-8000-000000000004", "00000000-0000-7000-8000-000000000005"
	at := time.Date(2026, 1, 15, 9, 30, 0, 0, time.UTC)
	end := at.Add(2 * time.Minute)
	first, last, stage, tz := "Ada", "Lovelace", "lead", "America/New_York"
	var v any
	switch ev {
	case zapier.CallCompleted:
		jobID, wfID, cost := job, wf, 0.12
		l := renderCallLog(calls.CallLog{ID: call, OrganizationID: org, Direction: "outbound", From: "+14155550100", To: "+14155550123",
			Status: store.CallCompleted, StartTime: at, EndTime: &end, Cost: cost, WorkflowID: &wfID, JobID: &jobID, HasTranscript: true,
			CreatedAt: at, UpdatedAt: end})
		l.Analysis = renderAnalysis(&conversation.Analysis{Outcome: conversation.OutcomeCompleted, By: conversation.ByPatterns,
			Summary: `Ada asked "Can I see a demo?"; the flow took "Interested". Demo day: Tuesday at 10 am; email: ada@example.com.`,
			Fields:  []conversation.FieldValue{{Name: "demo_day", Value: "Tuesday at 10 am", Turn: 3}, {Name: "email", Value: "ada@example.com", Turn: 5}}})
		v = l
	case zapier.JobFinished:
		v = api.Job{Id: job, OrganizationId: org, WorkflowId: wf, Status: api.JobStatusSuccess, Type: api.WorkflowRun,
			TriggeredBy: "zapier@example.com", StartedAt: at, FinishedAt: &end, CreatedAt: at, UpdatedAt: end,
			Progress: api.JobProgress{Total: 1, Completed: 1}}
	case zapier.InboxItemCreated:
		callID := call
		v = renderInboxItem(calls.InboxItem{ID: "00000000-0000-7000-8000-000000000006", OrganizationID: org, Title: "Call with Ada Lovelace",
			Summary: "Ada asked to be called back next Tuesday about the renewal.", Priority: 2, Visibility: "public",
			CallLogID: &callID, CreatedAt: end, UpdatedAt: end})
	default:
		v = contactPayload(renderContact(store.Contact{ID: "00000000-0000-7000-8000-000000000007", Phone: "+14155550123", FirstName: &first,
			LastName: &last, LifecycleStage: &stage, TimeZone: &tz, Status: store.ContactPending, CreatedAt: at}), wf, node)
	}
	b, _ := json.Marshal(v)
	return b
}

func ignoreMissing(err error) error {
	if isNotFound(err) {
		return nil
	}
	return err
}
