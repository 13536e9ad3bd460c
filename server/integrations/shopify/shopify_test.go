package shopify_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/integrations/shopify"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/runs"
	"github.com/bettyhq/betty/server/store"
)

// fakeRuns starts single runs without dialling: the booking's own rules are under test here
// (server/runs tests the run, the API tests the whole path with the simulator).
type fakeRuns struct {
	mu     sync.Mutex
	starts []runs.SingleInput
	fail   error
}

func (f *fakeRuns) StartSingle(_ context.Context, in runs.SingleInput) (runs.Job, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail != nil {
		return runs.Job{}, f.fail
	}
	f.starts = append(f.starts, in)
	return runs.Job{WorkflowJob: store.WorkflowJob{ID: store.NewID()}}, nil
}

func (f *fakeRuns) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.starts)
}

type fakeDNC map[string]bool

func (d fakeDNC) Suppressed(_ context.Context, _ string, numbers []string) (map[string]bool, error) {
	out := map[string]bool{}
	for _, n := range numbers {
		out[n] = d[n]
	}
	return out, nil
}

// clock is a movable clock shared by services.
type clock struct{ t atomic.Int64 }

func newClock() *clock {
	c := &clock{}
	c.t.Store(time.Date(2026, 3, 2, 15, 0, 0, 0, time.UTC).UnixNano())
	return c
}
func (c *clock) now() time.Time          { return time.Unix(0, c.t.Load()).UTC() }
func (c *clock) advance(d time.Duration) { c.t.Add(int64(d)) }

var seq atomic.Int64

// storefront makes a team with a publishable key and, when attached, a workflow on its
// storefront; it answers the key.
func storefront(t *testing.T, db *store.DB, attached bool) (store.Organization, string) {
	t.Helper()
	ctx := context.Background()
	n := seq.Add(1)
	u := store.User{Email: fmt.Sprintf("merchant%d@example.com", n)}
	must(t, db.CreateUser(ctx, &u))
	o := store.Organization{Name: "Shop", OwnerUserID: u.ID, PublicAPIKey: fmt.Sprintf("betty_pk_test%d_%d", n, time.Now().UnixNano())}
	must(t, db.CreateOrganization(ctx, &o, u.Email))
	w := store.Workflow{OrganizationID: o.ID, Name: "Storefront", Type: store.Outbound, Graph: `{"nodes":[],"edges":[]}`,
		ShopifyEnabled: attached, PromptStatus: store.PromptSuccess}
	must(t, db.InTx(ctx, func(ctx context.Context) error { return db.CreateWorkflow(ctx, &w, nil) }))
	return o, o.PublicAPIKey
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func request(key, number, ip string) shopify.Request {
	return shopify.Request{PublicKey: key, PhoneNumber: number, Consent: true, ClientIP: ip,
		ConsentText: "I agree.", PageURL: "https://shop.example/products/mug", Name: "Ann"}
}

// wantErr checks an error's kind, its message and the field it names ("" for none).
func wantErr(t *testing.T, err error, kind errs.Kind, msg, field string) *errs.Error {
	t.Helper()
	e, ok := errs.As(err)
	if !ok || e.Kind != kind || !strings.Contains(e.Message, msg) {
		t.Fatalf("want %s %q, got %v", kind, msg, err)
	}
	if field != "" && (len(e.Fields) == 0 || e.Fields[0].Name != field) {
		t.Fatalf("want the field %s named: %+v", field, e.Fields)
	}
	return e
}

func TestBookCallBooksAndRecordsConsent(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		r, c := &fakeRuns{}, newClock()
		svc := shopify.New(db, r, fakeDNC{}, shopify.Options{Now: c.now})
		o, key := storefront(t, db, true)
		b, err := svc.BookCall(ctx, shopify.Request{PublicKey: key, PhoneNumber: "+1 (415) 555-0123", Consent: true,
			ClientIP: "203.0.113.9", PageURL: "https://shop.example/", Name: " Ann "})
		must(t, err)
		if b.PhoneNumber != "+14155550123" || b.OrganizationID != o.ID || b.JobID == "" || b.ConsentText != shopify.DefaultConsentText ||
			b.ClientIP != "203.0.113.9" || b.PageURL == nil || !b.ConsentGivenAt.Equal(c.now()) {
			t.Fatalf("booking: %+v", b)
		}
		in := r.starts[0]
		if in.Phone != "+14155550123" || in.Name != "Ann" || in.TriggeredBy != shopify.TriggeredBy || in.TimeZone == nil ||
			!strings.HasPrefix(*in.TimeZone, "America/") {
			t.Fatalf("run: %+v", in)
		}
		stored, total, err := db.CallBookingsOfTeam(ctx, o.ID, 10, 0)
		must(t, err)
		if len(stored) != 1 || total != 1 || stored[0].CallLogID != nil || stored[0].JobID != b.JobID || stored[0].ConsentText != b.ConsentText || *stored[0].Name != "Ann" {
			t.Fatalf("stored: %+v", stored)
		}
	})
}

func TestBookCallRefusals(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		r := &fakeRuns{}
		svc := shopify.New(db, r, fakeDNC{"+14155550199": true}, shopify.Options{Countries: []string{"US", "GB"}})
		_, key := storefront(t, db, true)
		_, detached := storefront(t, db, false)
		ip := 0
		book := func(req shopify.Request) error {
			ip++ // a new client each time: the per-client limit is tested on its own
			req.ClientIP = fmt.Sprintf("198.51.100.%d", ip)
			_, err := svc.BookCall(ctx, req)
			return err
		}
		wantErr(t, book(request("betty_pk_nobody", "+14155550123", "")), errs.NotFound, "This store cannot take call requests right now.", "")
		wantErr(t, book(request(detached, "+14155550123", "")), errs.NotFound, "This store cannot take call requests right now.", "")
		noConsent := request(key, "+14155550123", "")
		noConsent.Consent = false
		wantErr(t, book(noConsent), errs.Unprocessable, "tick the box", "body.consent")
		wantErr(t, book(request(key, "555", "")), errs.Unprocessable, "valid phone number", "body.phoneNumber")
		wantErr(t, book(request(key, "+33 6 12 34 56 78", "")), errs.Unprocessable,
			"We can only call numbers in the United States or the United Kingdom.", "body.phoneNumber")
		wantErr(t, book(request(key, "+1 415 555 0199", "")), errs.Unprocessable, "We cannot call this number.", "body.phoneNumber")
		// A number without a country code is read as one of the first allowed country.
		must(t, book(request(key, "(415) 555-0124", "")))
		must(t, book(request(key, "+44 7400 123456", "")))
		if r.count() != 2 || r.starts[1].Phone != "+447400123456" {
			t.Fatalf("runs: %+v", r.starts)
		}

		// A workflow that cannot run is the store's problem: the shopper reads it plainly and
		// nothing is booked.
		r.fail = errs.UnprocessableErr("This team has no credits left for calls.")
		wantErr(t, book(request(key, "+14155550125", "")), errs.Unprocessable, "This store cannot take call requests right now.", "")
		r.fail = errors.New("database is gone")
		if err := book(request(key, "+14155550125", "")); err == nil || errs.Is(err, errs.Unprocessable) {
			t.Fatalf("a failure of the run is not the shopper's: %v", err)
		}
		n, err := db.BookingsOfNumberSince(ctx, "+14155550125", time.Now().Add(-time.Hour))
		must(t, err)
		if n.N != 0 {
			t.Fatal("a refused booking was written")
		}
	})
}

// A costly number is refused before anything is written or started, even in an allowed
// country; a country not allowed is named first (the shopper can change the number's
// country, not the store's list). The run of a number that is booked calls it as a number
// from outside the team.
func TestBookCallRefusesCostlyNumbers(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		r := &fakeRuns{}
		svc := shopify.New(db, r, fakeDNC{}, shopify.Options{Countries: []string{"US", "GB", "AU", "IE", "NZ"}})
		_, key := storefront(t, db, true)
		ip := 0
		book := func(number string) error {
			ip++
			_, err := svc.BookCall(ctx, request(key, number, fmt.Sprintf("198.51.100.%d", ip)))
			return err
		}
		for number, words := range map[string]string{"+19005551234": "We cannot call premium-rate numbers.",
			"+449098790000": "premium-rate", "+447010000000": "We cannot call personal forwarding numbers.",
			"+448712345678": "premium-rate", "+611900123456": "premium-rate", "+353151234567": "premium-rate",
			"+64900123456": "premium-rate", "+448001234567": "toll-free", "+18005550199": "toll-free"} {
			e := wantErr(t, book(number), errs.Unprocessable, words, "body.phoneNumber")
			if !strings.Contains(e.Message, "Please enter a mobile or landline number.") {
				t.Fatalf("%s: %q", number, e.Message)
			}
		}
		wantErr(t, book("+33 8 92 12 34 56"), errs.Unprocessable, "We can only call numbers in", "body.phoneNumber")
		wantErr(t, book("+80012345678"), errs.Unprocessable, "We can only call numbers in", "body.phoneNumber")
		if r.count() != 0 {
			t.Fatalf("runs started: %+v", r.starts)
		}
		must(t, book("+447400123456"))
		if r.starts[0].Origin != phones.Outside {
			t.Fatalf("the run of a shopper's number: %+v", r.starts[0])
		}
	})
}

func TestParseCountries(t *testing.T) {
	got, err := shopify.ParseCountries(" us, gb ,")
	if err != nil || strings.Join(got, ",") != "US,GB" {
		t.Fatalf("%v %v", got, err)
	}
	for _, bad := range []string{"", "XX", "USA"} {
		if _, err := shopify.ParseCountries(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// The sentence the widget shows is the one recorded when a request sends none.
func TestWidgetSendsTheDefaultConsent(t *testing.T) {
	if !strings.Contains(string(shopify.Widget), `"`+shopify.DefaultConsentText+`"`) {
		t.Fatal("widget.js and DefaultConsentText differ")
	}
	if len(shopify.Widget) > 8<<10 {
		t.Fatalf("widget.js is %d bytes; it should stay a few kB", len(shopify.Widget))
	}
	if !strings.Contains(string(shopify.Widget), `getAttribute("data-betty-key")`) {
		t.Fatal("the widget must read data-betty-key (the dashboard's snippet names it)")
	}
}
