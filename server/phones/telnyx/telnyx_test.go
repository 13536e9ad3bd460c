package telnyx_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/phones/telnyx"
	"github.com/bettyhq/betty/server/phones/telnyx/telnyxtest"
)

const key = "KEY0123456789ABCDEF"

func newClient(t *testing.T, fake *telnyxtest.Server, mod ...func(*telnyx.Config)) *telnyx.Client {
	t.Helper()
	cfg := telnyx.Config{APIKey: key, BaseURL: fake.URL(), ConnectionID: "1494404757140276705", Timeout: 2 * time.Second}
	for _, m := range mod {
		m(&cfg)
	}
	c, err := telnyx.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func inventory() []telnyxtest.Available {
	return []telnyxtest.Available{
		{PhoneNumber: "+13125550101", Country: "US", Type: "local", AreaCode: "312", RateCenter: "CHICAGO ZONE 02", State: "IL",
			Monthly: "1.00000", Upfront: "1.00000"},
		{PhoneNumber: "+13125550102", Country: "US", Type: "local", AreaCode: "312", RateCenter: "CHICAGO ZONE 11", State: "IL",
			Monthly: "1.20000", Upfront: "0.00000"},
		{PhoneNumber: "+17735550103", Country: "US", Type: "local", AreaCode: "773", BestEffort: true, Monthly: "1.00000", Upfront: "0"},
		{PhoneNumber: "+18885550104", Country: "US", Type: "toll_free", AreaCode: "888", Monthly: "2.00000", Upfront: "0"},
		{PhoneNumber: "+442079460104", Country: "GB", Type: "local", AreaCode: "20", RateCenter: "LONDON", Monthly: "1.50000", Upfront: "0"},
	}
}

func TestNewNamesMissingSettings(t *testing.T) {
	for _, tt := range []struct {
		cfg  telnyx.Config
		want string
	}{
		{telnyx.Config{ConnectionID: "1"}, "--telnyx-api-key"},
		{telnyx.Config{APIKey: key}, "--telnyx-connection-id"},
		{telnyx.Config{APIKey: key, ConnectionID: "1", BaseURL: "ftp://example.com"}, "--telnyx-api-url"},
	} {
		if _, err := telnyx.New(tt.cfg); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: %v, want it to name %s", tt.cfg, err, tt.want)
		}
	}
}

func TestSearch(t *testing.T) {
	ctx := context.Background()
	fake := telnyxtest.Start(t, key)
	fake.AddAvailable(inventory()...)
	c := newClient(t, fake)

	got, err := c.Search(ctx, phones.Query{Country: phones.US, Type: phones.Local, AreaCode: "312", Limit: 20})
	if err != nil {
		t.Fatal(err)
	}
	// The best-effort number (another area code) is left out.
	if len(got) != 2 {
		t.Fatalf("got %+v", got)
	}
	want := phones.Available{E164: "+13125550101", Country: phones.US, Type: phones.Local, AreaCode: "312", Locality: "Chicago Zone 02",
		Region: "IL", MonthlyPrice: 1, UpfrontPrice: 1}
	if got[0] != want || got[1].MonthlyPrice != 1.2 || got[1].UpfrontPrice != 0 {
		t.Fatalf("got %+v, want first %+v", got, want)
	}
	req := fake.Requests()[0]
	q := req.Query
	if req.Path != "/available_phone_numbers" || q.Get("filter[country_code]") != "US" || q.Get("filter[phone_number_type]") != "local" ||
		q.Get("filter[national_destination_code]") != "312" || q.Get("filter[limit]") != "20" || q.Get("filter[features]") != "voice" {
		t.Fatalf("sent %+v", req)
	}
	got, err = c.Search(ctx, phones.Query{Country: phones.GB, Type: phones.Local, Limit: 5})
	if err != nil || len(got) != 1 || got[0].AreaCode != "20" || got[0].Locality != "London" || got[0].MonthlyPrice != 1.5 {
		t.Fatalf("GB: %+v %v", got, err)
	}
	if got, err := c.Search(ctx, phones.Query{Country: phones.CA, Type: phones.Local, Limit: 5}); err != nil || got == nil || len(got) != 0 {
		t.Fatalf("nothing found: %+v %v", got, err)
	}
}

func TestOrderAndRelease(t *testing.T) {
	ctx := context.Background()
	fake := telnyxtest.Start(t, key)
	fake.AddAvailable(inventory()...)
	c := newClient(t, fake)

	o, err := c.Order(ctx, "+13125550101")
	if err != nil || o.OrderID == "" || !o.Active {
		t.Fatalf("order: %+v %v", o, err)
	}
	req := fake.Requests()[0]
	nums, _ := req.Body["phone_numbers"].([]any)
	if req.Method != http.MethodPost || req.Path != "/number_orders" || req.Body["connection_id"] != "1494404757140276705" || len(nums) != 1 ||
		nums[0].(map[string]any)["phone_number"] != "+13125550101" {
		t.Fatalf("sent %+v", req)
	}
	if owned := fake.Owned(); len(owned) != 1 || owned[0] != "+13125550101" {
		t.Fatalf("account: %v", owned)
	}
	// The same number again is not on sale any more.
	if _, err := c.Order(ctx, "+13125550101"); !errors.Is(err, phones.ErrNotOnSale) {
		t.Fatalf("ordering it again: %v", err)
	}
	// An order Telnyx is still provisioning is not active yet.
	fake.PendingOrders(true)
	if o, err := c.Order(ctx, "+18885550104"); err != nil || o.Active {
		t.Fatalf("pending order: %+v %v", o, err)
	}

	// Release finds the number's id by the number, then deletes it: it is on sale again.
	if err := c.Release(ctx, phones.Bought{E164: "+13125550101"}); err != nil {
		t.Fatal(err)
	}
	reqs := fake.Requests()
	lookup, del := reqs[len(reqs)-2], reqs[len(reqs)-1]
	if lookup.Path != "/phone_numbers" || lookup.Query.Get("filter[phone_number]") != "13125550101" ||
		del.Method != http.MethodDelete || !strings.HasPrefix(del.Path, "/phone_numbers/") {
		t.Fatalf("release sent %+v then %+v", lookup, del)
	}
	if owned := fake.Owned(); len(owned) != 1 || owned[0] != "+18885550104" {
		t.Fatalf("account after release: %v", owned)
	}
	if _, err := c.Order(ctx, "+13125550101"); err != nil {
		t.Fatalf("buying it back: %v", err)
	}
	// A number no longer on the account is released already.
	if err := c.Release(ctx, phones.Bought{E164: "+442079460104"}); err != nil {
		t.Fatalf("releasing a number not on the account: %v", err)
	}
	if err := c.Release(ctx, phones.Bought{E164: "+442079460104", CarrierID: "999"}); err != nil {
		t.Fatalf("releasing an unknown id: %v", err)
	}
}

func TestVerifiedNumbers(t *testing.T) {
	ctx := context.Background()
	fake := telnyxtest.Start(t, key)
	c := newClient(t, fake)
	const n = "+15555550142"

	if err := c.CheckVerificationCode(ctx, n, "123456"); !errors.Is(err, phones.ErrNoVerification) {
		t.Fatalf("before a request: %v", err)
	}
	if err := c.SendVerificationCode(ctx, n, phones.ByCall); err != nil {
		t.Fatal(err)
	}
	req := fake.Requests()[1]
	if req.Path != "/verified_numbers" || req.Body["phone_number"] != n || req.Body["verification_method"] != "call" {
		t.Fatalf("sent %+v", req)
	}
	code := fake.Code(n)
	wrong := "000000"
	if code == wrong {
		wrong = "111111"
	}
	if err := c.CheckVerificationCode(ctx, n, wrong); !errors.Is(err, phones.ErrWrongCode) {
		t.Fatalf("wrong code: %v", err)
	}
	if err := c.CheckVerificationCode(ctx, n, code); err != nil {
		t.Fatalf("right code: %v", err)
	}
	if last := fake.Requests()[len(fake.Requests())-1]; last.Path != "/verified_numbers/"+n+"/actions/verify" || last.Body["verification_code"] != code {
		t.Fatalf("verify sent %+v", last)
	}
	if !fake.Verified(n) {
		t.Fatal("not verified at Telnyx")
	}
	if err := c.ForgetVerified(ctx, n); err != nil || fake.Verified(n) {
		t.Fatalf("forget: %v", err)
	}
	if err := c.ForgetVerified(ctx, n); err != nil {
		t.Fatalf("forgetting an unknown number: %v", err)
	}
	// Telnyx refusing to call a number is a refusal, with its words kept for the log.
	err := c.SendVerificationCode(ctx, "+1", phones.BySMS)
	var apiErr *telnyx.Error
	if !errors.Is(err, phones.ErrRejected) || !errors.As(err, &apiErr) || apiErr.Status != 422 ||
		apiErr.Errors[0].Code != "10015" || apiErr.Errors[0].Source.Pointer != "/phone_number" {
		t.Fatalf("invalid number: %#v", err)
	}
}

// Failures become the phones errors the domain tells people about; Telnyx's words stay in the
// error's text, for the log.
func TestErrors(t *testing.T) {
	ctx := context.Background()
	fake := telnyxtest.Start(t, key)
	fake.AddAvailable(inventory()...)
	q := phones.Query{Country: phones.US, Type: phones.Local, Limit: 5}

	wrongKey := newClient(t, fake, func(c *telnyx.Config) { c.APIKey = "KEYwrong" })
	_, err := wrongKey.Search(ctx, q)
	if !errors.Is(err, phones.ErrCarrierAuth) || !strings.Contains(err.Error(), "10009 Authentication failed") {
		t.Fatalf("wrong key: %v", err)
	}
	if strings.Contains(err.Error(), "KEYwrong") {
		t.Fatalf("the key is in the error: %v", err)
	}

	c := newClient(t, fake)
	for _, tt := range []struct {
		status int
		want   error
	}{
		{http.StatusInternalServerError, phones.ErrCarrierDown},
		{http.StatusBadGateway, phones.ErrCarrierDown},
		{http.StatusTooManyRequests, phones.ErrCarrierDown},
		{http.StatusForbidden, phones.ErrCarrierAuth},
		{http.StatusUnprocessableEntity, phones.ErrRejected},
		{http.StatusBadRequest, phones.ErrRejected},
	} {
		fake.Fail(http.MethodGet, "/available_phone_numbers", tt.status,
			telnyxtest.ErrorObject{Code: "10007", Title: "Unexpected error", Detail: "An unexpected error occured."})
		_, err := c.Search(ctx, q)
		var apiErr *telnyx.Error
		if !errors.Is(err, tt.want) || !errors.As(err, &apiErr) || apiErr.Status != tt.status || apiErr.Errors[0].Code != "10007" {
			t.Errorf("%d: %v, want %v", tt.status, err, tt.want)
		}
	}
	// An error with a body that is not Telnyx's (a proxy's HTML page) is still an error.
	fake.Fail(http.MethodGet, "/available_phone_numbers", http.StatusServiceUnavailable)
	if _, err := c.Search(ctx, q); !errors.Is(err, phones.ErrCarrierDown) {
		t.Fatalf("503 without errors: %v", err)
	}
	// A wrong code is a wrong code, a missing verification missing, whatever the body says.
	fake.Fail(http.MethodPost, "/verified_numbers/", http.StatusUnprocessableEntity)
	if err := c.CheckVerificationCode(ctx, "+15555550142", "123456"); !errors.Is(err, phones.ErrWrongCode) {
		t.Fatalf("422 on verify: %v", err)
	}
	// An order refused for another reason than the number is not "not on sale".
	fake.Fail(http.MethodPost, "/number_orders", http.StatusUnprocessableEntity, telnyxtest.ErrorObject{Code: "10015",
		Title: "Invalid value", Detail: "Connection not found.", Source: map[string]string{"pointer": "/connection_id"}})
	if _, err := c.Order(ctx, "+13125550102"); !errors.Is(err, phones.ErrRejected) || errors.Is(err, phones.ErrNotOnSale) {
		t.Fatalf("bad connection: %v", err)
	}
}

func TestTimeoutsAndBadAnswers(t *testing.T) {
	ctx := context.Background()
	fake := telnyxtest.Start(t, key)
	c := newClient(t, fake, func(c *telnyx.Config) { c.Timeout = 100 * time.Millisecond })
	fake.Stall(http.MethodPost, "/number_orders", 5*time.Second)
	start := time.Now()
	if _, err := c.Order(ctx, "+13125550101"); !errors.Is(err, phones.ErrCarrierDown) {
		t.Fatalf("stalled order: %v", err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("the timeout took %s", took)
	}
	// The caller giving up is not the carrier's fault.
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := c.SendVerificationCode(cancelled, "+15555550142", phones.ByCall); !errors.Is(err, context.Canceled) || errors.Is(err, phones.ErrCarrierDown) {
		t.Fatalf("cancelled: %v", err)
	}

	garbage := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"data": [`))
	}))
	t.Cleanup(garbage.Close)
	c2, err := telnyx.New(telnyx.Config{APIKey: key, ConnectionID: "1", BaseURL: garbage.URL})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c2.Search(ctx, phones.Query{Country: phones.US, Type: phones.Local, Limit: 1}); !errors.Is(err, phones.ErrCarrierDown) {
		t.Fatalf("truncated JSON: %v", err)
	}
	// Nobody listening.
	garbage.Close()
	if _, err := c2.Search(ctx, phones.Query{Country: phones.US, Type: phones.Local, Limit: 1}); !errors.Is(err, phones.ErrCarrierDown) {
		t.Fatalf("connection refused: %v", err)
	}
}
