package billing

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/api"
	serverbilling "github.com/bettyhq/betty/server/billing"
	"github.com/bettyhq/betty/server/store"
)

// The portal's flows are the contract's.
func TestFlowsAgreeWithTheContract(t *testing.T) {
	spec, err := api.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, v := range spec.Components.Schemas["BillingPortalFlowType"].Value.Enum {
		want = append(want, v.(string))
	}
	var got []string
	for _, f := range Flows {
		got = append(got, string(f))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("flows %v, the contract's %v", got, want)
	}
}

func TestNewCmdBuy(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		credits int
		wait    bool
		wantErr string
	}{
		{args: []string{"50"}, credits: 50},
		{args: []string{"2500", "--wait", "--timeout", "1m"}, credits: 2500, wait: true},
		{args: []string{"4"}, wantErr: `invalid number of credits "4": want a whole number from 5 to 2500`},
		{args: []string{"2501"}, wantErr: "from 5 to 2500"},
		{args: []string{"ten"}, wantErr: "from 5 to 2500"},
		{args: []string{"5.5"}, wantErr: "from 5 to 2500"},
		{args: []string{}, wantErr: "give the number of credits"},
		{args: []string{"50", "--origin", "ftp://x"}, wantErr: "http:// or https://"},
	} {
		f, _ := clitest.NewFactory(t, clitest.Options{})
		var got *BuyOptions
		err := clitest.Run(NewCmdBuy(f, func(o *BuyOptions) error { got = o; return nil }), tt.args...)
		if clitest.CheckErr(t, err, tt.wantErr) {
			continue
		}
		if got.Credits != tt.credits || got.Wait != tt.wait {
			t.Errorf("%v: %+v", tt.args, got)
		}
	}
}

func TestNewCmdPortal(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		flow    client.BillingPortalFlowType
		wantErr string
	}{
		{},
		{args: []string{"--flow", "subscription_cancel"}, flow: client.SubscriptionCancel},
		{args: []string{"--flow", "cancel"}, wantErr: `invalid flow "cancel"`},
	} {
		f, _ := clitest.NewFactory(t, clitest.Options{})
		var got *PortalOptions
		err := clitest.Run(NewCmdPortal(f, func(o *PortalOptions) error { got = o; return nil }), tt.args...)
		if clitest.CheckErr(t, err, tt.wantErr) {
			continue
		}
		if got.Flow != tt.flow {
			t.Errorf("%v: flow %q", tt.args, got.Flow)
		}
	}
}

func TestStatusRun(t *testing.T) {
	stub := clitest.NewStub(t)
	end := clitest.When.Add(30 * 24 * time.Hour)
	stub.Handle("GET /v1/team/subscription-credits", clitest.Data(http.StatusOK, client.TeamCredits{OrganizationId: "team-1",
		Balance: 42.5, SubscriptionTier: client.SubscriptionTierTier1, SubscriptionEndAt: &end}))
	monthly := client.Monthly
	stub.Handle("GET /v1/team/subscription/status", clitest.Data(http.StatusOK, client.TeamSubscriptionStatus{OrganizationId: "team-1",
		SubscriptionTier: client.SubscriptionTierTier1, Status: client.SubscriptionStatePastDue, CurrentPeriodEnd: &end, IntervalType: &monthly}))
	clitest.GoldenOutputs(t, "status", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdStatus(f, nil) })
}

func TestTiersRun(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/team/subscription-credits", clitest.Data(http.StatusOK, client.TeamCredits{OrganizationId: "team-1",
		SubscriptionTier: client.SubscriptionTierTier1}))
	stub.Handle("GET /v1/payment/tiers", clitest.Data(http.StatusOK, serverCatalog()))
	clitest.GoldenOutputs(t, "tiers", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdTiers(f, nil) })
}

func TestNumbersRun(t *testing.T) {
	stub := clitest.NewStub(t)
	end := clitest.When.Add(30 * 24 * time.Hour)
	id := "phone-1"
	stub.Handle("GET /v1/payment/subscriptions/phone-number", clitest.Page([]client.PhoneNumberSubscription{
		{Id: "sub-2", OrganizationId: "team-1", PhoneNumber: "+14155550142", Status: client.SubscriptionStateCancelled, MonthlyPrice: 1,
			Currency: "USD", IntervalType: client.Monthly, CancelAtPeriodEnd: true, CurrentPeriodEnd: &end, CreatedAt: clitest.When, UpdatedAt: clitest.When},
		{Id: "sub-1", OrganizationId: "team-1", PhoneNumber: "+14155550123", PhoneNumberId: &id, Status: client.SubscriptionStateActive,
			MonthlyPrice: 1.5, Currency: "USD", IntervalType: client.Monthly, CurrentPeriodEnd: &end, CreatedAt: clitest.When, UpdatedAt: clitest.When},
	}))
	clitest.GoldenOutputs(t, "numbers", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdNumbers(f, nil) })
}

// serverCatalog is the catalogue the server answers, from its own tables.
func serverCatalog() client.TierCatalog {
	c := client.TierCatalog{CreditPriceUsd: 1, CallMinuteRateUsd: serverbilling.CallRatePerMinute, PaymentsConfigured: true}
	for _, t := range serverbilling.Tiers() {
		o := client.TierOffer{Tier: client.SubscriptionTier(t), Name: serverbilling.TierNames[t], Limits: client.TierLimits{
			CustomVoiceProfiles: serverbilling.Allowed(t, serverbilling.LimitCustomVoices),
			ConcurrentCalls:     serverbilling.Allowed(t, serverbilling.LimitConcurrentCalls),
			PhoneNumbers:        serverbilling.Allowed(t, serverbilling.LimitPhoneNumbers),
			TeamMembers:         serverbilling.Allowed(t, serverbilling.LimitTeamMembers)}}
		if cents, ok := serverbilling.TierPricesCents[t]; ok {
			p := float64(cents) / 100
			o.MonthlyPriceUsd, o.Purchasable = &p, true
		} else if t == store.TierFree {
			zero := 0.0
			o.MonthlyPriceUsd = &zero
		}
		c.Tiers = append(c.Tiers, o)
	}
	return c
}
