package httpapi

import (
	"bufio"
	"bytes"
	"errors"
	"net"
	"net/http"

	"github.com/labstack/echo/v4"
)

// captureResponses hands every response to an operation, as sent, to check. Installed by
// tests only (Deps.ResponseCheck), outside observe so it sees rendered errors too.
func captureResponses(ops *Operations, check func(op *Operation, req *http.Request, params map[string]string, status int, header http.Header, body []byte)) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			rec := &recorder{ResponseWriter: c.Response().Writer}
			c.Response().Writer = rec
			err := next(c)
			if op := ops.Find(c.Request().Method, c.Path()); op != nil {
				params := make(map[string]string, len(c.ParamNames()))
				for i, name := range c.ParamNames() {
					params[name] = c.ParamValues()[i]
				}
				check(op, c.Request(), params, c.Response().Status, c.Response().Header(), rec.body.Bytes())
			}
			return err
		}
	}
}

type recorder struct {
	http.ResponseWriter
	body bytes.Buffer
}

func (r *recorder) Write(b []byte) (int, error) {
	r.body.Write(b)
	return r.ResponseWriter.Write(b)
}

func (r *recorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (r *recorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if h, ok := r.ResponseWriter.(http.Hijacker); ok {
		return h.Hijack()
	}
	return nil, nil, errors.New("hijack not supported")
}

func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
