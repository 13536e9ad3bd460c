// Package web serves the built dashboard (embedded in the binary) with SPA fallback: a path
// that is not a file gets index.html, so client-side routes survive a reload.
package web

import (
	"errors"
	"io/fs"
	"net/http"
	"path"
	"strings"

	"github.com/labstack/echo/v4"
)

const notBuilt = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Betty</title></head>
<body style="font-family:system-ui;margin:3rem"><h1>Betty is running</h1>
<p>The dashboard was not built into this binary. Run <code>make run</code> (or <code>make build</code>)
to build it; the API is available under <code>/v1</code>.</p></body></html>`

// Handler serves dist. Requests for which isAPI is true are never the dashboard's: they get
// echo.ErrNotFound (or 405 for other methods), rendered as a problem by the error handler.
func Handler(dist fs.FS, isAPI func(string) bool) echo.HandlerFunc {
	hasIndex := false
	if dist != nil {
		if _, err := fs.Stat(dist, "index.html"); err == nil {
			hasIndex = true
		}
	}
	var files http.Handler
	if hasIndex {
		files = http.FileServerFS(dist)
	}
	return func(c echo.Context) error {
		req := c.Request()
		if isAPI(req.URL.Path) {
			return echo.ErrNotFound
		}
		if req.Method != http.MethodGet && req.Method != http.MethodHead {
			return echo.ErrMethodNotAllowed
		}
		if !hasIndex {
			return c.HTML(http.StatusOK, notBuilt)
		}
		name := strings.TrimPrefix(path.Clean(req.URL.Path), "/")
		if name == "" {
			name = "index.html"
		}
		if st, err := fs.Stat(dist, name); err != nil || st.IsDir() {
			if errors.Is(err, fs.ErrNotExist) && path.Ext(name) != "" && strings.HasPrefix(name, "assets/") {
				return echo.ErrNotFound // a missing hashed asset is a real 404, not the app
			}
			name = "index.html"
		}
		h := c.Response().Header()
		if strings.HasPrefix(name, "assets/") {
			h.Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			h.Set("Cache-Control", "no-cache")
		}
		r := req.Clone(req.Context())
		r.URL.Path = "/" + name
		if name == "index.html" {
			r.URL.Path = "/" // FileServer redirects /index.html to /
		}
		files.ServeHTTP(c.Response(), r)
		return nil
	}
}
