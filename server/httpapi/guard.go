package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/problem"
	"github.com/bettyhq/betty/server/store"
)

// Guard applies auth.Policy: it authenticates the caller, then checks their standing in the
// organisation an operation acts on. It is the only place access is decided; handlers of
// operations whose organisation comes from a resource call Authorize with it.
type Guard struct {
	db     *store.DB
	issuer *auth.Issuer
	ops    *Operations
}

var errNoAuth = problem.Unauthorized(api.ProblemCodeUnauthorized, "Auth headers are required")

// authenticate runs before request validation: callers without valid credentials get a 401
// whatever they sent.
func (g *Guard) authenticate() echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			op := g.ops.Find(c.Request().Method, c.Path())
			if op == nil {
				return next(c)
			}
			rule, ok := auth.Policy[op.ID]
			if !ok {
				return fmt.Errorf("operation %s has no access rule", op.ID)
			}
			ctx := context.WithValue(auth.WithRule(c.Request().Context(), rule), guardKey{}, g)
			if rule.Access != auth.Public && rule.Access != auth.Refresh {
				p, err := g.principal(ctx, c.Request())
				if err != nil {
					return err
				}
				switch {
				case (rule.Access == auth.User || rule.Access == auth.SiteAdmin) && p.IsAPIKey():
					return problem.Forbidden("This operation needs a signed-in user; API keys cannot use it.")
				case rule.Access == auth.SiteAdmin && !p.IsSiteAdmin:
					return problem.Forbidden("Only site administrators can do this.")
				}
				ctx = auth.WithPrincipal(ctx, p)
			}
			c.SetRequest(c.Request().WithContext(ctx))
			return next(c)
		}
	}
}

// principal identifies the caller from Authorization: Bearer (an access token or an API key)
// or X-API-Key.
func (g *Guard) principal(ctx context.Context, r *http.Request) (auth.Principal, error) {
	cred := r.Header.Get("X-API-Key")
	if h := r.Header.Get("Authorization"); cred == "" && h != "" {
		scheme, value, ok := strings.Cut(h, " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(value) == "" {
			return auth.Principal{}, problem.Unauthorized(api.ProblemCodeUnauthorized, "The Authorization header must be: Bearer <token>.")
		}
		cred = strings.TrimSpace(value)
	}
	if cred == "" {
		return auth.Principal{}, errNoAuth
	}
	if auth.IsAPIKey(cred) {
		k, err := g.db.APIKeyByHash(ctx, auth.HashToken(cred))
		if errors.Is(err, store.ErrNotFound) {
			return auth.Principal{}, problem.Unauthorized(api.ProblemCodeInvalidToken, "This API key is not valid; it may have been deleted.")
		}
		if err != nil {
			return auth.Principal{}, err
		}
		if err := g.db.TouchAPIKey(ctx, k.ID); err != nil {
			return auth.Principal{}, err
		}
		return auth.Principal{APIKeyID: k.ID, APIKeyOrgID: k.OrganizationID, APIKeyRole: auth.Role(k.Role)}, nil
	}
	claims, err := g.issuer.Parse(cred)
	switch {
	case errors.Is(err, auth.ErrTokenExpired):
		return auth.Principal{}, problem.Unauthorized(api.ProblemCodeTokenExpired, "The access token has expired; renew it at POST /v1/auth/refresh.")
	case err != nil:
		return auth.Principal{}, problem.Unauthorized(api.ProblemCodeInvalidToken, "The access token is not valid.")
	}
	s, err := g.db.SessionByID(ctx, claims.SessionID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return auth.Principal{}, err
	}
	if err != nil || s.UserID != claims.UserID || s.RevokedAt != nil {
		return auth.Principal{}, problem.Unauthorized(api.ProblemCodeInvalidToken, "This session has ended; sign in again.")
	}
	u, err := g.db.UserByID(ctx, claims.UserID)
	if errors.Is(err, store.ErrNotFound) {
		return auth.Principal{}, problem.Unauthorized(api.ProblemCodeInvalidToken, "This session has ended; sign in again.")
	}
	if err != nil {
		return auth.Principal{}, err
	}
	return auth.Principal{UserID: u.ID, SessionID: s.ID, Email: u.Email, IsSiteAdmin: u.IsSiteAdmin}, nil
}

// authorize runs after request validation, so the organisation id it reads is well formed.
func (g *Guard) authorize() echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			ctx := c.Request().Context()
			rule, ok := auth.RuleFrom(ctx)
			if !ok || rule.Access != auth.Team || rule.Org == auth.FromResource {
				return next(c)
			}
			p, _ := auth.PrincipalFrom(ctx)
			var orgID string
			if rule.Org == auth.FromKey {
				if !p.IsAPIKey() {
					return problem.Forbidden("This operation is for API keys: send your team's key as Authorization: Bearer betty_sk_….")
				}
				orgID = p.APIKeyOrgID
			} else {
				var err error
				if orgID, err = orgIDOf(c, rule.Org); err != nil {
					return err
				}
			}
			ctx, err := g.Authorize(ctx, orgID)
			if err != nil {
				return err
			}
			c.SetRequest(c.Request().WithContext(ctx))
			return next(c)
		}
	}
}

// Authorize checks the caller's standing in organisation orgID against the rule of the
// operation being served and returns ctx with the grant. Another team's organisation is a 404:
// whether it exists is not the caller's business.
func (g *Guard) Authorize(ctx context.Context, orgID string) (context.Context, error) {
	rule, _ := auth.RuleFrom(ctx)
	p, ok := auth.PrincipalFrom(ctx)
	if !ok {
		return ctx, errNoAuth
	}
	notFound := problem.NotFound("Team")
	var grant auth.Grant
	switch {
	case p.IsAPIKey():
		if rule.UsersOnly {
			return ctx, problem.Forbidden("This operation needs a signed-in user; API keys cannot use it.")
		}
		if p.APIKeyOrgID != orgID {
			return ctx, notFound
		}
		grant = auth.Grant{OrganizationID: orgID, Role: p.APIKeyRole}
	default:
		m, err := g.db.MemberOf(ctx, orgID, p.UserID)
		if errors.Is(err, store.ErrNotFound) {
			return ctx, notFound
		}
		if err != nil {
			return ctx, err
		}
		grant = auth.Grant{OrganizationID: orgID, Role: auth.Role(m.Role), MemberID: m.ID}
	}
	if !grant.Role.AtLeast(rule.MinRole) {
		return ctx, problem.Forbidden(fmt.Sprintf("Your role in this team (%s) does not allow this; it needs %s or higher.",
			grant.Role, rule.MinRole))
	}
	return auth.WithGrant(ctx, grant), nil
}

type guardKey struct{}

// inResource authorizes the caller for an operation whose organisation comes from a resource
// (auth.FromResource): owner finds the organisation of the resource id (the domain's
// store.ErrNotFound or errs NotFound when there is none), then the guard checks the caller's
// standing there under the operation's rule. A resource of a team the caller is not in is
// answered like one that does not exist: "<what> not found." It answers the actor to pass to
// the domain.
func inResource(ctx context.Context, what, id string, owner func(ctx context.Context, id string) (string, error)) (context.Context, auth.Actor, error) {
	notFound := errs.NotFoundf(what)
	orgID, err := owner(ctx, id)
	if errors.Is(err, store.ErrNotFound) || errs.Is(err, errs.NotFound) {
		return ctx, auth.Actor{}, notFound
	}
	if err != nil {
		return ctx, auth.Actor{}, err
	}
	g, _ := ctx.Value(guardKey{}).(*Guard)
	if g == nil {
		return ctx, auth.Actor{}, errors.New("httpapi: no guard in the request context")
	}
	ctx, err = g.Authorize(ctx, orgID)
	if p, ok := problem.As(err); ok && p.Status == http.StatusNotFound {
		return ctx, auth.Actor{}, notFound
	}
	if err != nil {
		return ctx, auth.Actor{}, err
	}
	return ctx, actor(ctx), nil
}

// orgIDOf reads the organisation id where the rule says it is.
func orgIDOf(c echo.Context, from auth.OrgFrom) (string, error) {
	switch from {
	case auth.FromQuery:
		return c.QueryParam("organizationId"), nil
	case auth.FromPathTeam:
		return c.Param("teamId"), nil
	case auth.FromPathID:
		return c.Param("id"), nil
	case auth.FromPathOrg:
		return c.Param("organizationId"), nil
	case auth.FromBody, auth.FromBodyID:
		raw, err := io.ReadAll(c.Request().Body)
		if err != nil {
			return "", err
		}
		c.Request().Body = io.NopCloser(bytes.NewReader(raw))
		var body struct {
			OrganizationID string `json:"organizationId"`
			ID             string `json:"id"`
		}
		_ = json.Unmarshal(raw, &body)
		if from == auth.FromBodyID {
			return body.ID, nil
		}
		return body.OrganizationID, nil
	}
	return "", fmt.Errorf("unknown organisation source %q", from)
}
