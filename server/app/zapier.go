package app

import (
	"log/slog"

	"github.com/bettyhq/betty/server/calls"
	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/events"
	"github.com/bettyhq/betty/server/httpapi"
	"github.com/bettyhq/betty/server/integrations"
	"github.com/bettyhq/betty/server/integrations/zapier"
	"github.com/bettyhq/betty/server/jobs"
	"github.com/bettyhq/betty/server/runs"
	"github.com/bettyhq/betty/server/store"
)

// newZapier wires Zapier (issue 13): the partner-API adapter (the Zapier provider of connected
// apps) and the REST hooks, which listen to the live events in each publisher's transaction
// and deliver through River (so before the queue opens).
func newZapier(cfg config.Config, log *slog.Logger, db *store.DB, q *jobs.Queue, ev *events.Service,
	apps *integrations.Service, c *calls.Service, r *runs.Service) (zapier.Apps, *zapier.Hooks) {
	redirect := cfg.ZapierRedirectURI
	if redirect == "" {
		redirect = cfg.BaseURL + "/apps/zapier/callback"
	}
	client := zapier.New(zapier.Config{APIURL: cfg.ZapierAPIURL, TokenURL: cfg.ZapierTokenURL, ClientID: cfg.ZapierClientID,
		ClientSecret: cfg.ZapierClientSecret, RedirectURI: redirect})
	if client.Configured() {
		apps.Register(integrations.Zapier, client)
	}
	var hc zapier.HooksConfig
	if t := cfg.ZapierHookTesting; t != nil {
		hc = zapier.HooksConfig{HTTP: t.HTTP, Allow: t.Allow, RetryDelays: t.RetryDelays}
	}
	hooks := zapier.NewHooks(db, q, httpapi.NewZapierEntities(c, r, db), log, hc)
	ev.Listen(hooks.Listen)
	return zapier.Apps{Client: client, Integrations: apps}, hooks
}
