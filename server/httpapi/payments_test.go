package httpapi_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/billing"
	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/internal/apitest"
	"github.com/bettyhq/betty/server/internal/stripetest"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/phones/telnyx/telnyxtest"
	"github.com/bettyhq/betty/server/store"
)

const webhookSecret = "whsec_betty_test"

// withStripe points the server at stripe-mock (skipped loudly without it, failing in CI).
func withStripe(t *testing.T) apitest.Option {
	u := stripetest.URL(t)
	return apitest.WithConfig(func(c *config.Config) {
		c.StripeSecretKey, c.StripeAPIURL, c.StripeWebhookSecret = stripetest.Key, u, webhookSecret
		c.TrialCodes, c.SalesContact = map[string]int{"trial14": 14}, "sales@betty.test"
	})
}

type payAPI struct{ teamAPI }

type checkoutJSON struct {
	ID, DbPaymentIntentId, CheckoutUrl, Status string
	ExpiresAt                                  *time.Time
}

func (a payAPI) buyCredits(c apitest.Caller, org string, n int) checkoutJSON {
	a.t.Helper()
	var body struct{ Data checkoutJSON }
	a.want(http.StatusCreated, c.Access, "POST", "/v1/payment/intent/credits",
		map[string]any{"organizationId": org, "credits": n, "originUrl": "http://betty.test/dashboard/billing?tab=credits"}, &body)
	return body.Data
}

func (a payAPI) credits(c apitest.Caller, org string) (balance float64, tier string, end *time.Time) {
	a.t.Helper()
	var body struct {
		Data struct {
			Balance           float64
			SubscriptionTier  string
			SubscriptionEndAt *time.Time
		}
	}
	a.want(http.StatusOK, c.Access, "GET", "/v1/team/subscription-credits?organizationId="+org, nil, &body)
	return body.Data.Balance, body.Data.SubscriptionTier, body.Data.SubscriptionEndAt
}

type statusJSON struct {
	SubscriptionTier, Status string
	CurrentPeriodEnd         *time.Time
	TrialEndsAt              *time.Time
}

func (a payAPI) status(c apitest.Caller, org string) statusJSON {
	a.t.Helper()
	var body struct{ Data statusJSON }
	a.want(http.StatusOK, c.Access, "GET", "/v1/team/subscription/status?organizationId="+org, nil, &body)
	return body.Data
}

// deliver posts a Stripe event signed with secret at time at, the way Stripe does.
func (a payAPI) deliver(id, typ string, obj map[string]any, secret string, at time.Time) *apitest.Response {
	a.t.Helper()
	payload, _ := json.Marshal(map[string]any{"id": id, "object": "event", "type": typ, "created": at.Unix(),
		"data": map[string]any{"object": obj}})
	return a.env.Do(apitest.Request{Method: "POST", Path: "/v1/webhooks/stripe", Body: payload,
		Header: http.Header{"Stripe-Signature": {stripetest.Sign(payload, secret, at)}}})
}

func (a payAPI) event(id, typ string, obj map[string]any) {
	a.t.Helper()
	if res := a.deliver(id, typ, obj, webhookSecret, time.Now()); res.Status != http.StatusOK {
		a.t.Fatalf("%s %s: %d %s", typ, id, res.Status, res.Body)
	}
}

func meta(org, intent, kind string, extra ...string) map[string]any {
	m := map[string]any{"betty_organization_id": org, "betty_payment_intent_id": intent, "betty_kind": kind}
	for i := 0; i+1 < len(extra); i += 2 {
		m[extra[i]] = extra[i+1]
	}
	return m
}

func ledger(t *testing.T, env *apitest.Env, org string) []store.LedgerEntry {
	t.Helper()
	l, err := env.DB.CreditLedger(context.Background(), org)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// Without Stripe nothing pretends to charge: purchases, the portal and webhooks answer 503
// payments_not_configured naming the setting, and a site admin grants credits instead.
func TestPaymentsNotConfigured(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := payAPI{newTeamAPI(t, env)}
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		for _, c := range []struct {
			method, path, setting string
			body                  any
		}{
			{"POST", "/v1/payment/intent/credits", "--stripe-secret-key", map[string]any{"organizationId": org, "credits": 50, "originUrl": "http://betty.test/dashboard/billing"}},
			{"POST", "/v1/payment/intent/tier-subscription", "--stripe-secret-key", map[string]any{"organizationId": org, "targetTierType": "tier1", "originUrl": "http://betty.test/dashboard/billing"}},
			{"GET", "/v1/payment/stripe/manage-team-subscription-link?organizationId=" + org, "--stripe-secret-key", nil},
		} {
			p := a.problem(http.StatusServiceUnavailable, ada.Access, c.method, c.path, c.body)
			if p.Code != "payments_not_configured" || !strings.Contains(p.Detail, c.setting) {
				t.Fatalf("%s: %+v", c.path, p)
			}
		}
		res := a.deliver("evt_1", "payment_intent.succeeded", map[string]any{"id": "pi_1"}, "whsec_x", time.Now())
		if p := res.Problem(t); res.Status != http.StatusServiceUnavailable || !strings.Contains(p.Detail, "--stripe-webhook-secret") {
			t.Fatalf("webhook: %d %+v", res.Status, p)
		}

		// A site admin grants credits: the ledger has the grant and who made it.
		admin := env.SignUp(t, "root@example.com")
		if _, err := env.DB.SetSiteAdmin(context.Background(), admin.Email, true); err != nil {
			t.Fatal(err)
		}
		a.problem(http.StatusForbidden, ada.Access, "POST", "/v1/admin/organization/grant-credits?credits=5&organizationId="+org, nil)
		var body struct{ Data struct{ Balance float64 } }
		a.want(http.StatusOK, admin.Access, "POST", "/v1/admin/organization/grant-credits?credits=25&organizationId="+org, nil, &body)
		if body.Data.Balance != 25 {
			t.Fatalf("balance after the grant: %v", body.Data.Balance)
		}
		if l := ledger(t, env, org); len(l) != 1 || l[0].Reason != "grant" || l[0].Amount != 25 || *l[0].ActorUserID != admin.UserID {
			t.Fatalf("ledger: %+v", l)
		}
		a.problem(http.StatusNotFound, admin.Access, "POST", "/v1/admin/organization/grant-credits?credits=25&organizationId=nope", nil)
	})
}

// Credits through Stripe Checkout (stripe-mock), settled by signed webhooks: a valid event adds
// the credits once; a wrong secret, a stale timestamp and a replay change nothing.
func TestCreditsThroughStripe(t *testing.T) {
	opt := withStripe(t)
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := payAPI{newTeamAPI(t, env)}
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")

		c := a.buyCredits(ada, org, 50)
		if c.Status != "pending" || c.DbPaymentIntentId == "" || c.CheckoutUrl == "" || !strings.HasPrefix(c.ID, "cs_") || c.ExpiresAt == nil {
			t.Fatalf("checkout: %+v", c)
		}
		p := a.problem(http.StatusUnprocessableEntity, ada.Access, "POST", "/v1/payment/intent/credits",
			map[string]any{"organizationId": org, "credits": 50, "originUrl": "https://evil.example/"})
		if len(p.Errors) != 1 || p.Errors[0].Field != "body.originUrl" {
			t.Fatalf("foreign origin: %+v", p)
		}

		paid := map[string]any{"id": c.ID, "object": "checkout.session", "payment_status": "paid", "mode": "payment",
			"metadata": meta(org, c.DbPaymentIntentId, "credits")}
		// Forged and stale events are refused and change nothing.
		if res := a.deliver("evt_forged", "checkout.session.completed", paid, "whsec_wrong", time.Now()); res.Status != http.StatusUnauthorized {
			t.Fatalf("wrong secret: %d %s", res.Status, res.Body)
		}
		if res := a.deliver("evt_stale", "checkout.session.completed", paid, webhookSecret, time.Now().Add(-301*time.Second)); res.Status != http.StatusUnauthorized {
			t.Fatalf("stale: %d %s", res.Status, res.Body)
		}
		res := env.Do(apitest.Request{Method: "POST", Path: "/v1/webhooks/stripe", Body: `{"id":"evt_x"}`,
			Header: http.Header{"Stripe-Signature": {"garbage"}}})
		if res.Status != http.StatusBadRequest {
			t.Fatalf("malformed signature: %d %s", res.Status, res.Body)
		}
		if b, _, _ := a.credits(ada, org); b != 0 || len(ledger(t, env, org)) != 0 {
			t.Fatalf("credits after refused events: %v", b)
		}

		// The team is a Stripe customer now: its billing address goes to its invoices too.
		a.want(http.StatusOK, ada.Access, "POST", "/v1/team/subscription-credits/billing-address", map[string]any{"organizationId": org,
			"billingAddress": map[string]any{"line1": "1 Main St", "city": "New York", "state": "NY", "postalCode": "10001", "country": "US"}}, nil)

		a.event("evt_paid", "checkout.session.completed", paid)
		a.event("evt_paid", "checkout.session.completed", paid) // Stripe retries: handled once
		// The payment intent's own event comes too, in any order: it finds the intent settled.
		a.event("evt_pi", "payment_intent.succeeded", map[string]any{"id": "pi_1", "object": "payment_intent", "status": "succeeded",
			"metadata": meta(org, c.DbPaymentIntentId, "credits")})
		if b, _, _ := a.credits(ada, org); b != 50 {
			t.Fatalf("balance: %v", b)
		}
		if l := ledger(t, env, org); len(l) != 1 || l[0].Reason != "purchase" || l[0].Amount != 50 || *l[0].PaymentIntentID != c.DbPaymentIntentId {
			t.Fatalf("ledger: %+v", l)
		}
		// The user comes back: the intent is succeeded already; reporting it again is a no-op.
		var in struct {
			Data struct {
				Status, Kind string
				Credits      int
			}
		}
		a.want(http.StatusOK, ada.Access, "PATCH", "/v1/payment/intent/status",
			map[string]any{"dbPaymentIntentId": c.DbPaymentIntentId, "status": "succeeded"}, &in)
		if in.Data.Status != "succeeded" || in.Data.Kind != "credits" || in.Data.Credits != 50 {
			t.Fatalf("intent: %+v", in.Data)
		}

		// A second checkout the user leaves: cancelled at Stripe and here; then it cannot succeed.
		c2 := a.buyCredits(ada, org, 10)
		a.want(http.StatusOK, ada.Access, "PATCH", "/v1/payment/intent/status",
			map[string]any{"dbPaymentIntentId": c2.DbPaymentIntentId, "status": "cancelled"}, &in)
		if in.Data.Status != "cancelled" {
			t.Fatalf("cancelled: %+v", in.Data)
		}
		a.problem(http.StatusUnprocessableEntity, ada.Access, "PATCH", "/v1/payment/intent/status",
			map[string]any{"dbPaymentIntentId": c2.DbPaymentIntentId, "status": "succeeded"})
		// A client may only report succeeded or cancelled.
		a.problem(http.StatusBadRequest, ada.Access, "PATCH", "/v1/payment/intent/status",
			map[string]any{"dbPaymentIntentId": c2.DbPaymentIntentId, "status": "failed"})
		// stripe-mock's sessions are never paid: a claimed success is not believed.
		c3 := a.buyCredits(ada, org, 10)
		a.problem(http.StatusUnprocessableEntity, ada.Access, "PATCH", "/v1/payment/intent/status",
			map[string]any{"dbPaymentIntentId": c3.DbPaymentIntentId, "status": "succeeded"})
		if b, _, _ := a.credits(ada, org); b != 50 {
			t.Fatalf("balance after the unpaid claims: %v", b)
		}
	}, opt)
}

// A tier subscription: trial from its code, tier4 goes to sales, events in any order extend
// the paid period, a failed renewal marks the team past due, deletion drops it to free; the
// portal opens on each flow.
func TestTierSubscriptionThroughStripe(t *testing.T) {
	opt := withStripe(t)
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := payAPI{newTeamAPI(t, env)}
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		body := func(tier, trial string) map[string]any {
			b := map[string]any{"organizationId": org, "targetTierType": tier, "originUrl": "http://betty.test/dashboard/billing",
				"intervalType": "monthly"}
			if trial != "" {
				b["trialPeriodCode"] = trial
			}
			return b
		}
		p := a.problem(http.StatusUnprocessableEntity, ada.Access, "POST", "/v1/payment/intent/tier-subscription", body("tier4", ""))
		if !strings.Contains(p.Detail, "sales@betty.test") {
			t.Fatalf("tier4: %+v", p)
		}
		a.problem(http.StatusUnprocessableEntity, ada.Access, "POST", "/v1/payment/intent/tier-subscription", body("tier1", "nope"))
		// No customer yet: nothing to manage.
		a.problem(http.StatusUnprocessableEntity, ada.Access, "GET", "/v1/payment/stripe/manage-team-subscription-link?organizationId="+org, nil)

		var started struct{ Data checkoutJSON }
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/payment/intent/tier-subscription", body("tier1", "trial14"), &started)
		c := started.Data
		m := meta(org, c.DbPaymentIntentId, "tier-subscription", "betty_tier", "tier1")
		periodEnd := time.Now().Add(30 * 24 * time.Hour).Truncate(time.Second).UTC()
		invoice := func(id string, end time.Time) map[string]any {
			return map[string]any{"id": id, "object": "invoice", "subscription": "sub_1", "subscription_details": map[string]any{"metadata": m},
				"lines": map[string]any{"object": "list", "data": []any{map[string]any{"id": "il_" + id, "object": "line_item",
					"period": map[string]any{"start": time.Now().Unix(), "end": end.Unix()}}}}}
		}
		// The invoice comes before the checkout's event: it settles the intent by itself.
		a.event("evt_inv1", "invoice.paid", invoice("in_1", periodEnd))
		a.event("evt_cs", "checkout.session.completed", map[string]any{"id": c.ID, "object": "checkout.session", "payment_status": "paid",
			"mode": "subscription", "subscription": "sub_1", "metadata": m})
		_, tier, end := a.credits(ada, org)
		if tier != "tier1" || end == nil || !end.Equal(periodEnd) {
			t.Fatalf("after paying: %s until %v, want %v", tier, end, periodEnd)
		}
		if s := a.status(ada, org); s.Status != "trialing" || s.TrialEndsAt == nil || s.SubscriptionTier != "tier1" {
			t.Fatalf("status: %+v", s)
		}
		a.problem(http.StatusConflict, ada.Access, "POST", "/v1/payment/intent/tier-subscription", body("tier2", ""))

		for _, flow := range []string{"", "&flowType=payment_method_update", "&flowType=subscription_cancel", "&flowType=subscription_update"} {
			var link struct {
				Data struct {
					Url       string
					ExpiresAt time.Time
				}
			}
			a.want(http.StatusOK, ada.Access, "GET", "/v1/payment/stripe/manage-team-subscription-link?organizationId="+org+flow, nil, &link)
			if link.Data.Url == "" || !link.Data.ExpiresAt.After(time.Now()) {
				t.Fatalf("portal %s: %+v", flow, link.Data)
			}
		}

		// A failed renewal of the next period: past due (the dashboard's banner), tier kept.
		next := periodEnd.Add(30 * 24 * time.Hour)
		a.event("evt_fail", "invoice.payment_failed", invoice("in_2", next))
		if s := a.status(ada, org); s.Status != "past_due" || s.SubscriptionTier != "tier1" {
			t.Fatalf("past due: %+v", s)
		}
		// A late failure of a period already paid changes nothing; the retry that succeeds
		// extends the period and clears it.
		a.event("evt_inv2", "invoice.paid", invoice("in_2", next))
		a.event("evt_fail_old", "invoice.payment_failed", invoice("in_1", periodEnd))
		if _, _, end := a.credits(ada, org); end == nil || !end.Equal(next) {
			t.Fatalf("extended to %v, want %v", end, next)
		}
		if s := a.status(ada, org); s.Status != "active" {
			t.Fatalf("after the retry: %+v", s)
		}

		// Cancelled in the portal: Stripe deletes the subscription at the period end.
		a.event("evt_del", "customer.subscription.deleted", map[string]any{"id": "sub_1", "object": "subscription", "status": "canceled",
			"ended_at": time.Now().Unix(), "metadata": m})
		if _, tier, _ := a.credits(ada, org); tier != "free" {
			t.Fatalf("after deletion: %s", tier)
		}
		if s := a.status(ada, org); s.Status != "cancelled" {
			t.Fatalf("status after deletion: %+v", s)
		}
		// A late invoice of the ended subscription does not bring it back.
		a.event("evt_inv_late", "invoice.paid", invoice("in_3", next.Add(30*24*time.Hour)))
		if _, tier, _ := a.credits(ada, org); tier != "free" {
			t.Fatalf("after a late invoice: %s", tier)
		}
		a.problem(http.StatusUnprocessableEntity, ada.Access, "GET", "/v1/payment/stripe/manage-team-subscription-link?organizationId="+org+"&flowType=subscription_cancel", nil)
		// A second subscription gets no second trial.
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/payment/intent/tier-subscription", body("tier2", "trial14"), &started)
		var in struct{ Data struct{ Amount float64 } }
		a.want(http.StatusOK, ada.Access, "PATCH", "/v1/payment/intent/status",
			map[string]any{"dbPaymentIntentId": started.Data.DbPaymentIntentId, "status": "cancelled"}, &in)
		if in.Data.Amount != 149 {
			t.Fatalf("second subscription amount due now: %v", in.Data.Amount)
		}
	}, opt)
}

// Who may spend and who may look: owners and admins buy; developers see billing; members and
// read-only users neither buy nor see it.
func TestBillingRoles(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := payAPI{newTeamAPI(t, env)}
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		users := map[string]apitest.Caller{}
		for _, role := range []string{"admin", "developer", "member", "readonly"} {
			c := env.SignUp(t, role+"@example.com")
			a.join(ada, org, c, role)
			users[role] = c
		}
		buy := []struct {
			method, path string
			body         any
		}{
			{"POST", "/v1/payment/intent/credits", map[string]any{"organizationId": org, "credits": 50, "originUrl": "http://betty.test/dashboard/billing"}},
			{"POST", "/v1/payment/intent/tier-subscription", map[string]any{"organizationId": org, "targetTierType": "tier1", "originUrl": "http://betty.test/dashboard/billing"}},
			{"POST", "/v1/payment/intent/phone-number-monthly-subscription", map[string]any{"organizationId": org, "phoneNumber": "+14155550199", "originUrl": "http://betty.test/dashboard/billing"}},
			{"GET", "/v1/payment/stripe/manage-team-subscription-link?organizationId=" + org, nil},
		}
		views := []string{"/v1/team/subscription-credits?organizationId=" + org, "/v1/team/subscription/status?organizationId=" + org,
			"/v1/team/subscription-credits/billing-address?organizationId=" + org, "/v1/team/team-costs-usage/" + org,
			"/v1/payment/subscriptions/phone-number?organizationId=" + org}
		for _, role := range []string{"developer", "member", "readonly"} {
			for _, b := range buy {
				a.problem(http.StatusForbidden, users[role].Access, b.method, b.path, b.body)
			}
		}
		for _, role := range []string{"member", "readonly"} {
			for _, v := range views {
				a.problem(http.StatusForbidden, users[role].Access, "GET", v, nil)
			}
		}
		for _, v := range views {
			a.want(http.StatusOK, users["developer"].Access, "GET", v, nil, nil)
		}
		// An admin reaches the purchase (503 here: no Stripe), as does an API key never.
		a.problem(http.StatusServiceUnavailable, users["admin"].Access, "POST", buy[0].path, buy[0].body)
		key := env.APIKey(t, org, "admin")
		a.problem(http.StatusForbidden, key, "POST", buy[0].path, buy[0].body)
	})
}

// Buying a Telnyx number needs its monthly subscription: a checkout opens, the number is ordered
// when Stripe says it is paid, and releasing it ends the subscription at its period end.
func TestNumberSubscriptionThroughStripe(t *testing.T) {
	opt := withStripe(t)
	for _, d := range testdb.Dialects() {
		t.Run(string(d), func(t *testing.T) {
			fake := telnyxtest.Start(t, "KEY-test")
			fake.AddAvailable(telnyxtest.Available{PhoneNumber: "+13125550101", Country: "US", Type: "local", AreaCode: "312",
				RateCenter: "CHICAGO ZONE 02", State: "IL", Monthly: "1.00000", Upfront: "1.00000"})
			env := apitest.New(t, d, opt, apitest.WithConfig(func(c *config.Config) {
				c.TelnyxAPIKey, c.TelnyxAPIURL, c.TelnyxConnectionID = "KEY-test", fake.URL(), "1494404757140276705"
			}))
			a := payAPI{newTeamAPI(t, env)}
			ada := env.SignUp(t, "ada@example.com")
			org := env.Team(t, ada, "Acme")

			var started struct{ Data checkoutJSON }
			a.want(http.StatusCreated, ada.Access, "POST", "/v1/payment/intent/phone-number-monthly-subscription",
				buyBody(org, "+13125550101"), &started)
			if started.Data.CheckoutUrl == "" || started.Data.Status != "pending" {
				t.Fatalf("checkout: %+v", started.Data)
			}
			m := meta(org, started.Data.DbPaymentIntentId, "phone-number-subscription", "betty_phone_number", "+13125550101")
			a.event("evt_num", "checkout.session.completed", map[string]any{"id": started.Data.ID, "object": "checkout.session",
				"payment_status": "paid", "mode": "subscription", "subscription": "sub_num", "metadata": m})
			if owned := fake.Owned(); len(owned) != 1 {
				t.Fatalf("ordered at the carrier: %v", owned)
			}
			type subJSON struct {
				PhoneNumber, Status string
				PhoneNumberId       *string
				CancelAtPeriodEnd   bool
				MonthlyPrice        float64
			}
			var list struct {
				Data []subJSON
				Meta struct{ TotalSize int }
			}
			a.want(http.StatusOK, ada.Access, "GET", "/v1/payment/subscriptions/phone-number?organizationId="+org+"&orderByDate=asc", nil, &list)
			if len(list.Data) != 1 || list.Data[0].PhoneNumber != "+13125550101" || list.Data[0].Status != "active" || list.Data[0].PhoneNumberId == nil {
				t.Fatalf("subscriptions: %+v", list)
			}
			a.event("evt_num_inv", "invoice.paid", map[string]any{"id": "in_n", "object": "invoice", "subscription": "sub_num",
				"subscription_details": map[string]any{"metadata": m}})
			// A team paying for a number is not deleted until the subscription is cancelled.
			if p := a.problem(http.StatusUnprocessableEntity, ada.Access, "DELETE", "/v1/team/delete/"+org, nil); !strings.Contains(p.Detail, "phone-number subscription") {
				t.Fatalf("deleting a paying team: %+v", p)
			}
			a.want(http.StatusOK, ada.Access, "DELETE", "/v1/phone/number/"+*list.Data[0].PhoneNumberId+"?organizationId="+org, nil, nil)
			a.want(http.StatusOK, ada.Access, "GET", "/v1/payment/subscriptions/phone-number?organizationId="+org, nil, &list)
			if len(list.Data) != 1 || !list.Data[0].CancelAtPeriodEnd || list.Data[0].PhoneNumberId != nil {
				t.Fatalf("after release: %+v", list.Data)
			}

			// The carrier is down when the payment arrives: the event fails (Stripe retries) and
			// the retry orders the number. A number sold to someone else meanwhile fails its intent.
			fake.AddAvailable(telnyxtest.Available{PhoneNumber: "+13125550102", Country: "US", Type: "local", AreaCode: "312",
				RateCenter: "CHICAGO ZONE 02", State: "IL", Monthly: "1.00000", Upfront: "1.00000"})
			paidFor := func(number string) (map[string]any, string) {
				var started struct{ Data checkoutJSON }
				a.want(http.StatusCreated, ada.Access, "POST", "/v1/payment/intent/phone-number-monthly-subscription", buyBody(org, number), &started)
				return map[string]any{"id": started.Data.ID, "object": "checkout.session", "payment_status": "paid", "mode": "subscription",
					"subscription": "sub_" + number[1:], "metadata": meta(org, started.Data.DbPaymentIntentId, "phone-number-subscription")}, started.Data.DbPaymentIntentId
			}
			session, _ := paidFor("+13125550102")
			fake.Fail(http.MethodPost, "/number_orders", http.StatusServiceUnavailable)
			if res := a.deliver("evt_down", "checkout.session.completed", session, webhookSecret, time.Now()); res.Status != http.StatusServiceUnavailable {
				t.Fatalf("carrier down: %d %s", res.Status, res.Body)
			}
			a.event("evt_down", "checkout.session.completed", session)
			if owned := fake.Owned(); len(owned) != 1 || owned[0] != "+13125550102" {
				t.Fatalf("after the retry: %v", owned)
			}
			session, intent := paidFor("+13125550103") // never on sale at the carrier
			a.event("evt_gone", "checkout.session.completed", session)
			if p := a.problem(http.StatusUnprocessableEntity, ada.Access, "PATCH", "/v1/payment/intent/status",
				map[string]any{"dbPaymentIntentId": intent, "status": "cancelled"}); p.Detail != "This payment is failed already." {
				t.Fatalf("a number gone: %+v", p)
			}
			if owned := fake.Owned(); len(owned) != 1 {
				t.Fatalf("ordered: %v", owned)
			}
			// ...and is refunded: the webhook's transaction queued the refund, which Stripe
			// (stripe-mock) takes.
			deadline := time.Now().Add(15 * time.Second)
			for state := ""; state != "completed"; {
				err := env.DB.Writer().QueryRow(`SELECT state FROM river_job WHERE kind = 'billing.refund_undelivered_number'`).Scan(&state)
				if err != nil && !errors.Is(err, sql.ErrNoRows) {
					t.Fatal(err)
				}
				if time.Now().After(deadline) {
					t.Fatalf("the refund job is %q, not completed", state)
				}
				time.Sleep(50 * time.Millisecond)
			}
		})
	}
}

// paymentIntentFixture makes a pending credit purchase of team org.
func paymentIntentFixture(t *testing.T, env *apitest.Env, owner apitest.Caller, org string) map[string]string {
	t.Helper()
	n, uid, sess := 10, owner.UserID, "cs_fixture_"+org
	p := store.PaymentIntent{OrganizationID: org, CreatedByUserID: &uid, Kind: store.PaymentCredits, Amount: 10,
		Currency: store.CurrencyUSD, Credits: &n, SessionID: &sess}
	if err := env.DB.CreatePaymentIntent(context.Background(), &p); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"dbPaymentIntentId": p.ID}
}

// Tier limits bite where they apply, each refusal a 403 limit_reached naming the limit and the
// tier that lifts it; a site admin's tier lifts them at once.
func TestTierLimitsBite(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := phoneAPI{newTeamAPI(t, env)}
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		found := a.search(ada.Access, "")
		for _, n := range found[:3] {
			a.buy(ada, org, n)
		}
		p := a.problem(http.StatusForbidden, ada.Access, "POST", "/v1/payment/intent/phone-number-monthly-subscription", buyBody(org, found[3]))
		if p.Code != "limit_reached" || p.Detail != "Your plan (Free) allows 3 phone numbers and this team has 3. The Starter Plan (tier1) allows 5." {
			t.Fatalf("fourth number: %+v", p)
		}
		for i := 1; i <= 4; i++ {
			a.invite(ada, org, fmt.Sprintf("m%d@example.com", i), "member")
		}
		p = a.problem(http.StatusForbidden, ada.Access, "POST", "/v1/team/invite",
			map[string]any{"email": "m5@example.com", "organizationId": org, "origin": "http://betty.test", "role": "member"})
		if p.Code != "limit_reached" || !strings.Contains(p.Detail, "allows 5 team members") || !strings.Contains(p.Detail, "(tier1) allows 10") {
			t.Fatalf("sixth seat: %+v", p)
		}
		admin := env.SignUp(t, "root@example.com")
		if _, err := env.DB.SetSiteAdmin(context.Background(), admin.Email, true); err != nil {
			t.Fatal(err)
		}
		a.want(http.StatusOK, admin.Access, "POST", "/v1/admin/organization/update-organization-tier?subscriptionTier=tier1&organizationId="+org, nil, nil)
		a.buy(ada, org, found[3])
		a.invite(ada, org, "m5@example.com", "member")
	})
}

// The tier catalogue is the server's one table of prices and limits, and says whether this
// deployment takes payments.
func TestTierCatalog(t *testing.T) {
	type catalog struct {
		Data struct {
			PaymentsConfigured bool
			CreditPriceUsd     float64
			CallMinuteRateUsd  float64
			Tiers              []struct {
				Tier            string
				Name            string
				MonthlyPriceUsd *float64
				Purchasable     bool
				Limits          map[string]int
			}
		}
	}
	check := func(t *testing.T, env *apitest.Env, configured bool) {
		a := payAPI{newTeamAPI(t, env)}
		ada := env.SignUp(t, "ada@example.com")
		var c catalog
		a.want(http.StatusOK, ada.Access, "GET", "/v1/payment/tiers", nil, &c)
		if c.Data.PaymentsConfigured != configured || c.Data.CreditPriceUsd != 1 || c.Data.CallMinuteRateUsd != billing.CallRatePerMinute {
			t.Fatalf("catalog: %+v", c.Data)
		}
		if len(c.Data.Tiers) != len(billing.Tiers()) {
			t.Fatalf("tiers: %+v", c.Data.Tiers)
		}
		for i, tier := range billing.Tiers() {
			got := c.Data.Tiers[i]
			cents, sold := billing.TierPricesCents[tier]
			if got.Tier != string(tier) || got.Name != billing.TierNames[tier] || got.Purchasable != sold {
				t.Fatalf("tier %d: %+v", i, got)
			}
			switch {
			case sold && (got.MonthlyPriceUsd == nil || *got.MonthlyPriceUsd != float64(cents)/100):
				t.Fatalf("%s price: %v", tier, got.MonthlyPriceUsd)
			case tier == store.Tier4 && got.MonthlyPriceUsd != nil:
				t.Fatalf("custom has a price: %v", *got.MonthlyPriceUsd)
			case tier == store.TierFree && (got.MonthlyPriceUsd == nil || *got.MonthlyPriceUsd != 0):
				t.Fatalf("free price: %v", got.MonthlyPriceUsd)
			}
			if got.Limits["customVoiceProfiles"] != billing.Allowed(tier, billing.LimitCustomVoices) ||
				got.Limits["concurrentCalls"] != billing.Allowed(tier, billing.LimitConcurrentCalls) ||
				got.Limits["phoneNumbers"] != billing.Allowed(tier, billing.LimitPhoneNumbers) ||
				got.Limits["teamMembers"] != billing.Allowed(tier, billing.LimitTeamMembers) {
				t.Fatalf("%s limits: %v", tier, got.Limits)
			}
		}
		a.problem(http.StatusUnauthorized, "", "GET", "/v1/payment/tiers", nil)
	}
	t.Run("without Stripe", func(t *testing.T) {
		apitest.Each(t, func(t *testing.T, env *apitest.Env) { check(t, env, false) })
	})
	t.Run("with Stripe", func(t *testing.T) {
		opt := withStripe(t)
		apitest.Each(t, func(t *testing.T, env *apitest.Env) { check(t, env, true) }, opt)
	})
}
