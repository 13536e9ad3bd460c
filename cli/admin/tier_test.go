package admin

import (
	"net/http"
	"testing"

	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
)

func TestNewCmdTier(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{name: "tier4", args: []string{"team-1", "tier4"}},
		{name: "unknown tier", args: []string{"team-1", "gold"}, wantErr: `invalid tier "gold"`},
		{name: "nothing", wantErr: "give the organisation's id and the tier"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := clitest.NewFactory(t, clitest.Options{})
			var got *TierOptions
			err := clitest.Run(NewCmdTier(f, func(o *TierOptions) error { got = o; return nil }), tt.args...)
			if clitest.CheckErr(t, err, tt.wantErr) {
				return
			}
			if got.ID != "team-1" || got.Value != client.SubscriptionTierTier4 {
				t.Errorf("options %+v", got)
			}
		})
	}
}

func TestTierRun(t *testing.T) {
	stub := clitest.NewStub(t)
	org := adminOrg()
	org.Organization.SubscriptionTier = client.SubscriptionTierTier4
	stub.Handle("POST /v1/admin/organization/update-organization-tier", clitest.Data(http.StatusOK, org))
	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdTier(f, nil), "team-1", "tier4"); err != nil {
		t.Fatal(err)
	}
	q := stub.Last().Query
	if q.Get("organizationId") != "team-1" || q.Get("subscriptionTier") != "tier4" {
		t.Errorf("query %v", q)
	}
	if s.ErrOut.String() != "Set the tier of Acme support to tier4.\n" {
		t.Errorf("stderr = %q", s.ErrOut)
	}
}
