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
	"time"

	"github.com/labstack/echo/v4"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/problem"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/uploads"
)

// Guard applies auth.Policy before any handler runs: it authenticates the caller, then finds
// the organisation the operation acts on — named by the request, or owning the resource the
// rule names, found through the resources registry — and checks the caller's standing there.
// Handlers receive the grant in the context (actor) and decide nothing about access.
type Guard struct {
	store     auth.Store
	resources auth.Registry
	issuer    *auth.Issuer
	ops       *Operations
	uses      *auth.KeyUses
}

// newGuard builds the guard, refusing a policy whose rules name a resource kind the registry
// does not resolve (the server would answer those operations 500).
func newGuard(s auth.Store, resources auth.Registry, issuer *auth.Issuer, ops *Operations, uses *auth.KeyUses) (*Guard, error) {
	for id, rule := range auth.Policy {
		if !rule.Resource.IsZero() && resources[rule.Resource.Kind] == nil {
			return nil, fmt.Errorf("httpapi: the rule of %s names the resource kind %q, which the registry does not resolve", id, rule.Resource.Kind)
		}
	}
	return &Guard{store: s, resources: resources, issuer: issuer, ops: ops, uses: uses}, nil
}

var (
	errNoAuth    = problem.Unauthorized(api.ProblemCodeUnauthorized, "Auth headers are required")
	errUsersOnly = problem.Forbidden("This operation needs a signed-in user; API keys cannot use it.")
)

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
			ctx := auth.WithRule(c.Request().Context(), rule)
			if rule.Access != auth.Public && rule.Access != auth.Refresh {
				p, err := g.principal(ctx, c.Request())
				if err != nil {
					return err
				}
				switch {
				case (rule.Access == auth.User || rule.Access == auth.SiteAdmin || rule.UsersOnly) && p.IsAPIKey():
					return errUsersOnly
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
		k, err := g.store.APIKeyByHash(ctx, auth.HashToken(cred))
		if errors.Is(err, store.ErrNotFound) {
			return auth.Principal{}, problem.Unauthorized(api.ProblemCodeInvalidToken, "This API key is not valid; it may have been deleted.")
		}
		if err != nil {
			return auth.Principal{}, err
		}
		g.uses.Record(k.ID, time.Now()) // written later, off the request path (auth.KeyUses)
		return auth.Principal{APIKeyID: k.ID, APIKeyOrgID: k.OrganizationID, APIKeyRole: auth.Role(k.Role)}, nil
	}
	claims, err := g.issuer.Parse(cred)
	switch {
	case errors.Is(err, auth.ErrTokenExpired):
		return auth.Principal{}, problem.Unauthorized(api.ProblemCodeTokenExpired, "The access token has expired; renew it at POST /v1/auth/refresh.")
	case err != nil:
		return auth.Principal{}, problem.Unauthorized(api.ProblemCodeInvalidToken, "The access token is not valid.")
	}
	s, err := g.store.SessionByID(ctx, claims.SessionID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return auth.Principal{}, err
	}
	if err != nil || s.UserID != claims.UserID || s.RevokedAt != nil {
		return auth.Principal{}, problem.Unauthorized(api.ProblemCodeInvalidToken, "This session has ended; sign in again.")
	}
	u, err := g.store.UserByID(ctx, claims.UserID)
	if errors.Is(err, store.ErrNotFound) {
		return auth.Principal{}, problem.Unauthorized(api.ProblemCodeInvalidToken, "This session has ended; sign in again.")
	}
	if err != nil {
		return auth.Principal{}, err
	}
	return auth.Principal{UserID: u.ID, SessionID: s.ID, Email: u.Email, IsSiteAdmin: u.IsSiteAdmin}, nil
}

// authorize runs after request validation, so the ids it reads are well formed.
func (g *Guard) authorize() echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			ctx := c.Request().Context()
			rule, ok := auth.RuleFrom(ctx)
			if !ok || rule.Access != auth.Team {
				return next(c)
			}
			p, ok := auth.PrincipalFrom(ctx)
			if !ok {
				return errNoAuth
			}
			var err error
			if rule.Org == auth.FromResource {
				ctx, err = g.grantResource(ctx, c, rule, p)
			} else {
				ctx, err = g.grantTeam(ctx, c, rule, p)
			}
			if err != nil {
				return err
			}
			c.SetRequest(c.Request().WithContext(ctx))
			return next(c)
		}
	}
}

// grantTeam grants the caller the organisation the request names. Another team's organisation is
// a 404: whether it exists is not the caller's business.
func (g *Guard) grantTeam(ctx context.Context, c echo.Context, rule auth.Rule, p auth.Principal) (context.Context, error) {
	var orgID string
	if rule.Org == auth.FromKey {
		if !p.IsAPIKey() {
			return ctx, problem.Forbidden("This operation is for API keys: send your team's key as Authorization: Bearer betty_sk_….")
		}
		orgID = p.APIKeyOrgID
	} else {
		var err error
		if orgID, err = orgIDOf(c, rule.Org); err != nil {
			return ctx, err
		}
	}
	grant, member, err := g.standing(ctx, p, orgID)
	switch {
	case err != nil:
		return ctx, err
	case !member:
		return ctx, problem.NotFound("Team")
	}
	if err := allowed(rule, grant); err != nil {
		return ctx, err
	}
	return auth.WithGrant(ctx, grant), nil
}

// grantResource grants the caller the organisation owning the resource the rule names, found
// through the registry. A resource of a team the caller is not in is answered like one that
// does not exist ("Workflow not found."), and so is one whose organisation is not the
// organizationId the request also sends. For a list of ids the caller is granted each team
// they stand in among the owners (the others' ids are left out); for a kind whose ids are
// unique only in a container, an id several of the caller's containers use is refused,
// naming where the container's id goes.
func (g *Guard) grantResource(ctx context.Context, c echo.Context, rule auth.Rule, p auth.Principal) (context.Context, error) {
	r := rule.Resource
	notFound := errs.NotFoundf(r.What())
	raw, err := value(c, r.ID)
	if err != nil {
		return ctx, err
	}
	ids := []string{raw}
	if r.List {
		if ids = splitList(raw); len(ids) == 0 {
			return ctx, nil // nothing to grant; the handler refuses an empty list
		}
	}
	var scope auth.Scope
	if !r.Container.IsZero() {
		if scope.Container, err = value(c, r.Container); err != nil {
			return ctx, err
		}
		if scope.Teams, err = g.teams(ctx, p); err != nil {
			return ctx, err
		}
	}
	owned, err := g.resources[r.Kind](ctx, ids, scope)
	if err != nil {
		return ctx, err
	}
	mine, err := g.theirs(ctx, p, owned)
	if err != nil {
		return ctx, err
	}
	if len(mine) == 0 {
		return ctx, notFound
	}
	if r.List {
		var grants []auth.Grant
		granted := map[string]bool{}
		for _, f := range mine {
			if granted[f.grant.OrganizationID] {
				continue
			}
			if err := allowed(rule, f.grant); err != nil {
				return ctx, err
			}
			granted[f.grant.OrganizationID] = true
			grants = append(grants, f.grant)
		}
		return auth.WithGrants(ctx, grants), nil
	}
	if len(mine) > 1 {
		if r.Container.IsZero() {
			return ctx, fmt.Errorf("httpapi: %d resources of kind %q have the id %q", len(mine), r.Kind, raw)
		}
		return ctx, errs.InvalidField(r.Container.String(), fmt.Sprintf("Several of your %ss have a %s with this id: name the %s in %s.",
			r.ContainerKind, r.Kind, r.ContainerKind, r.Container.Name))
	}
	grant := mine[0].grant
	claimed, err := g.claimedOrg(c)
	switch {
	case err != nil:
		return ctx, err
	case claimed != "" && claimed != grant.OrganizationID:
		return ctx, notFound
	}
	if err := allowed(rule, grant); err != nil {
		return ctx, err
	}
	grant.Container = mine[0].Container
	return auth.WithGrant(ctx, grant), nil
}

// held is a resource the caller stands in the team of, with their grant there.
type held struct {
	auth.Owned
	grant auth.Grant
}

// theirs keeps the resources of teams the caller stands in, asking once per team.
func (g *Guard) theirs(ctx context.Context, p auth.Principal, owned []auth.Owned) ([]held, error) {
	var out []held
	standings := map[string]*auth.Grant{}
	for _, o := range owned {
		grant, seen := standings[o.OrganizationID]
		if !seen {
			gr, member, err := g.standing(ctx, p, o.OrganizationID)
			if err != nil {
				return nil, err
			}
			if member {
				grant = &gr
			}
			standings[o.OrganizationID] = grant
		}
		if grant != nil {
			out = append(out, held{o, *grant})
		}
	}
	return out, nil
}

// standing answers the caller's grant in organisation orgID, and whether they stand there at
// all: an API key in its own team, a user in a team they are an active member of.
func (g *Guard) standing(ctx context.Context, p auth.Principal, orgID string) (auth.Grant, bool, error) {
	if p.IsAPIKey() {
		return auth.Grant{OrganizationID: orgID, Role: p.APIKeyRole}, p.APIKeyOrgID == orgID, nil
	}
	m, err := g.store.MemberOf(ctx, orgID, p.UserID)
	if errors.Is(err, store.ErrNotFound) {
		return auth.Grant{}, false, nil
	}
	if err != nil {
		return auth.Grant{}, false, err
	}
	return auth.Grant{OrganizationID: orgID, Role: auth.Role(m.Role), MemberID: m.ID}, true, nil
}

// teams are the organisations the caller stands in.
func (g *Guard) teams(ctx context.Context, p auth.Principal) ([]string, error) {
	if p.IsAPIKey() {
		return []string{p.APIKeyOrgID}, nil
	}
	return g.store.ActiveOrganizationIDs(ctx, p.UserID)
}

// allowed checks a grant against the operation's rule.
func allowed(rule auth.Rule, g auth.Grant) error {
	if !g.Role.AtLeast(rule.MinRole) {
		return problem.Forbidden(fmt.Sprintf("Your role in this team (%s) does not allow this; it needs %s or higher.", g.Role, rule.MinRole))
	}
	return nil
}

// claimedOrg is the organizationId an operation acting on a resource also lets the request
// send (a query parameter or a body field), "" when it is not sent.
func (g *Guard) claimedOrg(c echo.Context) (string, error) {
	op := g.ops.Find(c.Request().Method, c.Path())
	if op == nil {
		return "", nil
	}
	if op.Route.Operation.Parameters.GetByInAndName("query", "organizationId") != nil {
		return c.QueryParam("organizationId"), nil
	}
	if rb := op.Route.Operation.RequestBody; rb != nil && rb.Value != nil {
		if mt := rb.Value.Content.Get("application/json"); mt != nil && mt.Schema != nil && mt.Schema.Value != nil &&
			mt.Schema.Value.Properties["organizationId"] != nil {
			return value(c, auth.Body("organizationId"))
		}
	}
	return "", nil
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
	case auth.FromBody:
		return value(c, auth.Body("organizationId"))
	case auth.FromBodyID:
		return value(c, auth.Body("id"))
	case auth.FromMetadata:
		m, err := uploads.ParseMetadata(c.Request().Header.Get("Upload-Metadata"))
		return m.OrganizationID, err
	}
	return "", fmt.Errorf("unknown organisation source %q", from)
}

// value reads one value of the request: a path or query parameter, or a string field of the
// JSON body (which stays readable for the handler).
func value(c echo.Context, s auth.Source) (string, error) {
	switch s.In {
	case auth.InPath:
		return c.Param(s.Name), nil
	case auth.InQuery:
		return c.QueryParam(s.Name), nil
	case auth.InBody:
		fields, err := bodyFields(c)
		if err != nil {
			return "", err
		}
		var v string
		_ = json.Unmarshal(fields[s.Name], &v) // validated already: a string, or absent
		return v, nil
	}
	return "", fmt.Errorf("unknown request location %q", s.In)
}

const bodyFieldsKey = "guard.bodyFields"

// bodyFields reads the JSON body's top-level fields once per request, and puts the body back.
func bodyFields(c echo.Context) (map[string]json.RawMessage, error) {
	if fields, ok := c.Get(bodyFieldsKey).(map[string]json.RawMessage); ok {
		return fields, nil
	}
	raw, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return nil, err
	}
	c.Request().Body = io.NopCloser(bytes.NewReader(raw))
	fields := map[string]json.RawMessage{}
	_ = json.Unmarshal(raw, &fields)
	c.Set(bodyFieldsKey, fields)
	return fields, nil
}

// splitList reads a list of ids as the contract sends it (form style, not exploded: a,b,c),
// without empty ones.
func splitList(v string) []string {
	var out []string
	for _, id := range strings.Split(v, ",") {
		if id = strings.TrimSpace(id); id != "" {
			out = append(out, id)
		}
	}
	return out
}
