package teams

import (
	"context"
	"errors"
	"time"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/billing"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/identity"
	"github.com/bettyhq/betty/server/links"
	"github.com/bettyhq/betty/server/store"
)

// Invite invites an e-mail into the team and e-mails it a link valid 7 days. Inviting again
// sends a new link (the old one stops working) and updates the role.
func (s *Service) Invite(ctx context.Context, a auth.Actor, email string, role auth.Role, origin string) (Member, error) {
	if role == "" {
		role = auth.Member
	}
	if role == auth.Owner || !role.Valid() {
		return Member{}, errs.InvalidField("body.role", "role must be admin, developer, member or readonly; ownership moves only by transfer")
	}
	base, err := s.links.Base(origin)
	if err != nil {
		return Member{}, err
	}
	o, err := s.db.OrganizationByID(ctx, a.OrganizationID)
	if err != nil {
		return Member{}, teamNotFound(err)
	}
	email = store.NormalizeEmail(email)
	inviter := "Someone"
	if !a.IsAPIKey() {
		inviter = a.Email
		if u, err := s.db.UserByID(ctx, a.UserID); err == nil {
			if n := deref(identity.ProfileOf(u).Name); n != "" {
				inviter = n + " (" + u.Email + ")"
			}
		}
	}
	token := auth.NewOpaqueToken()
	var m store.Member
	err = s.db.InTx(ctx, func(ctx context.Context) error {
		// Seats are active members and pending invitations: the tier's team-member limit.
		seats, err := s.db.CountSeats(ctx, o.ID)
		if err != nil {
			return err
		}
		if err := billing.Check(o.SubscriptionTier, billing.LimitTeamMembers, seats); err != nil {
			return err
		}
		if m, err = s.db.Invite(ctx, o.ID, email, string(role), a.UserID); err != nil {
			return err
		}
		mid, oid := m.ID, o.ID
		if err := s.db.CreateToken(ctx, &store.Token{Kind: store.TokenInvitation, TokenHash: auth.HashToken(token),
			OrganizationID: &oid, MemberID: &mid, Email: email, ExpiresAt: s.now().UTC().Add(InvitationTTL)}, true); err != nil {
			return err
		}
		return s.mail.Send(ctx, invitationMail(email, inviter, o, role, links.At(base, "/invite", tokenQuery("inviteToken", token))))
	})
	if errors.Is(err, store.ErrConflict) {
		return Member{}, errs.ConflictErr(email + " is already a member of this team.")
	}
	if err != nil {
		return Member{}, err
	}
	return s.member(ctx, m)
}

// AcceptInvitation accepts an invitation with the token of its e-mailed link. The signed-in
// user must be the invited address. Following the link again after accepting answers the
// membership again.
func (s *Service) AcceptInvitation(ctx context.Context, p auth.Principal, token string) (Member, error) {
	t, err := s.db.TokenByHash(ctx, store.TokenInvitation, auth.HashToken(token))
	if errors.Is(err, store.ErrNotFound) || (err == nil && (t.MemberID == nil || t.OrganizationID == nil)) {
		return Member{}, errInvalidInvitation
	}
	if err != nil {
		return Member{}, err
	}
	// Checked before the token is spent, so the wrong account does not use up the link.
	if store.NormalizeEmail(t.Email) != store.NormalizeEmail(p.Email) {
		return Member{}, errs.ForbiddenErr("This invitation was sent to another e-mail address. Sign in with that address to accept it.")
	}
	orgID, memberID := *t.OrganizationID, *t.MemberID
	if t.UsedAt != nil {
		// The same person following the link again: it worked the first time.
		m, err := s.db.MemberByID(ctx, orgID, memberID)
		if err == nil && m.Status == store.MemberActive && m.UserID != nil && *m.UserID == p.UserID {
			return s.member(ctx, m)
		}
		return Member{}, errInvalidInvitation
	}
	if s.now().After(t.ExpiresAt) {
		return Member{}, errInvalidInvitation
	}
	var m store.Member
	err = s.db.InTx(ctx, func(ctx context.Context) error {
		if err := s.db.SpendToken(ctx, t.ID); err != nil {
			return err
		}
		var err error
		if m, err = s.db.MemberByID(ctx, orgID, memberID); err != nil {
			return err
		}
		if m.Status != store.MemberInvited || m.Email != store.NormalizeEmail(t.Email) {
			return store.ErrNotFound // withdrawn since the link was sent
		}
		if err := s.db.ActivateMember(ctx, orgID, m.ID, p.UserID); err != nil {
			return err
		}
		m, err = s.db.MemberByID(ctx, orgID, m.ID)
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return Member{}, errInvalidInvitation
	}
	if err != nil {
		return Member{}, err
	}
	return s.member(ctx, m)
}

// Invitation is an invitation the caller can still accept.
type Invitation struct {
	Member    store.Member
	Team      store.Organization
	InvitedBy *store.User
	ExpiresAt time.Time
}

// PendingInvitations lists the invitations to the caller's e-mail that can still be accepted,
// newest first (at most MaxPendingInvitations).
func (s *Service) PendingInvitations(ctx context.Context, p auth.Principal) ([]Invitation, error) {
	ms, err := s.db.InvitationsTo(ctx, p.Email)
	if err != nil {
		return nil, err
	}
	now := s.now()
	var live []store.Member
	var orgIDs, inviters []string
	for _, m := range ms {
		if !now.Before(InvitationExpiry(m)) {
			continue
		}
		if len(live) == MaxPendingInvitations {
			break
		}
		live = append(live, m)
		orgIDs = append(orgIDs, m.OrganizationID)
		if m.InvitedBy != nil {
			inviters = append(inviters, *m.InvitedBy)
		}
	}
	orgs, err := s.db.OrganizationsByIDs(ctx, orgIDs)
	if err != nil {
		return nil, err
	}
	users, err := s.db.UsersByIDs(ctx, inviters)
	if err != nil {
		return nil, err
	}
	out := make([]Invitation, 0, len(live))
	for _, m := range live {
		inv := Invitation{Member: m, Team: orgs[m.OrganizationID], ExpiresAt: InvitationExpiry(m)}
		if m.InvitedBy != nil {
			if u, ok := users[*m.InvitedBy]; ok {
				inv.InvitedBy = &u
			}
		}
		out = append(out, inv)
	}
	return out, nil
}

// AcceptPending accepts one of the caller's invitations by its member id. Any id not addressed
// to the caller is not found; accepting again answers the membership again.
func (s *Service) AcceptPending(ctx context.Context, p auth.Principal, memberID string) (Member, error) {
	var m store.Member
	err := s.db.InTx(ctx, func(ctx context.Context) error {
		var err error
		if m, err = s.db.MembershipOfEmail(ctx, memberID, p.Email); err != nil {
			return err
		}
		switch {
		case m.Status == store.MemberActive && m.UserID != nil && *m.UserID == p.UserID:
			return nil // already accepted
		case m.Status != store.MemberInvited:
			return store.ErrNotFound
		case !s.now().Before(InvitationExpiry(m)):
			return errs.UnprocessableErr("This invitation has expired. Ask the team's admin to invite you again.")
		}
		if err := s.db.ActivateMember(ctx, m.OrganizationID, m.ID, p.UserID); err != nil {
			return err
		}
		// The e-mailed link of this invitation has served its purpose.
		if err := s.db.CancelMemberTokens(ctx, store.TokenInvitation, m.OrganizationID, m.ID); err != nil {
			return err
		}
		m, err = s.db.MemberByID(ctx, m.OrganizationID, m.ID)
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return Member{}, errs.NotFoundf("Invitation")
	}
	if err != nil {
		return Member{}, err
	}
	return s.member(ctx, m)
}

// InvitationExpiry is when an invitation stops being acceptable.
func InvitationExpiry(m store.Member) time.Time {
	sent := m.CreatedAt
	if m.InvitedAt != nil {
		sent = *m.InvitedAt
	}
	return sent.Add(InvitationTTL)
}
