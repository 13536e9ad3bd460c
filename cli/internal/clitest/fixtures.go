package clitest

import (
	"time"

	"github.com/bettyhq/betty/sdk/client"
)

// When is the time every fixture was created at, so golden files do not change.
var When = time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)

// Owner is the user the fixtures' teams belong to.
var Owner = client.UserSummary{Id: "user-1", Email: "ada@example.com", Name: ptr("Ada Lovelace")}

// Team is a team as the API sends it, the caller's role being role.
func Team(id, name string, role client.TeamRole) client.Organization {
	return client.Organization{
		Id:                id,
		Name:              name,
		CompanyName:       ptr("Acme Inc."),
		Industry:          ptr("Retail"),
		Owner:             Owner,
		PublicApiKey:      "betty_pk_" + id,
		MyRole:            &role,
		SubscriptionTier:  client.SubscriptionTierFree,
		VerificationLevel: client.VerificationLevelNone,
		CreatedAt:         When,
		UpdatedAt:         When,
	}
}

// Member is an active member of team-1 as the API sends it.
func Member(id, email string, role client.TeamRole) client.TeamMember {
	return client.TeamMember{
		Id:             id,
		OrganizationId: "team-1",
		UserId:         ptr("user-" + id),
		Email:          client.Email(email),
		Role:           role,
		Status:         client.MemberStatusActive,
		JoinedAt:       &When,
		CreatedAt:      When,
		UpdatedAt:      When,
	}
}

// User is the signed-in user as the API sends it.
func User() client.User {
	return client.User{
		Id:        Owner.Id,
		Email:     Owner.Email,
		Profile:   client.UserProfile{Name: Owner.Name, Preferences: map[string]any{}},
		CreatedAt: When,
		UpdatedAt: When,
	}
}

func ptr[T any](v T) *T { return &v }
