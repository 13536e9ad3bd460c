package admin

import (
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
)

// adminOrg is team-1 as site admins see it.
func adminOrg() client.AdminOrganization {
	org := clitest.Team("team-1", "Acme support", client.TeamRoleOwner)
	org.MyRole = nil
	return client.AdminOrganization{
		Organization: org,
		MemberCount:  3,
		Balance:      42.5,
		PendingVerificationRequest: &client.VerificationRequest{
			Id: "vr-1", OrganizationId: "team-1", CurrentLevel: client.VerificationLevelNone, RequestedLevel: client.VerificationLevelL1,
			Status: client.VerificationRequestStatusPending, CreatedAt: clitest.When, UpdatedAt: clitest.When,
		},
	}
}
