package httpapi

import (
	"context"
	"errors"
	"net/http"
	"time"

	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/store"
)

// SiteAdmin answers the Admin tag: site administrators' view of every organisation. The
// policy lets only signed-in site admins in.
type SiteAdmin struct{ *handlers }

const adminPageSize = 10

// GetAdminOrganization answers an organisation with its standing. There is no payment
// provider yet, so refresh re-reads the database and stamps refreshedAt.
func (h *SiteAdmin) GetAdminOrganization(ctx context.Context, req api.GetAdminOrganizationRequestObject) (api.GetAdminOrganizationResponseObject, error) {
	out, err := h.adminOrganization(ctx, req.Id, req.Params.Refresh != nil && bool(*req.Params.Refresh))
	if err != nil {
		return nil, err
	}
	return api.GetAdminOrganization200JSONResponse{Status: http.StatusOK, Data: out}, nil
}

// ListAdminOrganizationsByOwnerEmail answers the organisations a user (by e-mail) owns.
func (h *SiteAdmin) ListAdminOrganizationsByOwnerEmail(ctx context.Context, req api.ListAdminOrganizationsByOwnerEmailRequestObject) (api.ListAdminOrganizationsByOwnerEmailResponseObject, error) {
	u, err := h.DB.UserByEmail(ctx, string(req.Email))
	if err != nil {
		return nil, storeNotFoundAs(err, "User")
	}
	orgs, err := h.DB.OrganizationsOwnedBy(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	out := make([]api.AdminOrganization, 0, len(orgs))
	for _, o := range orgs {
		a, err := h.adminOrganization(ctx, o.ID, req.Params.Refresh != nil && bool(*req.Params.Refresh))
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return api.ListAdminOrganizationsByOwnerEmail200JSONResponse{Status: http.StatusOK, Data: out}, nil
}

// SearchAdminUsersOrganizations lists users whose e-mail contains searchEmail, each with every
// organisation they belong to, 10 users a page.
func (h *SiteAdmin) SearchAdminUsersOrganizations(ctx context.Context, req api.SearchAdminUsersOrganizationsRequestObject) (api.SearchAdminUsersOrganizationsResponseObject, error) {
	search := ""
	if req.Params.SearchEmail != nil {
		search = *req.Params.SearchEmail
	}
	p := newPage(req.Params.Page, nil, adminPageSize)
	users, total, err := h.DB.SearchUsers(ctx, search, p.Size, p.offset())
	if err != nil {
		return nil, err
	}
	if c := p.clamp(total); c != p {
		p = c
		if users, total, err = h.DB.SearchUsers(ctx, search, p.Size, p.offset()); err != nil {
			return nil, err
		}
	}
	out := make([]api.UserOrganizations, 0, len(users))
	for _, u := range users {
		uo, err := h.userOrganizations(ctx, u)
		if err != nil {
			return nil, err
		}
		out = append(out, uo)
	}
	return api.SearchAdminUsersOrganizations200JSONResponse{Status: http.StatusOK, Data: out, Meta: p.meta(total, len(out))}, nil
}

// GetAdminUserOrganizations answers a user (by id) and their organisations.
func (h *SiteAdmin) GetAdminUserOrganizations(ctx context.Context, req api.GetAdminUserOrganizationsRequestObject) (api.GetAdminUserOrganizationsResponseObject, error) {
	u, err := h.DB.UserByID(ctx, req.UserId)
	if err != nil {
		return nil, storeNotFoundAs(err, "User")
	}
	out, err := h.userOrganizations(ctx, u)
	if err != nil {
		return nil, err
	}
	return api.GetAdminUserOrganizations200JSONResponse{Status: http.StatusOK, Data: out}, nil
}

// GetAdminUserOrganizationsByEmail answers a user (by e-mail) and their organisations.
func (h *SiteAdmin) GetAdminUserOrganizationsByEmail(ctx context.Context, req api.GetAdminUserOrganizationsByEmailRequestObject) (api.GetAdminUserOrganizationsByEmailResponseObject, error) {
	u, err := h.DB.UserByEmail(ctx, string(req.Email))
	if err != nil {
		return nil, storeNotFoundAs(err, "User")
	}
	out, err := h.userOrganizations(ctx, u)
	if err != nil {
		return nil, err
	}
	return api.GetAdminUserOrganizationsByEmail200JSONResponse{Status: http.StatusOK, Data: out}, nil
}

// UpdateAdminOrganizationLevel sets an organisation's verification level, completing the
// pending request it answers.
func (h *SiteAdmin) UpdateAdminOrganizationLevel(ctx context.Context, req api.UpdateAdminOrganizationLevelRequestObject) (api.UpdateAdminOrganizationLevelResponseObject, error) {
	if err := h.DB.SetVerificationLevel(ctx, req.Params.OrganizationId, string(req.Params.VerificationLevel)); err != nil {
		return nil, storeNotFoundAs(err, "Organization")
	}
	out, err := h.adminOrganization(ctx, req.Params.OrganizationId, false)
	if err != nil {
		return nil, err
	}
	return api.UpdateAdminOrganizationLevel200JSONResponse{Status: http.StatusOK, Data: out}, nil
}

// UpdateAdminOrganizationTier sets an organisation's subscription tier by hand.
func (h *SiteAdmin) UpdateAdminOrganizationTier(ctx context.Context, req api.UpdateAdminOrganizationTierRequestObject) (api.UpdateAdminOrganizationTierResponseObject, error) {
	if err := h.DB.SetSubscriptionTier(ctx, req.Params.OrganizationId, string(req.Params.SubscriptionTier)); err != nil {
		return nil, storeNotFoundAs(err, "Organization")
	}
	out, err := h.adminOrganization(ctx, req.Params.OrganizationId, false)
	if err != nil {
		return nil, err
	}
	return api.UpdateAdminOrganizationTier200JSONResponse{Status: http.StatusOK, Data: out}, nil
}

func (h *SiteAdmin) adminOrganization(ctx context.Context, id string, refresh bool) (api.AdminOrganization, error) {
	o, err := h.DB.OrganizationByID(ctx, id)
	if err != nil {
		return api.AdminOrganization{}, storeNotFoundAs(err, "Organization")
	}
	org, err := h.organization(ctx, o, "")
	if err != nil {
		return api.AdminOrganization{}, err
	}
	members, err := h.DB.CountActiveMembers(ctx, o.ID)
	if err != nil {
		return api.AdminOrganization{}, err
	}
	out := api.AdminOrganization{Organization: org, MemberCount: members, Balance: o.CreditsBalance,
		SubscriptionEndAt: o.SubscriptionEndAt}
	if refresh {
		t := time.Now().UTC()
		out.RefreshedAt = &t
	}
	v, err := h.DB.PendingVerificationRequest(ctx, o.ID)
	switch {
	case err == nil:
		out.PendingVerificationRequest = &api.VerificationRequest{Id: v.ID, OrganizationId: v.OrganizationID,
			CurrentLevel: api.VerificationLevel(v.CurrentLevel), RequestedLevel: api.VerificationLevel(v.RequestedLevel),
			Status: api.VerificationRequestStatus(v.Status), CreatedAt: v.CreatedAt, UpdatedAt: v.UpdatedAt}
	case !errors.Is(err, store.ErrNotFound):
		return out, err
	}
	return out, nil
}

func (h *SiteAdmin) userOrganizations(ctx context.Context, u store.User) (api.UserOrganizations, error) {
	ms, err := h.DB.UserMemberships(ctx, u.ID, u.Email)
	if err != nil {
		return api.UserOrganizations{}, err
	}
	out := api.UserOrganizations{User: summary(u), IsSiteAdmin: u.IsSiteAdmin, IsInternal: h.internal(u.Email),
		Organizations: make([]api.UserOrganization, 0, len(ms))}
	for _, m := range ms {
		o, err := h.DB.OrganizationByID(ctx, m.OrganizationID)
		if err != nil {
			return out, err
		}
		out.Organizations = append(out.Organizations, api.UserOrganization{
			OrganizationId: o.ID, OrganizationMemberId: m.ID, Name: o.Name, CompanyName: optional(o.CompanyName),
			Role: api.TeamRole(m.Role), Status: api.MemberStatus(m.Status), VerificationLevel: api.VerificationLevel(o.VerificationLevel),
			SubscriptionTier: api.SubscriptionTier(o.SubscriptionTier), JoinedAt: m.JoinedAt,
		})
	}
	return out, nil
}

// organization renders a team; role is the caller's role in it ("" to leave myRole out).
func (h *handlers) organization(ctx context.Context, o store.Organization, role string) (api.Organization, error) {
	owner, err := h.DB.UserByID(ctx, o.OwnerUserID)
	if err != nil {
		return api.Organization{}, err
	}
	out := api.Organization{
		Id: o.ID, Name: o.Name, CompanyName: optional(o.CompanyName), PlatformKey: optional(o.PlatformKey),
		Industry: optional(o.Industry), Purpose: optional(o.Purpose), Owner: summary(owner), PublicApiKey: o.PublicAPIKey,
		VerificationLevel: api.VerificationLevel(o.VerificationLevel), SubscriptionTier: api.SubscriptionTier(o.SubscriptionTier),
		CreatedAt: o.CreatedAt, UpdatedAt: o.UpdatedAt,
	}
	if role != "" {
		r := api.TeamRole(role)
		out.MyRole = &r
	}
	return out, nil
}

// optional renders an empty string as null.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// ListAdminMail lists the outbox, newest first.
func (h *SiteAdmin) ListAdminMail(ctx context.Context, req api.ListAdminMailRequestObject) (api.ListAdminMailResponseObject, error) {
	recipient := ""
	if req.Params.Recipient != nil {
		recipient = string(*req.Params.Recipient)
	}
	p := newPage(req.Params.Page, req.Params.SizePerPage, 20)
	msgs, total, err := h.DB.ListOutbox(ctx, recipient, p.Size, p.offset())
	if err != nil {
		return nil, err
	}
	if c := p.clamp(total); c != p {
		p = c
		if msgs, total, err = h.DB.ListOutbox(ctx, recipient, p.Size, p.offset()); err != nil {
			return nil, err
		}
	}
	out := make([]api.OutboxMessage, 0, len(msgs))
	for _, m := range msgs {
		o := api.OutboxMessage{Id: m.ID, Recipient: openapi_types.Email(m.Recipient), Subject: m.Subject,
			Kind: api.OutboxMessageKind(m.Kind), Text: m.Body, Link: optional(m.Link), CreatedAt: m.CreatedAt, SentAt: m.SentAt}
		switch {
		case m.SentAt != nil:
			o.Status, o.Attempts = api.OutboxMessageStatusSent, 1
		case m.Error != "":
			o.Status, o.Attempts, o.Error = api.OutboxMessageStatusFailed, 1, optional(m.Error)
		default:
			o.Status = api.OutboxMessageStatusKept
		}
		out = append(out, o)
	}
	return api.ListAdminMail200JSONResponse{Status: http.StatusOK, Data: out, Meta: p.meta(total, len(out))}, nil
}
