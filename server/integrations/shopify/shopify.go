// Package shopify is the storefront's book-a-call: a shopper types a number into the widget a
// merchant pasted into their theme (/widget.js, served from widget.js here), ticks consent, and
// Betty places one call to that number with the workflow the team attached to its storefront
// (POST /v1/workflow/config/shopify sets workflows.shopify_enabled).
//
// # What a request goes through, in this order
//
//  1. Its client address counts against PerClientPerHour (every request counts, refused ones
//     too, except those refused by this very limit), recorded and committed first.
//  2. The team is found by its publishable key (betty_pk_…, not a secret) and its storefront
//     workflow; neither found is 404 "This store cannot take call requests right now.".
//  3. Consent must be true (422 naming consent).
//  4. The number is read as E.164 by workflows.NormalizePhone (a number without a country code
//     as one of the first allowed country) and must be of an allowed country (422 naming
//     phoneNumber; --book-a-call-countries, DefaultCountries), then a landline or mobile
//     number (422 naming phoneNumber: premium-rate, shared-cost, personal, UAN, voicemail,
//     pager, toll-free, VoIP and international-network numbers are where toll fraud sends
//     calls; shopperNumbers). The country comes first: a shopper of another country can do
//     nothing with "we cannot call premium-rate numbers", and one of an allowed country who
//     typed a costly number hears what is wrong with it.
//  5. A number on the team's do-not-call list is refused (422 "We cannot call this number.").
//  6. In one transaction, serialised across replicas (store.LockBookings): the number's
//     bookings of the last 24 hours (every team's) stay below PerNumberPerDay, the team's below
//     PerTeamPerDay (429 with Retry-After: when the oldest counted booking leaves the window),
//     then the single-contact run (runs.StartSingle: the job, its attempt, its dispatcher) and
//     the booking with its consent are written together. A storefront workflow that cannot run
//     (no agent, number or credits) answers 422 "This store cannot take call requests right
//     now." and the reason is logged for the team.
//
// The call itself follows the dialer's rules as any run's: the calling window in the number's
// time zone, the number's kind and the do-not-call list again at dial time, the 24-hour
// frequency cap, concurrency and credits (server/runs). Limits are counted from rows in the
// database, never in memory, so they hold however many replicas serve the API.
package shopify

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/nyaruka/phonenumbers"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/runs"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/workflows"
)

// The abuse limits of the public endpoint (a decision: the contract names them).
const (
	// PerClientPerHour is how many requests one client address (an IPv6 client: its /64) may
	// make in an hour.
	PerClientPerHour = 5
	// PerNumberPerDay is how many calls one number may be booked in 24 hours, across teams.
	PerNumberPerDay = 2
	// PerTeamPerDay is how many calls a team's storefront may book in 24 hours.
	PerTeamPerDay = 100
)

// DefaultCountries are the countries whose numbers the widget may book calls to unless
// --book-a-call-countries says otherwise.
var DefaultCountries = []string{"US", "CA", "GB", "IE", "AU", "NZ"}

// DefaultConsentText is the consent sentence recorded when a request sends none (the widget
// sends the one it shows, which is this one).
const DefaultConsentText = "I agree to receive a phone call at this number from this store, placed by an automated voice assistant."

// TriggeredBy is what a booking's job shows as its starter in the workflow's history.
const TriggeredBy = "Storefront widget"

// The shopper-facing messages (the widget shows them as they are).
const (
	msgUnavailable = "This store cannot take call requests right now."
	msgNoConsent   = "Please tick the box to agree to the call."
	msgBadNumber   = "Please enter a valid phone number, with its country code (like +1 415 555 0123)."
	msgDoNotCall   = "We cannot call this number."
	msgTooOften    = "You have asked for calls too many times. Please try again later."
	msgNumberDone  = "This number has already been booked for calls today. Please try again tomorrow."
	msgTeamDone    = "This store cannot take more call requests today. Please try again tomorrow."
)

// shopperNumbers is the policy of the numbers shoppers type: they come from outside the team,
// so no campaign's allowedNumberTypes applies and only landlines and mobiles are called.
var shopperNumbers = phones.Policy{Origin: phones.Outside}

// kindMessage tells a shopper that a number of kind k is not called.
func kindMessage(k phones.Kind) string {
	if k == phones.KindUnknown {
		return msgBadNumber
	}
	return "We cannot call " + k.Plural() + ". Please enter a mobile or landline number."
}

// Runs starts the call (runs.Service).
type Runs interface {
	StartSingle(ctx context.Context, in runs.SingleInput) (runs.Job, error)
}

// Suppressions is the team's do-not-call list (calls.Service).
type Suppressions interface {
	Suppressed(ctx context.Context, orgID string, numbers []string) (map[string]bool, error)
}

// Service books calls from storefronts.
type Service struct {
	db        *store.DB
	runs      Runs
	dnc       Suppressions
	countries []string
	log       *slog.Logger
	now       func() time.Time
}

// Options tune the service; zero values take the defaults.
type Options struct {
	// Countries are the allowed countries (ISO 3166 alpha-2); empty: DefaultCountries.
	Countries []string
	Log       *slog.Logger
	// Now is the clock (tests move it).
	Now func() time.Time
}

// New returns the service.
func New(db *store.DB, r Runs, dnc Suppressions, o Options) *Service {
	s := &Service{db: db, runs: r, dnc: dnc, countries: o.Countries, log: o.Log, now: o.Now}
	if len(s.countries) == 0 {
		s.countries = DefaultCountries
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.now == nil {
		s.now = time.Now
	}
	return s
}

// ParseCountries reads a comma-separated list of ISO 3166 alpha-2 codes (any case) that
// telephone numbering knows, for --book-a-call-countries.
func ParseCountries(v string) ([]string, error) {
	var out []string
	for _, c := range strings.Split(v, ",") {
		c = strings.ToUpper(strings.TrimSpace(c))
		if c == "" {
			continue
		}
		if phonenumbers.GetCountryCodeForRegion(c) == 0 {
			return nil, fmt.Errorf("%q is not a country code such as US or GB", c)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, errors.New("name at least one country, such as US,CA")
	}
	return out, nil
}

// Request is a shopper's request, as the widget sends it, with the client's address.
type Request struct {
	PublicKey, PhoneNumber, Name string
	Consent                      bool
	ConsentText, PageURL         string
	ClientIP                     string
}

// BookCall books one call (the package doc says what a request goes through).
func (s *Service) BookCall(ctx context.Context, r Request) (store.CallBooking, error) {
	at := s.now().UTC().Truncate(time.Microsecond)
	if err := s.countClient(ctx, clientKey(r.ClientIP), at); err != nil {
		return store.CallBooking{}, err
	}
	org, err := s.db.OrganizationByPublicKey(ctx, strings.TrimSpace(r.PublicKey))
	if errors.Is(err, store.ErrNotFound) {
		return store.CallBooking{}, errs.New(errs.NotFound, msgUnavailable)
	}
	if err != nil {
		return store.CallBooking{}, err
	}
	wf, err := s.db.StorefrontWorkflow(ctx, org.ID)
	if errors.Is(err, store.ErrNotFound) {
		return store.CallBooking{}, errs.New(errs.NotFound, msgUnavailable)
	}
	if err != nil {
		return store.CallBooking{}, err
	}
	if !r.Consent {
		return store.CallBooking{}, errs.UnprocessableField("body.consent", msgNoConsent)
	}
	number, region, tz, ok := workflows.NormalizePhone(r.PhoneNumber, s.countries[0])
	if !ok {
		return store.CallBooking{}, errs.UnprocessableField("body.phoneNumber", msgBadNumber)
	}
	if !s.allowed(region) {
		return store.CallBooking{}, errs.UnprocessableField("body.phoneNumber", s.countryMessage())
	}
	if kind := phones.KindOf(number); !shopperNumbers.Allows(kind) {
		return store.CallBooking{}, errs.UnprocessableField("body.phoneNumber", kindMessage(kind))
	}
	listed, err := s.dnc.Suppressed(ctx, org.ID, []string{number})
	if err != nil {
		return store.CallBooking{}, err
	}
	if listed[number] {
		return store.CallBooking{}, errs.UnprocessableField("body.phoneNumber", msgDoNotCall)
	}
	b := store.CallBooking{OrganizationID: org.ID, WorkflowID: wf.ID, PhoneNumber: number, Name: optional(r.Name, 100),
		ConsentText: strings.TrimSpace(r.ConsentText), PageURL: optional(r.PageURL, 2000), ClientIP: r.ClientIP,
		ConsentGivenAt: at, CreatedAt: at}
	if b.ConsentText == "" {
		b.ConsentText = DefaultConsentText
	}
	err = s.db.InTx(ctx, func(ctx context.Context) error {
		if err := s.db.LockBookings(ctx); err != nil {
			return err
		}
		day := at.Add(-24 * time.Hour)
		c, err := s.db.BookingsOfNumberSince(ctx, number, day)
		if err != nil {
			return err
		}
		if c.N >= PerNumberPerDay {
			return errs.Retry(errs.TooManyRequests, msgNumberDone, wait(c.Oldest, 24*time.Hour, at))
		}
		if c, err = s.db.BookingsOfTeamSince(ctx, org.ID, day); err != nil {
			return err
		}
		if c.N >= PerTeamPerDay {
			return errs.Retry(errs.TooManyRequests, msgTeamDone, wait(c.Oldest, 24*time.Hour, at))
		}
		name := ""
		if b.Name != nil {
			name = *b.Name
		}
		j, err := s.runs.StartSingle(ctx, runs.SingleInput{OrganizationID: org.ID, WorkflowID: wf.ID, Phone: number,
			TimeZone: tz, Name: name, TriggeredBy: TriggeredBy, Origin: phones.Outside})
		if err != nil {
			return s.cannotRun(ctx, org.ID, wf.ID, err)
		}
		b.JobID = j.ID
		return s.db.CreateCallBooking(ctx, &b)
	})
	if err != nil {
		return store.CallBooking{}, err
	}
	return b, nil
}

// Bookings lists the team's bookings newest first, each with its call's log and status once
// the call was placed (the team's record of the consent given), and how many there are.
func (s *Service) Bookings(ctx context.Context, a auth.Actor, limit, offset int) ([]store.StorefrontBooking, int, error) {
	return s.db.CallBookingsOfTeam(ctx, a.OrganizationID, limit, offset)
}

// countClient records a request of the client and refuses it when the client made
// PerClientPerHour requests in the last hour; a refused request is not recorded, so a client
// that waits gets through.
func (s *Service) countClient(ctx context.Context, key string, at time.Time) error {
	return s.db.InTx(ctx, func(ctx context.Context) error {
		if err := s.db.LockBookings(ctx); err != nil {
			return err
		}
		c, err := s.db.BookingRequestsSince(ctx, key, at.Add(-time.Hour))
		if err != nil {
			return err
		}
		if c.N >= PerClientPerHour {
			return errs.Retry(errs.TooManyRequests, msgTooOften, wait(c.Oldest, time.Hour, at))
		}
		return s.db.AddBookingRequest(ctx, key, at, at.Add(-24*time.Hour))
	})
}

// cannotRun turns the team's reason a workflow cannot run into the shopper's words, and logs
// the team's (the merchant sees their workflow's state in the dashboard).
func (s *Service) cannotRun(ctx context.Context, orgID, workflowID string, err error) error {
	e, ok := errs.As(err)
	if !ok || (e.Kind != errs.Unprocessable && e.Kind != errs.LimitReached && e.Kind != errs.Invalid) {
		return err
	}
	s.log.WarnContext(ctx, "book-a-call: the storefront workflow cannot place calls", "organization", orgID,
		"workflow", workflowID, "reason", e.Message)
	return &errs.Error{Kind: errs.Unprocessable, Message: msgUnavailable, Err: err}
}

// allowed says whether numbers of region may be booked.
func (s *Service) allowed(region string) bool {
	for _, c := range s.countries {
		if c == region {
			return true
		}
	}
	return false
}

// countryNames are the names of the countries most deployments allow; others show as codes.
var countryNames = map[string]string{"US": "the United States", "CA": "Canada", "GB": "the United Kingdom",
	"IE": "Ireland", "AU": "Australia", "NZ": "New Zealand", "FR": "France", "DE": "Germany", "ES": "Spain",
	"IT": "Italy", "NL": "the Netherlands", "BE": "Belgium", "CH": "Switzerland", "AT": "Austria", "SE": "Sweden",
	"NO": "Norway", "DK": "Denmark", "FI": "Finland", "PT": "Portugal", "MX": "Mexico", "IN": "India", "SG": "Singapore"}

func (s *Service) countryMessage() string {
	names := make([]string, len(s.countries))
	for i, c := range s.countries {
		names[i] = c
		if n, ok := countryNames[c]; ok {
			names[i] = n
		}
	}
	list := names[0]
	if len(names) > 1 {
		list = strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	}
	return "We can only call numbers in " + list + "."
}

// wait is how long until the oldest counted request leaves its window (a second at least).
func wait(oldest time.Time, window time.Duration, at time.Time) time.Duration {
	return max(time.Second, oldest.Add(window).Sub(at))
}

// clientKey is what the per-client limit counts: the address, or an IPv6 address's /64 (one
// subscriber's network: an address per request is free within it).
func clientKey(ip string) string {
	a := net.ParseIP(strings.TrimSpace(ip))
	switch {
	case a == nil:
		return "unknown:" + ip
	case a.To4() != nil:
		return a.To4().String()
	}
	return a.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

func optional(v string, n int) *string {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil
	}
	if r := []rune(v); len(r) > n {
		v = string(r[:n]) // the contract bounds characters; never cut one in two
	}
	return &v
}
