package admin

import (
	"net/http"
	"testing"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
)

func TestNewCmdSearch(t *testing.T) {
	f, _ := clitest.NewFactory(t, clitest.Options{})
	var got *SearchOptions
	if err := clitest.Run(NewCmdSearch(f, func(o *SearchOptions) error { got = o; return nil }), "--email", "acme", "-L", "5"); err != nil {
		t.Fatal(err)
	}
	if got.Email != "acme" || got.Limit != 5 {
		t.Errorf("options %+v", got)
	}
}

func TestSearchRun(t *testing.T) {
	stub := clitest.NewStub(t)
	// Two pages, to walk the pagination: page 1 has a user in a team, page 2 one in none.
	pages := map[string][]client.UserOrganizations{
		"1": {{User: clitest.Owner, Organizations: []client.UserOrganization{{
			OrganizationId: "team-1", OrganizationMemberId: "m-1", Name: "Acme support", Role: client.TeamRoleOwner,
			Status: client.MemberStatusActive, SubscriptionTier: client.SubscriptionTierFree, VerificationLevel: client.VerificationLevelNone,
		}}}},
		"2": {{User: client.UserSummary{Id: "user-2", Email: "grace@example.com"}, Organizations: []client.UserOrganization{}}},
	}
	stub.Handle("GET /v1/admin/organization/users-organizations", func(w http.ResponseWriter, r *http.Request) {
		page := r.URL.Query().Get("page")
		meta := client.PageMeta{Page: 1, TotalSize: 2, Start: 1, End: 1, TotalPages: 2, HasNext: true}
		if page == "2" {
			meta = client.PageMeta{Page: 2, TotalSize: 2, Start: 2, End: 2, TotalPages: 2, HasPrevious: true}
		}
		clitest.Envelope(http.StatusOK, pages[page], &meta)(w, r)
	})
	clitest.GoldenOutputs(t, "search", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdSearch(f, nil) }, "--email", "example")
	if got := stub.Last().Query.Get("searchEmail"); got != "example" {
		t.Errorf("searchEmail = %q", got)
	}
}
