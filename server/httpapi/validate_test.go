package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/httpapi"
	"github.com/bettyhq/betty/server/internal/apitest"
)

// Bad input gets a 400 problem naming each field, never a 500, whatever the operation.
func TestBadInputNamesTheField(t *testing.T) {
	env := apitest.New(t, "sqlite")
	owner := env.SignUp(t, "owner@example.com")
	org := env.Team(t, owner, "Acme")
	type field struct{ name, message string }
	cases := []struct {
		name   string
		req    apitest.Request
		code   string
		status int
		fields []field
	}{
		{"malformed JSON", apitest.Request{Method: "POST", Path: "/v1/campaigns/create", Body: `{"organizationId": "a",`},
			"malformed_json", 400, []field{{"body", "The request body is not valid JSON."}}},
		{"missing required field with the product's message", apitest.Request{Method: "POST", Path: "/v1/campaigns/create", Body: map[string]any{"name": "x"}},
			"validation_failed", 400, []field{{"body.organizationId", "Organization ID is required to create a campaign"}}},
		{"wrong type", apitest.Request{Method: "POST", Path: "/v1/team/api-keys", Body: map[string]any{"organizationId": "o", "name": 7}},
			"validation_failed", 400, []field{{"body.name", "name must be a string"}}},
		{"unknown enum value", apitest.Request{Method: "POST", Path: "/v1/team/api-keys", Body: map[string]any{"organizationId": "o", "name": "k", "role": "god"}},
			"validation_failed", 400, []field{{"body.role", "role must be one of: admin, developer, member, readonly"}}},
		{"unknown field", apitest.Request{Method: "POST", Path: "/v1/team/api-keys", Body: map[string]any{"organizationId": "o", "name": "k", "colour": "red"}},
			"validation_failed", 400, []field{{"body.colour", "colour is not a known field"}}},
		{"two missing fields", apitest.Request{Method: "POST", Path: "/v1/campaigns/knowledge-base/create", Body: map[string]any{}},
			"validation_failed", 400, []field{{"body.name", "Missing name or organizationId"}, {"body.organizationId", "Missing name or organizationId"}}},
		{"missing query parameter", apitest.Request{Method: "GET", Path: "/v1/campaigns/list"},
			"validation_failed", 400, []field{{"query.organizationId", "organizationId is required"}}},
		{"query parameter of the wrong type", apitest.Request{Method: "GET", Path: "/v1/campaigns/list?organizationId=o&page=first"},
			"validation_failed", 400, []field{{"query.page", ""}}},
		{"query parameter out of range", apitest.Request{Method: "GET", Path: "/v1/campaigns/list?organizationId=o&page=0"},
			"validation_failed", 400, []field{{"query.page", ""}}},
		{"unknown enum in query", apitest.Request{Method: "GET", Path: "/v1/campaigns/list?organizationId=o&status=sleeping"},
			"validation_failed", 400, []field{{"query.status", "status must be one of: active, paused, completed, draft, error, all"}}},
		{"missing body", apitest.Request{Method: "POST", Path: "/v1/team/api-keys"},
			"validation_failed", 400, []field{{"body", "body is required"}}},
		{"wrong content type", apitest.Request{Method: "POST", Path: "/v1/team/api-keys", Body: "name=k",
			Header: http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}},
			"unsupported_media_type", 415, nil},
		{"too short: the product's wording, not the validator's", apitest.Request{Method: "POST", Path: "/v1/auth/sign-up", Body: map[string]any{"email": "x@example.com", "password": "short"}},
			"validation_failed", 400, []field{{"body.password", "password must have at least 8 characters"}}},
		{"too long", apitest.Request{Method: "POST", Path: "/v1/team/api-keys", Body: map[string]any{"organizationId": "o", "name": strings.Repeat("k", 101)}},
			"validation_failed", 400, []field{{"body.name", "name must have at most 100 characters"}}},
		{"too big a number", apitest.Request{Method: "GET", Path: "/v1/team/members/list?organizationId=o&sizePerPage=1000"},
			"validation_failed", 400, []field{{"query.sizePerPage", ""}}},
		{"oversized body", apitest.Request{Method: "POST", Path: "/v1/team/api-keys", Body: `{"name":"` + strings.Repeat("x", 2<<20) + `"}`},
			"payload_too_large", 413, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.req.Token = owner.Access
			c.req.Path = strings.ReplaceAll(c.req.Path, "organizationId=o", "organizationId="+org)
			if m, ok := c.req.Body.(map[string]any); ok && m["organizationId"] == "o" {
				m["organizationId"] = org
			}
			res := env.Do(c.req)
			p := res.Problem(t)
			if res.Status != c.status || p.Code != c.code {
				t.Fatalf("%d %s", res.Status, res.Body)
			}
			if len(p.Errors) != len(c.fields) {
				t.Fatalf("fields %+v, want %+v", p.Errors, c.fields)
			}
			for i, f := range c.fields {
				if p.Errors[i].Field != f.name || (f.message != "" && p.Errors[i].Message != f.message) {
					t.Errorf("field %d: %+v, want %+v", i, p.Errors[i], f)
				}
			}
			if len(c.fields) > 0 && p.Detail != p.Errors[0].Message {
				t.Errorf("detail %q should be the first field's message", p.Detail)
			}
			if strings.Contains(string(res.Body), "Schema:") {
				t.Errorf("the problem leaks the schema: %s", res.Body)
			}
		})
	}
}

// The product's messages for missing fields refer to operations and fields of the contract.
func TestMissingMessagesReferToTheContract(t *testing.T) {
	ops, err := httpapi.LoadOperations()
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, op := range ops.All() {
		known[op.ID] = true
	}
	for key := range httpapi.MissingMessages() {
		if !known[strings.Fields(key)[0]] {
			t.Errorf("%q names no operation", key)
		}
	}
}

// The product's e-mail rule (spec section 5): a local part of letters, digits and ._%+-, a
// domain, a TLD of two or more letters, case-insensitive.
func TestEmailPattern(t *testing.T) {
	env := apitest.New(t, "sqlite")
	for email, ok := range map[string]bool{
		"Ada.Lovelace+calls@Example.COM": true,
		"ops_team%1@mail.example.co":     true,
		"ada@example":                    false,
		"ada@example.c":                  false,
		"ada lovelace@example.com":       false,
		"ada@example.c0m":                false,
	} {
		res := env.Do(apitest.Request{Method: http.MethodPost, Path: "/v1/auth/sign-up",
			Body: map[string]any{"email": email, "password": "correct horse battery"}})
		if ok && res.Status != http.StatusCreated {
			t.Errorf("%q refused: %d %s", email, res.Status, res.Body)
		}
		if !ok {
			p := res.Problem(t)
			if res.Status != http.StatusBadRequest || len(p.Errors) != 1 || p.Errors[0].Field != "body.email" {
				t.Errorf("%q accepted or badly refused: %d %s", email, res.Status, res.Body)
			}
		}
	}
}

// A path id that is not an id Betty could have made answers 400 naming the parameter and the
// value, on every operation that takes one, instead of a 404 that reads as a missing record.
func TestMalformedPathID(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		ada := env.SignUp(t, "ada@example.com")
		for _, c := range []struct{ method, path, want string }{
			{"GET", "/v1/campaigns/abc", `id: "abc" is not a valid id`},
			{"GET", "/v2/campaigns/workflow/list/abc", `campaignId: "abc" is not a valid id`},
			{"GET", "/v1/workflow/abc", `id: "abc" is not a valid id`},
			{"GET", "/v1/call/log/abc?organizationId=0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10", `id: "abc" is not a valid id`},
			{"GET", "/v1/agent/list/abc", `teamId: "abc" is not a valid id`},
		} {
			res := env.Do(apitest.Request{Method: c.method, Path: c.path, Token: ada.Access})
			var p struct {
				Detail string
				Errors []struct{ Field, Message string }
			}
			res.JSON(t, &p)
			if res.Status != http.StatusBadRequest || p.Detail != c.want || len(p.Errors) != 1 || !strings.HasPrefix(p.Errors[0].Field, "path.") {
				t.Errorf("%s %s: %d %s", c.method, c.path, res.Status, res.Body)
			}
		}
		// A well-formed id of nothing is still 404.
		if res := env.Do(apitest.Request{Method: "GET", Path: "/v1/campaigns/0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10", Token: ada.Access}); res.Status != http.StatusNotFound {
			t.Errorf("a well-formed unknown id: %d %s", res.Status, res.Body)
		}
	})
}
