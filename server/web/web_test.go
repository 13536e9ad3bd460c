package web

import (
	"net/http"
	"net/http/httptest"
	"strconv"
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

func TestCompressedCopies(t *testing.T) {
	dist := fstest.MapFS{
		"index.html":         {Data: []byte("<html>app</html>")},
		"index.html.gz":      {Data: []byte("GZ-INDEX")},
		"assets/app-1.js":    {Data: []byte("console.log(1)")},
		"assets/app-1.js.br": {Data: []byte("BR-APP")},
		"assets/app-1.js.gz": {Data: []byte("GZ-APP")},
		"assets/tiny-1.css":  {Data: []byte("a{}")},
	}
	e := echo.New()
	e.Any("/*", Handler(dist, func(string) bool { return false }))
	cases := []struct {
		path, accept          string
		body, encoding, ctype string
		vary                  bool
	}{
		{"/assets/app-1.js", "gzip, deflate, br, zstd", "BR-APP", "br", "text/javascript", true},
		{"/assets/app-1.js", "gzip", "GZ-APP", "gzip", "text/javascript", true},
		{"/assets/app-1.js", "br;q=0, gzip;q=0.8", "GZ-APP", "gzip", "text/javascript", true},
		{"/assets/app-1.js", "*", "BR-APP", "br", "text/javascript", true},
		{"/assets/app-1.js", "br;q=0, *", "GZ-APP", "gzip", "text/javascript", true},
		{"/assets/app-1.js", "identity", "console.log(1)", "", "text/javascript", true},
		{"/assets/app-1.js", "", "console.log(1)", "", "text/javascript", true},
		{"/assets/tiny-1.css", "br, gzip", "a{}", "", "text/css", false},
		{"/", "br, gzip", "GZ-INDEX", "gzip", "text/html", true},
		{"/dashboard/calls", "br, gzip", "GZ-INDEX", "gzip", "text/html", true},
	}
	for _, c := range cases {
		req := httptest.NewRequest(http.MethodGet, c.path, nil)
		req.Header.Set("Accept-Encoding", c.accept)
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		h := rec.Header()
		if rec.Code != 200 || rec.Body.String() != c.body || h.Get("Content-Encoding") != c.encoding ||
			!strings.HasPrefix(h.Get("Content-Type"), c.ctype) || (h.Get("Vary") == "Accept-Encoding") != c.vary ||
			h.Get("Content-Length") != strconv.Itoa(len(c.body)) {
			t.Errorf("%s (Accept-Encoding %q): %d %q encoding %q type %q vary %q length %q", c.path, c.accept, rec.Code,
				rec.Body.String(), h.Get("Content-Encoding"), h.Get("Content-Type"), h.Get("Vary"), h.Get("Content-Length"))
		}
	}

	// A revalidated copy answers 304 on its own ETag; the ETag differs per encoding.
	get := func(accept, ifNoneMatch string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.Header.Set("Accept-Encoding", accept)
		if ifNoneMatch != "" {
			req.Header.Set("If-None-Match", ifNoneMatch)
		}
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		return rec
	}
	gz, plain := get("gzip", "").Header().Get("ETag"), get("", "").Header().Get("ETag")
	if gz == "" || gz == plain {
		t.Fatalf("ETags gzip %q plain %q", gz, plain)
	}
	if rec := get("gzip", gz); rec.Code != http.StatusNotModified {
		t.Fatalf("revalidation answered %d", rec.Code)
	}
	if rec := get("", gz); rec.Code != 200 || rec.Body.String() != "<html>app</html>" {
		t.Fatalf("the gzip ETag matched the plain file: %d", rec.Code)
	}
}
