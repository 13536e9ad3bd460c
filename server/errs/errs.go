// Package errs holds the kinds of error the domain packages answer with, without any HTTP in
// them: a rule refused something, something is missing, the input is invalid (naming each
// field). The HTTP layer maps each kind to a status and a problem+json body in one place
// (server/httpapi's error handler); the CLI and background workers read the same errors.
package errs

import (
	"errors"
	"fmt"
	"time"
)

// Kind is what went wrong, from the caller's point of view.
type Kind uint8

const (
	// Invalid: the input is wrong; Fields says where (HTTP 400).
	Invalid Kind = iota + 1
	// Unauthenticated: no valid credentials (401).
	Unauthenticated
	// Forbidden: the caller may not do this (403).
	Forbidden
	// NotFound: it does not exist, or it is another team's (404).
	NotFound
	// Conflict: it clashes with something that exists (409).
	Conflict
	// Unprocessable: well formed, but a rule forbids it in the current state (422).
	Unprocessable
	// LimitReached: a quota of the team is used up (422, code limit_reached).
	LimitReached
	// TooManyRequests: slow down; RetryAfter says for how long (429).
	TooManyRequests
	// Unavailable: the server cannot do it right now; RetryAfter says when to try again (503).
	Unavailable
	// TooLarge: the input is larger than allowed (413).
	TooLarge
	// PaymentRequired: it needs a payment the server cannot take (402, code payment_required).
	PaymentRequired
)

// Codes more precise than a kind, part of the API contract's ProblemCode list (a test checks
// each one is there).
const (
	CodeInvalidToken       = "invalid_token"
	CodeInvalidCredentials = "invalid_credentials"
	CodeTokenExpired       = "token_expired"
	CodeRefreshTokenReused = "refresh_token_reused"
	CodeEmailNotConfirmed  = "email_not_confirmed"
	CodeRateLimited        = "rate_limited"
	CodeUnauthorized       = "unauthorized"
	CodeUnavailable        = "unavailable"
	// CodeLimitReached: a limit of the team's plan (with Forbidden) or a quota (LimitReached).
	CodeLimitReached = "limit_reached"
	// CodeSpeechToTextNotConfigured: no transcription endpoint is configured (--stt-url); 503.
	CodeSpeechToTextNotConfigured = "speech_to_text_not_configured"
	// CodeSpeechUnavailable: the speech engine is missing, failed or took too long; 503.
	CodeSpeechUnavailable = "speech_unavailable"
	// CodePaymentsNotConfigured: a purchase, portal link or payment webhook on a server without
	// Stripe; 503, the message names the setting.
	CodePaymentsNotConfigured = "payments_not_configured"
)

// Codes lists every code above.
var Codes = []string{CodeInvalidToken, CodeInvalidCredentials, CodeTokenExpired, CodeRefreshTokenReused,
	CodeEmailNotConfirmed, CodeRateLimited, CodeUnauthorized, CodeUnavailable, CodeLimitReached,
	CodeSpeechToTextNotConfigured, CodeSpeechUnavailable, CodePaymentsNotConfigured}

// Field is one invalid field: its name as the client sent it (body.password, query.month)
// and what is wrong, in plain words.
type Field struct {
	Name    string
	Message string
}

// Error is a domain error. Message is safe to show to people; Err is the cause, for logs only.
type Error struct {
	Kind Kind
	// Code, when set, is more precise than the kind (CodeInvalidToken…).
	Code       string
	Message    string
	Fields     []Field
	RetryAfter time.Duration
	// CurrentVersion, on the Conflict of a stale save, is the version stored now.
	CurrentVersion int
	Err            error
}

func (e *Error) Error() string {
	msg := fmt.Sprintf("%s: %s", e.Kind, e.Message)
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

func (k Kind) String() string {
	switch k {
	case Invalid:
		return "invalid"
	case Unauthenticated:
		return "unauthenticated"
	case Forbidden:
		return "forbidden"
	case NotFound:
		return "not found"
	case Conflict:
		return "conflict"
	case Unprocessable:
		return "unprocessable"
	case LimitReached:
		return "limit reached"
	case TooManyRequests:
		return "too many requests"
	case Unavailable:
		return "unavailable"
	case TooLarge:
		return "too large"
	case PaymentRequired:
		return "payment required"
	}
	return "error"
}

// As finds an *Error in err's chain.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// Is says whether err is a domain error of kind k.
func Is(err error, k Kind) bool {
	e, ok := As(err)
	return ok && e.Kind == k
}

// New makes an error of a kind.
func New(k Kind, message string) *Error { return &Error{Kind: k, Message: message} }

// WithCode makes an error of a kind with a precise code.
func WithCode(k Kind, code, message string) *Error {
	return &Error{Kind: k, Code: code, Message: message}
}

// InvalidFields is an Invalid error naming each field; its message is the first field's.
func InvalidFields(fields ...Field) *Error {
	msg := "The request is not valid."
	if len(fields) > 0 {
		msg = fields[0].Message
	}
	return &Error{Kind: Invalid, Message: msg, Fields: fields}
}

// InvalidField is an Invalid error naming one field.
func InvalidField(name, message string) *Error { return InvalidFields(Field{name, message}) }

// UnprocessableField is an Unprocessable error (a well-formed value the rules refuse) naming
// one field.
func UnprocessableField(name, message string) *Error {
	return &Error{Kind: Unprocessable, Message: message, Fields: []Field{{name, message}}}
}

// NotFoundf says what was not found ("Team", "Member").
func NotFoundf(what string) *Error { return New(NotFound, what+" not found.") }

// ForbiddenErr, ConflictErr … are the plain constructors.
func ForbiddenErr(message string) *Error     { return New(Forbidden, message) }
func ConflictErr(message string) *Error      { return New(Conflict, message) }
func UnprocessableErr(message string) *Error { return New(Unprocessable, message) }

// Retry is an error of kind TooManyRequests or Unavailable that says when to try again.
func Retry(k Kind, message string, after time.Duration) *Error {
	e := &Error{Kind: k, Message: message, RetryAfter: after}
	if k == TooManyRequests {
		e.Code = CodeRateLimited
	}
	return e
}
