package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/mail"
	"github.com/bettyhq/betty/server/problem"
	"github.com/bettyhq/betty/server/store"
)

// Teams answers the Team tag: teams, members, invitations, ownership, API keys and the team's
// billing views.
type Teams struct{ *handlers }

const (
	teamPageSize = 10
	// teamInvitationTTL is how long an invitation (its e-mailed link, and the popup) can be accepted.
	teamInvitationTTL = 7 * 24 * time.Hour
	// ownershipTransferTTL is how long an ownership-transfer link works.
	ownershipTransferTTL = 72 * time.Hour
	// maxTeamAPIKeys is how many API keys a team may have.
	maxTeamAPIKeys = 20
	// maxPendingInvitations bounds the pending-invitations popup list.
	maxPendingInvitations = 100
	// callRatePerMinuteUSD is the price of one billed call minute.
	callRatePerMinuteUSD = 0.27
	callCostCurrency     = "USD"
)

var (
	errInvalidInvitation = problem.New(http.StatusBadRequest, api.ProblemCodeInvalidToken,
		"This invitation link was already used or has expired.")
	errInvalidTransfer = problem.New(http.StatusBadRequest, api.ProblemCodeInvalidToken,
		"This ownership transfer link is not valid, was already used or has expired.")
	errMemberNotFound = problem.NotFound("Member")
)

// ---- teams -------------------------------------------------------------------------------

// ListTeams lists the teams the caller is an active member of, oldest first, with their role
// in each. An API key acts for one team: its list is that team, with the key's role.
func (h *Teams) ListTeams(ctx context.Context, req api.ListTeamsRequestObject) (api.ListTeamsResponseObject, error) {
	p := newPage(req.Params.Page, req.Params.SizePerPage, teamPageSize)
	if key := principal(ctx); key.IsAPIKey() {
		o, err := h.DB.OrganizationByID(ctx, key.APIKeyOrgID)
		if err != nil {
			return nil, err
		}
		org, err := h.organization(ctx, o, string(key.APIKeyRole))
		if err != nil {
			return nil, err
		}
		p = p.clamp(1)
		return api.ListTeams200JSONResponse{Status: http.StatusOK, Data: []api.Organization{org}, Meta: p.meta(1, 1)}, nil
	}
	uid := principal(ctx).UserID
	orgs, total, err := h.DB.UserOrganizations(ctx, uid, p.Size, p.offset())
	if err != nil {
		return nil, err
	}
	if c := p.clamp(total); c != p {
		p = c
		if orgs, total, err = h.DB.UserOrganizations(ctx, uid, p.Size, p.offset()); err != nil {
			return nil, err
		}
	}
	out := make([]api.Organization, 0, len(orgs))
	for _, o := range orgs {
		m, err := h.DB.MemberOf(ctx, o.ID, uid)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, err
		}
		// m.Role is empty (myRole left out) if the caller left the team in between.
		org, err := h.organization(ctx, o, m.Role)
		if err != nil {
			return nil, err
		}
		out = append(out, org)
	}
	return api.ListTeams200JSONResponse{Status: http.StatusOK, Data: out, Meta: p.meta(total, len(out))}, nil
}

// CreateTeam creates a team owned by the caller, who becomes its owner member.
func (h *Teams) CreateTeam(ctx context.Context, req api.CreateTeamRequestObject) (api.CreateTeamResponseObject, error) {
	b := req.Body
	p := principal(ctx)
	name := strings.TrimSpace(b.Name)
	if name == "" {
		return nil, problem.Validation(problem.Field("body.name", "name is required"))
	}
	o := store.Organization{Name: name, OwnerUserID: p.UserID, PublicAPIKey: auth.NewPublicKey(),
		CompanyName: trimOptional(b.CompanyName), PlatformKey: trimOptional(b.PlatformKey),
		Industry: trimOptional(b.Industry), Purpose: trimOptional(b.Purpose)}
	if err := h.DB.CreateOrganization(ctx, &o, p.Email); err != nil {
		return nil, err
	}
	out, err := h.organization(ctx, o, string(auth.Owner))
	if err != nil {
		return nil, err
	}
	return api.CreateTeam201JSONResponse{Status: http.StatusCreated, Data: out}, nil
}

// UpdateTeamProperties changes the properties sent; an empty string clears an optional one.
func (h *Teams) UpdateTeamProperties(ctx context.Context, req api.UpdateTeamPropertiesRequestObject) (api.UpdateTeamPropertiesResponseObject, error) {
	b := req.Body
	g := grant(ctx)
	u := store.OrganizationUpdate{CompanyName: trimOptionalPtr(b.CompanyName), PlatformKey: trimOptionalPtr(b.PlatformKey),
		Industry: trimOptionalPtr(b.Industry), Purpose: trimOptionalPtr(b.Purpose)}
	if b.Name != nil {
		name := strings.TrimSpace(*b.Name)
		if name == "" {
			return nil, problem.Validation(problem.Field("body.name", "name cannot be empty"))
		}
		u.Name = &name
	}
	if err := h.DB.UpdateOrganization(ctx, g.OrganizationID, u); err != nil {
		return nil, storeNotFoundAs(err, "Team")
	}
	o, err := h.DB.OrganizationByID(ctx, g.OrganizationID)
	if err != nil {
		return nil, storeNotFoundAs(err, "Team")
	}
	out, err := h.organization(ctx, o, string(g.Role))
	if err != nil {
		return nil, err
	}
	return api.UpdateTeamProperties200JSONResponse{Status: http.StatusOK, Data: out}, nil
}

// DeleteTeam deletes the team and, by cascade, everything it holds. A team with a paid
// subscription still running is refused: it must be cancelled first.
func (h *Teams) DeleteTeam(ctx context.Context, req api.DeleteTeamRequestObject) (api.DeleteTeamResponseObject, error) {
	o, err := h.DB.OrganizationByID(ctx, grant(ctx).OrganizationID)
	if err != nil {
		return nil, storeNotFoundAs(err, "Team")
	}
	if running := teamRunningSubscriptions(o, time.Now()); len(running) > 0 {
		return nil, problem.Unprocessable(fmt.Sprintf("This team still has an active %s. Cancel it first, then delete the team.",
			strings.Join(running, " and ")))
	}
	if err := h.DB.DeleteOrganization(ctx, o.ID); err != nil {
		return nil, storeNotFoundAs(err, "Team")
	}
	return api.DeleteTeam200JSONResponse{Status: http.StatusOK, Data: api.Deleted{Id: o.ID}}, nil
}

// teamRunningSubscriptions names what still bills a team: a paid tier whose period has not ended.
// (Phone-number subscriptions join this list when they exist.)
func teamRunningSubscriptions(o store.Organization, now time.Time) []string {
	var out []string
	if o.SubscriptionTier != "free" && o.SubscriptionEndAt != nil && o.SubscriptionEndAt.After(now) {
		out = append(out, "tier subscription")
	}
	return out
}

// RequestTeamVerification records a request for the next verification level and tells the
// site admins; while one is pending, it is answered again and nobody is told twice.
func (h *Teams) RequestTeamVerification(ctx context.Context, req api.RequestTeamVerificationRequestObject) (api.RequestTeamVerificationResponseObject, error) {
	o, err := h.DB.OrganizationByID(ctx, grant(ctx).OrganizationID)
	if err != nil {
		return nil, storeNotFoundAs(err, "Team")
	}
	next := map[string]string{"none": "l1", "l1": "l2"}[o.VerificationLevel]
	if next == "" {
		return nil, problem.Unprocessable("This team is already verified at the highest level (L2).")
	}
	var v store.VerificationRequest
	created := false
	err = h.DB.InTx(ctx, func(ctx context.Context) error {
		pending, err := h.DB.PendingVerificationRequest(ctx, o.ID)
		if err == nil {
			v = pending
			return nil
		}
		if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		v = store.VerificationRequest{OrganizationID: o.ID, CurrentLevel: o.VerificationLevel, RequestedLevel: next}
		created = true
		return h.DB.CreateVerificationRequest(ctx, &v)
	})
	if err != nil {
		return nil, err
	}
	if created {
		admins, err := h.DB.SiteAdminEmails(ctx)
		if err != nil {
			return nil, err
		}
		link := h.link("/admin", url.Values{"organizationId": {o.ID}})
		for _, to := range admins {
			if err := h.Mailer.Send(ctx, mail.Message{To: to, Kind: "verification-request", Link: link,
				Subject: fmt.Sprintf("Verification requested: %s (%s)", o.Name, strings.ToUpper(next)),
				Text: fmt.Sprintf("The team %q asks to be verified at level %s (it is at %s now). Review it here:\n\n%s\n",
					o.Name, strings.ToUpper(next), o.VerificationLevel, link)}); err != nil {
				return nil, err
			}
		}
	}
	return api.RequestTeamVerification200JSONResponse{Status: http.StatusOK, Data: api.VerificationRequest{
		Id: v.ID, OrganizationId: v.OrganizationID, CurrentLevel: api.VerificationLevel(v.CurrentLevel),
		RequestedLevel: api.VerificationLevel(v.RequestedLevel), Status: api.VerificationRequestStatus(v.Status),
		CreatedAt: v.CreatedAt, UpdatedAt: v.UpdatedAt}}, nil
}

// CheckTeamMembership says whether a user is an active member of a team. Public: unknown ids
// are simply not members.
func (h *Teams) CheckTeamMembership(ctx context.Context, req api.CheckTeamMembershipRequestObject) (api.CheckTeamMembershipResponseObject, error) {
	_, err := h.DB.MemberOf(ctx, req.TeamId, req.Params.UserId)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	return api.CheckTeamMembership200JSONResponse{Status: http.StatusOK, Data: api.TeamMembershipCheck{
		TeamId: req.TeamId, UserId: req.Params.UserId, IsMember: err == nil}}, nil
}

// ---- onboarding --------------------------------------------------------------------------

// onboardingStep is one item of the checklist; doneAt computes, from what exists, when the
// step was first done (nil while not done). Features fill in their step as they are built.
type onboardingStep struct {
	key    api.OnboardingStep
	label  string
	doneAt func(ctx context.Context, db *store.DB, o store.Organization) (*time.Time, error)
}

func onboardingNotYet(context.Context, *store.DB, store.Organization) (*time.Time, error) {
	return nil, nil
}

// onboardingSteps are the checklist, in the contract's order.
var onboardingSteps = []onboardingStep{
	{api.TeamCreated, "Create your team", func(_ context.Context, _ *store.DB, o store.Organization) (*time.Time, error) {
		t := o.CreatedAt
		return &t, nil
	}},
	{api.AgentCreated, "Create an agent", onboardingNotYet},
	{api.PhoneNumberBought, "Buy a phone number", onboardingNotYet},
	{api.PhoneNumberPaired, "Pair the phone number with an agent", onboardingNotYet},
	{api.TestCallMade, "Make a test call", onboardingNotYet},
}

// GetTeamOnboarding answers the team's onboarding checklist.
func (h *Teams) GetTeamOnboarding(ctx context.Context, req api.GetTeamOnboardingRequestObject) (api.GetTeamOnboardingResponseObject, error) {
	o, err := h.DB.OrganizationByID(ctx, grant(ctx).OrganizationID)
	if err != nil {
		return nil, storeNotFoundAs(err, "Team")
	}
	out := api.TeamOnboarding{OrganizationId: o.ID, Completed: true, Items: make([]api.OnboardingItem, 0, len(onboardingSteps))}
	for _, s := range onboardingSteps {
		at, err := s.doneAt(ctx, h.DB, o)
		if err != nil {
			return nil, err
		}
		out.Items = append(out.Items, api.OnboardingItem{Key: s.key, Label: s.label, Done: at != nil, DoneAt: at})
		out.Completed = out.Completed && at != nil
	}
	return api.GetTeamOnboarding200JSONResponse{Status: http.StatusOK, Data: out}, nil
}

// ---- members -----------------------------------------------------------------------------

// ListTeamMembers lists the team's active and invited members, owner first.
func (h *Teams) ListTeamMembers(ctx context.Context, req api.ListTeamMembersRequestObject) (api.ListTeamMembersResponseObject, error) {
	org := grant(ctx).OrganizationID
	p := newPage(req.Params.Page, req.Params.SizePerPage, teamPageSize)
	ms, total, err := h.DB.ListMembers(ctx, org, p.Size, p.offset())
	if err != nil {
		return nil, err
	}
	if c := p.clamp(total); c != p {
		p = c
		if ms, total, err = h.DB.ListMembers(ctx, org, p.Size, p.offset()); err != nil {
			return nil, err
		}
	}
	out := make([]api.TeamMember, 0, len(ms))
	for _, m := range ms {
		tm, err := h.member(ctx, m)
		if err != nil {
			return nil, err
		}
		out = append(out, tm)
	}
	return api.ListTeamMembers200JSONResponse{Status: http.StatusOK, Data: out, Meta: p.meta(total, len(out))}, nil
}

// InviteTeamMember invites an e-mail into the team and e-mails it a link valid 7 days.
// Inviting again sends a new link (the old one stops working) and updates the role.
func (h *Teams) InviteTeamMember(ctx context.Context, req api.InviteTeamMemberRequestObject) (api.InviteTeamMemberResponseObject, error) {
	b := req.Body
	g := grant(ctx)
	p := principal(ctx)
	role := auth.Member
	if b.Role != nil {
		role = auth.Role(*b.Role)
	}
	if role == auth.Owner || !role.Valid() {
		return nil, problem.Validation(problem.Field("body.role", "role must be admin, developer, member or readonly; ownership moves only by transfer"))
	}
	base, err := h.linkBase(trimOptional(b.Origin))
	if err != nil {
		return nil, err
	}
	o, err := h.DB.OrganizationByID(ctx, g.OrganizationID)
	if err != nil {
		return nil, storeNotFoundAs(err, "Team")
	}
	email := store.NormalizeEmail(string(b.Email))
	token := auth.NewOpaqueToken()
	var m store.Member
	err = h.DB.InTx(ctx, func(ctx context.Context) error {
		var err error
		if m, err = h.DB.Invite(ctx, o.ID, email, string(role), p.UserID); err != nil {
			return err
		}
		mid, oid := m.ID, o.ID
		return h.DB.CreateToken(ctx, &store.Token{Kind: store.TokenInvitation, TokenHash: auth.HashToken(token),
			OrganizationID: &oid, MemberID: &mid, Email: email, ExpiresAt: time.Now().UTC().Add(teamInvitationTTL)}, true)
	})
	if errors.Is(err, store.ErrConflict) {
		return nil, problem.Conflict(email + " is already a member of this team.")
	}
	if err != nil {
		return nil, err
	}
	inviter := "Someone"
	if !p.IsAPIKey() {
		inviter = p.Email
		if u, err := h.DB.UserByID(ctx, p.UserID); err == nil {
			if n := profileOf(u).Name; n != nil && *n != "" {
				inviter = *n + " (" + u.Email + ")"
			}
		}
	}
	link := dashboardLink(base, "/invite", url.Values{"inviteToken": {token}})
	if err := h.Mailer.Send(ctx, mail.Message{To: email, Kind: "invitation", Link: link,
		Subject: fmt.Sprintf("You are invited to join %s on Betty", o.Name),
		Text: fmt.Sprintf("%s invited you to join the team %q on Betty as %s. Open this link within 7 days to accept:\n\n%s\n\n"+
			"If you have no Betty account yet, sign up with this e-mail address first. If you did not expect this, ignore this e-mail.\n",
			inviter, o.Name, role, link)}); err != nil {
		return nil, err
	}
	out, err := h.member(ctx, m)
	if err != nil {
		return nil, err
	}
	return api.InviteTeamMember201JSONResponse{Status: http.StatusCreated, Data: out}, nil
}

// AcceptTeamInvitation accepts an invitation with the token of its e-mailed link. The link
// works once; the signed-in user must be the invited address.
func (h *Teams) AcceptTeamInvitation(ctx context.Context, req api.AcceptTeamInvitationRequestObject) (api.AcceptTeamInvitationResponseObject, error) {
	p := principal(ctx)
	t, err := h.DB.TokenByHash(ctx, store.TokenInvitation, auth.HashToken(req.Body.Token))
	if errors.Is(err, store.ErrNotFound) || (err == nil && (t.UsedAt != nil || time.Now().After(t.ExpiresAt) || t.MemberID == nil)) {
		return nil, errInvalidInvitation
	}
	if err != nil {
		return nil, err
	}
	// Checked before the token is spent, so the wrong account does not use up the link.
	if store.NormalizeEmail(t.Email) != store.NormalizeEmail(p.Email) {
		return nil, problem.Forbidden("This invitation was sent to another e-mail address. Sign in with that address to accept it.")
	}
	var m store.Member
	err = h.DB.InTx(ctx, func(ctx context.Context) error {
		if err := h.DB.SpendToken(ctx, t.ID); err != nil {
			return err
		}
		var err error
		if m, err = h.DB.MemberByID(ctx, *t.MemberID); err != nil {
			return err
		}
		if m.Status != "invited" || m.Email != store.NormalizeEmail(t.Email) {
			return store.ErrNotFound // withdrawn since the link was sent
		}
		if err := h.DB.ActivateMember(ctx, m.ID, p.UserID); err != nil {
			return err
		}
		m, err = h.DB.MemberByID(ctx, m.ID)
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return nil, errInvalidInvitation
	}
	if err != nil {
		return nil, err
	}
	out, err := h.member(ctx, m)
	if err != nil {
		return nil, err
	}
	return api.AcceptTeamInvitation200JSONResponse{Status: http.StatusOK, Data: out}, nil
}

// ListPendingTeamInvitations lists the invitations to the caller's e-mail that can still be
// accepted, newest first.
func (h *Teams) ListPendingTeamInvitations(ctx context.Context, _ api.ListPendingTeamInvitationsRequestObject) (api.ListPendingTeamInvitationsResponseObject, error) {
	ms, err := h.DB.InvitationsTo(ctx, principal(ctx).Email)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	out := make([]api.Invitation, 0, len(ms))
	for _, m := range ms {
		exp := invitationExpiry(m)
		if !now.Before(exp) {
			continue
		}
		if len(out) == maxPendingInvitations {
			break
		}
		o, err := h.DB.OrganizationByID(ctx, m.OrganizationID)
		if err != nil {
			return nil, err
		}
		inv := api.Invitation{Id: m.ID, OrganizationMemberId: m.ID, OrganizationId: o.ID, OrganizationName: o.Name,
			Email: openapi_types.Email(m.Email), Role: api.TeamRole(m.Role), ExpiresAt: exp,
			CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt}
		if m.InvitedBy != nil {
			u, err := h.DB.UserByID(ctx, *m.InvitedBy)
			switch {
			case err == nil:
				s := summary(u)
				inv.InvitedBy = &s
			case !errors.Is(err, store.ErrNotFound):
				return nil, err
			}
		}
		out = append(out, inv)
	}
	return api.ListPendingTeamInvitations200JSONResponse{Status: http.StatusOK, Data: out}, nil
}

// AcceptPendingTeamInvitation accepts one of the caller's invitations by its member id. Any id
// not addressed to the caller is a 404; accepting again answers the membership again.
func (h *Teams) AcceptPendingTeamInvitation(ctx context.Context, req api.AcceptPendingTeamInvitationRequestObject) (api.AcceptPendingTeamInvitationResponseObject, error) {
	p := principal(ctx)
	var m store.Member
	err := h.DB.InTx(ctx, func(ctx context.Context) error {
		var err error
		m, err = h.DB.MemberByID(ctx, req.Body.OrganizationMemberId)
		if err != nil {
			return err
		}
		if m.Email != store.NormalizeEmail(p.Email) {
			return store.ErrNotFound
		}
		switch {
		case m.Status == "active" && m.UserID != nil && *m.UserID == p.UserID:
			return nil // already accepted
		case m.Status != "invited":
			return store.ErrNotFound
		case !time.Now().Before(invitationExpiry(m)):
			return problem.Unprocessable("This invitation has expired. Ask the team's admin to invite you again.")
		}
		if err := h.DB.ActivateMember(ctx, m.ID, p.UserID); err != nil {
			return err
		}
		// The e-mailed link of this invitation has served its purpose.
		if err := h.DB.CancelMemberTokens(ctx, store.TokenInvitation, m.ID); err != nil {
			return err
		}
		m, err = h.DB.MemberByID(ctx, m.ID)
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return nil, problem.NotFound("Invitation")
	}
	if err != nil {
		return nil, err
	}
	out, err := h.member(ctx, m)
	if err != nil {
		return nil, err
	}
	return api.AcceptPendingTeamInvitation200JSONResponse{Status: http.StatusOK, Data: out}, nil
}

// invitationExpiry is when an invitation stops being acceptable.
func invitationExpiry(m store.Member) time.Time {
	sent := m.CreatedAt
	if m.InvitedAt != nil {
		sent = *m.InvitedAt
	}
	return sent.Add(teamInvitationTTL)
}

// UpdateTeamMemberRole gives an active or invited member another role. Nobody becomes owner
// this way and the owner's role cannot change (422). An admin may not change another admin's
// role: that is the owner's call, so it is refused like any role that is not enough (403).
func (h *Teams) UpdateTeamMemberRole(ctx context.Context, req api.UpdateTeamMemberRoleRequestObject) (api.UpdateTeamMemberRoleResponseObject, error) {
	b := req.Body
	g := grant(ctx)
	role := auth.Role(b.Role)
	if role == auth.Owner {
		return nil, problem.Unprocessable("Nobody can be made owner by a role change: transfer the ownership instead.")
	}
	m, err := h.DB.MemberByEmail(ctx, g.OrganizationID, string(b.Email))
	if errors.Is(err, store.ErrNotFound) || (err == nil && m.Status == "removed") {
		return nil, errMemberNotFound
	}
	if err != nil {
		return nil, err
	}
	if m.Role == string(auth.Owner) {
		return nil, problem.Unprocessable("The owner's role cannot be changed: ownership moves only by transfer.")
	}
	if m.Role == string(auth.Admin) && g.Role != auth.Owner && m.ID != g.MemberID {
		return nil, problem.Forbidden("Only the owner can change the role of another admin.")
	}
	err = h.DB.InTx(ctx, func(ctx context.Context) error {
		if err := h.DB.SetMemberRole(ctx, m.ID, string(role)); err != nil {
			return err
		}
		if m.UserID == nil {
			return nil
		}
		// A key never does more than its maker may: demoting the maker lowers their keys.
		var above []string
		for _, r := range role.Above() {
			above = append(above, string(r))
		}
		return h.DB.LowerAPIKeyRoles(ctx, g.OrganizationID, *m.UserID, string(role), above)
	})
	if err != nil {
		return nil, storeNotFoundAs(err, "Member")
	}
	if m, err = h.DB.MemberByID(ctx, m.ID); err != nil {
		return nil, err
	}
	out, err := h.member(ctx, m)
	if err != nil {
		return nil, err
	}
	return api.UpdateTeamMemberRole200JSONResponse{Status: http.StatusOK, Data: out}, nil
}

// RemoveTeamMember removes a member (status removed; the row and its history stay) and
// cancels a pending invitation. Anyone may remove themselves (leave); removing someone else
// needs admin. The owner can neither leave nor be removed.
func (h *Teams) RemoveTeamMember(ctx context.Context, req api.RemoveTeamMemberRequestObject) (api.RemoveTeamMemberResponseObject, error) {
	g := grant(ctx)
	m, err := h.DB.MemberByEmail(ctx, g.OrganizationID, string(req.Params.Email))
	if errors.Is(err, store.ErrNotFound) || (err == nil && m.Status == "removed") {
		return nil, errMemberNotFound
	}
	if err != nil {
		return nil, err
	}
	self := g.MemberID != "" && m.ID == g.MemberID
	if !self && !g.Role.AtLeast(auth.Admin) {
		return nil, problem.Forbidden(fmt.Sprintf("Your role in this team (%s) does not allow removing other members; it needs admin or higher. You can only leave the team yourself.", g.Role))
	}
	if m.Role == string(auth.Owner) {
		if self {
			return nil, problem.Unprocessable("The owner cannot leave the team: transfer the ownership to another member first.")
		}
		return nil, problem.Unprocessable("The owner cannot be removed: the ownership must be transferred first.")
	}
	// A pending ownership transfer to the member is left alone: confirming it answers 422
	// (the nominee is no longer an active member), as the contract says.
	revoked := 0
	keep := req.Params.KeepApiKeys != nil && *req.Params.KeepApiKeys
	err = h.DB.InTx(ctx, func(ctx context.Context) error {
		if err := h.DB.RemoveMember(ctx, m.ID); err != nil {
			return err
		}
		if m.UserID != nil && !keep {
			var err error
			if revoked, err = h.DB.DeleteAPIKeysCreatedBy(ctx, g.OrganizationID, *m.UserID); err != nil {
				return err
			}
		}
		return h.DB.CancelMemberTokens(ctx, store.TokenInvitation, m.ID)
	})
	if err != nil {
		return nil, storeNotFoundAs(err, "Member")
	}
	return api.RemoveTeamMember200JSONResponse{Status: http.StatusOK, Data: api.MemberRemoval{Id: m.ID, RevokedApiKeys: revoked}}, nil
}

// member renders a team member. The user is found by id, or for an invitation by the invited
// address when it already has an account.
func (h *Teams) member(ctx context.Context, m store.Member) (api.TeamMember, error) {
	out := api.TeamMember{Id: m.ID, OrganizationId: m.OrganizationID, Email: openapi_types.Email(m.Email),
		Role: api.TeamRole(m.Role), Status: api.MemberStatus(m.Status), InvitedAt: m.InvitedAt, JoinedAt: m.JoinedAt,
		RemovedAt: m.RemovedAt, CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt}
	var u store.User
	var err error
	if m.UserID != nil {
		u, err = h.DB.UserByID(ctx, *m.UserID)
	} else {
		u, err = h.DB.UserByEmail(ctx, m.Email)
	}
	switch {
	case err == nil:
		id := u.ID
		out.UserId = &id
		out.Name = profileOf(u).Name
	case !errors.Is(err, store.ErrNotFound):
		return out, err
	}
	return out, nil
}

// ---- ownership ---------------------------------------------------------------------------

// TransferTeamOwnership e-mails an active member a link to become the owner. Nothing changes
// until they confirm; a new transfer cancels a pending one.
func (h *Teams) TransferTeamOwnership(ctx context.Context, req api.TransferTeamOwnershipRequestObject) (api.TransferTeamOwnershipResponseObject, error) {
	b := req.Body
	g := grant(ctx)
	p := principal(ctx)
	base, err := h.linkBase(trimOptional(b.Origin))
	if err != nil {
		return nil, err
	}
	email := store.NormalizeEmail(string(b.NewOwnerEmail))
	if email == store.NormalizeEmail(p.Email) {
		return nil, problem.Unprocessable("You already own this team; name another member as the new owner.")
	}
	o, err := h.DB.OrganizationByID(ctx, g.OrganizationID)
	if err != nil {
		return nil, storeNotFoundAs(err, "Team")
	}
	m, err := h.DB.MemberByEmail(ctx, o.ID, email)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	if err != nil || m.Status != "active" || m.UserID == nil {
		return nil, problem.Unprocessable(email + " is not an active member of this team. Only an active member can become its owner.")
	}
	token := auth.NewOpaqueToken()
	err = h.DB.InTx(ctx, func(ctx context.Context) error {
		if err := h.DB.CancelOrganizationTokens(ctx, store.TokenOwnershipTransfer, o.ID); err != nil {
			return err
		}
		oid, mid := o.ID, m.ID
		return h.DB.CreateToken(ctx, &store.Token{Kind: store.TokenOwnershipTransfer, TokenHash: auth.HashToken(token),
			UserID: m.UserID, OrganizationID: &oid, MemberID: &mid, Email: email,
			ExpiresAt: time.Now().UTC().Add(ownershipTransferTTL)}, false)
	})
	if err != nil {
		return nil, err
	}
	link := dashboardLink(base, "/transfer-ownership", url.Values{"transferOwnershipToken": {token}})
	if err := h.Mailer.Send(ctx, mail.Message{To: email, Kind: "ownership-transfer", Link: link,
		Subject: fmt.Sprintf("Become the owner of %s on Betty", o.Name),
		Text: fmt.Sprintf("%s wants to make you the owner of the team %q on Betty; they will stay in the team as an admin. "+
			"To accept, open this link within 72 hours:\n\n%s\n\nIf you did not expect this, ignore this e-mail.\n", p.Email, o.Name, link)}); err != nil {
		return nil, err
	}
	return api.TransferTeamOwnership200JSONResponse{Status: http.StatusOK, Data: api.Message{
		Message: fmt.Sprintf("We have e-mailed %s a link to confirm. Nothing changes until they do.", email)}}, nil
}

// ConfirmTeamOwnershipTransfer completes a transfer: the nominee becomes owner and the
// previous owner an admin.
func (h *Teams) ConfirmTeamOwnershipTransfer(ctx context.Context, req api.ConfirmTeamOwnershipTransferRequestObject) (api.ConfirmTeamOwnershipTransferResponseObject, error) {
	p := principal(ctx)
	t, err := h.DB.TokenByHash(ctx, store.TokenOwnershipTransfer, auth.HashToken(req.Body.TransferOwnershipToken))
	if errors.Is(err, store.ErrNotFound) || (err == nil && (t.UsedAt != nil || time.Now().After(t.ExpiresAt) ||
		t.OrganizationID == nil || t.MemberID == nil)) {
		return nil, errInvalidTransfer
	}
	if err != nil {
		return nil, err
	}
	if store.NormalizeEmail(t.Email) != store.NormalizeEmail(p.Email) {
		return nil, problem.Forbidden("Only the member named as the new owner can confirm this transfer.")
	}
	orgID := *t.OrganizationID
	err = h.DB.InTx(ctx, func(ctx context.Context) error {
		m, err := h.DB.MemberByID(ctx, *t.MemberID)
		if err != nil {
			return err
		}
		if m.Status != "active" || m.UserID == nil || *m.UserID != p.UserID || m.Role == string(auth.Owner) {
			return problem.Unprocessable("This transfer can no longer happen: you are not an active member of the team, or you own it already.")
		}
		// Spends this token and cancels any other pending transfer of the team.
		if err := h.DB.SpendToken(ctx, t.ID); err != nil {
			return err
		}
		if err := h.DB.CancelOrganizationTokens(ctx, store.TokenOwnershipTransfer, orgID); err != nil {
			return err
		}
		return h.DB.TransferOwnership(ctx, orgID, p.UserID)
	})
	if errors.Is(err, store.ErrNotFound) {
		return nil, errInvalidTransfer
	}
	if err != nil {
		return nil, err
	}
	o, err := h.DB.OrganizationByID(ctx, orgID)
	if err != nil {
		return nil, err
	}
	out, err := h.organization(ctx, o, string(auth.Owner))
	if err != nil {
		return nil, err
	}
	return api.ConfirmTeamOwnershipTransfer200JSONResponse{Status: http.StatusOK, Data: out}, nil
}

// ---- API keys ----------------------------------------------------------------------------

// ListTeamApiKeys lists the team's keys, newest first, without their secrets.
func (h *Teams) ListTeamApiKeys(ctx context.Context, _ api.ListTeamApiKeysRequestObject) (api.ListTeamApiKeysResponseObject, error) {
	keys, err := h.DB.ListAPIKeys(ctx, grant(ctx).OrganizationID)
	if err != nil {
		return nil, err
	}
	var creators []string
	for _, k := range keys {
		if k.CreatedBy != nil {
			creators = append(creators, *k.CreatedBy)
		}
	}
	users, err := h.DB.UsersByIDs(ctx, creators)
	if err != nil {
		return nil, err
	}
	statuses, err := h.DB.MemberStatusesOf(ctx, grant(ctx).OrganizationID, creators)
	if err != nil {
		return nil, err
	}
	out := make([]api.ApiKey, 0, len(keys))
	for _, k := range keys {
		key := api.ApiKey{Id: k.ID, OrganizationId: k.OrganizationID, Name: k.Name, Prefix: k.Prefix,
			Role: api.TeamRole(k.Role), LastUsedAt: k.LastUsedAt, CreatedAt: k.CreatedAt, UpdatedAt: k.UpdatedAt}
		if k.CreatedBy != nil {
			if u, ok := users[*k.CreatedBy]; ok {
				s := summary(u)
				key.CreatedBy = &s
			}
			if st, ok := statuses[*k.CreatedBy]; ok {
				s := api.MemberStatus(st)
				key.CreatedByStatus = &s
			}
		}
		out = append(out, key)
	}
	return api.ListTeamApiKeys200JSONResponse{Status: http.StatusOK, Data: out}, nil
}

// CreateTeamApiKey makes a key acting in the team with a role no higher than the creator's.
// The secret is in this answer only; the server keeps its hash.
func (h *Teams) CreateTeamApiKey(ctx context.Context, req api.CreateTeamApiKeyRequestObject) (api.CreateTeamApiKeyResponseObject, error) {
	b := req.Body
	g := grant(ctx)
	p := principal(ctx)
	role := auth.Developer
	if b.Role != nil {
		role = auth.Role(*b.Role)
	}
	if role == auth.Owner || !role.Valid() {
		return nil, problem.Forbidden("An API key cannot have the owner role.")
	}
	if !g.Role.AtLeast(role) {
		return nil, problem.Forbidden(fmt.Sprintf("An API key cannot have a higher role (%s) than yours (%s).", role, g.Role))
	}
	name := strings.TrimSpace(b.Name)
	if name == "" {
		return nil, problem.Validation(problem.Field("body.name", "name is required"))
	}
	secret, prefix := auth.NewAPIKey()
	uid := p.UserID
	k := store.APIKey{OrganizationID: g.OrganizationID, Name: name, Prefix: prefix, KeyHash: auth.HashToken(secret),
		Role: string(role), CreatedBy: &uid}
	err := h.DB.InTx(ctx, func(ctx context.Context) error {
		n, err := h.DB.CountAPIKeys(ctx, g.OrganizationID)
		if err != nil {
			return err
		}
		if n >= maxTeamAPIKeys {
			return problem.New(http.StatusUnprocessableEntity, api.ProblemCodeLimitReached,
				fmt.Sprintf("A team can have at most %d API keys. Delete one you no longer use first.", maxTeamAPIKeys))
		}
		return h.DB.CreateAPIKey(ctx, &k)
	})
	if errors.Is(err, store.ErrConflict) {
		return nil, problem.Conflict(fmt.Sprintf("This team already has an API key named %q.", name))
	}
	if err != nil {
		return nil, err
	}
	by, err := h.createdBy(ctx, k)
	if err != nil {
		return nil, err
	}
	return api.CreateTeamApiKey201JSONResponse{Status: http.StatusCreated, Data: api.CreatedApiKey{
		Id: k.ID, OrganizationId: k.OrganizationID, Name: k.Name, Prefix: k.Prefix, Role: api.TeamRole(k.Role),
		Key: secret, CreatedBy: by, LastUsedAt: nil, CreatedAt: k.CreatedAt, UpdatedAt: k.UpdatedAt}}, nil
}

// DeleteTeamApiKey revokes a key of the team; calls with it are refused from then on.
func (h *Teams) DeleteTeamApiKey(ctx context.Context, req api.DeleteTeamApiKeyRequestObject) (api.DeleteTeamApiKeyResponseObject, error) {
	if err := h.DB.DeleteAPIKey(ctx, grant(ctx).OrganizationID, req.Id); err != nil {
		return nil, storeNotFoundAs(err, "API key")
	}
	return api.DeleteTeamApiKey200JSONResponse{Status: http.StatusOK, Data: api.Deleted{Id: req.Id}}, nil
}

func (h *Teams) createdBy(ctx context.Context, k store.APIKey) (*api.UserSummary, error) {
	if k.CreatedBy == nil {
		return nil, nil
	}
	u, err := h.DB.UserByID(ctx, *k.CreatedBy)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	s := summary(u)
	return &s, nil
}

// ---- billing views -----------------------------------------------------------------------

// GetTeamSubscriptionCredits answers the team's credit balance and tier.
func (h *Teams) GetTeamSubscriptionCredits(ctx context.Context, _ api.GetTeamSubscriptionCreditsRequestObject) (api.GetTeamSubscriptionCreditsResponseObject, error) {
	o, err := h.DB.OrganizationByID(ctx, grant(ctx).OrganizationID)
	if err != nil {
		return nil, storeNotFoundAs(err, "Team")
	}
	return api.GetTeamSubscriptionCredits200JSONResponse{Status: http.StatusOK, Data: api.TeamCredits{
		OrganizationId: o.ID, Balance: roundCents(o.CreditsBalance), SubscriptionTier: api.SubscriptionTier(o.SubscriptionTier),
		SubscriptionEndAt: o.SubscriptionEndAt}}, nil
}

// GetTeamSubscriptionStatus answers the state of the team's tier subscription.
func (h *Teams) GetTeamSubscriptionStatus(ctx context.Context, _ api.GetTeamSubscriptionStatusRequestObject) (api.GetTeamSubscriptionStatusResponseObject, error) {
	o, err := h.DB.OrganizationByID(ctx, grant(ctx).OrganizationID)
	if err != nil {
		return nil, storeNotFoundAs(err, "Team")
	}
	return api.GetTeamSubscriptionStatus200JSONResponse{Status: http.StatusOK, Data: teamSubscriptionStatus(o, time.Now())}, nil
}

// subscriptionStatus derives the subscription state from the team's tier and paid period.
// The payment provider's events (trials, failed payments, cancellation) refine it once
// payments exist; until then a paid tier with a running period is active, one whose period
// ended is cancelled, and the free tier or a tier a site admin set without end has none.
func teamSubscriptionStatus(o store.Organization, now time.Time) api.TeamSubscriptionStatus {
	out := api.TeamSubscriptionStatus{OrganizationId: o.ID, SubscriptionTier: api.SubscriptionTier(o.SubscriptionTier),
		Status: api.SubscriptionStateNone}
	if o.SubscriptionTier == "free" || o.SubscriptionEndAt == nil {
		return out
	}
	end := *o.SubscriptionEndAt
	monthly := api.Monthly
	out.CurrentPeriodEnd, out.IntervalType = &end, &monthly
	if end.After(now) {
		out.Status = api.SubscriptionStateActive
	} else {
		out.Status = api.SubscriptionStateCancelled
	}
	return out
}

// GetTeamBillingAddress answers the saved billing address, if any.
func (h *Teams) GetTeamBillingAddress(ctx context.Context, _ api.GetTeamBillingAddressRequestObject) (api.GetTeamBillingAddressResponseObject, error) {
	o, err := h.DB.OrganizationByID(ctx, grant(ctx).OrganizationID)
	if err != nil {
		return nil, storeNotFoundAs(err, "Team")
	}
	out, err := teamBillingAddress(o)
	if err != nil {
		return nil, err
	}
	return api.GetTeamBillingAddress200JSONResponse{Status: http.StatusOK, Data: out}, nil
}

var billingStateCode = regexp.MustCompile(`^[A-Z]{2}$`)

// UpdateTeamBillingAddress replaces the billing address. (It is passed on to the payment
// provider's customer record once payments exist.)
func (h *Teams) UpdateTeamBillingAddress(ctx context.Context, req api.UpdateTeamBillingAddressRequestObject) (api.UpdateTeamBillingAddressResponseObject, error) {
	in := req.Body.BillingAddress
	a := api.BillingAddress{Line1: strings.TrimSpace(in.Line1), Line2: trimOptionalPtr(in.Line2), City: strings.TrimSpace(in.City),
		State: trimOptionalPtr(in.State), PostalCode: strings.TrimSpace(in.PostalCode), Country: in.Country}
	if a.Line2 != nil && *a.Line2 == "" {
		a.Line2 = nil
	}
	if a.State != nil && *a.State == "" {
		a.State = nil
	}
	var fields []api.FieldError
	for _, f := range []struct{ name, v string }{{"line1", a.Line1}, {"city", a.City}, {"postalCode", a.PostalCode}} {
		if f.v == "" {
			fields = append(fields, problem.Field("body.billingAddress."+f.name, f.name+" is required"))
		}
	}
	if a.Country == "US" || a.Country == "CA" {
		if a.State != nil {
			s := strings.ToUpper(*a.State)
			a.State = &s
		}
		if a.State == nil || !billingStateCode.MatchString(*a.State) {
			fields = append(fields, problem.Field("body.billingAddress.state", "state must be a 2-letter code for US and CA addresses"))
		}
	}
	if len(fields) > 0 {
		return nil, problem.Validation(fields...)
	}
	raw, _ := json.Marshal(a)
	org := grant(ctx).OrganizationID
	if err := h.DB.SetBillingAddress(ctx, org, string(raw)); err != nil {
		return nil, storeNotFoundAs(err, "Team")
	}
	o, err := h.DB.OrganizationByID(ctx, org)
	if err != nil {
		return nil, storeNotFoundAs(err, "Team")
	}
	out, err := teamBillingAddress(o)
	if err != nil {
		return nil, err
	}
	return api.UpdateTeamBillingAddress200JSONResponse{Status: http.StatusOK, Data: out}, nil
}

func teamBillingAddress(o store.Organization) (api.TeamBillingAddress, error) {
	out := api.TeamBillingAddress{OrganizationId: o.ID, UpdatedAt: o.BillingAddressUpdatedAt}
	if o.BillingAddress != nil && *o.BillingAddress != "" {
		var a api.BillingAddress
		if err := json.Unmarshal([]byte(*o.BillingAddress), &a); err != nil {
			return out, fmt.Errorf("billing address of %s: %w", o.ID, err)
		}
		out.BillingAddress = &a
	}
	return out, nil
}

// GetTeamCostsUsage answers a month's call minutes and cost, in total and per day up to today.
func (h *Teams) GetTeamCostsUsage(ctx context.Context, req api.GetTeamCostsUsageRequestObject) (api.GetTeamCostsUsageResponseObject, error) {
	org := grant(ctx).OrganizationID
	now := time.Now().UTC()
	month, year := int(now.Month()), now.Year()
	if req.Params.Month != nil {
		month = *req.Params.Month
	}
	if req.Params.Year != nil {
		year = *req.Params.Year
	}
	if month < 1 || month > 12 {
		return nil, problem.Validation(problem.Field("query.month", "month must be between 1 and 12"))
	}
	start := time.Date(year, time.Month(month), 1, 0, 0, 0, 0, time.UTC)
	end := start.AddDate(0, 1, 0)
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	if last := today.AddDate(0, 0, 1); end.After(last) {
		end = last // days up to today; a future month has none
	}
	out := api.TeamCostsUsage{OrganizationId: org, Month: month, Year: year, Currency: callCostCurrency,
		RatePerMinute: callRatePerMinuteUSD, Days: []api.TeamCostsUsageDay{}}
	if end.After(start) {
		usage, err := teamDailyCallUsage(ctx, h.DB, org, start, end)
		if err != nil {
			return nil, err
		}
		for d := start; d.Before(end); d = d.AddDate(0, 0, 1) {
			u := usage[d.Format(time.DateOnly)]
			minutes := u.seconds / 60
			out.Days = append(out.Days, api.TeamCostsUsageDay{Date: openapi_types.Date{Time: d}, Calls: u.calls,
				Minutes: minutes, Cost: roundCents(minutes * callRatePerMinuteUSD)})
			out.Calls += u.calls
			out.Minutes += minutes
		}
	}
	out.Cost = roundCents(out.Minutes * callRatePerMinuteUSD)
	return api.GetTeamCostsUsage200JSONResponse{Status: http.StatusOK, Data: out}, nil
}

// teamCallUsage is a day's calls and billed seconds.
type teamCallUsage struct {
	calls   int
	seconds float64
}

// teamDailyCallUsage answers the team's calls and billed seconds per UTC day (YYYY-MM-DD) in
// [from, to). There are no calls before the Calls feature exists, so every day is empty; it
// reads the call logs once they are stored.
func teamDailyCallUsage(_ context.Context, _ *store.DB, _ string, _, _ time.Time) (map[string]teamCallUsage, error) {
	return map[string]teamCallUsage{}, nil
}

// ---- helpers -----------------------------------------------------------------------------

// linkBase checks the origin a request wants its e-mailed link to point to and answers the
// base of that link: BaseURL for its own origin (or none given), the origin itself when it is
// one of AllowedOrigins. Anything else is refused so e-mails cannot point elsewhere.
func (h *Teams) linkBase(origin string) (string, error) {
	if strings.TrimSpace(origin) == "" {
		return h.BaseURL, nil
	}
	want, ok := urlOrigin(origin, true)
	if ok {
		if base, _ := urlOrigin(h.BaseURL, false); want == base {
			return h.BaseURL, nil
		}
		for _, a := range h.AllowedOrigins {
			if allowed, _ := urlOrigin(a, false); allowed != "" && want == allowed {
				return want, nil
			}
		}
	}
	return "", problem.Validation(problem.Field("body.origin", "origin must be one of this deployment's dashboard addresses"))
}

// urlOrigin answers scheme://host[:port] of a URL, lower-cased and without a default port.
// strict refuses URLs with more than an origin (a path other than /, a query, credentials).
func urlOrigin(raw string, strict bool) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", false
	}
	if strict && ((u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil) {
		return "", false
	}
	scheme, host := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname())
	port := u.Port()
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	if port != "" {
		host = net.JoinHostPort(host, port)
	} else if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return scheme + "://" + host, true
}

// dashboardLink is an absolute link into the dashboard at base.
func dashboardLink(base, path string, q url.Values) string {
	return strings.TrimRight(base, "/") + path + "?" + q.Encode()
}

// storeNotFoundAs turns the store's not-found into a 404 naming what was missing.
func storeNotFoundAs(err error, what string) error {
	if errors.Is(err, store.ErrNotFound) {
		return problem.NotFound(what)
	}
	return err
}

// trimmed is an optional text field, trimmed ("" when absent).
func trimOptional(s *string) string {
	if s == nil {
		return ""
	}
	return strings.TrimSpace(*s)
}

// trimOptionalPtr trims an optional text field and keeps it absent when it was.
func trimOptionalPtr(s *string) *string {
	if s == nil {
		return nil
	}
	v := strings.TrimSpace(*s)
	return &v
}

// cents rounds an amount of money to two decimals.
func roundCents(v float64) float64 { return math.Round(v*100) / 100 }
