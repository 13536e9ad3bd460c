// Package app wires Betty's server together: configuration → store → background jobs and
// providers → domain services → HTTP handler, and runs it until the context ends, then shuts
// down gracefully. `betty serve` and the tests build the server through New, the same way.
package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/bettyhq/betty/server/agents"
	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/billing"
	"github.com/bettyhq/betty/server/billing/stripepay"
	"github.com/bettyhq/betty/server/calls"
	"github.com/bettyhq/betty/server/campaigns"
	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/events"
	"github.com/bettyhq/betty/server/httpapi"
	"github.com/bettyhq/betty/server/identity"
	"github.com/bettyhq/betty/server/integrations"
	"github.com/bettyhq/betty/server/integrations/shopify"
	"github.com/bettyhq/betty/server/jobs"
	"github.com/bettyhq/betty/server/knowledge"
	"github.com/bettyhq/betty/server/links"
	"github.com/bettyhq/betty/server/mail"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/phones/sim"
	"github.com/bettyhq/betty/server/phones/telnyx"
	"github.com/bettyhq/betty/server/speech"
	"github.com/bettyhq/betty/server/speech/espeak"
	"github.com/bettyhq/betty/server/speech/flite"
	"github.com/bettyhq/betty/server/speech/openai"
	"github.com/bettyhq/betty/server/speech/sphinx"
	"github.com/bettyhq/betty/server/storage"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/teams"
	"github.com/bettyhq/betty/server/uploads"
	"github.com/bettyhq/betty/server/voices"
	"github.com/bettyhq/betty/server/workflows"
)

// App is a configured server.
type App struct {
	cfg     config.Config
	log     *slog.Logger
	tel     phones.Telephony
	db      *store.DB
	jobs    *jobs.Queue
	mail    *mail.Outbox
	files   storage.Storage
	speech  *speech.Service
	handler http.Handler
	events  *events.Service
	// simCalls is the simulator's call control (nil with Telnyx); Close stops its workers.
	simCalls *sim.Calls
	// resources is the guard's registry of resource owners.
	resources auth.Registry
	// identity knows the site administrators (the summary's site-admin line).
	identity *identity.Service
	// keyUses records API keys' uses; Start flushes it every few seconds, Close once more.
	keyUses     *auth.KeyUses
	stopUses    context.CancelFunc
	usesFlushed chan struct{}
	started     bool
	// unlock lets go of the data directory (SQLite), taken when the workers start.
	unlock func()
}

// Option changes how the server is built, for tests.
type Option func(*options)

type options struct {
	responseCheck func(op *httpapi.Operation, req *http.Request, params map[string]string, status int, header http.Header, body []byte)
	jobs          jobs.Config
	hasher        *auth.Hasher
}

// WithResponseCheck hands every response to an operation of the contract, as sent, to check
// (the API tests validate each against openapi.yaml).
func WithResponseCheck(fn func(op *httpapi.Operation, req *http.Request, params map[string]string, status int, header http.Header, body []byte)) Option {
	return func(o *options) { o.responseCheck = fn }
}

// WithPasswordHasher bounds password hashing differently from the default (one hash per core,
// five seconds of queue).
func WithPasswordHasher(h *auth.Hasher) Option { return func(o *options) { o.hasher = h } }

// WithJobs tunes the background workers.
func WithJobs(c jobs.Config) Option { return func(o *options) { o.jobs = c } }

// New opens and migrates the database, and builds the background queue, the domain services
// and the HTTP handler. Nothing runs until Serve.
func New(ctx context.Context, cfg config.Config, log *slog.Logger, dashboard fs.FS, version string, opts ...Option) (*App, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	db, err := store.Open(ctx, store.Options{DatabaseURL: cfg.DatabaseURL, DataDir: cfg.DataDir})
	if err != nil {
		return nil, err
	}
	a, err := build(ctx, cfg, log, db, dashboard, version, o)
	if err != nil {
		db.Close()
		return nil, err
	}
	return a, nil
}

func build(ctx context.Context, cfg config.Config, log *slog.Logger, db *store.DB, dashboard fs.FS, version string, o options) (*App, error) {
	applied, err := db.Migrate(ctx)
	if err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	for _, m := range applied {
		log.InfoContext(ctx, "migration applied", "version", m.Version, "name", m.Name)
	}
	secret, err := db.Secret(ctx, "access_token_signing_key", auth.NewSecret)
	if err != nil {
		return nil, fmt.Errorf("signing key: %w", err)
	}
	smtp, err := mail.ParseSMTP(cfg.SMTPURL, cfg.MailFrom)
	if err != nil {
		return nil, err
	}
	files, err := openStorage(cfg)
	if err != nil {
		return nil, err
	}
	fileKey, err := db.Secret(ctx, "file_url_signing_key", auth.NewSecret)
	if err != nil {
		return nil, fmt.Errorf("file signing key: %w", err)
	}
	tel, err := telephony(cfg, log, db)
	if err != nil {
		return nil, err
	}
	queue := jobs.New(db, log, o.jobs)
	outbox := mail.NewOutbox(db, queue, log, smtp)
	uploadsService := uploads.New(db, queue, files, log, uploads.Config{BaseURL: cfg.BaseURL, Secret: []byte(fileKey)})
	speaker := newSpeech(cfg)
	voicesService := voices.New(db, speaker, voiceSamples{uploadsService})
	knowledgeService := knowledge.New(db, queue, knowledgeFiles{uploadsService},
		knowledge.Limits{Time: cfg.KnowledgeParseTimeout, Memory: cfg.KnowledgeParseMemory})
	campaignWorkflows := &campaignWorkflows{}
	campaignsService := campaigns.New(db, campaignWorkflows)
	workflowsService := workflows.New(db, queue, campaignsService, contactFiles{uploadsService})
	campaignWorkflows.Service = workflowsService
	workflowsService.SetLanguageModel(strings.TrimSpace(cfg.LLMURL) != "") // llm.Open's choice
	agentsService := agents.New(db, queue, voicesService, agentFiles{uploadsService}, knowledgeService, agentNumbers{workflowsService})
	dashboardLinks := links.Builder{BaseURL: cfg.BaseURL, AllowedOrigins: cfg.AllowedOrigins}
	billingService := billing.New(db, billing.WithPayments(payments(cfg, dashboardLinks)), billing.WithJobs(queue))
	// Calls and live events (issue 11): the dialer's ports runs.CallLogs and runs.Suppressions
	// are callsService, runs.Events is eventsService.
	eventsService := events.New(db, queue)
	campaignsService.SetEvents(eventsService) // campaign.updated
	knowledgeService.SetEvents(eventsService) // knowledge.updated
	callsService := calls.New(db, files, uploadsService, eventsService)
	// Telnyx Call Control: the carrier's calls and their verified webhooks (nil with the
	// simulator). The dialer places calls through it, or through the simulator (app/runs.go).
	telnyxCalls, err := newTelnyxCalls(tel, cfg, log, speaker)
	if err != nil {
		return nil, err
	}
	// Integrations (issue 13): connected apps and their sealed OAuth credentials; HubSpot
	// (app/hubspot.go) is the conversation engine's CRM.
	integrationsService, err := newIntegrations(ctx, cfg, log, db)
	if err != nil {
		return nil, err
	}
	hubspotService, crm := newHubSpot(cfg, log, db, queue, integrationsService, workflowsService)
	runsService, simCalls, err := newRuns(cfg, log, db, queue, dialerDeps{calls: callsService, events: eventsService,
		knowledge: knowledgeService, telnyx: telnyxCalls, crm: crm, pairings: workflowsService, carrier: tel.Name()})
	if err != nil {
		return nil, err
	}
	zapierApps, zapierHooks := newZapier(cfg, log, db, queue, eventsService, integrationsService, callsService, runsService)
	// Every worker is registered above this line.
	if err := queue.Open(); err != nil {
		return nil, err
	}
	issuer := auth.NewIssuer([]byte(secret), cfg.AccessTokenTTL)
	hasher := o.hasher
	if hasher == nil {
		hasher = auth.DefaultHasher()
	}
	identityService := identity.New(db, issuer, outbox, hasher, dashboardLinks,
		identity.Config{RefreshTTL: cfg.RefreshTokenTTL, InternalDomains: cfg.InternalDomains, AdminEmail: cfg.AdminEmail})
	if err := identityService.GrantNamedAdmin(ctx); err != nil {
		return nil, fmt.Errorf("--admin-email: %w", err)
	}
	phonesService := phones.New(db, tel, dashboardLinks, log, phones.WithBilling(billingService))
	billingService.SetNumberSeller(phonesService)
	registry := resources(resourceOwners{workflows: workflowsService, campaigns: campaignsService, knowledge: knowledgeService,
		billing: billingService, uploads: uploadsService, runs: runsService})
	// API keys' "last used" is written off the request path, at most once a minute per key.
	keyUses := auth.NewKeyUses(db.TouchAPIKeys)
	teamsService := teams.New(db, outbox, dashboardLinks)
	teamsService.SetKeyUses(keyUses)
	h, err := httpapi.New(httpapi.Deps{
		Log: log, DB: db, Version: version, Dashboard: dashboard, MaxBodyBytes: cfg.MaxBodyBytes,
		Issuer: issuer, Mail: outbox, Resources: registry, KeyUses: keyUses,
		Identity:       identityService,
		Teams:          teamsService,
		Billing:        billingService,
		Campaigns:      campaignsService,
		Agents:         agentsService,
		Knowledge:      knowledgeService,
		Workflows:      workflowsService,
		Uploads:        uploadsService,
		Voices:         voicesService,
		Phones:         phonesService,
		Runs:           runsService,
		Calls:          callsService,
		Events:         eventsService,
		Integrations:   integrationsService,
		RateLimit:      httpapi.RateLimit{Rate: cfg.RateLimit, Burst: cfg.RateBurst},
		TrustedProxies: cfg.TrustedProxies, BodyTimeout: cfg.BodyTimeout, UploadIdleTimeout: cfg.UploadIdleTimeout,
		BaseURL: cfg.BaseURL, ResponseCheck: o.responseCheck,
		TelnyxWebhooks: telnyxWebhooks(telnyxCalls),
		Shopify:        shopify.New(db, runsService, callsService, shopify.Options{Countries: cfg.BookACallCountries, Log: log}),
		HubSpot:        hubspotService,
		Zapier:         zapierApps, ZapierHooks: zapierHooks,
	})
	if err != nil {
		return nil, err
	}
	return &App{cfg: cfg, log: log, tel: tel, db: db, jobs: queue, mail: outbox, files: files, speech: speaker, handler: h,
		events: eventsService, simCalls: simCalls, resources: registry, identity: identityService, keyUses: keyUses}, nil
}

// newIntegrations builds the connected apps' service with the configured key, or one Betty
// makes once and keeps in the database (every replica reads the same).
func newIntegrations(ctx context.Context, cfg config.Config, log *slog.Logger, db *store.DB) (*integrations.Service, error) {
	raw := cfg.IntegrationsKey
	if raw == "" {
		var err error
		if raw, err = db.Secret(ctx, "integration_token_key", auth.NewSecret); err != nil {
			return nil, fmt.Errorf("integrations key: %w", err)
		}
	}
	key, err := integrations.ParseKey(raw)
	if err != nil {
		return nil, err
	}
	return integrations.New(db, key, log)
}

// newSpeech picks the speech engines: OpenAI-compatible endpoints where their URLs are set,
// otherwise the local engines: flite and espeak-ng speak (flite's clearer voices first), and
// PocketSphinx transcribes when it is installed; without it nothing transcribes and every
// transcription answers 503 naming what to install.
func newSpeech(cfg config.Config) *speech.Service {
	var tts speech.TextToSpeech = speech.Combine(flite.New(flite.Options{}), espeak.New(espeak.Options{}))
	if cfg.TTSURL != "" {
		tts = openai.NewTTS(openai.Config{BaseURL: cfg.TTSURL, APIKey: cfg.TTSAPIKey, Model: cfg.TTSModel})
	}
	var stt speech.SpeechToText = speech.NotConfigured{}
	if local := sphinx.New(sphinx.Options{}); cfg.STTURL != "" {
		stt = openai.NewSTT(openai.Config{BaseURL: cfg.STTURL, APIKey: cfg.STTAPIKey, Model: cfg.STTModel})
	} else if local.Check() == nil {
		stt = local
	}
	return speech.New(tts, stt)
}

// telephony is the carrier the configuration picks: Telnyx with an API key, the offline
// simulator otherwise. Telnyx settings without the key are an error naming it.
func telephony(cfg config.Config, log *slog.Logger, db *store.DB) (phones.Telephony, error) {
	if cfg.TelnyxAPIKey == "" {
		if cfg.TelnyxConnectionID != "" || cfg.TelnyxPublicKey != "" {
			return nil, errors.New("telnyx: --telnyx-connection-id and --telnyx-public-key need --telnyx-api-key (BETTY_TELNYX_API_KEY)")
		}
		return sim.New(log, db.BoughtPhoneNumbers), nil
	}
	return telnyx.New(telnyx.Config{APIKey: cfg.TelnyxAPIKey, BaseURL: cfg.TelnyxAPIURL, ConnectionID: cfg.TelnyxConnectionID})
}

// newTelnyxCalls is Telnyx Call Control when the carrier is Telnyx, nil otherwise.
func newTelnyxCalls(tel phones.Telephony, cfg config.Config, log *slog.Logger, voices telnyx.VoiceCatalogue) (*telnyx.Calls, error) {
	client, ok := tel.(*telnyx.Client)
	if !ok {
		return nil, nil
	}
	return telnyx.NewCalls(client, telnyx.CallsOptions{Log: log, Voices: voices, PublicKey: cfg.TelnyxPublicKey})
}

// telnyxWebhooks is what receives Telnyx's webhooks: nothing without Telnyx (503).
func telnyxWebhooks(c *telnyx.Calls) httpapi.TelnyxWebhooks {
	if c == nil {
		return nil
	}
	return c
}

// payments is how the deployment takes payments: Stripe with a secret key, none otherwise
// (purchases answer 503 payments_not_configured naming the setting).
func payments(cfg config.Config, l links.Builder) billing.Payments {
	p := billing.Payments{WebhookSecret: cfg.StripeWebhookSecret, TrialDays: cfg.TrialCodes, SalesContact: cfg.SalesContact, Links: l}
	if cfg.StripeSecretKey != "" {
		p.Provider = stripepay.New(cfg.StripeSecretKey, cfg.StripeAPIURL)
	}
	return p
}

// Handler is the HTTP handler (for tests that serve it themselves).
func (a *App) Handler() http.Handler { return a.handler }

// DB is the application's database.
func (a *App) DB() *store.DB { return a.db }

// Resources is the registry the guard finds resources' organisations through.
func (a *App) Resources() auth.Registry { return a.resources }

// Close releases the database and the data directory.
func (a *App) Close() error {
	a.flushKeyUses()
	if a.simCalls != nil {
		a.simCalls.Close()
	}
	err := a.db.Close()
	if a.unlock != nil {
		a.unlock()
	}
	return err
}

// Start starts the background workers (Serve does it when they are not running yet).
func (a *App) Start(ctx context.Context) error {
	if a.started {
		return nil
	}
	if err := a.ownDataDir(ctx); err != nil {
		return err
	}
	if err := a.jobs.Start(context.WithoutCancel(ctx)); err != nil {
		return err
	}
	uctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	a.stopUses, a.usesFlushed = stop, make(chan struct{})
	go func() {
		defer close(a.usesFlushed)
		a.keyUses.Run(uctx, keyUsesFlushEvery, func(err error) { a.log.Warn("API keys' last-used times were not written; retrying", "err", err) })
	}()
	a.started = true
	return nil
}

// keyUsesFlushEvery is how often API keys' uses are written (each key at most once a minute).
const keyUsesFlushEvery = 10 * time.Second

// flushKeyUses stops the flusher after its last flush (or, when the workers never started,
// flushes once), before the database closes.
func (a *App) flushKeyUses() {
	if a.stopUses != nil {
		a.stopUses()
		<-a.usesFlushed
		a.stopUses = nil
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := a.keyUses.Flush(ctx); err != nil {
		a.log.Warn("API keys' last-used times were not written", "err", err)
	}
}

// ownDataDir makes this process the one that works a SQLite database's background jobs: it
// locks the data directory (a second betty serve on it is refused) and, holding it, knows
// every job still marked running was left by a process that ended, so it works them again at
// once: a knowledge file that was parsing, a call's next step. (On PostgreSQL replicas share
// the jobs, and River's rescue finds those of a replica that died.)
func (a *App) ownDataDir(ctx context.Context) error {
	if a.db.Dialect() != store.SQLite || a.unlock != nil {
		return nil
	}
	unlock, exclusive, err := lockDataDir(a.cfg.DataDir)
	if err != nil {
		return err
	}
	a.unlock = unlock
	if !exclusive {
		return nil
	}
	n, err := a.jobs.RescueOrphans(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		a.log.Info("background jobs left running by the last process are worked again", "jobs", n)
	}
	return nil
}

// Serve runs the background workers and serves HTTP on ln until ctx ends; then it stops
// accepting, lets requests in flight finish (up to the shutdown timeout), stops the workers
// (jobs still running get what is left of the budget, then are cancelled and retried later)
// and returns.
func (a *App) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           a.handler,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		// Go's own answers before a handler runs (431 headers too large, 505 …) are plain text,
		// not problem+json: docs/contract.md says so.
		MaxHeaderBytes: 64 << 10,
		ErrorLog:       slog.NewLogLogger(a.log.Handler(), slog.LevelWarn),
		BaseContext:    func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	if err := a.Start(ctx); err != nil {
		ln.Close()
		return err
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	var serveErr error
	select {
	case serveErr = <-errc:
	case <-ctx.Done():
	}
	a.log.Info("shutting down", "timeout", a.cfg.ShutdownTimeout.String())
	a.events.Close() // event streams end, so they do not hold the shutdown up
	sctx, cancel := context.WithTimeout(context.Background(), a.cfg.ShutdownTimeout)
	defer cancel()
	if serveErr == nil {
		if err := srv.Shutdown(sctx); err != nil {
			serveErr = fmt.Errorf("shutdown: %w", err)
		} else if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
			serveErr = err
		}
	}
	a.flushKeyUses()
	if err := a.jobs.Stop(sctx); err != nil {
		a.log.Warn("background jobs did not stop cleanly", "err", err)
	}
	if serveErr == nil {
		a.log.Info("stopped")
	}
	return serveErr
}
