package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net"
	"net/http"
	"os"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/logging"
	"github.com/bettyhq/betty/server/problem"
	"github.com/bettyhq/betty/server/store"
)

// errorHandler is the one place errors become responses: every error a handler or middleware
// returns is rendered here as application/problem+json. Internal causes are logged with the
// request id and never sent.
func errorHandler(log *slog.Logger) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		ctx := c.Request().Context()
		if c.Response().Committed {
			log.DebugContext(ctx, "error after the response was sent", "err", err)
			return
		}
		p := toProblem(err)
		switch {
		case p.Status >= 500 && p.Status != http.StatusNotImplemented:
			log.ErrorContext(ctx, "request failed", "status", p.Status, "err", err)
		case errors.Is(err, context.Canceled):
			log.InfoContext(ctx, "request cancelled by the client")
		}
		writeProblem(c, p)
	}
}

func writeProblem(c echo.Context, p *problem.Error) {
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, "application/problem+json")
	if p.RetryAfter > 0 {
		h.Set("Retry-After", strconv.Itoa(p.RetryAfter))
	}
	c.Response().WriteHeader(p.Status)
	if c.Request().Method == http.MethodHead {
		return
	}
	body := p.Body(c.Request().URL.Path, logging.RequestID(c.Request().Context()))
	_ = json.NewEncoder(c.Response()).Encode(body)
}

// toProblem translates any error into the problem the caller sees.
func toProblem(err error) *problem.Error {
	if p, ok := problem.As(err); ok {
		return p
	}
	if e, ok := errs.As(err); ok {
		return fromDomainError(e)
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		return fromEchoError(he)
	}
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return tooLarge(tooBig.Limit)
	case errors.Is(err, store.ErrNotFound):
		return problem.New(http.StatusNotFound, api.ProblemCodeNotFound, "Not found.")
	case errors.Is(err, store.ErrConflict):
		return problem.Wrap(err, http.StatusConflict, api.ProblemCodeConflict, "This conflicts with an existing item.")
	case errors.Is(err, store.ErrReference):
		return problem.Wrap(err, http.StatusUnprocessableEntity, api.ProblemCodeUnprocessable,
			"A referenced item does not exist or is still in use.")
	case isTimeout(err):
		return requestTimeout(err)
	case errors.Is(err, context.Canceled):
		return problem.Wrap(err, 499, api.ProblemCodeBadRequest, "The request was cancelled.")
	case errors.Is(err, context.DeadlineExceeded):
		return problem.Wrap(err, http.StatusServiceUnavailable, api.ProblemCodeUnavailable,
			"The server took too long to answer. Please try again.")
	}
	return problem.Wrap(err, http.StatusInternalServerError, api.ProblemCodeInternal,
		"Something went wrong on our side. If it keeps happening, contact support with the request id.")
}

// kindStatus and kindCode are how each kind of domain error is answered.
var kindStatus = map[errs.Kind]struct {
	status int
	code   api.ProblemCode
}{
	errs.Invalid:         {http.StatusBadRequest, api.ProblemCodeValidationFailed},
	errs.Unauthenticated: {http.StatusUnauthorized, api.ProblemCodeUnauthorized},
	errs.Forbidden:       {http.StatusForbidden, api.ProblemCodeForbidden},
	errs.NotFound:        {http.StatusNotFound, api.ProblemCodeNotFound},
	errs.Conflict:        {http.StatusConflict, api.ProblemCodeConflict},
	errs.Unprocessable:   {http.StatusUnprocessableEntity, api.ProblemCodeUnprocessable},
	errs.LimitReached:    {http.StatusUnprocessableEntity, api.ProblemCodeLimitReached},
	errs.TooManyRequests: {http.StatusTooManyRequests, api.ProblemCodeRateLimited},
	errs.Unavailable:     {http.StatusServiceUnavailable, api.ProblemCodeUnavailable},
	errs.TooLarge:        {http.StatusRequestEntityTooLarge, api.ProblemCodePayloadTooLarge},
	errs.PaymentRequired: {http.StatusPaymentRequired, api.ProblemCodePaymentRequired},
}

// fromDomainError renders a domain error: its kind gives the status and, unless it names a
// more precise one, the code.
func fromDomainError(e *errs.Error) *problem.Error {
	k, ok := kindStatus[e.Kind]
	if !ok {
		k = kindStatus[errs.Unprocessable]
	}
	p := &problem.Error{Status: k.status, Code: k.code, Detail: e.Message, Err: e.Err, CurrentVersion: e.CurrentVersion}
	if e.Code != "" {
		p.Code = api.ProblemCode(e.Code)
	}
	for _, f := range e.Fields {
		p.Fields = append(p.Fields, problem.Field(f.Name, f.Message))
	}
	if e.RetryAfter > 0 {
		p.RetryAfter = int(math.Ceil(e.RetryAfter.Seconds()))
	}
	return p
}

// isTimeout says whether err is a read deadline passing (a client that stopped sending).
func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

func requestTimeout(err error) *problem.Error {
	return problem.Wrap(err, http.StatusRequestTimeout, api.ProblemCodeRequestTimeout,
		"The request body did not arrive in time.")
}

func tooLarge(limit int64) *problem.Error {
	return problem.New(http.StatusRequestEntityTooLarge, api.ProblemCodePayloadTooLarge,
		fmt.Sprintf("The request body is larger than the %d bytes this endpoint accepts.", limit))
}

func fromEchoError(he *echo.HTTPError) *problem.Error {
	msg := fmt.Sprint(he.Message)
	switch he.Code {
	case http.StatusNotFound:
		return problem.New(http.StatusNotFound, api.ProblemCodeNotFound, "There is nothing at this address.")
	case http.StatusMethodNotAllowed:
		return problem.New(http.StatusMethodNotAllowed, api.ProblemCodeMethodNotAllowed, "This method is not allowed here.")
	case http.StatusRequestEntityTooLarge:
		return problem.New(http.StatusRequestEntityTooLarge, api.ProblemCodePayloadTooLarge, "The request body is too large.")
	case http.StatusUnsupportedMediaType:
		return problem.New(he.Code, api.ProblemCodeUnsupportedMediaType, "This content type is not supported here.")
	case http.StatusBadRequest:
		return problem.Wrap(he.Internal, http.StatusBadRequest, api.ProblemCodeBadRequest, msg)
	case http.StatusUnauthorized:
		return problem.New(http.StatusUnauthorized, api.ProblemCodeUnauthorized, "Auth headers are required")
	case http.StatusTooManyRequests:
		return problem.New(http.StatusTooManyRequests, api.ProblemCodeRateLimited, "You're making requests too fast! Please slow down.")
	}
	if he.Code >= 400 && he.Code < 500 {
		return problem.Wrap(he.Internal, he.Code, api.ProblemCodeBadRequest, msg)
	}
	return problem.Wrap(fmt.Errorf("%v: %w", he.Message, he.Internal), http.StatusInternalServerError, api.ProblemCodeInternal,
		"Something went wrong on our side. If it keeps happening, contact support with the request id.")
}
