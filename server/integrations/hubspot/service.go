package hubspot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"time"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/integrations"
	"github.com/bettyhq/betty/server/jobs"
	"github.com/bettyhq/betty/server/store"
)

// Deps are what the HubSpot integration needs.
type Deps struct {
	DB   *store.DB
	Apps *integrations.Service
	// Jobs runs the lifecycle-stage write-backs and the reads of HubSpot lists (registered by
	// New).
	Jobs *jobs.Queue
	// BaseURL is Betty's public URL: the redirect URI is <BaseURL>/v1/apps/hubspot/callback,
	// the dashboard <BaseURL>/dashboard, and webhook signatures cover <BaseURL><path>.
	BaseURL string
	Log     *slog.Logger
}

// Service is the HubSpot integration.
type Service struct {
	c       *Client
	d       Deps
	now     func() time.Time
	cursors cursors // cursors.go
}

// New builds the integration, registers the client as HubSpot's provider (refresh, revoke)
// and the write-back worker on the queue.
func New(c *Client, d Deps) *Service {
	if d.Log == nil {
		d.Log = slog.Default()
	}
	s := &Service{c: c, d: d, now: time.Now}
	if c.Configured() {
		d.Apps.Register(integrations.HubSpot, c)
	}
	if d.Jobs != nil {
		jobs.Register(d.Jobs, &stageWorker{s: s})
		registerLists(d.Jobs, s)
	}
	return s
}

// Configured says the HubSpot app's credentials are set (connecting is 501 otherwise).
func (s *Service) Configured() bool { return s.c.Configured() }

// MissingSettings are the serve flags still to set before teams can connect HubSpot.
func (s *Service) MissingSettings() []string {
	if s == nil {
		return (*Client)(nil).MissingSettings()
	}
	return s.c.MissingSettings()
}

// ErrNotConfigured is a server without the HubSpot app's credentials (the API answers 501).
var ErrNotConfigured = errors.New("HubSpot is not configured on this server: an operator must set --hubspot-client-id and --hubspot-client-secret.")

func (s *Service) notConfigured() error { return ErrNotConfigured }

// RedirectURI is the OAuth redirect URI to register in the HubSpot app.
func (s *Service) RedirectURI() string { return s.d.BaseURL + "/v1/apps/hubspot/callback" }

// Authorize answers the authorisation URL to connect a portal (appID empty) or reconnect the
// organisation's HubSpot connected app appID, and when it expires.
func (s *Service) Authorize(ctx context.Context, orgID, userID, appID string) (string, time.Time, error) {
	if !s.Configured() {
		return "", time.Time{}, s.notConfigured()
	}
	if appID != "" {
		a, err := s.d.Apps.Get(ctx, orgID, appID)
		if err != nil {
			return "", time.Time{}, err
		}
		if integrations.Integration(a.Integration) != integrations.HubSpot {
			return "", time.Time{}, errs.UnprocessableErr(fmt.Sprintf("The connected app is a %s app, not a HubSpot one.", a.Integration))
		}
	}
	state, exp := s.d.Apps.IssueState(integrations.State{OrganizationID: orgID, UserID: userID, Integration: integrations.HubSpot, AppID: appID})
	return s.c.AuthorizeURL(s.RedirectURI(), state), exp, nil
}

// The reasons of a failed authorisation, in the dashboard's query string.
const (
	ReasonDenied       = "denied"
	ReasonInvalidState = "invalid_state"
)

// Callback is where HubSpot sends the browser back (code or error, state), and answers where
// to send it on. The callback is public and a browser redirect: it cannot tell who follows it,
// so it uses nothing up. A state it can read goes on, with the code, to the dashboard's
// callback page, where the signed-in user who started the flow finishes it (Complete); a
// forged or expired state, or a refusal, goes to the dashboard with the reason.
func (s *Service) Callback(code, state, hsError string) string {
	fail := func(reason string) string {
		return s.d.BaseURL + "/dashboard?" + url.Values{"app": {"hubspot"}, "result": {"error"}, "reason": {reason}}.Encode()
	}
	st, err := s.d.Apps.ReadState(state)
	if err != nil || st.Integration != integrations.HubSpot {
		return fail(ReasonInvalidState)
	}
	if hsError != "" || code == "" {
		return fail(ReasonDenied)
	}
	return s.d.BaseURL + "/dashboard/apps/hubspot/callback?" + url.Values{"teamId": {st.OrganizationID}, "code": {code}, "state": {state}}.Encode()
}

// Complete finishes an authorisation for the actor, who must be the user who started it for
// this organisation: the state is used up only then (another user's attempt is refused and
// leaves it working). It exchanges the code, reads the portal and stores the connection.
// A state that is not the actor's, or is used or expired, is errs Unprocessable naming
// body.state; a code HubSpot refuses, errs Unprocessable naming body.code; approving another
// portal than the one a reconnection is for, errs Unprocessable; HubSpot unreachable, errs
// Unavailable.
func (s *Service) Complete(ctx context.Context, a auth.Actor, code, state string) (integrations.App, error) {
	if !s.Configured() {
		return integrations.App{}, s.notConfigured()
	}
	st, err := s.d.Apps.ConsumeState(ctx, state, integrations.Holder{OrganizationID: a.OrganizationID, UserID: a.UserID, Integration: integrations.HubSpot})
	if errors.Is(err, integrations.ErrInvalidState) {
		return integrations.App{}, &errs.Error{Kind: errs.Unprocessable,
			Message: "This HubSpot authorisation is not valid any more (used, expired, or started by someone else or for another team): connect HubSpot again.",
			Fields:  []errs.Field{{Name: "body.state", Message: "invalid, used, expired, or of another user or team"}}}
	}
	if err != nil {
		return integrations.App{}, err
	}
	t, err := s.c.Exchange(ctx, code, s.RedirectURI())
	if err != nil {
		return integrations.App{}, s.exchangeErr(ctx, err, "exchanging the authorisation code")
	}
	p, err := s.c.Portal(ctx, t.AccessToken)
	if err != nil {
		return integrations.App{}, s.exchangeErr(ctx, err, "reading the portal of the new token")
	}
	name := p.HubDomain
	if name == "" {
		name = "HubSpot portal " + strconv.FormatInt(p.HubID, 10)
	}
	app, err := s.d.Apps.Save(ctx, integrations.Connection{OrganizationID: st.OrganizationID, Integration: integrations.HubSpot,
		AppID: st.AppID, AccountID: strconv.FormatInt(p.HubID, 10), Name: name, Tokens: t, UserID: st.UserID})
	if errors.Is(err, integrations.ErrAccountMismatch) {
		_ = s.c.Revoke(context.WithoutCancel(ctx), t)
		return app, errs.UnprocessableErr("A different HubSpot account was approved than the one this connection belongs to: reconnect with the same account, or connect the other one as a new connection.")
	}
	return app, err
}

// exchangeErr is a failed code exchange: HubSpot unreachable is errs Unavailable; a code it
// refused (used, expired, of another app), errs Unprocessable naming body.code.
func (s *Service) exchangeErr(ctx context.Context, err error, doing string) error {
	s.d.Log.WarnContext(ctx, "hubspot: "+doing+" failed", "err", err)
	var ae *APIError
	if errors.Is(err, ErrUnreachable) || !errors.As(err, &ae) || ae.Temporary() {
		e := errs.WithCode(errs.Unavailable, errs.CodeUnavailable, "HubSpot could not be reached to finish the connection; connect HubSpot again in a moment.")
		e.RetryAfter = 5 * time.Second
		return e
	}
	return &errs.Error{Kind: errs.Unprocessable, Message: "HubSpot refused the authorisation (" + ae.Message + "): connect HubSpot again.",
		Fields: []errs.Field{{Name: "body.code", Message: "refused by HubSpot"}}}
}

// token answers an access token of the organisation's connected HubSpot app appID (404, 422
// for another integration or a disconnected app; 503 when HubSpot cannot refresh it).
func (s *Service) token(ctx context.Context, orgID, appID, field string) (integrations.App, string, error) {
	a, err := s.d.Apps.Connected(ctx, orgID, appID, integrations.HubSpot, field)
	if err != nil {
		return a, "", err
	}
	tok, err := s.d.Apps.AccessToken(ctx, a)
	if err != nil {
		return a, "", s.translate(ctx, a, err)
	}
	return a, tok, nil
}

// translate turns a HubSpot failure into the API's: unreachable is 503; a token HubSpot
// refuses disconnects the app (422); anything else HubSpot refused is 502-free 503 too,
// named.
func (s *Service) translate(ctx context.Context, a integrations.App, err error) error {
	var ae *APIError
	switch {
	case err == nil:
		return nil
	case errs.Is(err, errs.Unprocessable) || errs.Is(err, errs.NotFound) || errs.Is(err, errs.Invalid):
		return err
	case errors.Is(err, ErrUnauthorized):
		return s.refusedToken(ctx, a)
	case errors.Is(err, ErrUnreachable):
		e := errs.WithCode(errs.Unavailable, errs.CodeUnavailable, "HubSpot is unreachable right now; try again in a moment.")
		if errors.As(err, &ae) && ae.RetryAfter > 0 {
			e.RetryAfter = ae.RetryAfter
		} else {
			e.RetryAfter = 5 * time.Second
		}
		return e
	case errors.As(err, &ae):
		s.d.Log.WarnContext(ctx, "hubspot: HubSpot refused a request", "err", err, "correlationId", ae.CorrelationID)
		return errs.WithCode(errs.Unavailable, errs.CodeUnavailable, "HubSpot refused the request: "+ae.Message)
	}
	return err
}

// refusedToken answers for an access token HubSpot refused (401): the credential is renewed
// with its refresh token and the caller asked to try again (503, Retry-After 1 s; River
// retries a job); only when HubSpot refuses the refresh too (the app uninstalled, its access
// revoked) is the app disconnected (422).
func (s *Service) refusedToken(ctx context.Context, a integrations.App) error {
	disconnected := errs.WithCode(errs.Unprocessable, "app_disconnected",
		fmt.Sprintf("HubSpot refused the connection %q (the app was uninstalled or its access revoked): reconnect it.", a.Name))
	t, err := s.d.Apps.Tokens(a)
	if err != nil {
		return err
	}
	renewed, err := s.d.Apps.RenewAccessToken(ctx, a, t.AccessToken)
	switch {
	case errs.Is(err, errs.Unprocessable):
		return disconnected
	case err != nil:
		return s.translate(ctx, a, fmt.Errorf("%w: renewing the access token: %v", ErrUnreachable, err))
	case renewed == t.AccessToken: // nothing to renew it with
		if derr := s.d.Apps.MarkDisconnected(ctx, a); derr != nil {
			return derr
		}
		return disconnected
	}
	e := errs.WithCode(errs.Unavailable, errs.CodeUnavailable, "HubSpot refused the access token; Betty renewed it: try again.")
	e.RetryAfter = time.Second
	return e
}
