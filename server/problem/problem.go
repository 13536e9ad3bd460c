// Package problem is the one error type that crosses the HTTP boundary: an RFC 9457 problem
// with a stable machine code. Domain and store errors are translated into it once, in the
// Echo error handler (server/http), and rendered as application/problem+json.
package problem

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/bettyhq/betty/server/api"
)

// Error is a problem the server means to show the caller. Its Detail is safe to show a user;
// Err, when set, is the internal cause and is only logged.
type Error struct {
	Status int
	Code   api.ProblemCode
	Detail string
	Fields []api.FieldError
	// RetryAfter, when positive, is sent as the Retry-After header (seconds).
	RetryAfter int
	// CurrentVersion, when positive, is sent as currentVersion (a stale workflow save).
	CurrentVersion int
	Err            error
}

func (e *Error) Error() string {
	msg := fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Detail)
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// New makes a problem with a status, a code and a detail.
func New(status int, code api.ProblemCode, detail string) *Error {
	return &Error{Status: status, Code: code, Detail: detail}
}

// Wrap makes a problem that keeps err as its (logged, never shown) cause.
func Wrap(err error, status int, code api.ProblemCode, detail string) *Error {
	return &Error{Status: status, Code: code, Detail: detail, Err: err}
}

// Validation is a 400 naming each offending field. The detail is the first field's message,
// so a client that shows only the detail still tells the user what to fix.
func Validation(fields ...api.FieldError) *Error {
	detail := "The request is not valid."
	if len(fields) > 0 {
		detail = fields[0].Message
	}
	return &Error{Status: http.StatusBadRequest, Code: api.ProblemCodeValidationFailed, Detail: detail, Fields: fields}
}

// Field is one field error.
func Field(field, message string) api.FieldError {
	return api.FieldError{Field: field, Message: message}
}

// NotFound is a 404 for a resource the caller cannot see (missing or another team's).
func NotFound(what string) *Error {
	return New(http.StatusNotFound, api.ProblemCodeNotFound, what+" not found.")
}

// Forbidden is a 403 for a role that may not do this.
func Forbidden(detail string) *Error {
	return New(http.StatusForbidden, api.ProblemCodeForbidden, detail)
}

// Unauthorized is a 401.
func Unauthorized(code api.ProblemCode, detail string) *Error {
	return New(http.StatusUnauthorized, code, detail)
}

// Conflict is a 409.
func Conflict(detail string) *Error {
	return New(http.StatusConflict, api.ProblemCodeConflict, detail)
}

// Unprocessable is a 422 for a well-formed request that breaks a business rule.
func Unprocessable(detail string) *Error {
	return New(http.StatusUnprocessableEntity, api.ProblemCodeUnprocessable, detail)
}

// NotImplemented is the 501 of an operation of the contract that is not built yet.
func NotImplemented(operation string) *Error {
	return New(http.StatusNotImplemented, api.ProblemCodeNotImplemented,
		fmt.Sprintf("%s is part of the API but not built yet.", operation))
}

// As finds a *Error in err's chain.
func As(err error) (*Error, bool) {
	var p *Error
	ok := errors.As(err, &p)
	return p, ok
}

// Titles are the short, fixed summaries of each status.
func Title(status int) string {
	if t := http.StatusText(status); t != "" {
		return t
	}
	return "Error"
}

// Body renders the problem document for a request path and id.
func (e *Error) Body(instance, requestID string) api.Problem {
	p := api.Problem{
		Type:   "/problems/" + string(e.Code),
		Title:  Title(e.Status),
		Status: e.Status,
		Code:   e.Code,
	}
	if e.Detail != "" {
		p.Detail = &e.Detail
	}
	if instance != "" {
		p.Instance = &instance
	}
	if requestID != "" {
		p.RequestId = &requestID
	}
	if len(e.Fields) > 0 {
		fields := e.Fields
		p.Errors = &fields
	}
	if e.CurrentVersion > 0 {
		v := e.CurrentVersion
		p.CurrentVersion = &v
	}
	return p
}
