package httpapi

import (
	"context"
	"net/http"
	"time"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/mail"
	"github.com/bettyhq/betty/server/problem"
	"github.com/bettyhq/betty/server/store"
)

// System answers health, readiness, metrics and what the server does.
type System struct {
	db      *store.DB
	version string
	metrics *Metrics
	mailer  mail.Mailer
	// hubspot and zapier say what an operator has left to set for each integration.
	hubspot, zapier interface{ MissingSettings() []string }
}

// GetServerInfo tells clients, before sign-in, what this deployment does.
func (s *System) GetServerInfo(context.Context, api.GetServerInfoRequestObject) (api.GetServerInfoResponseObject, error) {
	delivery := api.Outbox
	if s.mailer.Delivers() {
		delivery = api.Smtp
	}
	setup := func(id api.AppIntegration, missing []string) api.IntegrationSetup {
		return api.IntegrationSetup{IntegrationId: id, Configured: len(missing) == 0, MissingSettings: missing}
	}
	return api.GetServerInfo200JSONResponse{Status: http.StatusOK, Data: api.ServerInfo{Version: s.version,
		MailDelivery: delivery, EmailConfirmationRequired: s.mailer.Delivers(),
		Integrations: []api.IntegrationSetup{setup(api.AppIntegrationHubspot, s.hubspot.MissingSettings()), setup(api.AppIntegrationZapier, s.zapier.MissingSettings())}}}, nil
}

func (s *System) health() api.Health {
	d := api.HealthDatabase(s.db.Dialect())
	return api.Health{Ok: true, Version: s.version, Database: &d}
}

// GetHealth answers while the process is up.
func (s *System) GetHealth(context.Context, api.GetHealthRequestObject) (api.GetHealthResponseObject, error) {
	return api.GetHealth200JSONResponse{Status: http.StatusOK, Data: s.health()}, nil
}

// GetReadiness answers 200 when the database answers a ping within two seconds.
func (s *System) GetReadiness(ctx context.Context, _ api.GetReadinessRequestObject) (api.GetReadinessResponseObject, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := s.db.Ping(ctx); err != nil {
		return nil, problem.Wrap(err, http.StatusServiceUnavailable, api.ProblemCodeUnavailable, "The database is not answering.")
	}
	return api.GetReadiness200JSONResponse{Status: http.StatusOK, Data: s.health()}, nil
}

// GetMetrics renders the Prometheus metrics.
func (s *System) GetMetrics(context.Context, api.GetMetricsRequestObject) (api.GetMetricsResponseObject, error) {
	text, err := s.metrics.Text()
	if err != nil {
		return nil, err
	}
	return api.GetMetrics200TextResponse(text), nil
}
