package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/httpapi"
	"github.com/bettyhq/betty/server/internal/apitest"
	"github.com/bettyhq/betty/server/internal/stripetest"
	"github.com/bettyhq/betty/server/speech/espeak/espeaktest"
	"github.com/bettyhq/betty/server/speech/openai/openaitest"
	"github.com/bettyhq/betty/server/store"
)

// TestFuzzEveryOperation walks every operation of openapi.yaml as the owner of a team with
// data (who is also a site admin, so every operation is reachable), and sends each a valid
// request and a battery of bad ones: every required field missing, every field of the wrong
// type, 100 kB strings, NUL and invalid UTF-8, negative, zero and huge page numbers, malformed
// JSON, data after the JSON, a wrong content type, and path parameters that are SQL,
// path traversal, unicode and long. It asserts that nothing answers 5xx (except the 501 of an
// operation not built yet), that every answer matches the contract (the harness validates each
// one, errors included, as problem+json), and that no request changes another team's rows. It
// reads the contract, so it covers each operation as soon as it exists.
func TestFuzzEveryOperation(t *testing.T) {
	// A speech-to-text endpoint, so that teaching audio is accepted (and its fuzz cases reach
	// the checks behind that one).
	stt := openaitest.Start(t)
	withSTT := apitest.WithConfig(func(c *config.Config) { c.STTURL, c.STTAPIKey = stt.URL, openaitest.Key })
	_, withZapier := newZapierEnv(t) // a fake Zapier, so the Zapier operations answer past "not configured"
	opts := []apitest.Option{withSTT, withZapier}
	// Payments through stripe-mock when it runs (always in CI); without it the payment
	// operations' honest 503 payments_not_configured is the right answer.
	stripe := os.Getenv(stripetest.EnvURL) != "" || os.Getenv("CI") != ""
	if stripe {
		opts = append(opts, withStripe(t))
	}
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		f := newFuzzer(t, env)
		f.noPayments = !stripe
		ops, err := httpapi.LoadOperations()
		if err != nil {
			t.Fatal(err)
		}
		for _, op := range ops.All() {
			f.operation(op)
		}
		t.Logf("fuzz: %d requests to %d operations, %d answered 501 (not built), no 5xx", f.requests, len(ops.All()), f.unbuilt)
		recordFuzz(t, f.requests, len(ops.All()))
	}, opts...)
}

type fuzzer struct {
	t        *testing.T
	env      *apitest.Env
	caller   apitest.Caller
	member   store.User
	other    string // team B: nobody fuzzes as its member
	otherIDs []string
	before   string
	requests int
	unbuilt  int
	noSpeech bool // espeak-ng is not installed here, and this is not CI
	// noPayments: stripe-mock does not run here, and this is not CI
	noPayments bool
}

func newFuzzer(t *testing.T, env *apitest.Env) *fuzzer {
	ctx := context.Background()
	caller := env.SignUp(t, "fuzz-owner@example.com")
	if _, err := env.DB.SetSiteAdmin(ctx, caller.Email, true); err != nil {
		t.Fatal(err)
	}
	member := store.User{Email: "fuzz-member@example.com"}
	if err := env.DB.CreateUser(ctx, &member); err != nil {
		t.Fatal(err)
	}
	// Team B, with data of its own, that no request may touch.
	ownerB := env.SignUp(t, "owner-b@example.com")
	orgB := env.Team(t, ownerB, "Team B")
	memberB := store.User{Email: "member-b@example.com"}
	if err := env.DB.CreateUser(ctx, &memberB); err != nil {
		t.Fatal(err)
	}
	addMember(t, env, orgB, memberB, "developer")
	if _, err := env.DB.Invite(ctx, orgB, "invited-b@example.com", "member", ownerB.UserID); err != nil {
		t.Fatal(err)
	}
	env.APIKey(t, orgB, "admin")
	f := &fuzzer{t: t, env: env, caller: caller, member: member, other: orgB, otherIDs: []string{ownerB.UserID, memberB.ID},
		noSpeech: !espeaktest.Installed() && os.Getenv("CI") == ""}
	f.before = env.TeamSnapshot(t, orgB, f.otherIDs...)
	return f
}

func addMember(t *testing.T, env *apitest.Env, org string, u store.User, role string) {
	t.Helper()
	ctx := context.Background()
	m, err := env.DB.Invite(ctx, org, u.Email, role, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := env.DB.ActivateMember(ctx, org, m.ID, u.ID); err != nil {
		t.Fatal(err)
	}
}

// fixture makes a fresh team A for one operation (so a delete or a transfer does not starve the
// next) and answers the values of a valid request.
func (f *fuzzer) fixture(op *httpapi.Operation) map[string]string {
	t, env := f.t, f.env
	org := env.Team(t, f.caller, "Team A "+op.ID)
	addMember(t, env, org, f.member, "member")
	if _, err := env.DB.Invite(context.Background(), org, "invited-a@example.com", "member", f.caller.UserID); err != nil {
		t.Fatal(err)
	}
	env.APIKey(t, org, "developer")
	values := map[string]string{"organizationId": org, "teamId": org, "userId": f.caller.UserID, "email": f.member.Email}
	rule := auth.Policy[op.ID]
	if rule.Org == auth.FromPathID || rule.Org == auth.FromBodyID {
		values["id"] = org
	}
	if fixture, ok := resourceFixtures[op.ID]; ok {
		for k, v := range fixture(t, env, f.caller, org) {
			values[k] = v
		}
	}
	return values
}

// operation sends one operation its valid request and every bad one.
func (f *fuzzer) operation(op *httpapi.Operation) {
	values := f.fixture(op)
	valid := apitest.SampleRequestWith(op, values)
	cases := []fuzzCase{{"valid", valid}}
	cases = append(cases, bodyCases(op, valid)...)
	cases = append(cases, paramCases(op, values)...)
	for _, c := range cases {
		c.req.Token = f.caller.Access
		res := f.env.Do(c.req)
		f.requests++
		f.check(op, c, res)
	}
	if after := f.env.TeamSnapshot(f.t, f.other, f.otherIDs...); after != f.before {
		f.t.Fatalf("%s changed another team's data:\nbefore:\n%s\nafter:\n%s", op.ID, f.before, after)
	}
}

func (f *fuzzer) check(op *httpapi.Operation, c fuzzCase, res *apitest.Response) {
	t := f.t
	built := httpapi.Built(op.ID)
	switch {
	case res.Status == http.StatusNotImplemented && !built:
		f.unbuilt++
	case res.Status == http.StatusNotImplemented && strings.Contains(string(res.Body), "--hubspot-client-id"):
		// No HubSpot app here (hubspot_test.go connects against the fake): the honest 501.
	case res.Status == http.StatusNotImplemented:
		t.Errorf("%s (%s): 501 from a built operation: %s", op.ID, c.name, res.Body)
	case res.Status == http.StatusServiceUnavailable && f.noSpeech && strings.Contains(string(res.Body), `"speech_unavailable"`):
		// A developer machine without espeak-ng: the honest 503 is the right answer there.
		// CI installs espeak-ng, so there this case never happens.
	case res.Status == http.StatusServiceUnavailable && f.noPayments && strings.Contains(string(res.Body), `"payments_not_configured"`):
	case res.Status == http.StatusServiceUnavailable && op.ID == "receiveHubspotWebhook" && strings.Contains(string(res.Body), "--hubspot-client-secret"):
	case res.Status == http.StatusServiceUnavailable && op.ID == "receiveTelnyxWebhook" && strings.Contains(string(res.Body), "--telnyx-public-key"):
		// No Telnyx account here (telnyx_test.go covers the verified webhook): nothing can
		// verify Telnyx's signatures, and the honest answer names the settings.
	case res.Status >= 500:
		t.Errorf("%s (%s): %d %s", op.ID, c.name, res.Status, res.Body)
	}
	if res.Status >= 400 && op.Method != http.MethodHead {
		if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/problem+json") {
			t.Errorf("%s (%s): %d answered as %q, not problem+json: %.200s", op.ID, c.name, res.Status, ct, res.Body)
		}
	}
}

type fuzzCase struct {
	name string
	req  apitest.Request
}

// Hostile values.
var (
	long     = strings.Repeat("x", 100<<10)
	sqlish   = "' OR 1=1; DROP TABLE users; --"
	unicodey = "名前😀\u202e\u0301"
)

// bodyCases are the bad bodies of an operation with a JSON body.
func bodyCases(op *httpapi.Operation, valid apitest.Request) []fuzzCase {
	body, ok := valid.Body.(map[string]any)
	if !ok {
		return nil
	}
	props, required := bodyProperties(op)
	var out []fuzzCase
	with := func(name string, b any, header http.Header) {
		r := valid
		r.Body = b
		r.Header = cloneHeader(valid.Header)
		for k, v := range header {
			r.Header[k] = v
		}
		out = append(out, fuzzCase{name, r})
	}
	for _, name := range required {
		b := cloneMap(body)
		delete(b, name)
		with("missing "+name, b, nil)
	}
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	sort.Strings(names)
	var firstString string
	for _, name := range names {
		s := props[name].Value
		b := cloneMap(body)
		b[name] = wrongType(s)
		with("wrong type of "+name, b, nil)
		if s.Type.Is("string") {
			if firstString == "" {
				firstString = name
			}
			for label, v := range map[string]string{"100 kB": long, "NUL": "a\x00b", "SQL": sqlish, "unicode": unicodey} {
				b := cloneMap(body)
				b[name] = v
				with(label+" in "+name, b, nil)
			}
		}
	}
	raw, _ := json.Marshal(body)
	with("malformed JSON", `{"`+strings.TrimPrefix(string(raw), "{"), nil)
	with("data after the JSON", string(raw)+`{"again":1}`, nil)
	with("a JSON array", "[1,2,3]", nil)
	with("a wrong content type", string(raw), http.Header{"Content-Type": {"text/plain"}})
	with("no body", nil, nil)
	if firstString != "" {
		b := cloneMap(body)
		b[firstString] = "\x00marker\x00"
		enc, _ := json.Marshal(b)
		with("invalid UTF-8 in "+firstString, strings.Replace(string(enc), `\u0000marker\u0000`, "\xff\xfe", 1), nil)
	}
	return out
}

// paramCases are the bad path, query and header parameters of an operation.
func paramCases(op *httpapi.Operation, values map[string]string) []fuzzCase {
	var out []fuzzCase
	params := append(openapi3.Parameters{}, op.Route.PathItem.Parameters...)
	params = append(params, op.Route.Operation.Parameters...)
	for _, ref := range params {
		p := ref.Value
		var bad map[string]string
		switch p.In {
		case openapi3.ParameterInPath:
			bad = map[string]string{"SQL": sqlish, "path traversal": "../../../etc/passwd", "unicode": unicodey,
				"4 kB": strings.Repeat("y", 4<<10), "NUL": "a\x00b", "encoded slash": "a/b"}
		case openapi3.ParameterInQuery:
			bad = map[string]string{"wrong type": fmt.Sprint(wrongType(p.Schema.Value)), "8 kB": strings.Repeat("q", 8<<10),
				"NUL": "a\x00b", "SQL": sqlish, "empty": ""}
			if s := p.Schema.Value; s.Type.Is("integer") || s.Type.Is("number") {
				for label, v := range map[string]string{"negative": "-1", "zero": "0", "huge": "9223372036854775808", "past int32": "2147483648"} {
					bad[label] = v
				}
			}
		case openapi3.ParameterInHeader:
			bad = map[string]string{"garbage": "not/a valid;value", "long": strings.Repeat("h", 4<<10)}
		default:
			continue
		}
		labels := make([]string, 0, len(bad))
		for l := range bad {
			labels = append(labels, l)
		}
		sort.Strings(labels)
		for _, label := range labels {
			v := bad[label]
			vals := cloneStrings(values)
			vals[p.Name] = v
			req := apitest.SampleRequestWith(op, vals)
			if p.In == openapi3.ParameterInQuery && !p.Required {
				// Optional parameters are not in the sample: add this one.
				req.Path = withQuery(req.Path, p.Name, v)
			}
			out = append(out, fuzzCase{label + " in " + p.In + " " + p.Name, req})
		}
	}
	return out
}

// bodyProperties are the top-level properties of an operation's JSON body and the required
// ones (allOf parts merged).
func bodyProperties(op *httpapi.Operation) (map[string]*openapi3.SchemaRef, []string) {
	props := map[string]*openapi3.SchemaRef{}
	var required []string
	rb := op.Route.Operation.RequestBody
	if rb == nil || rb.Value == nil {
		return props, nil
	}
	mt := rb.Value.Content.Get("application/json")
	if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
		return props, nil
	}
	var walk func(s *openapi3.Schema)
	walk = func(s *openapi3.Schema) {
		for name, p := range s.Properties {
			props[name] = p
		}
		required = append(required, s.Required...)
		for _, sub := range s.AllOf {
			if sub.Value != nil {
				walk(sub.Value)
			}
		}
	}
	walk(mt.Schema.Value)
	sort.Strings(required)
	return props, required
}

// wrongType is a value of another JSON type than the schema's.
func wrongType(s *openapi3.Schema) any {
	switch {
	case s == nil:
		return 12345
	case s.Type.Is("string"):
		return 12345
	case s.Type.Is("integer"), s.Type.Is("number"):
		return "not-a-number"
	case s.Type.Is("boolean"):
		return "maybe"
	case s.Type.Is("array"):
		return map[string]any{"not": "an array"}
	case s.Type.Is("object"):
		return "not an object"
	}
	return []any{true}
}

func withQuery(path, name, value string) string {
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	return path + sep + url.QueryEscape(name) + "=" + url.QueryEscape(value)
}

func cloneMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func cloneStrings(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func cloneHeader(h http.Header) http.Header {
	if h == nil {
		return http.Header{}
	}
	return h.Clone()
}

// recordFuzz leaves the count for `make test` to print beside the contract coverage.
func recordFuzz(t *testing.T, requests, ops int) {
	dir := os.Getenv(apitest.EnvCoverageDir)
	if dir == "" {
		return
	}
	_ = os.MkdirAll(dir, 0o755)
	name := filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "-")+".fuzz")
	_ = os.WriteFile(name, []byte(fmt.Sprintf("%s %d %d\n", t.Name(), requests, ops)), 0o644)
}
