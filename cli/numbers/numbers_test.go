package numbers

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/api"
)

// The rules copy the contract's patterns, and the enumerations its values.
func TestRulesAgreeWithTheContract(t *testing.T) {
	spec, err := api.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	schemas := spec.Components.Schemas
	var areaCode string
	for _, p := range spec.Paths.Find("/v1/phone/available").Get.Parameters {
		if p.Value.Name == "areaCode" {
			areaCode = p.Value.Schema.Value.Pattern
		}
	}
	for rule, pattern := range map[*cmdutil.Rule]string{
		&PhoneNumber: schemas["RequestPhoneNumberVerificationRequest"].Value.Properties["phoneNumber"].Value.Pattern,
		&Code:        schemas["VerifyPhoneNumberRequest"].Value.Properties["code"].Value.Pattern,
		&AreaCode:    areaCode,
	} {
		if rule.Pattern != pattern {
			t.Errorf("%s: pattern %q, the contract's %q", rule.Name, rule.Pattern, pattern)
		}
	}
	for name, values := range map[string][]string{
		"CountryCode": strs(Countries), "PhoneNumberType": strs(Types), "PhoneVerificationMethod": strs(Methods),
	} {
		var want []string
		for _, v := range schemas[name].Value.Enum {
			want = append(want, v.(string))
		}
		if !slices.Equal(values, want) {
			t.Errorf("%s: the CLI takes %v, the contract %v", name, values, want)
		}
	}
}

func strs[T ~string](values []T) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return out
}

func ptr[T any](v T) *T { return &v }

func TestNewCmdSearch(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    SearchOptions
		wantErr string
	}{
		{name: "defaults", want: SearchOptions{Country: client.US, Type: client.Local, Limit: 20}},
		{name: "filters", args: []string{"--country", "GB", "--type", "toll_free", "--area-code", "808", "-L", "5", "--json"},
			want: SearchOptions{Country: client.GB, Type: client.TollFree, AreaCode: "808", Limit: 5, Output: cmdutil.Output{Format: "json"}}},
		{name: "bad country", args: []string{"--country", "FR"}, wantErr: `invalid country "FR": want US, CA or GB`},
		{name: "bad type", args: []string{"--type", "mobile"}, wantErr: `invalid type "mobile"`},
		{name: "bad area code", args: []string{"--area-code", "4a5"}, wantErr: "want 2 to 5 digits"},
		{name: "limit too big", args: []string{"--limit", "51"}, wantErr: "want a number from 1 to 50"},
		{name: "an argument", args: []string{"415"}, wantErr: `unexpected argument "415"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := clitest.NewFactory(t, clitest.Options{})
			var got *SearchOptions
			err := clitest.Run(NewCmdSearch(f, func(o *SearchOptions) error { got = o; return nil }), tt.args...)
			if clitest.CheckErr(t, err, tt.wantErr) {
				return
			}
			if got.Country != tt.want.Country || got.Type != tt.want.Type || got.AreaCode != tt.want.AreaCode || got.Limit != tt.want.Limit ||
				got.Output != tt.want.Output {
				t.Errorf("options %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestSearchRun(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/phone/available", clitest.Data(http.StatusOK, []client.AvailablePhoneNumber{
		{PhoneNumber: "+14155550123", CountryCode: client.US, Type: client.Local, AreaCode: ptr("415"), Locality: ptr("San Francisco"),
			Region: ptr("CA"), MonthlyPrice: 1, UpfrontPrice: 1},
		{PhoneNumber: "+14155550187", CountryCode: client.US, Type: client.Local, AreaCode: ptr("415"), MonthlyPrice: 1.2},
	}))
	clitest.GoldenOutputs(t, "search", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdSearch(f, nil) }, "--area-code", "415")
	if q := stub.Last().Query; q.Get("countryCode") != "US" || q.Get("type") != "local" || q.Get("areaCode") != "415" || q.Get("limit") != "20" {
		t.Errorf("query %v", q)
	}
}

func number(id, e164 string, own bool) client.PhoneNumber {
	n := client.PhoneNumber{Id: id, OrganizationId: "team-1", PhoneNumber: e164, Status: client.PhoneNumberStatusActive,
		IsNonTelnyxNumber: own, CountryCode: client.US, AreaCode: ptr("415"), CreatedAt: clitest.When, UpdatedAt: clitest.When}
	if own {
		s := client.PhoneVerificationStatusVerified
		n.VerificationStatus, n.VerifiedAt = &s, &clitest.When
	} else {
		n.Type, n.MonthlyPrice, n.AgentId, n.CampaignId = ptr(client.Local), ptr(1.0), ptr("agent-1"), ptr("campaign-1")
	}
	return n
}

func TestListRun(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/phone/my-numbers", clitest.Page([]client.PhoneNumber{
		number("phone-2", "+14155550142", true), number("phone-1", "+14155550123", false)}))
	clitest.GoldenOutputs(t, "list", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdList(f, nil) })
	if got := stub.Last().Query.Get("organizationId"); got != "team-1" {
		t.Errorf("organizationId = %q", got)
	}
}

func TestNewCmdBuy(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		wantErr string
	}{
		{args: []string{"+14155550123"}},
		{args: []string{"+14155550123", "--origin", "https://app.example.com"}},
		{args: []string{"4155550123"}, wantErr: `invalid phone number "4155550123": want an E.164 number`},
		{args: []string{"+1 415 555 0123"}, wantErr: "want an E.164 number"},
		{args: []string{}, wantErr: "give the number to buy"},
		{args: []string{"+14155550123", "--origin", "ftp://x"}, wantErr: "http:// or https://"},
	} {
		f, _ := clitest.NewFactory(t, clitest.Options{})
		var got *BuyOptions
		err := clitest.Run(NewCmdBuy(f, func(o *BuyOptions) error { got = o; return nil }), tt.args...)
		if clitest.CheckErr(t, err, tt.wantErr) {
			continue
		}
		if got.Number != "+14155550123" {
			t.Errorf("options %+v", got)
		}
	}
}

func TestBuyRun(t *testing.T) {
	t.Run("bought at once", func(t *testing.T) {
		stub := clitest.NewStub(t)
		n := number("phone-1", "+14155550123", false)
		stub.Handle("POST /v1/payment/intent/phone-number-monthly-subscription", clitest.Data(http.StatusCreated,
			client.CheckoutSession{Status: client.PaymentIntentStatusSucceeded, PhoneNumber: &n}))
		f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
		if err := clitest.Run(NewCmdBuy(f, nil), "+14155550123", "--json"); err != nil {
			t.Fatal(err)
		}
		clitest.Golden(t, "buy.json", s.Out.Bytes())
		if !strings.Contains(s.ErrOut.String(), "Bought +14155550123 for the team.") {
			t.Errorf("stderr %q", s.ErrOut)
		}
		var sent client.CreatePhoneNumberSubscriptionPaymentIntentRequest
		stub.Last().Decode(t, &sent)
		if sent.OrganizationId != "team-1" || sent.PhoneNumber != "+14155550123" || sent.OriginUrl != stub.URL+"/dashboard/phone-numbers" {
			t.Errorf("sent %+v", sent)
		}
	})
	t.Run("a checkout to pay", func(t *testing.T) {
		stub := clitest.NewStub(t)
		stub.Handle("POST /v1/payment/intent/phone-number-monthly-subscription", clitest.Data(http.StatusCreated,
			client.CheckoutSession{Status: client.PaymentIntentStatusPending, CheckoutUrl: ptr("https://checkout.example.com/c/pay/cs_1")}))
		f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
		if err := clitest.Run(NewCmdBuy(f, nil), "+14155550123", "--origin", "https://app.example.com/numbers"); err != nil {
			t.Fatal(err)
		}
		if s.Out.String() != "https://checkout.example.com/c/pay/cs_1\n" || !strings.Contains(s.ErrOut.String(), "Pay for +14155550123") {
			t.Errorf("stdout %q, stderr %q", s.Out, s.ErrOut)
		}
	})
	t.Run("payments not configured", func(t *testing.T) {
		stub := clitest.NewStub(t)
		stub.Handle("POST /v1/payment/intent/phone-number-monthly-subscription", clitest.Problem(http.StatusServiceUnavailable,
			client.ProblemCodePaymentsNotConfigured, "Buying a number from Telnyx needs a paid monthly phone-number subscription, and payments are not configured on this server: set --stripe-secret-key."))
		f, _ := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
		err := clitest.Run(NewCmdBuy(f, nil), "+14155550123")
		if err == nil || !strings.Contains(err.Error(), "phone-number subscription") || cmdutil.ExitCode(err) != cmdutil.ExitError {
			t.Fatalf("503: %v", err)
		}
	})
}

func TestReleaseRun(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("DELETE /v1/phone/number/phone-1", clitest.Data(http.StatusOK, client.Deleted{Id: "phone-1"}))
	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdRelease(f, nil), "phone-1"); cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Fatalf("without --yes and no terminal: %v", err)
	}
	if err := clitest.Run(NewCmdRelease(f, nil), "phone-1", "--yes"); err != nil {
		t.Fatal(err)
	}
	if last := stub.Last(); last.Query.Get("organizationId") != "team-1" || !strings.Contains(s.ErrOut.String(), "Released phone number phone-1.") {
		t.Errorf("sent %+v; stderr %q", last, s.ErrOut)
	}
}

func TestNewCmdVerify(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		method  client.PhoneVerificationMethod
		code    string
		wantErr string
	}{
		{args: []string{"+442079460123"}, method: client.Call},
		{args: []string{"+442079460123", "--method", "sms", "--code", "482913"}, method: client.Sms, code: "482913"},
		{args: []string{"+442079460123", "--method", "pigeon"}, wantErr: `invalid method "pigeon": want call or sms`},
		{args: []string{"+442079460123", "--code", "48-29"}, wantErr: "want the digits"},
		{args: []string{"020 7946 0123"}, wantErr: "want an E.164 number"},
	} {
		f, _ := clitest.NewFactory(t, clitest.Options{})
		var got *VerifyOptions
		err := clitest.Run(NewCmdVerify(f, func(o *VerifyOptions) error { got = o; return nil }), tt.args...)
		if clitest.CheckErr(t, err, tt.wantErr) {
			continue
		}
		if got.Number != "+442079460123" || got.Method != tt.method || got.Code != tt.code {
			t.Errorf("options %+v", got)
		}
	}
}

func TestVerifyRun(t *testing.T) {
	pending := client.PhoneNumberVerification{Id: "v-1", OrganizationId: "team-1", PhoneNumber: "+442079460123",
		Status: client.PhoneVerificationStatusPending, Method: client.Call, AttemptsLeft: 5, ExpiresAt: &clitest.When,
		CreatedAt: clitest.When, UpdatedAt: clitest.When}
	verified := pending
	verified.Status, verified.AttemptsLeft, verified.ExpiresAt, verified.VerifiedAt, verified.PhoneNumberId =
		client.PhoneVerificationStatusVerified, 0, nil, &clitest.When, ptr("phone-2")

	t.Run("asks for the code on a terminal, again after a wrong one", func(t *testing.T) {
		stub := clitest.NewStub(t)
		stub.Handle("POST /v1/phone/request-phone-number-verification", clitest.Data(http.StatusCreated, pending))
		tries := 0
		stub.Handle("POST /v1/phone/verify-phone-number", func(w http.ResponseWriter, r *http.Request) {
			if tries++; tries == 1 {
				clitest.Problem(http.StatusBadRequest, client.ProblemCodeValidationFailed, "This is not the code sent to +442079460123; 4 more tries.",
					client.FieldError{Field: "body.code", Message: "This is not the code sent to +442079460123; 4 more tries."})(w, r)
				return
			}
			clitest.Data(http.StatusOK, verified)(w, r)
		})
		f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL), TTY: true, Stdin: "12\n111111\n482913\n"})
		if err := clitest.Run(NewCmdVerify(f, nil), "+442079460123"); err != nil {
			t.Fatal(err)
		}
		errOut := s.ErrOut.String()
		for _, want := range []string{"The carrier is calling +442079460123 to read out a code", "want the digits", "4 more tries",
			"Verified +442079460123"} {
			if !strings.Contains(errOut, want) {
				t.Errorf("stderr has no %q: %s", want, errOut)
			}
		}
		var sent client.VerifyPhoneNumberRequest
		stub.Last().Decode(t, &sent)
		if tries != 2 || sent.Code != "482913" || sent.OrganizationId != "team-1" {
			t.Errorf("%d tries, last sent %+v", tries, sent)
		}
		clitest.Golden(t, "verify.table", s.Out.Bytes())
	})
	t.Run("without a terminal it only starts", func(t *testing.T) {
		stub := clitest.NewStub(t)
		stub.Handle("POST /v1/phone/request-phone-number-verification", clitest.Data(http.StatusCreated, pending))
		f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
		if err := clitest.Run(NewCmdVerify(f, nil), "+442079460123", "--method", "sms", "--json"); err != nil {
			t.Fatal(err)
		}
		var sent client.RequestPhoneNumberVerificationRequest
		stub.Last().Decode(t, &sent)
		if sent.Method == nil || *sent.Method != client.Sms || !strings.Contains(s.ErrOut.String(), "betty numbers verify +442079460123 --code <code>") {
			t.Errorf("sent %+v; stderr %q", sent, s.ErrOut)
		}
		clitest.Golden(t, "verify.json", s.Out.Bytes())
	})
	t.Run("--code completes", func(t *testing.T) {
		stub := clitest.NewStub(t)
		stub.Handle("POST /v1/phone/verify-phone-number", clitest.Data(http.StatusOK, verified))
		f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
		if err := clitest.Run(NewCmdVerify(f, nil), "+442079460123", "--code", "482913"); err != nil {
			t.Fatal(err)
		}
		if len(stub.Requests()) != 1 || !strings.Contains(s.ErrOut.String(), "Verified") {
			t.Errorf("requests %d; stderr %q", len(stub.Requests()), s.ErrOut)
		}
	})
}
