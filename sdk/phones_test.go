package betty_test

import (
	"context"
	"errors"
	"regexp"
	"testing"

	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/testserver"
)

// The phone helpers against the real server and its telephony simulator: search, buy, list,
// verify a number of the team's own, release.
func TestPhoneNumbersAgainstTheRealServer(t *testing.T) {
	ctx := context.Background()
	env := testserver.Start(t)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	c, err := betty.New(env.URL, betty.WithTokens(ada.Access, ada.Refresh))
	if err != nil {
		t.Fatal(err)
	}

	countries, err := c.SupportedCountries(ctx)
	if err != nil || len(countries) != 3 {
		t.Fatalf("countries: %+v %v", countries, err)
	}
	gb := client.GB
	found, err := c.SearchPhoneNumbers(ctx, client.SearchAvailablePhoneNumbersParams{CountryCode: &gb})
	if err != nil || len(found) != 20 || found[0].CountryCode != client.GB {
		t.Fatalf("search: %+v %v", found, err)
	}
	bought, err := c.BuyPhoneNumber(ctx, team, found[0].PhoneNumber, env.URL+"/dashboard")
	if err == nil {
		t.Fatalf("a foreign origin was accepted: %+v", bought)
	}
	bought, err = c.BuyPhoneNumber(ctx, team, found[0].PhoneNumber, "http://betty.test/dashboard")
	if err != nil || bought.Status != client.PaymentIntentStatusSucceeded || bought.CheckoutUrl != nil || bought.PhoneNumber == nil {
		t.Fatalf("buy: %+v %v", bought, err)
	}
	if _, err := c.BuyPhoneNumber(ctx, team, found[0].PhoneNumber, "http://betty.test/dashboard"); !errors.Is(err, betty.ErrConflict) {
		t.Fatalf("buying it twice: %v", err)
	}

	const own = "+16135550123"
	v, err := c.RequestPhoneNumberVerification(ctx, team, own, "")
	if err != nil || v.Status != client.PhoneVerificationStatusPending || v.Method != client.Call {
		t.Fatalf("request: %+v %v", v, err)
	}
	m := regexp.MustCompile(`phone_number=\+16135550123 code=([0-9]{6})`).FindStringSubmatch(env.Logs.String())
	if m == nil {
		t.Fatal("no code in the server log")
	}
	wrong := "000000"
	if m[1] == wrong {
		wrong = "111111"
	}
	var apiErr *betty.APIError
	if _, err := c.VerifyPhoneNumber(ctx, team, own, wrong); !errors.Is(err, betty.ErrValidation) || !errors.As(err, &apiErr) ||
		apiErr.Fields[0].Field != "body.code" {
		t.Fatalf("a wrong code: %v", err)
	}
	if v, err := c.VerifyPhoneNumber(ctx, team, own, m[1]); err != nil || v.Status != client.PhoneVerificationStatusVerified {
		t.Fatalf("the right code: %+v %v", v, err)
	}
	vs, err := c.PhoneNumberVerifications(ctx, team)
	if err != nil || len(vs) != 1 || vs[0].Status != client.PhoneVerificationStatusVerified {
		t.Fatalf("verifications: %+v %v", vs, err)
	}

	var numbers []client.PhoneNumber
	for n, err := range c.PhoneNumbers(ctx, team) {
		if err != nil {
			t.Fatal(err)
		}
		numbers = append(numbers, n)
	}
	if len(numbers) != 2 || numbers[0].PhoneNumber != own || !numbers[0].IsNonTelnyxNumber || numbers[1].Id != bought.PhoneNumber.Id {
		t.Fatalf("numbers: %+v", numbers)
	}
	for _, n := range numbers {
		if err := c.ReleasePhoneNumber(ctx, team, n.Id); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.ReleasePhoneNumber(ctx, team, numbers[0].Id); !errors.Is(err, betty.ErrNotFound) {
		t.Fatalf("releasing twice: %v", err)
	}
}
