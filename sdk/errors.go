package betty

import (
	"context"
	"encoding/json"
	"errors"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bettyhq/betty/sdk/client"
)

// Sentinels to test an error with errors.Is. They match an *APIError by its status (or, for
// ErrTokenExpired, its code), so callers need not compare numbers or strings.
var (
	ErrUnauthorized   = errors.New("betty: unauthorized")         // 401, whatever the code
	ErrTokenExpired   = errors.New("betty: access token expired") // code token_expired
	ErrForbidden      = errors.New("betty: forbidden")            // 403
	ErrNotFound       = errors.New("betty: not found")            // 404
	ErrConflict       = errors.New("betty: conflict")             // 409
	ErrValidation     = errors.New("betty: invalid request")      // 400 or 422
	ErrRateLimited    = errors.New("betty: rate limited")         // 429
	ErrNotImplemented = errors.New("betty: not implemented")      // 501
	ErrServer         = errors.New("betty: server error")         // any 5xx

	// ErrUnreachable matches an *UnreachableError: the call got no answer at all.
	ErrUnreachable = errors.New("betty: server unreachable")
)

// UnreachableError is a call that got no answer from the server: the connection was refused,
// the host name did not resolve, or no answer came in time. Err is the transport's error.
type UnreachableError struct {
	Server string // the client's base URL
	Err    error
}

func (e *UnreachableError) Error() string {
	return "betty: cannot reach " + e.Server + ": " + e.Err.Error()
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrUnreachable) true.
func (e *UnreachableError) Is(target error) bool { return target == ErrUnreachable }

// unreachable reports whether a transport error means no answer came: a failed dial or name
// lookup, or a timeout. A cancelled context is the caller's doing, not the server's; an
// error after the request went out (a reset connection) may have had an effect.
func unreachable(err error) bool {
	if errors.Is(err, context.Canceled) {
		return false
	}
	var dns *net.DNSError
	var op *net.OpError
	var ne net.Error
	return errors.As(err, &dns) || errors.As(err, &op) && op.Op == "dial" || errors.As(err, &ne) && ne.Timeout()
}

// FieldError names one invalid field of a rejected request.
type FieldError struct {
	Field   string // dotted path such as "body.name" or "query.page"
	Message string
}

// APIError is a non-2xx answer. Problem documents fill every field; other bodies give the
// status and their text as Detail.
type APIError struct {
	StatusCode int
	Code       string // stable machine code such as "validation_failed"; empty without a problem document
	Title      string
	Detail     string // safe to show a user
	RequestID  string // quote it to find the server's log lines
	Fields     []FieldError
	RetryAfter time.Duration // from the Retry-After header, when present
	// CurrentVersion, on the 409 of a stale workflow save, is the version stored now.
	CurrentVersion int
}

// Error reads "<detail> (<code>, HTTP <status>, request <id>)", leaving out what is unknown.
func (e *APIError) Error() string {
	msg := e.Detail
	if msg == "" {
		msg = e.Title
	}
	if msg == "" {
		msg = http.StatusText(e.StatusCode)
	}
	var parts []string
	if e.Code != "" {
		parts = append(parts, e.Code)
	}
	parts = append(parts, "HTTP "+strconv.Itoa(e.StatusCode))
	if e.RequestID != "" {
		parts = append(parts, "request "+e.RequestID)
	}
	return msg + " (" + strings.Join(parts, ", ") + ")"
}

// Is reports whether e is of the kind the sentinel target names.
func (e *APIError) Is(target error) bool {
	s := e.StatusCode
	switch target {
	case ErrUnauthorized:
		return s == http.StatusUnauthorized
	case ErrTokenExpired:
		return e.Code == string(client.ProblemCodeTokenExpired)
	case ErrForbidden:
		return s == http.StatusForbidden
	case ErrNotFound:
		return s == http.StatusNotFound
	case ErrConflict:
		return s == http.StatusConflict
	case ErrValidation:
		return s == http.StatusBadRequest || s == http.StatusUnprocessableEntity
	case ErrRateLimited:
		return s == http.StatusTooManyRequests
	case ErrNotImplemented:
		return s == http.StatusNotImplemented
	case ErrServer:
		return s >= 500 && s <= 599
	}
	return false
}

// maxDetail bounds the text kept from a body that is not a problem document (an HTML error
// page from a proxy, say).
const maxDetail = 512

// newAPIError builds the error for a non-2xx response whose body has been read.
func newAPIError(resp *http.Response, body []byte) *APIError {
	e := &APIError{
		StatusCode: resp.StatusCode,
		RequestID:  resp.Header.Get("X-Request-Id"),
	}
	if ra, ok := parseRetryAfter(resp.Header.Get("Retry-After")); ok {
		e.RetryAfter = ra
	}

	var p client.Problem
	if isJSON(resp.Header.Get("Content-Type")) && json.Unmarshal(body, &p) == nil && (p.Code != "" || p.Title != "") {
		e.Code, e.Title = string(p.Code), p.Title
		if p.Detail != nil {
			e.Detail = *p.Detail
		}
		if p.RequestId != nil && *p.RequestId != "" {
			e.RequestID = *p.RequestId
		}
		if p.Errors != nil {
			for _, f := range *p.Errors {
				e.Fields = append(e.Fields, FieldError{Field: f.Field, Message: f.Message})
			}
		}
		if p.CurrentVersion != nil {
			e.CurrentVersion = *p.CurrentVersion
		}
		return e
	}

	e.Title = http.StatusText(resp.StatusCode)
	e.Detail = truncate(strings.TrimSpace(string(body)), maxDetail)
	return e
}

func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	// Cut before a rune start so no character is split.
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
