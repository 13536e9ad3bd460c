package auth

import "context"

// Principal is who is calling: a signed-in user, or an API key acting for its team.
type Principal struct {
	UserID      string
	SessionID   string
	Email       string
	IsSiteAdmin bool

	APIKeyID    string
	APIKeyOrgID string
	APIKeyRole  Role
}

// IsAPIKey says whether the caller is an API key.
func (p Principal) IsAPIKey() bool { return p.APIKeyID != "" }

// Grant is the caller's standing in the organisation an operation acts on.
type Grant struct {
	OrganizationID string
	Role           Role
	// MemberID is the caller's membership (empty for API keys).
	MemberID string
	// Container is where the guard found the resource the operation acts on, for kinds whose
	// ids are unique only in their container (a node's workflow).
	Container string
}

type principalKey struct{}
type grantKey struct{}
type grantsKey struct{}
type ruleKey struct{}

// WithPrincipal returns ctx carrying the caller.
func WithPrincipal(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the caller, if the request was authenticated.
func PrincipalFrom(ctx context.Context) (Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(Principal)
	return p, ok
}

// WithGrant returns ctx carrying the caller's standing in the organisation acted on.
func WithGrant(ctx context.Context, g Grant) context.Context {
	return context.WithValue(ctx, grantKey{}, g)
}

// GrantFrom returns the caller's standing in the organisation acted on.
func GrantFrom(ctx context.Context) (Grant, bool) {
	g, ok := ctx.Value(grantKey{}).(Grant)
	return g, ok
}

// WithGrants returns ctx carrying the caller's standing in each organisation of the resources
// a list of ids names (Resource.List), once per organisation.
func WithGrants(ctx context.Context, gs []Grant) context.Context {
	return context.WithValue(ctx, grantsKey{}, gs)
}

// GrantsFrom returns the caller's standings WithGrants put in ctx.
func GrantsFrom(ctx context.Context) []Grant {
	gs, _ := ctx.Value(grantsKey{}).([]Grant)
	return gs
}

// WithRule returns ctx carrying the rule of the operation being served.
func WithRule(ctx context.Context, r Rule) context.Context {
	return context.WithValue(ctx, ruleKey{}, r)
}

// RuleFrom returns the rule of the operation being served.
func RuleFrom(ctx context.Context) (Rule, bool) {
	r, ok := ctx.Value(ruleKey{}).(Rule)
	return r, ok
}

// Actor is who acts on an organisation: the caller and their standing in it.
type Actor struct {
	Principal
	Grant
}
