package app

import (
	"context"
	"log/slog"

	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/integrations"
	"github.com/bettyhq/betty/server/integrations/hubspot"
	"github.com/bettyhq/betty/server/jobs"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/workflows"
)

// newHubSpot builds the HubSpot integration (issue 13) on the configured HubSpot app, and
// plugs it into the workflows (HubSpot contacts sources). Without the app's credentials it
// answers 501 to connecting and the conversation engine gets no CRM (lifecycle-stage steps
// are skipped, saying HubSpot is not connected).
func newHubSpot(cfg config.Config, log *slog.Logger, db *store.DB, queue *jobs.Queue, apps *integrations.Service, wf *workflows.Service) (*hubspot.Service, conversation.CRM) {
	client := hubspot.NewClient(hubspot.Config{ClientID: cfg.HubSpotClientID, ClientSecret: cfg.HubSpotClientSecret,
		APIURL: cfg.HubSpotAPIURL, AuthURL: cfg.HubSpotAuthURL})
	svc := hubspot.New(client, hubspot.Deps{DB: db, Apps: apps, Jobs: queue, BaseURL: cfg.BaseURL, Log: log.With("component", "hubspot")})
	wf.SetConnectedApps(hubspotApps{apps, svc})
	if !svc.Configured() {
		return svc, nil
	}
	return svc, hubspotCRM{svc}
}

// hubspotApps is the workflows' check of a Contacts node's HubSpot app.
type hubspotApps struct {
	apps *integrations.Service
	svc  *hubspot.Service
}

func (h hubspotApps) CheckHubSpot(ctx context.Context, orgID, appID string, listID *string) error {
	if _, err := h.apps.Connected(ctx, orgID, appID, integrations.HubSpot, "body.connectedAppId"); err != nil || listID == nil {
		return err
	}
	return h.svc.CheckList(ctx, orgID, appID, *listID)
}

func (h hubspotApps) QueueHubSpotList(ctx context.Context, orgID, nodeID, importID string) error {
	return h.svc.QueueListSync(ctx, orgID, nodeID, importID)
}

// hubspotCRM is the conversation engine's CRM: a lifecycle-stage step queues the write-back
// (River job hubspot.set_lifecycle_stage, retried with backoff; its outcome is on the call log).
type hubspotCRM struct{ svc *hubspot.Service }

func (c hubspotCRM) SetLifecycleStage(ctx context.Context, orgID string, ct conversation.Contact, stage string) error {
	_, err := c.svc.QueueStage(ctx, orgID, ct.ID, stage)
	return err
}
