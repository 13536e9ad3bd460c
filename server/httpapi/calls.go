package httpapi

import (
	"context"
	"net/http"
	"time"

	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/calls"
	"github.com/bettyhq/betty/server/integrations/hubspot"
	"github.com/bettyhq/betty/server/store"
)

// Calls answers the Calls tag: call logs, transcripts, recordings, statistics and the
// do-not-call list (dnc.go).
type Calls struct {
	svc *calls.Service
	crm *hubspot.Service // the lifecycle stages written back after a call (hubspot.go)
}

// callPageSize is the default page of call logs and of the do-not-call list.
const callPageSize = 10

// ListCallLogs lists the team's calls, newest first.
func (h *Calls) ListCallLogs(ctx context.Context, req api.ListCallLogsRequestObject) (api.ListCallLogsResponseObject, error) {
	items, meta, err := paged(newPage(req.Params.Page, req.Params.SizePerPage, callPageSize), func(limit, offset int) ([]calls.CallLog, int, error) {
		return h.svc.List(ctx, actor(ctx), limit, offset)
	})
	if err != nil {
		return nil, err
	}
	return api.ListCallLogs200JSONResponse{Status: http.StatusOK, Data: mapped(items, renderCallLog), Meta: meta}, nil
}

// GetCallLog answers one call log of the team.
func (h *Calls) GetCallLog(ctx context.Context, req api.GetCallLogRequestObject) (api.GetCallLogResponseObject, error) {
	l, err := h.svc.Get(ctx, actor(ctx), req.Id)
	if err != nil {
		return nil, err
	}
	out := renderCallLog(l)
	if out.CrmUpdates, err = crmUpdates(ctx, h.crm, l.OrganizationID, l.ID); err != nil {
		return nil, err
	}
	a, err := h.svc.AnalysisOf(ctx, l.OrganizationID, l.ID)
	if err != nil {
		return nil, err
	}
	out.Analysis = renderAnalysis(a)
	return api.GetCallLog200JSONResponse{Status: http.StatusOK, Data: out}, nil
}

// GetCallTranscript answers what was said on a call.
func (h *Calls) GetCallTranscript(ctx context.Context, req api.GetCallTranscriptRequestObject) (api.GetCallTranscriptResponseObject, error) {
	t, err := h.svc.Transcript(ctx, actor(ctx), req.CallControlId)
	if err != nil {
		return nil, err
	}
	return api.GetCallTranscript200JSONResponse{Status: http.StatusOK, Data: renderTranscript(t)}, nil
}

// GetCallRecording answers a signed URL of a call's MP3.
func (h *Calls) GetCallRecording(ctx context.Context, req api.GetCallRecordingRequestObject) (api.GetCallRecordingResponseObject, error) {
	r, err := h.svc.Recording(ctx, actor(ctx), req.CallLogId)
	if err != nil {
		return nil, err
	}
	return api.GetCallRecording200JSONResponse{Status: http.StatusOK, Data: api.CallRecording{CallLogId: r.CallLogID, Url: r.URL,
		MimeType: api.CallRecordingMimeTypeAudiompeg, ExpiresAt: r.ExpiresAt}}, nil
}

// GetCallStatistics counts the team's calls per day.
func (h *Calls) GetCallStatistics(ctx context.Context, req api.GetCallStatisticsRequestObject) (api.GetCallStatisticsResponseObject, error) {
	var start, end *time.Time
	if req.Params.StartDate != nil {
		start = &req.Params.StartDate.Time
	}
	if req.Params.EndDate != nil {
		end = &req.Params.EndDate.Time
	}
	st, err := h.svc.Statistics(ctx, actor(ctx), start, end, deref(req.Params.TimeZone))
	if err != nil {
		return nil, err
	}
	out := api.CallStatistics{StartDate: openapi_types.Date{Time: st.Start}, EndDate: openapi_types.Date{Time: st.End},
		TotalCalls: st.Total, DailyData: make([]api.CallDailyCount, len(st.Days))}
	for i, d := range st.Days {
		out.DailyData[i] = api.CallDailyCount{Date: openapi_types.Date{Time: d.Date}, Count: d.Count}
	}
	return api.GetCallStatistics200JSONResponse{Status: http.StatusOK, Data: out}, nil
}

func renderCallLog(l calls.CallLog) api.CallLog {
	out := api.CallLog{Id: l.ID, CallControlId: deref(l.CallControlID), OrganizationId: l.OrganizationID,
		Direction: api.CallDirection(l.Direction), From: l.From, To: l.To, Status: api.CallLogStatus(l.Status),
		StartTime: l.StartTime, EndTime: l.EndTime, Cost: l.Cost, CampaignId: l.CampaignID, AgentId: l.AgentID,
		WorkflowId: l.WorkflowID, JobId: l.JobID, HasRecording: l.RecordingUploadID != nil, HasTranscript: l.HasTranscript, Simulated: l.Simulated,
		EndReason: l.EndReason, CreatedAt: l.CreatedAt, UpdatedAt: l.UpdatedAt, CurrentNodeId: l.CurrentNodeID, Path: nodePath(l.Path)}
	if l.AnsweredAt != nil {
		until := time.Now()
		if l.EndTime != nil {
			until = *l.EndTime
		}
		out.DurationSeconds = max(int(until.Sub(*l.AnsweredAt).Seconds()), 0)
	}
	return out
}

// nodePath is a call's path as the contract lists it: never null.
func nodePath(p store.Strings) *[]string {
	out := []string(p)
	if out == nil {
		out = []string{}
	}
	return &out
}

func renderTranscript(t calls.Transcript) api.Transcript {
	out := api.Transcript{Id: t.CallLog.ID, CallLogId: t.CallLog.ID, CallControlId: deref(t.CallLog.CallControlID),
		OrganizationId: t.CallLog.OrganizationID, Entries: make([]api.TranscriptEntry, len(t.Turns)),
		CreatedAt: t.CallLog.CreatedAt, UpdatedAt: t.CallLog.UpdatedAt}
	for i, turn := range t.Turns {
		out.Entries[i] = api.TranscriptEntry{Speaker: api.TranscriptSpeaker(turn.Speaker), Text: turn.Text,
			OffsetSeconds: float64(turn.OffsetMS) / 1000}
	}
	return out
}
