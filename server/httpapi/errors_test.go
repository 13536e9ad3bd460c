package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/problem"
	"github.com/bettyhq/betty/server/store"
)

// serve runs h behind the error handler and the panic recovery, returning the response and
// what was logged.
func serve(t *testing.T, h echo.HandlerFunc) (*httptest.ResponseRecorder, api.Problem, string) {
	t.Helper()
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	e := echo.New()
	e.HTTPErrorHandler = errorHandler(log)
	e.Use(recoverPanics(log))
	e.GET("/x", h)
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/x", nil))
	var p api.Problem
	if ct := rec.Header().Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("content type %q", ct)
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil {
		t.Fatal(err)
	}
	return rec, p, logs.String()
}

func TestErrorsBecomeProblems(t *testing.T) {
	cases := []struct {
		err    error
		status int
		code   api.ProblemCode
	}{
		{problem.NotFound("Campaign"), 404, api.ProblemCodeNotFound},
		{fmt.Errorf("load: %w", store.ErrNotFound), 404, api.ProblemCodeNotFound},
		{fmt.Errorf("insert: %w", store.ErrConflict), 409, api.ProblemCodeConflict},
		{store.ErrReference, 422, api.ProblemCodeUnprocessable},
		{&http.MaxBytesError{Limit: 10}, 413, api.ProblemCodePayloadTooLarge},
		{echo.ErrMethodNotAllowed, 405, api.ProblemCodeMethodNotAllowed},
		{&problem.Error{Status: 429, Code: api.ProblemCodeRateLimited, Detail: "slow", RetryAfter: 3}, 429, api.ProblemCodeRateLimited},
	}
	for _, c := range cases {
		rec, p, _ := serve(t, func(echo.Context) error { return c.err })
		if rec.Code != c.status || p.Status != c.status || p.Code != c.code || p.Type != "/problems/"+string(c.code) {
			t.Errorf("%v: %d %+v", c.err, rec.Code, p)
		}
		if c.status == 429 && rec.Header().Get("Retry-After") != "3" {
			t.Errorf("no Retry-After")
		}
	}
}

func TestInternalErrorsNeverLeak(t *testing.T) {
	secret := errors.New("dial tcp 10.0.0.5:5432: password authentication failed for user betty")
	rec, p, logs := serve(t, func(echo.Context) error { return secret })
	if rec.Code != 500 || p.Code != api.ProblemCodeInternal || strings.Contains(rec.Body.String(), "password") {
		t.Fatalf("leaked: %s", rec.Body.String())
	}
	if !strings.Contains(logs, "password authentication failed") {
		t.Fatalf("the cause was not logged: %s", logs)
	}
}

func TestPanicsAreRecovered(t *testing.T) {
	rec, p, logs := serve(t, func(echo.Context) error { panic("nil map") })
	if rec.Code != 500 || p.Code != api.ProblemCodeInternal || strings.Contains(rec.Body.String(), "nil map") {
		t.Fatalf("%d %s", rec.Code, rec.Body.String())
	}
	if !strings.Contains(logs, "nil map") || !strings.Contains(logs, "stack") {
		t.Fatalf("panic not logged: %s", logs)
	}
}
