package hubspot

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/store"
)

// ErrNotHubSpotContact is a lifecycle stage asked for a contact that did not come from
// HubSpot (a CSV row, a test call): there is nothing to write it to.
var ErrNotHubSpotContact = errors.New("hubspot: the contact did not come from HubSpot")

// StageAttempts is how many times a write-back is tried (River backs off between them).
const StageAttempts = 8

// stageArgs is the job writing a lifecycle stage back to HubSpot.
type stageArgs struct {
	OrganizationID string `json:"organizationId"`
	UpdateID       string `json:"updateId"`
}

func (stageArgs) Kind() string { return "hubspot.set_lifecycle_stage" }

type stageWorker struct {
	river.WorkerDefaults[stageArgs]
	s *Service
}

func (w *stageWorker) Timeout(*river.Job[stageArgs]) time.Duration { return time.Minute }

func (w *stageWorker) Work(ctx context.Context, job *river.Job[stageArgs]) error {
	return w.s.WriteStage(ctx, job.Args.OrganizationID, job.Args.UpdateID, job.Attempt >= job.MaxAttempts)
}

// QueueStage records that the contact contactID (a node's contact) moves to stage after a
// call, and queues writing it to HubSpot (pending until the job ends done or failed). A
// contact that did not come from HubSpot is ErrNotHubSpotContact.
func (s *Service) QueueStage(ctx context.Context, orgID, contactID, stage string) (store.StageUpdate, error) {
	if contactID == "" {
		return store.StageUpdate{}, ErrNotHubSpotContact
	}
	c, err := s.d.DB.ExternalContactByID(ctx, orgID, contactID)
	if errors.Is(err, store.ErrNotFound) || err == nil && c.ExternalID == "" {
		return store.StageUpdate{}, ErrNotHubSpotContact
	}
	if err != nil {
		return store.StageUpdate{}, err
	}
	src, err := s.d.DB.ContactSourceByNode(ctx, orgID, c.WorkflowID, c.NodeID)
	if errors.Is(err, store.ErrNotFound) || err == nil && (src.Source != "hubspot" || src.ConnectedAppID == nil) {
		return store.StageUpdate{}, ErrNotHubSpotContact
	}
	if err != nil {
		return store.StageUpdate{}, err
	}
	u := store.StageUpdate{OrganizationID: orgID, ConnectedAppID: *src.ConnectedAppID, HubSpotID: c.ExternalID, ContactID: &c.ID,
		CallLogID: c.CallLogID, Stage: HubSpotStage(stage), Status: store.StageUpdatePending}
	err = s.d.DB.InTx(ctx, func(ctx context.Context) error {
		if err := s.d.DB.CreateStageUpdate(ctx, &u); err != nil {
			return err
		}
		return s.d.Jobs.Insert(ctx, stageArgs{OrganizationID: orgID, UpdateID: u.ID}, &river.InsertOpts{MaxAttempts: StageAttempts})
	})
	return u, err
}

// WriteStage writes a queued lifecycle stage to HubSpot: done, failed for good (HubSpot
// refused it, the app is disconnected, the contact is gone, or the last attempt failed), or
// an error for River to try again later (HubSpot unreachable or rate limiting).
func (s *Service) WriteStage(ctx context.Context, orgID, updateID string, lastAttempt bool) error {
	u, err := s.d.DB.StageUpdateByID(ctx, orgID, updateID)
	if errors.Is(err, store.ErrNotFound) || err == nil && u.Status != store.StageUpdatePending {
		return nil
	}
	if err != nil {
		return err
	}
	fail := func(reason string) error {
		return s.d.DB.FinishStageUpdate(ctx, orgID, u.ID, store.StageUpdateFailed, &reason)
	}
	a, err := s.d.Apps.Get(ctx, orgID, u.ConnectedAppID)
	if errs.Is(err, errs.NotFound) {
		return fail("The HubSpot connection was removed.")
	}
	if err != nil {
		return err
	}
	if a.Status != store.AppConnected {
		return fail(fmt.Sprintf("The HubSpot connection %q is disconnected: reconnect it.", a.Name))
	}
	tok, err := s.d.Apps.AccessToken(ctx, a)
	if err == nil {
		err = s.c.SetLifecycleStage(ctx, tok, u.HubSpotID, u.Stage)
	}
	var ae *APIError
	switch {
	case err == nil:
		return s.d.DB.FinishStageUpdate(ctx, orgID, u.ID, store.StageUpdateDone, nil)
	case errs.Is(err, errs.Unprocessable):
		return fail(fmt.Sprintf("The HubSpot connection %q was revoked: reconnect it.", a.Name))
	case errors.Is(err, ErrUnauthorized):
		if rerr := s.refusedToken(ctx, a); errs.Is(rerr, errs.Unprocessable) {
			return fail(fmt.Sprintf("HubSpot refused the connection %q: reconnect it.", a.Name))
		}
		if lastAttempt {
			return fail("HubSpot kept refusing Betty's access token; the stage was not set after several tries.")
		}
		return err // renewed (or HubSpot unreachable): River tries again
	case errors.Is(err, ErrUnreachable) || !errors.As(err, &ae):
		if lastAttempt {
			return fail("HubSpot could not be reached; the stage was not set after several tries.")
		}
		return err
	case ae.HTTPStatus == 404:
		return fail("The contact no longer exists in HubSpot.")
	}
	return fail("HubSpot refused the stage: " + ae.Message)
}

// StageUpdatesOfCall lists the lifecycle stages written back after a call.
func (s *Service) StageUpdatesOfCall(ctx context.Context, orgID, callLogID string) ([]store.StageUpdate, error) {
	return s.d.DB.StageUpdatesOfCall(ctx, orgID, callLogID)
}
