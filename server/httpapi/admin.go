package httpapi

import (
	"context"
	"github.com/bettyhq/betty/server/billing"
	"net/http"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/identity"
	"github.com/bettyhq/betty/server/mail"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/teams"
)

// SiteAdmin answers the Admin tag: site administrators' view of every organisation and of the
// outgoing mail. The policy lets only signed-in site admins in.
type SiteAdmin struct {
	teams    *teams.Service
	identity *identity.Service
	mail     *mail.Outbox
	billing  *billing.Service
}

const (
	adminPageSize = 10
	mailPageSize  = 20
)

func refresh(r *api.AdminRefresh) bool { return r != nil && bool(*r) }

// GetAdminOrganization answers an organisation with its standing.
func (h *SiteAdmin) GetAdminOrganization(ctx context.Context, req api.GetAdminOrganizationRequestObject) (api.GetAdminOrganizationResponseObject, error) {
	t, err := h.teams.AdminTeam(ctx, req.Id, refresh(req.Params.Refresh))
	if err != nil {
		return nil, err
	}
	return api.GetAdminOrganization200JSONResponse{Status: http.StatusOK, Data: renderAdminTeam(t)}, nil
}

// ListAdminOrganizationsByOwnerEmail answers the organisations a user (by e-mail) owns.
func (h *SiteAdmin) ListAdminOrganizationsByOwnerEmail(ctx context.Context, req api.ListAdminOrganizationsByOwnerEmailRequestObject) (api.ListAdminOrganizationsByOwnerEmailResponseObject, error) {
	ts, err := h.teams.AdminTeamsOwnedBy(ctx, string(req.Email), refresh(req.Params.Refresh))
	if err != nil {
		return nil, err
	}
	return api.ListAdminOrganizationsByOwnerEmail200JSONResponse{Status: http.StatusOK, Data: mapped(ts, renderAdminTeam)}, nil
}

// SearchAdminUsersOrganizations lists users whose e-mail contains searchEmail, each with
// every organisation they belong to.
func (h *SiteAdmin) SearchAdminUsersOrganizations(ctx context.Context, req api.SearchAdminUsersOrganizationsRequestObject) (api.SearchAdminUsersOrganizationsResponseObject, error) {
	items, meta, err := paged(newPage(req.Params.Page, nil, adminPageSize), func(limit, offset int) ([]teams.UserTeams, int, error) {
		return h.teams.SearchUsers(ctx, deref(req.Params.SearchEmail), teams.Page{Limit: limit, Offset: offset})
	})
	if err != nil {
		return nil, err
	}
	return api.SearchAdminUsersOrganizations200JSONResponse{Status: http.StatusOK, Data: mapped(items, h.renderUserTeams), Meta: meta}, nil
}

// GetAdminUserOrganizations answers a user (by id) and their organisations.
func (h *SiteAdmin) GetAdminUserOrganizations(ctx context.Context, req api.GetAdminUserOrganizationsRequestObject) (api.GetAdminUserOrganizationsResponseObject, error) {
	u, err := h.teams.UserTeamsByID(ctx, req.UserId)
	if err != nil {
		return nil, err
	}
	return api.GetAdminUserOrganizations200JSONResponse{Status: http.StatusOK, Data: h.renderUserTeams(u)}, nil
}

// GetAdminUserOrganizationsByEmail answers a user (by e-mail) and their organisations.
func (h *SiteAdmin) GetAdminUserOrganizationsByEmail(ctx context.Context, req api.GetAdminUserOrganizationsByEmailRequestObject) (api.GetAdminUserOrganizationsByEmailResponseObject, error) {
	u, err := h.teams.UserTeamsByEmail(ctx, string(req.Email))
	if err != nil {
		return nil, err
	}
	return api.GetAdminUserOrganizationsByEmail200JSONResponse{Status: http.StatusOK, Data: h.renderUserTeams(u)}, nil
}

// UpdateAdminOrganizationLevel sets an organisation's verification level and tells its owner.
func (h *SiteAdmin) UpdateAdminOrganizationLevel(ctx context.Context, req api.UpdateAdminOrganizationLevelRequestObject) (api.UpdateAdminOrganizationLevelResponseObject, error) {
	t, err := h.teams.SetVerificationLevel(ctx, req.Params.OrganizationId, store.VerificationLevel(req.Params.VerificationLevel))
	if err != nil {
		return nil, err
	}
	return api.UpdateAdminOrganizationLevel200JSONResponse{Status: http.StatusOK, Data: renderAdminTeam(t)}, nil
}

// UpdateAdminOrganizationTier sets an organisation's subscription tier by hand.
func (h *SiteAdmin) UpdateAdminOrganizationTier(ctx context.Context, req api.UpdateAdminOrganizationTierRequestObject) (api.UpdateAdminOrganizationTierResponseObject, error) {
	t, err := h.teams.SetTier(ctx, req.Params.OrganizationId, store.SubscriptionTier(req.Params.SubscriptionTier))
	if err != nil {
		return nil, err
	}
	return api.UpdateAdminOrganizationTier200JSONResponse{Status: http.StatusOK, Data: renderAdminTeam(t)}, nil
}

// GrantAdminOrganizationCredits adds credits to an organisation without a payment.
func (h *SiteAdmin) GrantAdminOrganizationCredits(ctx context.Context, req api.GrantAdminOrganizationCreditsRequestObject) (api.GrantAdminOrganizationCreditsResponseObject, error) {
	if err := h.billing.GrantCredits(ctx, principal(ctx).UserID, req.Params.OrganizationId, req.Params.Credits); err != nil {
		return nil, err
	}
	t, err := h.teams.AdminTeam(ctx, req.Params.OrganizationId, false)
	if err != nil {
		return nil, err
	}
	return api.GrantAdminOrganizationCredits200JSONResponse{Status: http.StatusOK, Data: renderAdminTeam(t)}, nil
}

// ListAdminMail lists the outbox, newest first.
func (h *SiteAdmin) ListAdminMail(ctx context.Context, req api.ListAdminMailRequestObject) (api.ListAdminMailResponseObject, error) {
	recipient := ""
	if req.Params.Recipient != nil {
		recipient = string(*req.Params.Recipient)
	}
	items, meta, err := paged(newPage(req.Params.Page, req.Params.SizePerPage, mailPageSize), func(limit, offset int) ([]store.Email, int, error) {
		return h.mail.List(ctx, recipient, limit, offset)
	})
	if err != nil {
		return nil, err
	}
	return api.ListAdminMail200JSONResponse{Status: http.StatusOK, Data: mapped(items, renderOutboxMessage), Meta: meta}, nil
}

func (h *SiteAdmin) renderUserTeams(u teams.UserTeams) api.UserOrganizations {
	return renderUserTeams(u, h.identity.Internal(u.User.Email))
}
