package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/calls"
	"github.com/bettyhq/betty/server/campaigns"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/events"
	"github.com/bettyhq/betty/server/knowledge"
	"github.com/bettyhq/betty/server/store"
)

// JobSource finds a team's job as the contract renders it, for job.updated events. The runs
// feature satisfies it (an adapter over its service and renderer); until it is wired (nil),
// job.updated events are not sent.
type JobSource interface {
	JobByID(ctx context.Context, orgID, id string) (api.Job, error)
}

// The stream is text: what the contract says of it (a string) is checked on what was sent.
func init() { openapi3filter.RegisterBodyDecoder("text/event-stream", openapi3filter.FileBodyDecoder) }

// Events answers the Events tag: the team's live event stream.
type Events struct {
	svc       *events.Service
	calls     *calls.Service
	jobs      JobSource
	campaigns *campaigns.Service
	knowledge *knowledge.Service
}

// sseRetry is the reconnection delay the stream asks of clients, in milliseconds.
const sseRetry = 5000

// StreamEvents streams the team's events until the client leaves or the server shuts down.
func (h *Events) StreamEvents(ctx context.Context, req api.StreamEventsRequestObject) (api.StreamEventsResponseObject, error) {
	orgID := actor(ctx).OrganizationID
	var types []string
	if req.Params.Types != nil {
		for _, t := range *req.Params.Types {
			types = append(types, string(t))
		}
	}
	cur, reset, err := h.svc.Open(ctx, orgID, deref(req.Params.LastEventID), types)
	if err != nil {
		return nil, err
	}
	return &eventStream{h: h, ctx: ctx, orgID: orgID, cur: cur, reset: reset}, nil
}

// eventStream writes the stream itself: the generated response would copy one reader whole.
type eventStream struct {
	h     *Events
	ctx   context.Context
	orgID string
	cur   events.Cursor
	reset bool
}

func (s *eventStream) VisitStreamEventsResponse(w http.ResponseWriter) error {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	fmt.Fprintf(w, "retry: %d\n\n", sseRetry)
	if s.reset {
		if id := s.cur.Position(); id != "" {
			fmt.Fprintf(w, "id: %s\n", id)
		}
		fmt.Fprint(w, "event: reset\ndata: {}\n\n")
	}
	if err := rc.Flush(); err != nil {
		return nil // the client is gone
	}
	poll := time.NewTicker(s.h.svc.Poll())
	defer poll.Stop()
	keepAlive := s.h.svc.KeepAlive()
	idle := time.NewTimer(keepAlive)
	defer idle.Stop()
	co := events.NewCoalescer(events.CoalesceEvery)
	held := time.NewTimer(time.Hour)
	defer held.Stop()
	// send renders and writes ev; a call.updated or job.updated goes through the coalescer
	// (offer) unless it was held already. A job is offered before it is rendered (rendering
	// reads its queue), and it is never final: a held one goes out within CoalesceEvery.
	send := func(ev events.Event, offer bool) (bool, error) {
		if offer && ev.Type == events.JobUpdated {
			if !co.Offer(ev, false, time.Now()) {
				return false, nil
			}
			offer = false
		}
		data, ok, final, err := s.render(ev)
		if err != nil || !ok {
			return false, err
		}
		if offer && !co.Offer(ev, final, time.Now()) {
			return false, nil
		}
		fmt.Fprintf(w, "id: %s\nevent: %s\ndata: %s\n\n", ev.ID, ev.Type, data)
		return true, nil
	}
	for {
		evs, next, err := s.h.svc.Next(s.ctx, s.cur)
		if err != nil {
			if s.ctx.Err() != nil {
				return nil
			}
			return err
		}
		s.cur = next
		wrote := false
		for _, ev := range evs {
			ok, err := send(ev, true)
			if err != nil {
				if s.ctx.Err() != nil {
					return nil
				}
				return err
			}
			wrote = wrote || ok
		}
		for _, ev := range co.Due(time.Now()) {
			ok, err := send(ev, false)
			if err != nil {
				if s.ctx.Err() != nil {
					return nil
				}
				return err
			}
			wrote = wrote || ok
		}
		if wrote {
			if err := rc.Flush(); err != nil {
				return nil
			}
			idle.Reset(keepAlive)
		}
		if len(evs) > 0 {
			continue // read on at once: more may be waiting
		}
		if t := co.Next(); !t.IsZero() {
			held.Reset(time.Until(t))
		}
		select {
		case <-s.ctx.Done():
			return nil
		case <-s.h.svc.Done():
			return nil
		case <-idle.C:
			fmt.Fprint(w, ": keep-alive\n\n")
			if err := rc.Flush(); err != nil {
				return nil
			}
			idle.Reset(keepAlive)
		case <-held.C:
		case <-poll.C:
		}
	}
}

// render is the entity of an event as it is now, rendered as the rest of the API does; a
// deleted one is {"id", "deleted": true}. ok is false for an event this server cannot render
// (job.updated until the runs feature is wired). final says a call has ended (or is gone):
// the coalescer sends it at once.
func (s *eventStream) render(ev events.Event) (data []byte, ok, final bool, err error) {
	var v any
	final = true
	switch ev.Type {
	case events.CallUpdated:
		var l calls.CallLog
		if l, err = s.h.calls.CallLogOf(s.ctx, s.orgID, ev.EntityID); err == nil {
			c := renderCallLog(l)
			final = callEnded(c.Status)
			v = c
		}
	case events.InboxUpdated:
		var i calls.InboxItem
		if i, err = s.h.calls.InboxItemOf(s.ctx, s.orgID, ev.EntityID); err == nil {
			v = renderInboxItem(i)
		}
	case events.CampaignUpdated:
		var c campaigns.Campaign
		if c, err = s.h.campaigns.Get(s.ctx, teamActor(s.orgID), ev.EntityID); err == nil {
			v = renderCampaign(c)
		}
	case events.KnowledgeUpdated:
		var e knowledge.Entry
		if e, err = s.h.knowledge.GetEntry(s.ctx, teamActor(s.orgID), ev.EntityID); err == nil {
			v = renderKnowledgeFile(e)
		}
	case events.JobUpdated:
		if s.h.jobs == nil {
			return nil, false, false, nil
		}
		v, err = s.h.jobs.JobByID(s.ctx, s.orgID, ev.EntityID)
	default:
		return nil, false, false, nil
	}
	if isNotFound(err) {
		v, err, final = map[string]any{"id": ev.EntityID, "deleted": true}, nil, true
	}
	if err != nil {
		return nil, false, false, err
	}
	data, err = json.Marshal(v)
	return data, err == nil, final, err
}

// callEnded says whether a call in status s has ended.
func callEnded(s api.CallLogStatus) bool {
	switch s {
	case api.CallLogStatusQueued, api.CallLogStatusRinging, api.CallLogStatusInProgress:
		return false
	}
	return true
}

// teamActor reads entities of the stream's team as the stream does: the team, no role.
func teamActor(orgID string) auth.Actor { return auth.Actor{Grant: auth.Grant{OrganizationID: orgID}} }

func isNotFound(err error) bool {
	var e *errs.Error
	return errors.Is(err, store.ErrNotFound) || (errors.As(err, &e) && e.Kind == errs.NotFound)
}
