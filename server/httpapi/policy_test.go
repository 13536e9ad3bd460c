package httpapi_test

import (
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/httpapi"
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
			auth.FromResource: func() bool { return true },
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
