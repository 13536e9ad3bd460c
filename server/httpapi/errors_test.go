package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/errs"
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
		// Domain errors: the kind gives the status, a precise code wins over the kind's.
		{errs.NotFoundf("Team"), 404, api.ProblemCodeNotFound},
		{fmt.Errorf("wrapped: %w", errs.ForbiddenErr("no")), 403, api.ProblemCodeForbidden},
		{errs.InvalidField("body.name", "name is required"), 400, api.ProblemCodeValidationFailed},
		{errs.WithCode(errs.Invalid, errs.CodeInvalidToken, "used"), 400, api.ProblemCodeInvalidToken},
		{errs.WithCode(errs.Unauthenticated, errs.CodeRefreshTokenReused, "replayed"), 401, api.ProblemCodeRefreshTokenReused},
		{errs.ConflictErr("taken"), 409, api.ProblemCodeConflict},
		{errs.UnprocessableErr("rule"), 422, api.ProblemCodeUnprocessable},
		{errs.New(errs.LimitReached, "full"), 422, api.ProblemCodeLimitReached},
		{errs.Retry(errs.TooManyRequests, "slow down", time.Second), 429, api.ProblemCodeRateLimited},
		{errs.Retry(errs.Unavailable, "busy", 1500*time.Millisecond), 503, api.ProblemCodeUnavailable},
		{fmt.Errorf("read body: %w", os.ErrDeadlineExceeded), 408, api.ProblemCodeRequestTimeout},
	}
	for _, c := range cases {
		rec, p, _ := serve(t, func(echo.Context) error { return c.err })
		if rec.Code != c.status || p.Status != c.status || p.Code != c.code || p.Type != "/problems/"+string(c.code) {
			t.Errorf("%v: %d %+v", c.err, rec.Code, p)
		}
		if (c.status == 429 || c.status == 503) && rec.Header().Get("Retry-After") == "" {
			t.Errorf("%v: no Retry-After", c.err)
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

// A domain error's fields and retry time reach the caller.
func TestDomainErrorDetails(t *testing.T) {
	rec, p, _ := serve(t, func(echo.Context) error {
		return errs.InvalidFields(errs.Field{Name: "body.password", Message: "password must have at least 8 characters"})
	})
	if rec.Code != 400 || p.Errors == nil || (*p.Errors)[0].Field != "body.password" || *p.Detail != "password must have at least 8 characters" {
		t.Fatalf("%d %+v", rec.Code, p)
	}
	rec, _, _ = serve(t, func(echo.Context) error { return errs.Retry(errs.Unavailable, "busy", 1500*time.Millisecond) })
	if rec.Header().Get("Retry-After") != "2" {
		t.Fatalf("Retry-After %q", rec.Header().Get("Retry-After"))
	}
}

// Every precise code the domain uses is one the contract declares.
func TestDomainCodesAreInTheContract(t *testing.T) {
	for _, c := range errs.Codes {
		if !api.ProblemCode(c).Valid() {
			t.Errorf("errs code %q is not in the contract's ProblemCode enum", c)
		}
	}
}
