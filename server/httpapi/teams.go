package httpapi

import (
	"context"
	"net/http"
	"time"

	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/billing"
	"github.com/bettyhq/betty/server/teams"
)

// Teams answers the Team tag: teams, members, invitations, ownership, API keys and the team's
// billing views. Each handler binds, calls the team or billing domain and renders.
type Teams struct {
	svc     *teams.Service
	billing *billing.Service
}

// teamPageSize is the default page of the team lists.
const teamPageSize = 10

// ---- teams -------------------------------------------------------------------------------

// ListTeams lists the teams the caller is an active member of.
func (h *Teams) ListTeams(ctx context.Context, req api.ListTeamsRequestObject) (api.ListTeamsResponseObject, error) {
	items, meta, err := paged(newPage(req.Params.Page, req.Params.SizePerPage, teamPageSize), func(limit, offset int) ([]teams.Team, int, error) {
		return h.svc.List(ctx, principal(ctx), teams.Page{Limit: limit, Offset: offset})
	})
	if err != nil {
		return nil, err
	}
	return api.ListTeams200JSONResponse{Status: http.StatusOK, Data: mapped(items, renderTeam), Meta: meta}, nil
}

// CreateTeam creates a team owned by the caller.
func (h *Teams) CreateTeam(ctx context.Context, req api.CreateTeamRequestObject) (api.CreateTeamResponseObject, error) {
	b := req.Body
	t, err := h.svc.Create(ctx, principal(ctx), teams.Properties{Name: &b.Name, CompanyName: b.CompanyName,
		PlatformKey: b.PlatformKey, Industry: b.Industry, Purpose: b.Purpose})
	if err != nil {
		return nil, err
	}
	return api.CreateTeam201JSONResponse{Status: http.StatusCreated, Data: renderTeam(t)}, nil
}

// UpdateTeamProperties changes the properties sent.
func (h *Teams) UpdateTeamProperties(ctx context.Context, req api.UpdateTeamPropertiesRequestObject) (api.UpdateTeamPropertiesResponseObject, error) {
	b := req.Body
	t, err := h.svc.Update(ctx, actor(ctx), teams.Properties{Name: b.Name, CompanyName: b.CompanyName,
		PlatformKey: b.PlatformKey, Industry: b.Industry, Purpose: b.Purpose})
	if err != nil {
		return nil, err
	}
	return api.UpdateTeamProperties200JSONResponse{Status: http.StatusOK, Data: renderTeam(t)}, nil
}

// DeleteTeam deletes the team and everything it holds.
func (h *Teams) DeleteTeam(ctx context.Context, _ api.DeleteTeamRequestObject) (api.DeleteTeamResponseObject, error) {
	a := actor(ctx)
	if err := h.svc.Delete(ctx, a); err != nil {
		return nil, err
	}
	return api.DeleteTeam200JSONResponse{Status: http.StatusOK, Data: api.Deleted{Id: a.OrganizationID}}, nil
}

// RequestTeamVerification records a request for the next verification level.
func (h *Teams) RequestTeamVerification(ctx context.Context, _ api.RequestTeamVerificationRequestObject) (api.RequestTeamVerificationResponseObject, error) {
	v, err := h.svc.RequestVerification(ctx, actor(ctx))
	if err != nil {
		return nil, err
	}
	return api.RequestTeamVerification200JSONResponse{Status: http.StatusOK, Data: renderVerificationRequest(v)}, nil
}

// CheckTeamMembership says whether a user is an active member of a team.
func (h *Teams) CheckTeamMembership(ctx context.Context, req api.CheckTeamMembershipRequestObject) (api.CheckTeamMembershipResponseObject, error) {
	ok, err := h.svc.IsMember(ctx, req.TeamId, req.Params.UserId)
	if err != nil {
		return nil, err
	}
	return api.CheckTeamMembership200JSONResponse{Status: http.StatusOK, Data: api.TeamMembershipCheck{
		TeamId: req.TeamId, UserId: req.Params.UserId, IsMember: ok}}, nil
}

// GetTeamOnboarding answers the team's onboarding checklist.
func (h *Teams) GetTeamOnboarding(ctx context.Context, _ api.GetTeamOnboardingRequestObject) (api.GetTeamOnboardingResponseObject, error) {
	o, err := h.svc.Onboarding(ctx, actor(ctx))
	if err != nil {
		return nil, err
	}
	out := api.TeamOnboarding{OrganizationId: o.OrganizationID, Completed: o.Completed, Items: mapped(o.Items,
		func(it teams.OnboardingItem) api.OnboardingItem {
			return api.OnboardingItem{Key: api.OnboardingStep(it.Step), Label: it.Label, Done: it.DoneAt != nil, DoneAt: it.DoneAt}
		})}
	return api.GetTeamOnboarding200JSONResponse{Status: http.StatusOK, Data: out}, nil
}

// ---- members -----------------------------------------------------------------------------

// ListTeamMembers lists the team's active and invited members, owner first.
func (h *Teams) ListTeamMembers(ctx context.Context, req api.ListTeamMembersRequestObject) (api.ListTeamMembersResponseObject, error) {
	items, meta, err := paged(newPage(req.Params.Page, req.Params.SizePerPage, teamPageSize), func(limit, offset int) ([]teams.Member, int, error) {
		return h.svc.Members(ctx, actor(ctx), teams.Page{Limit: limit, Offset: offset})
	})
	if err != nil {
		return nil, err
	}
	return api.ListTeamMembers200JSONResponse{Status: http.StatusOK, Data: mapped(items, renderMember), Meta: meta}, nil
}

// InviteTeamMember invites an e-mail into the team.
func (h *Teams) InviteTeamMember(ctx context.Context, req api.InviteTeamMemberRequestObject) (api.InviteTeamMemberResponseObject, error) {
	b := req.Body
	var role auth.Role
	if b.Role != nil {
		role = auth.Role(*b.Role)
	}
	m, err := h.svc.Invite(ctx, actor(ctx), string(b.Email), role, deref(b.Origin))
	if err != nil {
		return nil, err
	}
	return api.InviteTeamMember201JSONResponse{Status: http.StatusCreated, Data: renderMember(m)}, nil
}

// AcceptTeamInvitation accepts an invitation with the token of its e-mailed link.
func (h *Teams) AcceptTeamInvitation(ctx context.Context, req api.AcceptTeamInvitationRequestObject) (api.AcceptTeamInvitationResponseObject, error) {
	m, err := h.svc.AcceptInvitation(ctx, principal(ctx), req.Body.Token)
	if err != nil {
		return nil, err
	}
	return api.AcceptTeamInvitation200JSONResponse{Status: http.StatusOK, Data: renderMember(m)}, nil
}

// ListPendingTeamInvitations lists the invitations to the caller's e-mail that can still be
// accepted.
func (h *Teams) ListPendingTeamInvitations(ctx context.Context, _ api.ListPendingTeamInvitationsRequestObject) (api.ListPendingTeamInvitationsResponseObject, error) {
	invs, err := h.svc.PendingInvitations(ctx, principal(ctx))
	if err != nil {
		return nil, err
	}
	return api.ListPendingTeamInvitations200JSONResponse{Status: http.StatusOK, Data: mapped(invs, renderInvitation)}, nil
}

// AcceptPendingTeamInvitation accepts one of the caller's invitations by its member id.
func (h *Teams) AcceptPendingTeamInvitation(ctx context.Context, req api.AcceptPendingTeamInvitationRequestObject) (api.AcceptPendingTeamInvitationResponseObject, error) {
	m, err := h.svc.AcceptPending(ctx, principal(ctx), req.Body.OrganizationMemberId)
	if err != nil {
		return nil, err
	}
	return api.AcceptPendingTeamInvitation200JSONResponse{Status: http.StatusOK, Data: renderMember(m)}, nil
}

// UpdateTeamMemberRole gives a member another role.
func (h *Teams) UpdateTeamMemberRole(ctx context.Context, req api.UpdateTeamMemberRoleRequestObject) (api.UpdateTeamMemberRoleResponseObject, error) {
	m, err := h.svc.SetRole(ctx, actor(ctx), string(req.Body.Email), auth.Role(req.Body.Role))
	if err != nil {
		return nil, err
	}
	return api.UpdateTeamMemberRole200JSONResponse{Status: http.StatusOK, Data: renderMember(m)}, nil
}

// RemoveTeamMember removes a member (or the caller leaves).
func (h *Teams) RemoveTeamMember(ctx context.Context, req api.RemoveTeamMemberRequestObject) (api.RemoveTeamMemberResponseObject, error) {
	keep := req.Params.KeepApiKeys != nil && *req.Params.KeepApiKeys
	r, err := h.svc.Remove(ctx, actor(ctx), string(req.Params.Email), keep)
	if err != nil {
		return nil, err
	}
	return api.RemoveTeamMember200JSONResponse{Status: http.StatusOK, Data: api.MemberRemoval{Id: r.MemberID, RevokedApiKeys: r.RevokedAPIKeys}}, nil
}

// ---- ownership ---------------------------------------------------------------------------

// TransferTeamOwnership e-mails an active member a link to become the owner.
func (h *Teams) TransferTeamOwnership(ctx context.Context, req api.TransferTeamOwnershipRequestObject) (api.TransferTeamOwnershipResponseObject, error) {
	msg, err := h.svc.TransferOwnership(ctx, actor(ctx), string(req.Body.NewOwnerEmail), deref(req.Body.Origin))
	if err != nil {
		return nil, err
	}
	return api.TransferTeamOwnership200JSONResponse{Status: http.StatusOK, Data: api.Message{Message: msg}}, nil
}

// ConfirmTeamOwnershipTransfer completes a transfer.
func (h *Teams) ConfirmTeamOwnershipTransfer(ctx context.Context, req api.ConfirmTeamOwnershipTransferRequestObject) (api.ConfirmTeamOwnershipTransferResponseObject, error) {
	t, err := h.svc.ConfirmTransfer(ctx, principal(ctx), req.Body.TransferOwnershipToken)
	if err != nil {
		return nil, err
	}
	return api.ConfirmTeamOwnershipTransfer200JSONResponse{Status: http.StatusOK, Data: renderTeam(t)}, nil
}

// ---- API keys ----------------------------------------------------------------------------

// ListTeamApiKeys lists the team's keys, newest first, without their secrets.
func (h *Teams) ListTeamApiKeys(ctx context.Context, _ api.ListTeamApiKeysRequestObject) (api.ListTeamApiKeysResponseObject, error) {
	keys, err := h.svc.APIKeys(ctx, actor(ctx))
	if err != nil {
		return nil, err
	}
	return api.ListTeamApiKeys200JSONResponse{Status: http.StatusOK, Data: mapped(keys, renderAPIKey)}, nil
}

// CreateTeamApiKey makes a key; its secret is in this answer only.
func (h *Teams) CreateTeamApiKey(ctx context.Context, req api.CreateTeamApiKeyRequestObject) (api.CreateTeamApiKeyResponseObject, error) {
	var role auth.Role
	if req.Body.Role != nil {
		role = auth.Role(*req.Body.Role)
	}
	k, secret, err := h.svc.CreateAPIKey(ctx, actor(ctx), req.Body.Name, role)
	if err != nil {
		return nil, err
	}
	return api.CreateTeamApiKey201JSONResponse{Status: http.StatusCreated, Data: api.CreatedApiKey{
		Id: k.ID, OrganizationId: k.OrganizationID, Name: k.Name, Prefix: k.Prefix, Role: api.TeamRole(k.Role),
		Key: secret, CreatedBy: renderSummaryPtr(k.Creator), LastUsedAt: nil, CreatedAt: k.CreatedAt, UpdatedAt: k.UpdatedAt}}, nil
}

// DeleteTeamApiKey revokes a key of the team.
func (h *Teams) DeleteTeamApiKey(ctx context.Context, req api.DeleteTeamApiKeyRequestObject) (api.DeleteTeamApiKeyResponseObject, error) {
	if err := h.svc.DeleteAPIKey(ctx, actor(ctx), req.Id); err != nil {
		return nil, err
	}
	return api.DeleteTeamApiKey200JSONResponse{Status: http.StatusOK, Data: api.Deleted{Id: req.Id}}, nil
}

// ---- billing views -----------------------------------------------------------------------

// GetTeamSubscriptionCredits answers the team's credit balance and tier.
func (h *Teams) GetTeamSubscriptionCredits(ctx context.Context, _ api.GetTeamSubscriptionCreditsRequestObject) (api.GetTeamSubscriptionCreditsResponseObject, error) {
	o, err := h.billing.Team(ctx, actor(ctx).OrganizationID)
	if err != nil {
		return nil, err
	}
	return api.GetTeamSubscriptionCredits200JSONResponse{Status: http.StatusOK, Data: api.TeamCredits{
		OrganizationId: o.ID, Balance: billing.RoundCents(o.CreditsBalance), SubscriptionTier: api.SubscriptionTier(o.SubscriptionTier),
		SubscriptionEndAt: o.SubscriptionEndAt}}, nil
}

// GetTeamSubscriptionStatus answers the state of the team's tier subscription.
func (h *Teams) GetTeamSubscriptionStatus(ctx context.Context, _ api.GetTeamSubscriptionStatusRequestObject) (api.GetTeamSubscriptionStatusResponseObject, error) {
	s, err := h.billing.Subscription(ctx, actor(ctx).OrganizationID, time.Now())
	if err != nil {
		return nil, err
	}
	out := api.TeamSubscriptionStatus{OrganizationId: s.OrganizationID, SubscriptionTier: api.SubscriptionTier(s.Tier),
		Status: api.SubscriptionState(s.State), CurrentPeriodEnd: s.CurrentPeriodEnd, CancelAtPeriodEnd: s.CancelAtPeriodEnd,
		TrialEndsAt: s.TrialEndsAt}
	if s.Monthly {
		monthly := api.Monthly
		out.IntervalType = &monthly
	}
	return api.GetTeamSubscriptionStatus200JSONResponse{Status: http.StatusOK, Data: out}, nil
}

// GetTeamBillingAddress answers the saved billing address, if any.
func (h *Teams) GetTeamBillingAddress(ctx context.Context, _ api.GetTeamBillingAddressRequestObject) (api.GetTeamBillingAddressResponseObject, error) {
	o, err := h.billing.Team(ctx, actor(ctx).OrganizationID)
	if err != nil {
		return nil, err
	}
	out, err := renderBillingAddress(o)
	if err != nil {
		return nil, err
	}
	return api.GetTeamBillingAddress200JSONResponse{Status: http.StatusOK, Data: out}, nil
}

// UpdateTeamBillingAddress replaces the billing address.
func (h *Teams) UpdateTeamBillingAddress(ctx context.Context, req api.UpdateTeamBillingAddressRequestObject) (api.UpdateTeamBillingAddressResponseObject, error) {
	in := req.Body.BillingAddress
	o, err := h.billing.SetAddress(ctx, actor(ctx).OrganizationID, billing.Address{Line1: in.Line1, Line2: in.Line2, City: in.City,
		State: in.State, PostalCode: in.PostalCode, Country: in.Country})
	if err != nil {
		return nil, err
	}
	out, err := renderBillingAddress(o)
	if err != nil {
		return nil, err
	}
	return api.UpdateTeamBillingAddress200JSONResponse{Status: http.StatusOK, Data: out}, nil
}

// GetTeamCostsUsage answers a month's call minutes and cost.
func (h *Teams) GetTeamCostsUsage(ctx context.Context, req api.GetTeamCostsUsageRequestObject) (api.GetTeamCostsUsageResponseObject, error) {
	u, err := h.billing.CostsUsage(ctx, actor(ctx).OrganizationID, req.Params.Month, req.Params.Year, time.Now())
	if err != nil {
		return nil, err
	}
	out := api.TeamCostsUsage{OrganizationId: u.OrganizationID, Month: u.Month, Year: u.Year, Currency: billing.Currency,
		RatePerMinute: billing.CallRatePerMinute, Calls: u.Calls, Minutes: u.Minutes, Cost: u.Cost,
		Days: mapped(u.Days, func(d billing.DayUsage) api.TeamCostsUsageDay {
			return api.TeamCostsUsageDay{Date: openapi_types.Date{Time: d.Date}, Calls: d.Calls, Minutes: d.Minutes, Cost: d.Cost}
		})}
	return api.GetTeamCostsUsage200JSONResponse{Status: http.StatusOK, Data: out}, nil
}
