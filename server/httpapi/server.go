// Package httpapi is the HTTP side of Betty: the Echo server, its middleware, the one error
// handler and the handlers implementing the generated api.StrictServerInterface, one file per
// tag. Handlers stay thin: HTTP in and out, the rules live in domain packages and the store.
package httpapi

import (
	"errors"
	"io/fs"
	"log/slog"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/mail"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/web"
)

// UploadChunkLimit bounds one tus PATCH: a 6 MiB chunk (the clients' size) plus headroom.
const UploadChunkLimit = 8 << 20

// Deps is what the HTTP layer needs from the application.
type Deps struct {
	Log     *slog.Logger
	DB      *store.DB
	Version string
	// Dashboard is the built dashboard; nil serves a page saying it was not built.
	Dashboard    fs.FS
	MaxBodyBytes int64
	// Issuer signs access tokens; Mailer sends e-mail.
	Issuer *auth.Issuer
	Mailer mail.Mailer
	// RefreshTTL is how long an unused session lives.
	RefreshTTL time.Duration
	RateLimit  RateLimit
	// BaseURL is the public URL of the server, for links in e-mails; AllowedOrigins are other
	// dashboard origins that may appear in them.
	BaseURL         string
	AllowedOrigins  []string
	InternalDomains []string
	// ResponseCheck, when set (by tests), sees every response to an operation of the contract
	// as sent, to validate it against the contract.
	ResponseCheck func(op *Operation, req *http.Request, params map[string]string, status int, header http.Header, body []byte)
}

// Server implements every operation of the contract. The handler types of each tag are
// embedded; Unimplemented sits one level deeper, so a real method always wins over its 501.
type Server struct {
	fallback
	*System
	*Identity
	*Teams
	*SiteAdmin
}

type fallback struct{ Unimplemented }

var _ api.StrictServerInterface = (*Server)(nil)

// NewServer builds the handlers.
func NewServer(d Deps, m *Metrics, g *Guard) *Server {
	h := &handlers{Deps: d, guard: g, throttle: auth.NewThrottle(5, 15*time.Minute), resends: newCooldown(time.Minute)}
	return &Server{
		System:    &System{db: d.DB, version: d.Version, metrics: m, mailer: d.Mailer},
		Identity:  &Identity{h},
		Teams:     &Teams{h},
		SiteAdmin: &SiteAdmin{h},
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
	if d.Issuer == nil || d.Mailer == nil {
		return nil, errors.New("httpapi: Issuer and Mailer are required")
	}
	if d.RefreshTTL <= 0 {
		d.RefreshTTL = 30 * 24 * time.Hour
	}
	metrics := NewMetrics(d.DB)
	guard := &Guard{db: d.DB, issuer: d.Issuer, ops: ops}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = errorHandler(d.Log)
	e.Pre(middleware.RemoveTrailingSlash(), securityHeaders(isHTTPS(d.BaseURL)))
	e.Use(requestID())
	if d.ResponseCheck != nil {
		e.Use(captureResponses(ops, d.ResponseCheck))
	}
	e.Use(
		observe(d.Log, ops, metrics),
		recoverPanics(d.Log),
		keepRequest(),
		limitBodies(ops, d.MaxBodyBytes, UploadChunkLimit),
		guard.authenticate(),
		limitRate(d.RateLimit),
		validateRequests(ops),
		guard.authorize(),
	)
	api.RegisterHandlers(e, api.NewStrictHandler(NewServer(d, metrics, guard), nil))
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
