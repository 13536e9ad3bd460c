// Package web serves the built dashboard (embedded in the binary) with SPA fallback: a path
// that is not a file gets index.html, so client-side routes survive a reload.
//
// Files are sent compressed when the build wrote a compressed copy beside them (`name.br`,
// `name.gz`, from dashboard/scripts/compress.mjs) and the browser accepts that encoding: brotli
// first, then gzip, else the file as it is. Nothing is compressed on a request. Hashed files
// under assets/ are cached for a year as immutable; everything else is revalidated (no-cache).
package web

import (
	"bytes"
	"errors"
	"hash/fnv"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
)

const notBuilt = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Betty</title></head>
<body style="font-family:system-ui;margin:3rem"><h1>Betty is running</h1>
<p>The dashboard was not built into this binary. Run <code>make run</code> (or <code>make build</code>)
to build it; the API is available under <code>/v1</code>.</p></body></html>`

// encodings are the compressed copies the server looks for, best first.
var encodings = []struct{ name, ext string }{{"br", ".br"}, {"gzip", ".gz"}}

// Handler serves dist. Requests for which isAPI is true are never the dashboard's: they get
// echo.ErrNotFound (or 405 for other methods), rendered as a problem by the error handler.
func Handler(dist fs.FS, isAPI func(string) bool) echo.HandlerFunc {
	hasIndex := false
	if dist != nil {
		if _, err := fs.Stat(dist, "index.html"); err == nil {
			hasIndex = true
		}
	}
	site := &site{dist: dist}
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
		return site.serve(c.Response(), req, name)
	}
}

// serve sends name, or its best compressed copy the request accepts, with its type, length and
// an ETag of the bytes sent (so a revalidated index.html answers 304).
func (s *site) serve(w http.ResponseWriter, req *http.Request, name string) error {
	h := w.Header()
	ctype := mime.TypeByExtension(path.Ext(name))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	file, encoding := name, ""
	hasVariant := false
	for _, e := range encodings {
		if _, err := fs.Stat(s.dist, name+e.ext); err != nil {
			continue
		}
		hasVariant = true
		if encoding == "" && accepts(req.Header.Get("Accept-Encoding"), e.name) {
			file, encoding = name+e.ext, e.name
		}
	}
	if hasVariant {
		h.Add("Vary", "Accept-Encoding")
	}
	f, err := s.load(file)
	if err != nil {
		return err
	}
	h.Set("Content-Type", ctype)
	h.Set("ETag", f.etag)
	if encoding == "" {
		http.ServeContent(w, req, "", time.Time{}, bytes.NewReader(f.body))
		return nil
	}
	// A compressed copy: http.ServeContent would drop its length (it cannot know it is final),
	// and ranges of a compressed body are of no use to a browser, so it is sent whole.
	h.Set("Content-Encoding", encoding)
	if etagMatches(req.Header.Get("If-None-Match"), f.etag) {
		h.Del("Content-Type")
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	h.Set("Content-Length", strconv.Itoa(len(f.body)))
	w.WriteHeader(http.StatusOK)
	if req.Method != http.MethodHead {
		_, _ = w.Write(f.body)
	}
	return nil
}

// etagMatches reports whether an If-None-Match header names etag (weakly compared) or is `*`.
func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}

type loaded struct {
	body []byte
	etag string
}

// site is the dashboard's files, each read once when first asked for (the dashboard is embedded
// and never changes while the binary runs).
type site struct {
	dist  fs.FS
	files sync.Map // name → loaded
}

func (s *site) load(name string) (loaded, error) {
	if f, ok := s.files.Load(name); ok {
		return f.(loaded), nil
	}
	body, err := fs.ReadFile(s.dist, name)
	if err != nil {
		return loaded{}, err
	}
	sum := fnv.New64a()
	sum.Write(body)
	f := loaded{body: body, etag: `"` + strconv.Itoa(len(body)) + "-" + strconv.FormatUint(sum.Sum64(), 36) + `"`}
	s.files.Store(name, f)
	return f, nil
}

// accepts reports whether an Accept-Encoding header allows coding: named (or `*`) with a
// q-value above zero.
func accepts(header, coding string) bool {
	star := false
	for _, part := range strings.Split(header, ",") {
		fields := strings.Split(part, ";")
		name := strings.ToLower(strings.TrimSpace(fields[0]))
		if name != coding && name != "*" {
			continue
		}
		q := 1.0
		for _, p := range fields[1:] {
			if v, ok := strings.CutPrefix(strings.TrimSpace(p), "q="); ok {
				if f, err := strconv.ParseFloat(v, 64); err == nil {
					q = f
				}
			}
		}
		if name == coding {
			return q > 0
		}
		star = q > 0
	}
	return star
}
