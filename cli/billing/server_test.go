package billing_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bettyhq/betty/cli/admin"
	"github.com/bettyhq/betty/cli/billing"
	"github.com/bettyhq/betty/cli/config"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/testserver"
)

// Without Stripe: the status and tiers of a new team, a purchase refused in plain words, and a
// site admin's grant.
func TestAgainstTheRealServer(t *testing.T) {
	env := testserver.Start(t)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	profile := &config.Profile{Server: env.URL, AccessToken: ada.Access, RefreshToken: ada.Refresh, Email: ada.Email, Team: team}
	f, s := clitest.NewFactory(t, clitest.Options{Profile: profile})
	if err := clitest.Run(billing.NewCmdBilling(f), "status"); err != nil || !strings.Contains(s.Out.String(), "free (Free)") ||
		!strings.Contains(s.Out.String(), "NEXT UPGRADE\ttier1 (Starter Plan)") {
		t.Fatalf("status: %v %s", err, s.Out)
	}
	f, s = clitest.NewFactory(t, clitest.Options{Profile: profile})
	if err := clitest.Run(billing.NewCmdBilling(f), "tiers"); err != nil || !strings.Contains(s.Out.String(), "next upgrade") {
		t.Fatalf("tiers: %v %s", err, s.Out)
	}
	f, _ = clitest.NewFactory(t, clitest.Options{Profile: profile})
	if err := clitest.Run(billing.NewCmdBilling(f), "credits", "buy", "50"); err == nil || !strings.Contains(err.Error(), "--stripe-secret-key") {
		t.Fatalf("buy without Stripe: %v", err)
	}
	if _, err := env.DB.SetSiteAdmin(context.Background(), ada.Email, true); err != nil {
		t.Fatal(err)
	}
	f, s = clitest.NewFactory(t, clitest.Options{Profile: profile})
	if err := clitest.Run(admin.NewCmdAdmin(f), "credits", "grant", team, "30"); err != nil || !strings.Contains(s.ErrOut.String(), "Granted 30 credits to Acme; the balance is 30.00.") {
		t.Fatalf("grant: %v %s", err, s.ErrOut)
	}
	f, s = clitest.NewFactory(t, clitest.Options{Profile: profile})
	if err := clitest.Run(billing.NewCmdBilling(f), "numbers", "--json"); err != nil || strings.TrimSpace(s.Out.String()) != "[]" {
		t.Fatalf("numbers: %v %s", err, s.Out)
	}
}

// Through stripe-mock: credits buy --wait prints the checkout link and returns once Stripe's
// signed webhook says the payment succeeded.
func TestBuyAndWaitThroughStripe(t *testing.T) {
	const secret = "whsec_cli"
	env := testserver.Start(t, testserver.WithStripe(testserver.StripeMockURL(t), testserver.StripeKey, secret))
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	profile := &config.Profile{Server: env.URL, AccessToken: ada.Access, RefreshToken: ada.Refresh, Email: ada.Email, Team: team}
	f, s := clitest.NewFactory(t, clitest.Options{Profile: profile})
	cmd := billing.NewCmdBilling(f)

	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		// Stripe: once the checkout exists, the payment succeeds and the event is delivered.
		var intent, session string
		for i := 0; i < 200 && intent == ""; i++ {
			time.Sleep(20 * time.Millisecond)
			q := "SELECT id, session_id FROM payment_intents WHERE organization_id = ? AND session_id IS NOT NULL"
			if env.DB.Dialect() == store.Postgres {
				q = strings.Replace(q, "?", "$1", 1)
			}
			_ = env.DB.Writer().QueryRow(q, team).Scan(&intent, &session)
		}
		payload, _ := json.Marshal(map[string]any{"id": "evt_cli", "object": "event", "type": "checkout.session.completed",
			"data": map[string]any{"object": map[string]any{"id": session, "object": "checkout.session", "payment_status": "paid",
				"metadata": map[string]any{"betty_organization_id": team, "betty_payment_intent_id": intent, "betty_kind": "credits"}}}})
		req, _ := http.NewRequest("POST", env.URL+"/v1/webhooks/stripe", strings.NewReader(string(payload)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Stripe-Signature", testserver.SignStripe(payload, secret))
		res, err := http.DefaultClient.Do(req)
		if err != nil || res.StatusCode != http.StatusOK {
			panic(fmt.Sprintf("webhook: %v %v", res, err))
		}
		res.Body.Close()
	}()
	err := clitest.Run(cmd, "credits", "buy", "25", "--wait", "--timeout", "20s", "--origin", "http://betty.test/dashboard/billing")
	wg.Wait()
	if err != nil || !strings.HasPrefix(s.Out.String(), "http") || !strings.Contains(s.ErrOut.String(), "Paid: 25 credits added; the balance is 25.00.") {
		t.Fatalf("buy --wait: %v\nout: %s\nerr: %s", err, s.Out, s.ErrOut)
	}
}
