package httpapi_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/httpapi"
	"github.com/bettyhq/betty/server/internal/apitest"
	"github.com/bettyhq/betty/server/store"
)

// Every operation of the contract has exactly one access rule, the rule agrees with the
// contract's security (public operations are public and nothing else is), and a team rule
// reads the organisation from a parameter or field the operation really has.
func TestPolicyCoversTheContract(t *testing.T) {
	ops, err := httpapi.LoadOperations()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, op := range ops.All() {
		seen[op.ID] = true
		rule, ok := auth.Policy[op.ID]
		if !ok {
			t.Errorf("%s has no entry in auth.Policy", op.ID)
			continue
		}
		if op.Public != (rule.Access == auth.Public) {
			t.Errorf("%s: the contract says public=%v, the policy %v", op.ID, op.Public, rule.Access)
		}
		if keys := acceptsAPIKeys(op); keys == (rule.Access == auth.User || rule.Access == auth.SiteAdmin || rule.UsersOnly) && !op.Public && rule.Access != auth.Refresh {
			t.Errorf("%s: the contract says API keys allowed=%v, the policy disagrees", op.ID, keys)
		}
		if rule.Access == auth.Team && !rule.MinRole.Valid() {
			t.Errorf("%s: team rule without a role", op.ID)
		}
		if rule.Access != auth.Team {
			continue
		}
		want := map[auth.OrgFrom]func() bool{
			auth.FromQuery:    func() bool { return hasParam(op, openapi3.ParameterInQuery, "organizationId", true) },
			auth.FromPathTeam: func() bool { return hasParam(op, openapi3.ParameterInPath, "teamId", true) },
			auth.FromPathID:   func() bool { return hasParam(op, openapi3.ParameterInPath, "id", true) },
			auth.FromPathOrg:  func() bool { return hasParam(op, openapi3.ParameterInPath, "organizationId", true) },
			auth.FromBody:     func() bool { return hasBodyField(op, "organizationId") },
			auth.FromBodyID:   func() bool { return hasBodyField(op, "id") },
			auth.FromMetadata: func() bool { return hasParam(op, openapi3.ParameterInHeader, "Upload-Metadata", true) },
			auth.FromResource: func() bool { return !rule.Resource.IsZero() },
			auth.FromKey:      func() bool { return true },
		}
		check, known := want[rule.Org]
		if !known || !check() {
			t.Errorf("%s: reads the organisation from %q, which the operation does not require", op.ID, rule.Org)
		}
	}
	for id := range auth.Policy {
		if !seen[id] {
			t.Errorf("auth.Policy has %s, which the contract does not", id)
		}
	}
}

func hasParam(op *httpapi.Operation, in, name string, required bool) bool {
	for _, p := range op.Route.Operation.Parameters {
		if p.Value.In == in && p.Value.Name == name && (p.Value.Required || !required) {
			return true
		}
	}
	return false
}

func hasBodyField(op *httpapi.Operation, name string) bool {
	rb := op.Route.Operation.RequestBody
	if rb == nil || rb.Value == nil {
		return false
	}
	mt := rb.Value.Content.Get("application/json")
	if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
		return false
	}
	s := mt.Schema.Value
	if _, ok := s.Properties[name]; !ok {
		return false
	}
	for _, r := range s.Required {
		if r == name {
			return true
		}
	}
	return false
}

// acceptsAPIKeys says whether the operation's security (its own, or the document's) lets an
// API key in.
func acceptsAPIKeys(op *httpapi.Operation) bool {
	sec := op.Route.Spec.Security
	if op.Route.Operation.Security != nil {
		sec = *op.Route.Operation.Security
	}
	for _, req := range sec {
		if _, ok := req["apiKeyAuth"]; ok {
			return true
		}
	}
	return false
}

// notTeamResources are the operations outside any team (a user's own, or anyone's) that take
// an id, and why that id needs no resource rule. TestPolicyNamesEveryResource fails for an
// operation taking an id that is neither here, nor in a team rule naming its team or its
// resource.
var notTeamResources = map[string]string{
	"getUser":                     "a user: answered only to someone who shares a team with them (identity)",
	"getAdminProfile":             "a user, as getUser",
	"acceptPendingTeamInvitation": "the caller's own invitation: the domain matches it to the caller's e-mail",
}

// Derived from the contract: an operation of a team that takes a resource id (a path, query or
// body id naming something other than the team) and does not name its team otherwise must say,
// in its rule, which resource the id names; a rule's resource must name a parameter or field
// the operation has; and a rule names a resource only where its organisation comes from it.
func TestPolicyNamesEveryResource(t *testing.T) {
	ops, err := httpapi.LoadOperations()
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range ops.All() {
		rule := auth.Policy[op.ID]
		ids := resourceIDs(op, rule)
		switch rule.Access {
		case auth.Public, auth.Refresh, auth.SiteAdmin:
			// Public ids are signed or public; a site administrator sees every team.
			continue
		case auth.User, auth.Any:
			if _, ok := notTeamResources[op.ID]; len(ids) > 0 && !ok {
				t.Errorf("%s takes %v outside any team: give it a team rule with its resource, or say in notTeamResources why not", op.ID, ids)
			}
			continue
		}
		switch {
		case rule.Org == auth.FromResource && rule.Resource.IsZero():
			t.Errorf("%s takes its team from a resource (%v) but its rule names none: add Resource: auth.In(kind, where its id is)", op.ID, ids)
		case rule.Org != auth.FromResource && !rule.Resource.IsZero():
			t.Errorf("%s names the resource %q but reads its team from %q: a resource rule is Org FromResource", op.ID, rule.Resource.Kind, rule.Org)
		}
		if rule.Resource.IsZero() {
			continue
		}
		for _, s := range rule.Resource.Sources() {
			if !hasSource(op, s) {
				t.Errorf("%s: its rule reads the %s id at %s, which the operation does not have", op.ID, rule.Resource.Kind, s)
			}
		}
		if rule.Resource.List && (rule.Resource.ID.In != auth.InQuery || !isArrayParam(op, rule.Resource.ID.Name)) {
			t.Errorf("%s: a list of %s ids is read from an array query parameter, not %s", op.ID, rule.Resource.Kind, rule.Resource.ID)
		}
		if (rule.Resource.ContainerKind == "") != rule.Resource.Container.IsZero() {
			t.Errorf("%s: a container needs both its kind and where its id is", op.ID)
		}
	}
	for id := range notTeamResources {
		if _, ok := auth.Policy[id]; !ok {
			t.Errorf("notTeamResources has %s, which the policy does not", id)
		}
	}
}

// Every resource kind a rule names is resolved by the registry server/app wires.
func TestPolicyResourcesResolve(t *testing.T) {
	env := apitest.New(t, store.SQLite)
	for id, rule := range auth.Policy {
		if rule.Resource.IsZero() {
			continue
		}
		if env.Resources[rule.Resource.Kind] == nil {
			t.Errorf("%s names the resource kind %q, which app's registry does not resolve", id, rule.Resource.Kind)
		}
	}
}

// resourceIDs lists the ids an operation takes that name something of a team other than the
// team itself, where the rule does not read the team from them.
func resourceIDs(op *httpapi.Operation, rule auth.Rule) []string {
	isID := func(name string) bool {
		return name == "id" || name == "ids" || strings.HasSuffix(name, "Id") || strings.HasSuffix(name, "Ids")
	}
	team := map[string]bool{"query.organizationId": true, "body.organizationId": true, "path.organizationId": true, "path.teamId": true}
	switch rule.Org {
	case auth.FromPathID:
		team["path.id"] = true
	case auth.FromBodyID:
		team["body.id"] = true
	}
	var out []string
	for _, p := range params(op) {
		if name := p.In + "." + p.Name; isID(p.Name) && !team[name] && (p.In == openapi3.ParameterInPath || p.In == openapi3.ParameterInQuery) {
			out = append(out, name)
		}
	}
	if s := bodySchema(op); s != nil {
		for name := range s.Properties {
			if isID(name) && !team["body."+name] {
				out = append(out, "body."+name)
			}
		}
	}
	sort.Strings(out)
	return out
}

// params are the operation's parameters with its path's.
func params(op *httpapi.Operation) []*openapi3.Parameter {
	var out []*openapi3.Parameter
	for _, list := range []openapi3.Parameters{op.Route.PathItem.Parameters, op.Route.Operation.Parameters} {
		for _, p := range list {
			out = append(out, p.Value)
		}
	}
	return out
}

func hasSource(op *httpapi.Operation, s auth.Source) bool {
	if s.In == auth.InBody {
		b := bodySchema(op)
		return b != nil && b.Properties[s.Name] != nil
	}
	for _, p := range params(op) {
		if p.In == string(s.In) && p.Name == s.Name {
			return true
		}
	}
	return false
}

func isArrayParam(op *httpapi.Operation, name string) bool {
	for _, p := range params(op) {
		if p.In == openapi3.ParameterInQuery && p.Name == name {
			return p.Schema != nil && p.Schema.Value != nil && p.Schema.Value.Type.Is(openapi3.TypeArray)
		}
	}
	return false
}

func bodySchema(op *httpapi.Operation) *openapi3.Schema {
	rb := op.Route.Operation.RequestBody
	if rb == nil || rb.Value == nil {
		return nil
	}
	mt := rb.Value.Content.Get("application/json")
	if mt == nil || mt.Schema == nil {
		return nil
	}
	return mt.Schema.Value
}
