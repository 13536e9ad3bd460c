package httpapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/httpapi"
	"github.com/bettyhq/betty/server/internal/apitest"
	"github.com/bettyhq/betty/server/store"
)

func TestHealthAndReadiness(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		for _, path := range []string{"/healthz", "/readyz"} {
			res := env.Get(path)
			if res.Status != http.StatusOK {
				t.Fatalf("%s: %d %s", path, res.Status, res.Body)
			}
			var body struct {
				Status int
				Data   struct {
					Ok       bool
					Version  string
					Database string
				}
			}
			res.JSON(t, &body)
			if !body.Data.Ok || body.Data.Version != "test" || body.Data.Database != string(env.DB.Dialect()) {
				t.Fatalf("%s: %+v", path, body)
			}
			if res.Header.Get("X-Request-Id") == "" {
				t.Fatalf("%s: no request id", path)
			}
		}
	})
}

func TestReadinessFailsWhenTheDatabaseIsGone(t *testing.T) {
	env := apitest.New(t, "sqlite")
	env.DB.Close()
	res := env.Get("/readyz")
	if res.Status != http.StatusServiceUnavailable || res.Problem(t).Code != "unavailable" {
		t.Fatalf("readyz with a closed database: %d %s", res.Status, res.Body)
	}
}

func TestMetricsCountRequestsByOperation(t *testing.T) {
	env := apitest.New(t, "sqlite")
	env.Get("/healthz")
	env.Get("/v1/nothing-here")
	res := env.Get("/metrics")
	if res.Status != http.StatusOK {
		t.Fatalf("metrics: %d", res.Status)
	}
	text := string(res.Body)
	for _, want := range []string{
		`betty_http_requests_total{operation="getHealth",status="200"} 1`,
		`betty_http_requests_total{operation="other",status="404"} 1`,
		`betty_http_request_duration_seconds_bucket{operation="getHealth"`,
		`go_sql_max_open_connections{db_name="betty",pool="writer"} 1`,
		`go_goroutines`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

func TestUnknownAPIPathIsAProblem(t *testing.T) {
	env := apitest.New(t, "sqlite")
	for _, r := range []apitest.Request{
		{Method: "GET", Path: "/v1/nothing-here"},
		{Method: "POST", Path: "/v1/nothing-here", Body: map[string]any{}},
		{Method: "DELETE", Path: "/v2/campaigns"},
	} {
		res := env.Do(r)
		p := res.Problem(t)
		if res.Status != http.StatusNotFound || p.Code != "not_found" || p.Status != 404 || p.RequestID == "" {
			t.Errorf("%s %s: %d %+v", r.Method, r.Path, res.Status, p)
		}
	}
	res := env.Do(apitest.Request{Method: "PUT", Path: "/healthz"})
	if res.Status != http.StatusMethodNotAllowed || res.Problem(t).Code != "method_not_allowed" {
		t.Errorf("PUT /healthz: %d %s", res.Status, res.Body)
	}
}

func TestTrailingSlashIsIgnored(t *testing.T) {
	env := apitest.New(t, "sqlite")
	if res := env.Get("/healthz/"); res.Status != http.StatusOK {
		t.Fatalf("/healthz/: %d", res.Status)
	}
}

func TestDashboardNotBuiltPage(t *testing.T) {
	env := apitest.New(t, "sqlite")
	res := env.Get("/dashboard/campaigns")
	if res.Status != http.StatusOK || !strings.Contains(string(res.Body), "Betty is running") {
		t.Fatalf("dashboard placeholder: %d %s", res.Status, res.Body)
	}
}

func TestServerInfoSaysWhereMailGoes(t *testing.T) {
	for _, tc := range []struct {
		opts     []apitest.Option
		delivery string
		confirm  bool
	}{{nil, "outbox", false}, {[]apitest.Option{apitest.WithMailDelivery()}, "smtp", true}} {
		env := apitest.New(t, store.SQLite, tc.opts...)
		var body struct {
			Data struct {
				Version, MailDelivery     string
				EmailConfirmationRequired bool
			}
		}
		res := env.Get("/v1/server/info")
		res.JSON(t, &body)
		if res.Status != http.StatusOK || body.Data.MailDelivery != tc.delivery || body.Data.EmailConfirmationRequired != tc.confirm || body.Data.Version != "test" {
			t.Fatalf("%d %s", res.Status, res.Body)
		}
	}
}

// The server info says which integrations an operator has configured, and what is left to set
// for the others, so the dashboard's Connect is unavailable (with the settings) instead of
// answering 501 or 503.
func TestServerInfoIntegrations(t *testing.T) {
	type setup struct {
		IntegrationID   string `json:"integrationId"`
		Configured      bool
		MissingSettings []string
	}
	info := func(env *apitest.Env) []setup {
		var body struct {
			Data struct{ Integrations []setup }
		}
		res := env.Get("/v1/server/info")
		res.JSON(t, &body)
		if res.Status != http.StatusOK {
			t.Fatalf("%d %s", res.Status, res.Body)
		}
		return body.Data.Integrations
	}
	got := info(apitest.New(t, store.SQLite))
	want := []setup{{"hubspot", false, []string{"--hubspot-client-id", "--hubspot-client-secret"}}, {"zapier", false, []string{"--zapier-client-id", "--zapier-client-secret"}}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("unconfigured: %+v", got)
	}
	got = info(apitest.New(t, store.SQLite, apitest.WithConfig(func(c *config.Config) {
		c.ZapierClientID, c.ZapierClientSecret = "id", "secret"
		c.HubSpotClientID = "id"
	})))
	want = []setup{{"hubspot", false, []string{"--hubspot-client-secret"}}, {"zapier", true, []string{}}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("configured: %+v", got)
	}
}

// Every answer carries the security headers: API answers (errors included), the dashboard and
// its fallback page.
func TestSecurityHeaders(t *testing.T) {
	env := apitest.New(t, store.SQLite)
	common := map[string]string{"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY"}
	for path, csp := range map[string]string{
		"/healthz":           "default-src 'none'; frame-ancestors 'none'",
		"/v1/auth/me":        "default-src 'none'; frame-ancestors 'none'", // a 401 problem
		"/v1/nothing-here":   "default-src 'none'; frame-ancestors 'none'",
		"/dashboard/members": httpapi.DashboardCSP,
		"/":                  httpapi.DashboardCSP,
	} {
		res := env.Get(path)
		for k, v := range common {
			if got := res.Header.Get(k); got != v {
				t.Errorf("%s: %s = %q, want %q", path, k, got, v)
			}
		}
		if got := res.Header.Get("Content-Security-Policy"); got != csp {
			t.Errorf("%s: CSP %q, want %q", path, got, csp)
		}
		if !strings.Contains(res.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
			t.Errorf("%s: framing allowed", path)
		}
	}
	if res := env.Get("/v1/auth/me"); res.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("API answers may be cached: %q", res.Header.Get("Cache-Control"))
	}
}
