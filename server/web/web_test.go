package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/labstack/echo/v4"
)

func TestSPAFallbackAndAssets(t *testing.T) {
	dist := fstest.MapFS{
		"index.html":      {Data: []byte("<html>app</html>")},
		"assets/app-1.js": {Data: []byte("console.log(1)")},
		"favicon.svg":     {Data: []byte("<svg/>")},
	}
	e := echo.New()
	e.Any("/*", Handler(dist, func(p string) bool { return strings.HasPrefix(p, "/v1/") }))
	cases := []struct {
		method, path string
		status       int
		body, cache  string
	}{
		{"GET", "/", 200, "app", "no-cache"},
		{"GET", "/dashboard/campaigns/42/workflow", 200, "app", "no-cache"},
		{"GET", "/assets/app-1.js", 200, "console.log(1)", "immutable"},
		{"GET", "/favicon.svg", 200, "<svg/>", "no-cache"},
		{"GET", "/assets/missing-2.js", 404, "", ""},
		{"GET", "/v1/anything", 404, "", ""},
		{"POST", "/dashboard", 405, "", ""},
	}
	for _, c := range cases {
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, httptest.NewRequest(c.method, c.path, nil))
		if rec.Code != c.status || !strings.Contains(rec.Body.String(), c.body) ||
			!strings.Contains(rec.Header().Get("Cache-Control"), c.cache) {
			t.Errorf("%s %s: %d %q cache %q", c.method, c.path, rec.Code, rec.Body.String(), rec.Header().Get("Cache-Control"))
		}
	}
}

func TestNotBuiltPage(t *testing.T) {
	e := echo.New()
	e.Any("/*", Handler(nil, func(string) bool { return false }))
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "make run") {
		t.Fatalf("%d %s", rec.Code, rec.Body.String())
	}
}
