package phones

import (
	"context"
	"errors"
)

// Telephony is the carrier: it sells numbers and verifies numbers people own elsewhere. Two
// implementations exist: phones/sim, an offline simulator (the default), and phones/telnyx,
// Telnyx's REST API. Configuration picks one (server/app).
//
// Every method answers the errors below (wrapped, with the carrier's own words for the log),
// so the domain can tell people what happened without repeating what the carrier said.
type Telephony interface {
	// Name names the provider for the start-up summary and the logs ("sim", "telnyx").
	Name() string
	// FreeNumbers says whether numbers cost nothing (the simulator). A carrier that charges
	// needs a paid monthly subscription per number.
	FreeNumbers() bool
	// MonthlyPrice is the usual monthly price in US dollars of a number type in a country (a
	// search result carries the exact price).
	MonthlyPrice(c Country, t NumberType) float64
	// Search lists numbers on sale matching q, at most q.Limit. The same query answers the
	// same numbers while none of them is sold.
	Search(ctx context.Context, q Query) ([]Available, error)
	// Order buys a number found by Search. ErrNotOnSale when it is no longer on sale.
	Order(ctx context.Context, e164 string) (Order, error)
	// Release gives a bought number back to the carrier. A number the carrier no longer has
	// is released already: nil.
	Release(ctx context.Context, n Bought) error
	// SendVerificationCode asks the carrier to call or text a one-time code to a number
	// someone says they own. ErrRejected when the carrier will not (an invalid number, a
	// landline for sms).
	SendVerificationCode(ctx context.Context, e164 string, m Method) error
	// CheckVerificationCode submits the code typed back. ErrWrongCode when it is not the one
	// sent; ErrNoVerification when no code is waiting for that number.
	CheckVerificationCode(ctx context.Context, e164, code string) error
	// ForgetVerified removes a verified number from the carrier account. A number the carrier
	// does not know is forgotten already: nil.
	ForgetVerified(ctx context.Context, e164 string) error
}

// Query is a search for numbers on sale. AreaCode is empty for any.
type Query struct {
	Country  Country
	Type     NumberType
	AreaCode string
	Limit    int
}

// Available is a number on sale.
type Available struct {
	E164    string
	Country Country
	Type    NumberType
	// AreaCode, Locality and Region are empty when the number has none or they are unknown.
	AreaCode, Locality, Region string
	// MonthlyPrice and UpfrontPrice are in US dollars.
	MonthlyPrice, UpfrontPrice float64
}

// Order is a number bought from the carrier.
type Order struct {
	// OrderID is the carrier's id of the order (for support).
	OrderID string
	// CarrierID is the carrier's id of the number when the order tells it ("" otherwise).
	CarrierID string
	// Active says the number works already; otherwise the carrier is still provisioning it.
	Active bool
	// What the carrier knows of the number; zero values are filled in from the number itself.
	Country      Country
	Type         NumberType
	MonthlyPrice float64
}

// Bought is a number to release.
type Bought struct {
	E164 string
	// CarrierID is the carrier's id of the number, "" when unknown.
	CarrierID string
}

// The errors of a Telephony. Adapters wrap them with the carrier's own words, which go to the
// log only.
var (
	// ErrNotOnSale: the number is not (or no longer) on sale.
	ErrNotOnSale = errors.New("telephony: the number is not on sale")
	// ErrWrongCode: the verification code is not the one sent.
	ErrWrongCode = errors.New("telephony: wrong verification code")
	// ErrNoVerification: no verification code is waiting for the number.
	ErrNoVerification = errors.New("telephony: no verification is waiting for this number")
	// ErrRejected: the carrier refused the request as it is (an invalid number, say).
	ErrRejected = errors.New("telephony: the carrier refused the request")
	// ErrCarrierAuth: the carrier refused the server's credentials.
	ErrCarrierAuth = errors.New("telephony: the carrier refused the credentials")
	// ErrCarrierDown: the carrier did not answer, answered too slowly, asked to slow down or
	// failed.
	ErrCarrierDown = errors.New("telephony: the carrier did not answer")
)
