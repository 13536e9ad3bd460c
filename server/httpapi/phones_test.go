package httpapi_test

import (
	"context"
	"net/http"
	"net/url"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/internal/apitest"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/phones/telnyx/telnyxtest"
	"github.com/bettyhq/betty/server/store"
)

type availableJSON struct {
	PhoneNumber, CountryCode, Type string
	AreaCode, Locality, Region     *string
	MonthlyPrice, UpfrontPrice     float64
}

type phoneJSON struct {
	ID, OrganizationID, PhoneNumber, Status, CountryCode string
	IsNonTelnyxNumber                                    bool
	Type, AreaCode, AgentID, CampaignID                  *string
	MonthlyPrice                                         *float64
	VerificationStatus                                   *string
	VerifiedAt                                           *time.Time
}

type verificationJSON struct {
	ID, OrganizationID, PhoneNumber, Status, Method string
	AttemptsLeft                                    int
	ExpiresAt, VerifiedAt                           *time.Time
	PhoneNumberID                                   *string
}

// phoneAPI is a small client of the Phone operations for these tests.
type phoneAPI struct{ teamAPI }

func newPhoneAPI(t *testing.T, env *apitest.Env) phoneAPI { return phoneAPI{newTeamAPI(t, env)} }

func (a phoneAPI) search(token, query string) []string {
	a.t.Helper()
	var body struct{ Data []availableJSON }
	a.want(http.StatusOK, token, "GET", "/v1/phone/available"+query, nil, &body)
	out := make([]string, len(body.Data))
	for i, d := range body.Data {
		out[i] = d.PhoneNumber
	}
	return out
}

func (a phoneAPI) buy(c apitest.Caller, org, number string) phoneJSON {
	a.t.Helper()
	var body struct {
		Data struct {
			Status                             string
			ID, DbPaymentIntentID, CheckoutURL *string
			ExpiresAt                          *time.Time
			PhoneNumber                        *phoneJSON
		}
	}
	a.want(http.StatusCreated, c.Access, "POST", "/v1/payment/intent/phone-number-monthly-subscription",
		buyBody(org, number), &body)
	d := body.Data
	if d.Status != "succeeded" || d.CheckoutURL != nil || d.ID != nil || d.DbPaymentIntentID != nil || d.ExpiresAt != nil || d.PhoneNumber == nil {
		a.t.Fatalf("a free purchase answered %+v", d)
	}
	return *d.PhoneNumber
}

func buyBody(org, number string) map[string]any {
	return map[string]any{"organizationId": org, "phoneNumber": number, "originUrl": "http://betty.test/dashboard/phone-numbers"}
}

func (a phoneAPI) numbers(token, org string) []phoneJSON {
	a.t.Helper()
	var body struct{ Data []phoneJSON }
	a.want(http.StatusOK, token, "GET", "/v1/phone/my-numbers?sizePerPage=100&organizationId="+org, nil, &body)
	return body.Data
}

func (a phoneAPI) verifications(token, org string) []verificationJSON {
	a.t.Helper()
	var body struct{ Data []verificationJSON }
	a.want(http.StatusOK, token, "GET", "/v1/phone/get-verified-phone-numbers/"+org, nil, &body)
	return body.Data
}

func (a phoneAPI) requestVerification(token, org, number, method string) verificationJSON {
	a.t.Helper()
	body := map[string]any{"organizationId": org, "phoneNumber": number}
	if method != "" {
		body["method"] = method
	}
	var out struct{ Data verificationJSON }
	a.want(http.StatusCreated, token, "POST", "/v1/phone/request-phone-number-verification", body, &out)
	return out.Data
}

// simCode is the code the simulator "sent" to a number last: it writes it to the server log.
func (a phoneAPI) simCode(number string) string {
	a.t.Helper()
	re := regexp.MustCompile(`phone_number=` + regexp.QuoteMeta(number) + ` code=([0-9]{6})`)
	m := re.FindAllStringSubmatch(a.env.Logs.String(), -1)
	if len(m) == 0 {
		a.t.Fatalf("no verification code for %s in the log", number)
	}
	return m[len(m)-1][1]
}

// otherCode is a well-formed code that is not code.
func otherCode(code string) string {
	if code == "000000" {
		return "111111"
	}
	return "000000"
}

func (a phoneAPI) onboardingDone(token, org string) bool {
	a.t.Helper()
	var body struct {
		Data struct {
			Items []struct {
				Key  string
				Done bool
			}
		}
	}
	a.want(http.StatusOK, token, "GET", "/v1/team/onboarding/"+org, nil, &body)
	for _, it := range body.Data.Items {
		if it.Key == "phone-number-bought" {
			return it.Done
		}
	}
	a.t.Fatal("no phone-number-bought step")
	return false
}

// phoneNumberFixture gives team org a number of its own (verified) and answers its id.
func phoneNumberFixture(t *testing.T, env *apitest.Env, _ apitest.Caller, org string) map[string]string {
	t.Helper()
	at := time.Now().UTC()
	n := store.PhoneNumber{OrganizationID: org, E164: "+442079460999", Status: store.PhoneActive, IsNonTelnyx: true, CountryCode: "GB", VerifiedAt: &at}
	if err := env.DB.CreatePhoneNumber(context.Background(), &n); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"phoneNumberId": n.ID}
}

// member makes a signed-up user a member of org with a role.
func member(t *testing.T, env *apitest.Env, org, email, role string) apitest.Caller {
	t.Helper()
	c := env.SignUp(t, email)
	addMember(t, env, org, store.User{ID: c.UserID, Email: c.Email}, role)
	return c
}

func TestPhoneCatalogue(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newPhoneAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		key := env.APIKey(t, org, "readonly")

		var countries struct {
			Data []struct {
				CountryCode, Name, CallingCode string
				NumberTypes                    []struct {
					Type         string
					MonthlyPrice float64
				}
			}
		}
		a.want(http.StatusOK, key, "GET", "/v1/phone/supported-countries", nil, &countries)
		if len(countries.Data) != 3 || countries.Data[0].CountryCode != "US" || countries.Data[1].CallingCode != "+1" ||
			countries.Data[2].Name != "United Kingdom" || countries.Data[2].CallingCode != "+44" || len(countries.Data[0].NumberTypes) != 2 ||
			countries.Data[0].NumberTypes[1].Type != "toll_free" || countries.Data[0].NumberTypes[0].MonthlyPrice != 0 {
			t.Fatalf("countries: %+v", countries.Data)
		}

		// The default search: US, local, 20; the same again; any signed-in user or key.
		var found struct{ Data []availableJSON }
		a.want(http.StatusOK, ada.Access, "GET", "/v1/phone/available", nil, &found)
		if len(found.Data) != 20 {
			t.Fatalf("default search: %d numbers", len(found.Data))
		}
		for _, n := range found.Data {
			if n.CountryCode != "US" || n.Type != "local" || n.AreaCode == nil || !strings.HasPrefix(n.PhoneNumber, "+1"+*n.AreaCode+"55501") ||
				n.MonthlyPrice != 0 {
				t.Fatalf("default search answered %+v", n)
			}
		}
		first := a.search(ada.Access, "")
		if again := a.search(key, ""); strings.Join(first, ",") != strings.Join(again, ",") {
			t.Fatalf("the same search answered %v, then %v", first, again)
		}
		if got := a.search(ada.Access, "?countryCode=GB&type=toll_free&limit=3"); len(got) != 3 || !strings.HasPrefix(got[0], "+44808157") {
			t.Fatalf("GB toll-free: %v", got)
		}
		if got := a.search(ada.Access, "?countryCode=CA&areaCode=604&limit=50"); len(got) != 50 || !strings.HasPrefix(got[0], "+1604555") {
			t.Fatalf("Vancouver: %v", got)
		}
		if got := a.search(ada.Access, "?areaCode=999"); len(got) != 0 {
			t.Fatalf("no matches: %v", got)
		}
		for _, q := range []string{"?countryCode=FR", "?type=mobile", "?limit=0", "?limit=51", "?areaCode=4a5"} {
			a.problem(http.StatusBadRequest, ada.Access, "GET", "/v1/phone/available"+q, nil)
		}
		a.problem(http.StatusUnauthorized, "", "GET", "/v1/phone/available", nil)
	})
}

func TestBuyListReleaseSearchAgain(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newPhoneAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		dev := member(t, env, org, "dev@example.com", "developer")
		reader := member(t, env, org, "reader@example.com", "readonly")
		bob := env.SignUp(t, "bob@example.com")
		orgB := env.Team(t, bob, "Bob's")
		if a.onboardingDone(ada.Access, org) {
			t.Fatal("a new team has bought a number")
		}

		before := a.search(ada.Access, "?areaCode=415&limit=5")
		n := a.buy(ada, org, before[0])
		if n.PhoneNumber != before[0] || n.Status != "active" || n.IsNonTelnyxNumber || n.CountryCode != "US" || *n.Type != "local" ||
			*n.AreaCode != "415" || n.MonthlyPrice == nil || *n.MonthlyPrice != 0 || n.AgentID != nil || n.CampaignID != nil ||
			n.VerificationStatus != nil || n.OrganizationID != org {
			t.Fatalf("bought %+v", n)
		}
		if listed := a.numbers(reader.Access, org); len(listed) != 1 || !reflect.DeepEqual(listed[0], n) {
			t.Fatalf("listed %+v, bought %+v", listed, n)
		}
		if after := a.search(ada.Access, "?areaCode=415&limit=5"); after[0] == n.PhoneNumber || after[0] != before[1] {
			t.Fatalf("after buying %s the search answers %v (before %v)", n.PhoneNumber, after, before)
		}
		if !a.onboardingDone(reader.Access, org) {
			t.Fatal("buying a number did not tick the onboarding step")
		}

		// Nobody buys it twice; only admins buy, and never with an API key.
		if p := a.problem(http.StatusConflict, ada.Access, "POST", "/v1/payment/intent/phone-number-monthly-subscription", buyBody(org, n.PhoneNumber)); !strings.Contains(p.Detail, "already") {
			t.Fatalf("buying it again: %+v", p)
		}
		if p := a.problem(http.StatusConflict, bob.Access, "POST", "/v1/payment/intent/phone-number-monthly-subscription", buyBody(orgB, n.PhoneNumber)); !strings.Contains(p.Detail, "no longer on sale") {
			t.Fatalf("another team buying it: %+v", p)
		}
		a.problem(http.StatusForbidden, dev.Access, "POST", "/v1/payment/intent/phone-number-monthly-subscription", buyBody(org, before[1]))
		a.problem(http.StatusForbidden, env.APIKey(t, org, "admin"), "POST", "/v1/payment/intent/phone-number-monthly-subscription", buyBody(org, before[1]))
		bad := buyBody(org, before[1])
		bad["originUrl"] = "https://evil.example.com/phish"
		if p := a.problem(http.StatusUnprocessableEntity, ada.Access, "POST", "/v1/payment/intent/phone-number-monthly-subscription", bad); p.Errors[0].Field != "body.originUrl" {
			t.Fatalf("foreign origin: %+v", p)
		}
		a.problem(http.StatusUnprocessableEntity, ada.Access, "POST", "/v1/payment/intent/phone-number-monthly-subscription", buyBody(org, "+15555550100"))
		a.problem(http.StatusConflict, ada.Access, "POST", "/v1/payment/intent/phone-number-monthly-subscription", buyBody(org, "+14155551234"))

		// Release: admins only, by users; another team's id is missing; then it is on sale again.
		path := "/v1/phone/number/" + n.ID + "?organizationId=" + org
		a.problem(http.StatusForbidden, dev.Access, "DELETE", path, nil)
		a.problem(http.StatusNotFound, bob.Access, "DELETE", "/v1/phone/number/"+n.ID+"?organizationId="+orgB, nil)
		var deleted struct{ Data struct{ ID string } }
		a.want(http.StatusOK, ada.Access, "DELETE", path, nil, &deleted)
		if deleted.Data.ID != n.ID {
			t.Fatalf("deleted %+v", deleted)
		}
		a.problem(http.StatusNotFound, ada.Access, "DELETE", path, nil)
		if listed := a.numbers(ada.Access, org); len(listed) != 0 {
			t.Fatalf("after release: %+v", listed)
		}
		if again := a.search(bob.Access, "?areaCode=415&limit=5"); strings.Join(again, ",") != strings.Join(before, ",") {
			t.Fatalf("after release the search answers %v, want %v", again, before)
		}
		// The step stays done: the team did buy a number.
		if !a.onboardingDone(ada.Access, org) {
			t.Fatal("releasing the number undid the onboarding step")
		}
		// Bob buys it now.
		if got := a.buy(bob, orgB, n.PhoneNumber); got.OrganizationID != orgB {
			t.Fatalf("bob bought %+v", got)
		}
	})
}

// A number assigned to a campaign is not released; once unassigned it is, and the agent call
// configuration using it goes with it.
func TestReleaseRefusedWhileAssignedToACampaign(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newPhoneAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		n := a.buy(ada, org, a.search(ada.Access, "?countryCode=GB&limit=1")[0])
		a.raw(`INSERT INTO campaigns (id, organization_id, name, name_folded, direction, status, priority, purpose, settings, phone_number_id, phone_assigned_at, created_at, updated_at)
			VALUES ('campaign-1', '` + org + `', 'Spring renewals', 'spring renewals', 'outbound', 'draft', 'medium', 'Other', '{}', '` + n.ID + `', '2026-01-03 00:00:00+00:00', '2026-01-03 00:00:00+00:00', '2026-01-03 00:00:00+00:00')`)
		a.raw(`INSERT INTO agent_profiles (id, organization_id, name, status, language, created_at, updated_at)
			VALUES ('agent-1', '` + org + `', 'Ava', 'active', 'en-GB', '2026-01-03 00:00:00+00:00', '2026-01-03 00:00:00+00:00')`)
		a.raw(`INSERT INTO agent_call_configs (id, organization_id, agent_id, phone_number_id, created_at, updated_at)
			VALUES ('callconfig-1', '` + org + `', 'agent-1', '` + n.ID + `', '2026-01-03 00:00:00+00:00', '2026-01-03 00:00:00+00:00')`)

		listed := a.numbers(ada.Access, org)
		if len(listed) != 1 || listed[0].CampaignID == nil || *listed[0].CampaignID != "campaign-1" || listed[0].AgentID == nil || *listed[0].AgentID != "agent-1" {
			t.Fatalf("listed %+v", listed)
		}
		path := "/v1/phone/number/" + n.ID + "?organizationId=" + org
		if p := a.problem(http.StatusConflict, ada.Access, "DELETE", path, nil); !strings.Contains(p.Detail, `"Spring renewals"`) || p.Code != "conflict" {
			t.Fatalf("releasing an assigned number: %+v", p)
		}
		if got := a.numbers(ada.Access, org); len(got) != 1 {
			t.Fatalf("the refused release removed the number: %+v", got)
		}
		a.raw(`UPDATE campaigns SET phone_number_id = NULL WHERE id = 'campaign-1'`)
		a.want(http.StatusOK, ada.Access, "DELETE", path, nil, nil)
		var configs int
		if err := env.DB.Writer().QueryRowContext(context.Background(), `SELECT COUNT(*) FROM agent_call_configs WHERE id = 'callconfig-1'`).Scan(&configs); err != nil || configs != 0 {
			t.Fatalf("agent call configurations left: %d %v", configs, err)
		}
	})
}

func TestVerifyANumberOfTheTeamsOwn(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newPhoneAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		mem := member(t, env, org, "member@example.com", "member")
		reader := member(t, env, org, "reader@example.com", "readonly")
		key := env.APIKey(t, org, "member")
		const own = "+442079460123"
		submit := func(token, number, code string) *apitest.Response {
			return a.do(token, "POST", "/v1/phone/verify-phone-number", map[string]any{"organizationId": org, "phoneNumber": number, "code": code})
		}

		a.problem(http.StatusForbidden, reader.Access, "POST", "/v1/phone/request-phone-number-verification",
			map[string]any{"organizationId": org, "phoneNumber": own})
		if res := submit(mem.Access, own, "123456"); res.Status != http.StatusNotFound {
			t.Fatalf("a code before any request: %d %s", res.Status, res.Body)
		}
		start := time.Now()
		v := a.requestVerification(mem.Access, org, own, "")
		if v.Status != "pending" || v.Method != "call" || v.AttemptsLeft != 5 || v.ExpiresAt == nil || v.VerifiedAt != nil ||
			v.PhoneNumberID != nil || v.PhoneNumber != own || v.ExpiresAt.Sub(start) < 9*time.Minute || v.ExpiresAt.Sub(start) > 11*time.Minute {
			t.Fatalf("requested %+v", v)
		}
		code := a.simCode(own)
		wrong := otherCode(code)
		res := submit(key, own, wrong)
		if res.Status != http.StatusBadRequest {
			t.Fatalf("a wrong code: %d %s", res.Status, res.Body)
		}
		if p := res.Problem(t); p.Errors[0].Field != "body.code" || !strings.Contains(p.Detail, "4 more tries") {
			t.Fatalf("a wrong code: %+v", p)
		}
		if vs := a.verifications(reader.Access, org); len(vs) != 1 || vs[0].Status != "pending" || vs[0].AttemptsLeft != 4 {
			t.Fatalf("after a wrong code: %+v", vs)
		}
		var done struct{ Data verificationJSON }
		res = submit(mem.Access, own, code)
		if res.Status != http.StatusOK {
			t.Fatalf("the right code: %d %s", res.Status, res.Body)
		}
		res.JSON(t, &done)
		if d := done.Data; d.Status != "verified" || d.VerifiedAt == nil || d.PhoneNumberID == nil || d.ExpiresAt != nil || d.AttemptsLeft != 0 {
			t.Fatalf("verified %+v", d)
		}
		listed := a.numbers(reader.Access, org)
		if len(listed) != 1 {
			t.Fatalf("listed %+v", listed)
		}
		n := listed[0]
		if n.ID != *done.Data.PhoneNumberID || n.PhoneNumber != own || !n.IsNonTelnyxNumber || n.Status != "active" || n.CountryCode != "GB" ||
			n.Type != nil || n.AreaCode == nil || *n.AreaCode != "20" || n.MonthlyPrice != nil || n.VerificationStatus == nil ||
			*n.VerificationStatus != "verified" || n.VerifiedAt == nil {
			t.Fatalf("the verified number: %+v", n)
		}
		if a.onboardingDone(ada.Access, org) {
			t.Fatal("verifying a number ticked 'buy a phone number'")
		}
		// Done once: the number is the team's, and the code is spent.
		a.problem(http.StatusConflict, mem.Access, "POST", "/v1/phone/request-phone-number-verification",
			map[string]any{"organizationId": org, "phoneNumber": own})
		if res := submit(mem.Access, own, code); res.Status != http.StatusConflict {
			t.Fatalf("the code again: %d %s", res.Status, res.Body)
		}

		// By text; a new request replaces the pending one; five wrong codes fail it.
		const other = "+16045550150"
		first := a.requestVerification(key, org, other, "sms")
		second := a.requestVerification(mem.Access, org, other, "sms")
		vs := a.verifications(ada.Access, org)
		if len(vs) != 3 || vs[0].ID != second.ID || vs[0].Method != "sms" || vs[1].ID != first.ID || vs[1].Status != "expired" || vs[1].ExpiresAt != nil {
			t.Fatalf("verifications: %+v", vs)
		}
		code = a.simCode(other)
		wrong = otherCode(code)
		for i := 1; i <= 5; i++ {
			res := submit(mem.Access, other, wrong)
			if res.Status != http.StatusBadRequest {
				t.Fatalf("wrong code %d: %d %s", i, res.Status, res.Body)
			}
			if i == 5 && !strings.Contains(res.Problem(t).Detail, "last try") {
				t.Fatalf("the fifth wrong code: %s", res.Body)
			}
		}
		if p := a.problem(http.StatusUnprocessableEntity, mem.Access, "POST", "/v1/phone/verify-phone-number",
			map[string]any{"organizationId": org, "phoneNumber": other, "code": code}); !strings.Contains(p.Detail, "failed") {
			t.Fatalf("the right code after five wrong ones: %+v", p)
		}
		if vs := a.verifications(ada.Access, org); vs[0].Status != "failed" || vs[0].AttemptsLeft != 0 {
			t.Fatalf("failed: %+v", vs[0])
		}

		// Each request rings someone: five an hour per number.
		for range 3 {
			a.requestVerification(mem.Access, org, other, "call")
		}
		res = a.do(mem.Access, "POST", "/v1/phone/request-phone-number-verification", map[string]any{"organizationId": org, "phoneNumber": other})
		if res.Status != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" {
			t.Fatalf("a sixth request within the hour: %d %s", res.Status, res.Body)
		}
		// Numbers that are not numbers of a supported country.
		for _, n := range []string{"+15555550100", "+33142685300"} {
			a.problem(http.StatusUnprocessableEntity, mem.Access, "POST", "/v1/phone/request-phone-number-verification",
				map[string]any{"organizationId": org, "phoneNumber": n})
		}
		a.problem(http.StatusBadRequest, mem.Access, "POST", "/v1/phone/request-phone-number-verification",
			map[string]any{"organizationId": org, "phoneNumber": own, "method": "pigeon"})
		a.problem(http.StatusBadRequest, mem.Access, "POST", "/v1/phone/verify-phone-number",
			map[string]any{"organizationId": org, "phoneNumber": own, "code": "12ab"})

		// Removing the verified number: an admin may, and it can be verified again.
		a.want(http.StatusOK, ada.Access, "DELETE", "/v1/phone/number/"+n.ID+"?organizationId="+org, nil, nil)
		if vs := a.verifications(ada.Access, org); vs[len(vs)-1].PhoneNumberID != nil {
			t.Fatalf("the verification still points at the removed number: %+v", vs[len(vs)-1])
		}
		a.requestVerification(mem.Access, org, own, "call")
	})
}

// With a Telnyx account, numbers cost money: on a server without Stripe, buying is a 503
// payments_not_configured naming the setting (payments_test.go buys one through Stripe). Searches and verification go through Telnyx; its failures are 503s
// in Betty's words.
func TestTelnyxNeedsAPhoneNumberSubscription(t *testing.T) {
	for _, d := range testdb.Dialects() {
		t.Run(string(d), func(t *testing.T) {
			fake := telnyxtest.Start(t, "KEY-test")
			fake.AddAvailable(telnyxtest.Available{PhoneNumber: "+13125550101", Country: "US", Type: "local", AreaCode: "312",
				RateCenter: "CHICAGO ZONE 02", State: "IL", Monthly: "1.00000", Upfront: "1.00000"})
			env := apitest.New(t, d, apitest.WithConfig(func(c *config.Config) {
				c.TelnyxAPIKey, c.TelnyxAPIURL, c.TelnyxConnectionID = "KEY-test", fake.URL(), "1494404757140276705"
			}))
			a := newPhoneAPI(t, env)
			ada := env.SignUp(t, "ada@example.com")
			org := env.Team(t, ada, "Acme")

			var found struct{ Data []availableJSON }
			a.want(http.StatusOK, ada.Access, "GET", "/v1/phone/available?areaCode=312", nil, &found)
			if len(found.Data) != 1 || found.Data[0].MonthlyPrice != 1 || found.Data[0].UpfrontPrice != 1 || *found.Data[0].Locality != "Chicago Zone 02" {
				t.Fatalf("search through Telnyx: %+v", found.Data)
			}
			p := a.problem(http.StatusServiceUnavailable, ada.Access, "POST", "/v1/payment/intent/phone-number-monthly-subscription",
				buyBody(org, "+13125550101"))
			if p.Code != "payments_not_configured" || !strings.Contains(p.Detail, "subscription") || !strings.Contains(p.Detail, "--stripe-secret-key") {
				t.Fatalf("buying with Telnyx: %+v", p)
			}
			if owned := fake.Owned(); len(owned) != 0 {
				t.Fatalf("a number was ordered: %v", owned)
			}

			// Verification through Telnyx.
			const own = "+13125550199"
			v := a.requestVerification(ada.Access, org, own, "sms")
			if v.Method != "sms" || fake.Code(own) == "" {
				t.Fatalf("requested %+v, code %q", v, fake.Code(own))
			}
			a.want(http.StatusOK, ada.Access, "POST", "/v1/phone/verify-phone-number",
				map[string]any{"organizationId": org, "phoneNumber": own, "code": fake.Code(own)}, nil)
			if !fake.Verified(own) {
				t.Fatal("not verified at Telnyx")
			}
			n := a.numbers(ada.Access, org)[0]
			a.want(http.StatusOK, ada.Access, "DELETE", "/v1/phone/number/"+n.ID+"?organizationId="+org, nil, nil)
			if fake.Verified(own) {
				t.Fatal("a removed verified number is still verified at Telnyx")
			}

			// Telnyx failing: Betty's words, not Telnyx's, and a Retry-After.
			for status, want := range map[int]string{500: "did not answer", 401: "refused this server's credentials"} {
				fake.Fail(http.MethodGet, "/available_phone_numbers", status,
					telnyxtest.ErrorObject{Code: "10007", Title: "Unexpected error", Detail: "secret internal detail"})
				res := a.do(ada.Access, "GET", "/v1/phone/available", nil)
				if res.Status != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
					t.Fatalf("Telnyx answering %d: %d %s", status, res.Status, res.Body)
				}
				if p := res.Problem(t); !strings.Contains(p.Detail, want) || strings.Contains(string(res.Body), "secret") || p.Code != "unavailable" {
					t.Fatalf("Telnyx answering %d: %+v", status, p)
				}
			}
			fake.Fail(http.MethodPost, "/verified_numbers", http.StatusUnprocessableEntity,
				telnyxtest.ErrorObject{Code: "10015", Title: "Invalid value", Detail: "secret", Source: map[string]string{"pointer": "/phone_number"}})
			if p := a.problem(http.StatusUnprocessableEntity, ada.Access, "POST", "/v1/phone/request-phone-number-verification",
				map[string]any{"organizationId": org, "phoneNumber": "+13125550198"}); !strings.Contains(p.Detail, "could not call") {
				t.Fatalf("Telnyx refusing to call: %+v", p)
			}
			if !strings.Contains(env.Logs.String(), "secret internal detail") {
				t.Fatal("Telnyx's words are not in the log")
			}
		})
	}
}

// The simulator's codes are only in the log: a regression here would leak them to clients.
func TestVerificationCodesAreNeverAnswered(t *testing.T) {
	env := apitest.New(t, store.SQLite)
	a := newPhoneAPI(t, env)
	ada := env.SignUp(t, "ada@example.com")
	org := env.Team(t, ada, "Acme")
	res := a.do(ada.Access, "POST", "/v1/phone/request-phone-number-verification", map[string]any{"organizationId": org, "phoneNumber": "+14155550142"})
	code := a.simCode("+14155550142")
	list := a.do(ada.Access, "GET", "/v1/phone/get-verified-phone-numbers/"+url.PathEscape(org), nil)
	if strings.Contains(string(res.Body), code) || strings.Contains(string(list.Body), code) {
		t.Fatalf("the code %s is in an answer: %s %s", code, res.Body, list.Body)
	}
}
