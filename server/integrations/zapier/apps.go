package zapier

import (
	"context"
	"errors"
	"time"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/integrations"
	"github.com/bettyhq/betty/server/store"
)

// Apps is the organisation's Zapier connection: connecting it (the OAuth code exchange),
// and what the partner API shows with it (templates, zaps).
type Apps struct {
	Client       *Client
	Integrations *integrations.Service
}

// Authorize answers Zapier's authorise URL for the organisation, with a signed single-use
// state naming it and the user, and when the state expires.
func (s Apps) Authorize(orgID, userID string) (string, time.Time, error) {
	if !s.Client.Configured() {
		return "", time.Time{}, ErrNotConfigured
	}
	state, exp := s.Integrations.IssueState(integrations.State{OrganizationID: orgID, UserID: userID, Integration: integrations.Zapier})
	u, err := s.Client.AuthorizeURL(state)
	return u, exp, err
}

// CheckState uses up the state a callback carries: it must be one Authorize made for this
// organisation, this user and Zapier, unused and unexpired (422 naming body.state otherwise).
// A state someone else presents is refused without being used up, so it still works for the
// person who started the flow.
func (s Apps) CheckState(ctx context.Context, a auth.Actor, state string) error {
	_, err := s.Integrations.ConsumeState(ctx, state, integrations.Holder{OrganizationID: a.OrganizationID, UserID: a.UserID, Integration: integrations.Zapier})
	if errors.Is(err, integrations.ErrInvalidState) {
		return &errs.Error{Kind: errs.Unprocessable, Message: "This Zapier authorisation is not valid any more (used, expired, or started by someone else or for another team): connect Zapier again.",
			Fields: []errs.Field{{Name: "body.state", Message: "invalid, used, expired, or of another user or team"}}}
	}
	return err
}

// Connect exchanges an authorisation code and stores the credential as the organisation's
// Zapier connected app: connecting again replaces the credential of the same record (the
// newest Zapier app of the organisation, unless Zapier says it is another account).
func (s Apps) Connect(ctx context.Context, orgID, userID, code string) (integrations.App, error) {
	t, err := s.Client.Exchange(ctx, code)
	if err != nil {
		return integrations.App{}, err
	}
	c := integrations.Connection{OrganizationID: orgID, Integration: integrations.Zapier, Name: "Zapier", Tokens: t, UserID: userID}
	// Who the account is, when Zapier says (a failure here does not lose the connection).
	if p, err := s.Client.Me(ctx, t.AccessToken); err == nil && p.ID != "" {
		c.AccountID = p.ID
		if p.Email != "" {
			c.Name = "Zapier (" + p.Email + ")"
		}
	}
	apps, err := s.Integrations.AppsOf(ctx, orgID, integrations.Zapier)
	if err != nil {
		return integrations.App{}, err
	}
	if len(apps) > 0 && c.AccountID == "" {
		c.AppID = apps[0].ID
	}
	a, err := s.Integrations.Save(ctx, c)
	if errors.Is(err, integrations.ErrAccountMismatch) {
		c.AppID = ""
		a, err = s.Integrations.Save(ctx, c)
	}
	return a, err
}

// Templates answers the Zap templates that use Betty's app.
func (s Apps) Templates(ctx context.Context) ([]Template, error) { return s.Client.Templates(ctx) }

// Zaps answers a page of the zaps of the organisation's connected Zapier account and how many
// there are: 422 without a connected Zapier app.
func (s Apps) Zaps(ctx context.Context, orgID string, limit, offset int) ([]Zap, int, error) {
	if !s.Client.Configured() {
		return nil, 0, ErrNotConfigured
	}
	apps, err := s.Integrations.AppsOf(ctx, orgID, integrations.Zapier)
	if err != nil {
		return nil, 0, err
	}
	var app *integrations.App
	for i := range apps {
		if apps[i].Status == store.AppConnected {
			app = &apps[i]
			break
		}
	}
	if app == nil {
		return nil, 0, errs.UnprocessableErr("Zapier is not connected for this team: connect Zapier first.")
	}
	token, err := s.Integrations.AccessToken(ctx, *app)
	if e, ok := errs.As(err); ok && e.Kind == errs.Unprocessable {
		// The contract answers a plain unprocessable here (the connection needs renewing).
		return nil, 0, errs.UnprocessableErr(e.Message)
	}
	if err != nil {
		return nil, 0, unreachable(err)
	}
	zaps, total, err := s.Client.Zaps(ctx, token, limit, offset)
	if !errors.Is(err, errRejected) {
		return zaps, total, err
	}
	// Refused before its time: renewed once and asked again (a refused renewal disconnects).
	fresh, rerr := s.Integrations.RenewAccessToken(ctx, *app, token)
	if e, ok := errs.As(rerr); ok && e.Kind == errs.Unprocessable {
		return nil, 0, errs.UnprocessableErr(e.Message)
	}
	if rerr != nil {
		return nil, 0, unreachable(rerr)
	}
	if fresh == token {
		return nil, 0, err
	}
	return s.Client.Zaps(ctx, fresh, limit, offset)
}
