package httpapi

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"runtime"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/bettyhq/betty/server/calls"
	"github.com/bettyhq/betty/server/logging"
)

const headerRequestID = "X-Request-Id"

// requestID gives every request an id (the caller's X-Request-Id when it is sane), puts it in
// the request context for the logs and echoes it in the response.
func requestID() echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			id := c.Request().Header.Get(headerRequestID)
			if len(id) == 0 || len(id) > 64 {
				b := make([]byte, 12)
				_, _ = rand.Read(b)
				id = hex.EncodeToString(b)
			}
			c.Response().Header().Set(headerRequestID, id)
			c.SetRequest(c.Request().WithContext(logging.WithRequestID(c.Request().Context(), id)))
			return next(c)
		}
	}
}

// observe logs one line per request and records its metrics. It renders a handler's error
// itself, through the error handler, so the status it logs is the one sent.
func observe(log *slog.Logger, ops *Operations, m *Metrics) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			start := time.Now()
			if err := next(c); err != nil {
				c.Error(err)
			}
			d := time.Since(start)
			req, res := c.Request(), c.Response()
			opID := "other"
			if op := ops.Find(req.Method, c.Path()); op != nil {
				opID = op.ID
			}
			m.observe(opID, res.Status, d)
			level := slog.LevelInfo
			if res.Status >= 500 && res.Status != http.StatusNotImplemented {
				level = slog.LevelError // a 501 is a feature not built yet, not a failure
			}
			log.Log(req.Context(), level, "request",
				"method", req.Method, "path", req.URL.Path, "operation", opID,
				"status", res.Status, "bytes", res.Size, "duration_ms", float64(d.Microseconds())/1000,
				"remote", c.RealIP())
			return nil
		}
	}
}

// recoverPanics turns a panic into a 500 and logs its stack with the request id.
func recoverPanics(log *slog.Logger) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) (err error) {
			defer func() {
				if r := recover(); r != nil {
					if r == http.ErrAbortHandler {
						panic(r)
					}
					stack := make([]byte, 8<<10)
					stack = stack[:runtime.Stack(stack, false)]
					log.ErrorContext(c.Request().Context(), "panic", "panic", fmt.Sprint(r), "stack", string(stack))
					err = fmt.Errorf("panic: %v", r)
				}
			}()
			return next(c)
		}
	}
}

// limitBodies bounds request bodies in size and in time: limit bytes and timeout for every
// operation, uploadLimit and uploadTimeout for the upload chunks of the Uploads tag, which
// also end when no byte arrives for uploadIdle (idleBody). A larger declared Content-Length
// is refused at once; a body that grows past the limit fails when read, as a 413; a client
// that stops sending (or trickles) its body loses the connection when the read deadline
// passes, instead of holding it for ever.
func limitBodies(ops *Operations, limit, uploadLimit int64, timeout, uploadTimeout, uploadIdle time.Duration) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			req := c.Request()
			if req.Body == nil || req.Body == http.NoBody {
				return next(c)
			}
			max, wait, idle := limit, timeout, time.Duration(0)
			if op := ops.Find(req.Method, c.Path()); op != nil && op.Tag == "Uploads" {
				max, wait, idle = uploadLimit, uploadTimeout, uploadIdle
			} else if op != nil && op.ID == "importDoNotCall" {
				max = calls.ImportLimit // the contract's 2 MiB CSV
			}
			if req.ContentLength > max {
				return tooLarge(max)
			}
			// Not every ResponseWriter supports deadlines (httptest's recorder); those that do
			// are the real server's.
			rc, end := http.NewResponseController(c.Response()), time.Now().Add(wait)
			_ = rc.SetReadDeadline(end)
			req.Body = http.MaxBytesReader(c.Response(), req.Body, max)
			if idle > 0 {
				req.Body = &idleBody{ReadCloser: req.Body, rc: rc, idle: idle, end: end}
			}
			return next(c)
		}
	}
}
