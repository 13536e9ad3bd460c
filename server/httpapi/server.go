// Package httpapi is the HTTP side of Betty: the Echo server, its middleware, the one error
// handler and the handlers implementing the generated api.StrictServerInterface, one file per
// tag. Handlers stay thin: HTTP in and out, the rules live in domain packages and the store.
package httpapi

import (
	"errors"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/bettyhq/betty/server/agents"
	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/billing"
	"github.com/bettyhq/betty/server/calls"
	"github.com/bettyhq/betty/server/campaigns"
	"github.com/bettyhq/betty/server/events"
	"github.com/bettyhq/betty/server/identity"
	"github.com/bettyhq/betty/server/integrations"
	"github.com/bettyhq/betty/server/integrations/hubspot"
	"github.com/bettyhq/betty/server/integrations/shopify"
	"github.com/bettyhq/betty/server/integrations/zapier"
	"github.com/bettyhq/betty/server/knowledge"
	"github.com/bettyhq/betty/server/mail"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/runs"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/teams"
	"github.com/bettyhq/betty/server/uploads"
	"github.com/bettyhq/betty/server/voices"
	"github.com/bettyhq/betty/server/web"
	"github.com/bettyhq/betty/server/workflows"
)

// UploadChunkLimit bounds the body of a request of the Uploads tag: the contract lets one tus
// PATCH carry 64 MiB (clients send 6 MiB chunks).
const UploadChunkLimit = 64 << 20

// Deps is what the HTTP layer needs from the application: the domain services its handlers
// call, and what the middleware needs.
type Deps struct {
	Log     *slog.Logger
	DB      *store.DB
	Version string
	// Dashboard is the built dashboard; nil serves a page saying it was not built.
	Dashboard    fs.FS
	MaxBodyBytes int64
	// Issuer checks access tokens.
	Issuer *auth.Issuer
	// KeyUses records API keys' uses off the request path (the app flushes it).
	KeyUses *auth.KeyUses
	// Resources finds the organisation owning the resource an operation acts on, for every
	// resource kind auth.Policy names.
	Resources auth.Registry
	// Mail is the outbox.
	Mail *mail.Outbox
	// The domain services.
	Identity  *identity.Service
	Teams     *teams.Service
	Billing   *billing.Service
	Campaigns *campaigns.Service
	Agents    *agents.Service
	Knowledge *knowledge.Service
	Workflows *workflows.Service
	Uploads   *uploads.Service
	Voices    *voices.Service
	Phones    *phones.Service
	// Runs is the dialer.
	Runs *runs.Service
	// Calls is call logs, the inbox and the do-not-call list; Events the live event stream;
	// Jobs renders jobs for it (nil until the runs feature is wired).
	Calls  *calls.Service
	Events *events.Service
	Jobs   JobSource
	// Integrations is the connected apps (HubSpot, Zapier).
	Integrations *integrations.Service
	RateLimit    RateLimit
	// TrustedProxies are the networks whose X-Forwarded-For / X-Real-IP are believed; the
	// client address is the connection's otherwise.
	TrustedProxies []*net.IPNet
	// BodyTimeout bounds reading a request body (uploads get UploadTimeout).
	BodyTimeout, UploadTimeout time.Duration
	// UploadIdleTimeout ends an upload chunk whose body stops arriving for that long (30 s when
	// zero); the bytes that arrived are kept.
	UploadIdleTimeout time.Duration
	// BaseURL is the public URL of the server (https turns HSTS on).
	BaseURL string
	// ResponseCheck, when set (by tests), sees every response to an operation of the contract
	// as sent, to validate it against the contract.
	ResponseCheck func(op *Operation, req *http.Request, params map[string]string, status int, header http.Header, body []byte)
	// TelnyxWebhooks receives Telnyx's webhooks; nil (no Telnyx account) answers 503.
	TelnyxWebhooks TelnyxWebhooks
	// Shopify is the storefront's book-a-call (its widget is served at /widget.js).
	Shopify *shopify.Service
	// HubSpot is the HubSpot integration (connect, contacts, stages, webhooks).
	HubSpot *hubspot.Service
	// Zapier is the Zapier connection (partner API) and ZapierHooks its REST hooks.
	Zapier      zapier.Apps
	ZapierHooks *zapier.Hooks
}

// Server implements every operation of the contract. The handler types of each tag are
// embedded; Unimplemented sits one level deeper, so a real method always wins over its 501.
type Server struct {
	fallback
	*System
	*Identity
	*Teams
	*SiteAdmin
	*Campaigns
	*Agents
	*Knowledge
	*Workflows
	*Uploads
	*Voices
	*Phones
	*Payments
	*Telnyx
	*Runs
	*Calls
	*Inbox
	*Events
	*Apps
	*Shop
	*HubSpot
	*Zapier
}

type fallback struct{ Unimplemented }

var _ api.StrictServerInterface = (*Server)(nil)

// NewServer builds the handlers.
func NewServer(d Deps, m *Metrics) *Server {
	return &Server{
		System:    &System{db: d.DB, version: d.Version, metrics: m, mailer: d.Mail, hubspot: d.HubSpot, zapier: d.Zapier.Client},
		Identity:  &Identity{svc: d.Identity},
		Teams:     &Teams{svc: d.Teams, billing: d.Billing},
		SiteAdmin: &SiteAdmin{teams: d.Teams, identity: d.Identity, mail: d.Mail, billing: d.Billing},
		Campaigns: &Campaigns{svc: d.Campaigns},
		Agents:    &Agents{svc: d.Agents},
		Knowledge: &Knowledge{svc: d.Knowledge},
		Workflows: &Workflows{svc: d.Workflows},
		Uploads:   &Uploads{svc: d.Uploads},
		Voices:    &Voices{svc: d.Voices, baseURL: d.BaseURL},
		Phones:    &Phones{svc: d.Phones},
		Payments:  &Payments{svc: d.Billing},
		Telnyx:    &Telnyx{hooks: d.TelnyxWebhooks},
		Runs:      &Runs{svc: d.Runs, teams: d.Teams},
		Calls:     &Calls{svc: d.Calls, crm: d.HubSpot},
		Inbox:     &Inbox{svc: d.Calls},
		Events:    &Events{svc: d.Events, calls: d.Calls, jobs: jobsOf(d), campaigns: d.Campaigns, knowledge: d.Knowledge},
		Apps:      &Apps{svc: d.Integrations},
		Shop:      &Shop{svc: d.Shopify},
		HubSpot:   &HubSpot{svc: d.HubSpot, baseURL: d.BaseURL},
		Zapier:    &Zapier{apps: d.Zapier, hooks: d.ZapierHooks, workflows: d.Workflows},
	}
}

// New returns the whole HTTP handler: middleware, every operation of the contract, and the
// dashboard at / with SPA fallback.
func New(d Deps) (http.Handler, error) {
	ops, err := LoadOperations()
	if err != nil {
		return nil, err
	}
	if d.MaxBodyBytes <= 0 {
		d.MaxBodyBytes = 1 << 20
	}
	if d.BodyTimeout <= 0 {
		d.BodyTimeout = 30 * time.Second
	}
	if d.UploadIdleTimeout <= 0 {
		d.UploadIdleTimeout = 30 * time.Second
	}
	if d.UploadTimeout <= 0 {
		d.UploadTimeout = 10 * time.Minute
	}
	if d.Issuer == nil || d.Mail == nil || d.Identity == nil || d.Teams == nil || d.Billing == nil || d.Campaigns == nil || d.Agents == nil || d.Knowledge == nil || d.Workflows == nil || d.Uploads == nil || d.Voices == nil || d.Phones == nil || d.Calls == nil || d.Events == nil || d.Runs == nil || d.Integrations == nil || d.HubSpot == nil || d.ZapierHooks == nil || d.KeyUses == nil {
		return nil, errors.New("httpapi: Issuer, Mail, KeyUses and the domain services are required")
	}
	metrics := NewMetrics(d.DB)
	guard, err := newGuard(d.DB, d.Resources, d.Issuer, ops, d.KeyUses)
	if err != nil {
		return nil, err
	}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = errorHandler(d.Log)
	e.IPExtractor = ipExtractor(d.TrustedProxies)
	e.Pre(middleware.RemoveTrailingSlash(), securityHeaders(isHTTPS(d.BaseURL)), storefrontCORS())
	e.Use(requestID())
	if d.ResponseCheck != nil {
		e.Use(captureResponses(ops, d.ResponseCheck))
	}
	e.Use(
		observe(d.Log, ops, metrics),
		recoverPanics(d.Log),
		keepRequest(),
		limitBodies(ops, d.MaxBodyBytes, UploadChunkLimit, d.BodyTimeout, d.UploadTimeout, d.UploadIdleTimeout),
		keepRawBody("/v1/webhooks/stripe", "/v1/webhooks/telnyx", "/v1/webhooks/hubspot"),
		guard.authenticate(),
		limitRate(d.RateLimit),
		tusProtocol(ops),
		validateRequests(ops),
		guard.authorize(),
	)
	api.RegisterHandlers(e, api.NewStrictHandler(NewServer(d, metrics), nil))
	e.GET("/widget.js", serveWidget)
	dashboard := web.Handler(d.Dashboard, isAPIPath)
	e.Any("/*", func(c echo.Context) error {
		// Echo routes a known path with an undeclared method here too: that is a 405.
		if ops.HasPath(c.Request().URL.Path) {
			return echo.ErrMethodNotAllowed
		}
		return dashboard(c)
	})
	return e, nil
}

// isAPIPath says which paths belong to the API, where an unknown path is a 404 problem and
// never the dashboard.
func isAPIPath(path string) bool {
	for _, prefix := range []string{"/v1/", "/v2/", "/healthz", "/readyz", "/metrics"} {
		if len(path) >= len(prefix) && path[:len(prefix)] == prefix {
			return true
		}
	}
	return path == "/v1" || path == "/v2"
}
