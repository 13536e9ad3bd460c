// Package teams is the team (organisation) domain: teams, members and their roles,
// invitations, ownership transfer, API keys, the onboarding checklist, verification requests,
// and the site administrators' view of every team. Its methods take the organisation they act
// on through the actor (auth.Actor: the caller and their standing there, which the HTTP guard
// established from the policy table) and know nothing of HTTP.
package teams

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/billing"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/identity"
	"github.com/bettyhq/betty/server/links"
	"github.com/bettyhq/betty/server/mail"
	"github.com/bettyhq/betty/server/store"
)

const (
	// InvitationTTL is how long an invitation (its e-mailed link, and the popup) can be accepted.
	InvitationTTL = 7 * 24 * time.Hour
	// OwnershipTransferTTL is how long an ownership-transfer link works.
	OwnershipTransferTTL = 72 * time.Hour
	// MaxAPIKeys is how many API keys a team may have.
	MaxAPIKeys = 20
	// MaxPendingInvitations bounds the pending-invitations popup list.
	MaxPendingInvitations = 100
)

// Service is the team domain.
type Service struct {
	db    *store.DB
	mail  mail.Mailer
	links links.Builder
	now   func() time.Time
}

// New returns the team service.
func New(db *store.DB, m mail.Mailer, l links.Builder) *Service {
	return &Service{db: db, mail: m, links: l, now: time.Now}
}

// Team is an organisation with its owner and, when known, the caller's role in it.
type Team struct {
	store.Organization
	Owner  store.User
	MyRole auth.Role
}

// Member is a member row with its user: found by id, or for an invitation by the invited
// address when it has an account (nil otherwise).
type Member struct {
	store.Member
	User *store.User
}

// Page asks for one page of a list.
type Page struct{ Limit, Offset int }

var (
	errTeamNotFound      = errs.NotFoundf("Team")
	errMemberNotFound    = errs.NotFoundf("Member")
	errInvalidInvitation = errs.WithCode(errs.Invalid, errs.CodeInvalidToken, "This invitation link was already used or has expired.")
	errInvalidTransfer   = errs.WithCode(errs.Invalid, errs.CodeInvalidToken,
		"This ownership transfer link is not valid, was already used or has expired.")
)

func teamNotFound(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return errTeamNotFound
	}
	return err
}

// ---- teams --------------------------------------------------------------------------------

// List lists the teams the caller is an active member of, oldest first, with their role in
// each, and how many there are. An API key acts for one team: its list is that team, with
// the key's role. list pages with the page helper's clamp (see httpapi).
func (s *Service) List(ctx context.Context, p auth.Principal, pg Page) ([]Team, int, error) {
	if p.IsAPIKey() {
		o, err := s.db.OrganizationByID(ctx, p.APIKeyOrgID)
		if err != nil {
			return nil, 0, teamNotFound(err)
		}
		teams, err := s.withOwners(ctx, []store.OrganizationRole{{Organization: o, Role: string(p.APIKeyRole)}})
		return teams, 1, err
	}
	orgs, total, err := s.db.UserOrganizations(ctx, p.UserID, pg.Limit, pg.Offset)
	if err != nil {
		return nil, 0, err
	}
	teams, err := s.withOwners(ctx, orgs)
	return teams, total, err
}

// withOwners renders organisations with their owners, looked up in one query.
func (s *Service) withOwners(ctx context.Context, orgs []store.OrganizationRole) ([]Team, error) {
	ids := make([]string, 0, len(orgs))
	for _, o := range orgs {
		ids = append(ids, o.OwnerUserID)
	}
	owners, err := s.db.UsersByIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Team, 0, len(orgs))
	for _, o := range orgs {
		out = append(out, Team{Organization: o.Organization, Owner: owners[o.OwnerUserID], MyRole: auth.Role(o.Role)})
	}
	return out, nil
}

// Get answers one team with the caller's role.
func (s *Service) Get(ctx context.Context, orgID string, role auth.Role) (Team, error) {
	o, err := s.db.OrganizationByID(ctx, orgID)
	if err != nil {
		return Team{}, teamNotFound(err)
	}
	teams, err := s.withOwners(ctx, []store.OrganizationRole{{Organization: o, Role: string(role)}})
	if err != nil {
		return Team{}, err
	}
	return teams[0], nil
}

// Properties are a team's editable properties. On update a nil field is kept and an empty
// optional one cleared.
type Properties struct {
	Name, CompanyName, PlatformKey, Industry, Purpose *string
}

// Create creates a team owned by the caller, who becomes its owner member.
func (s *Service) Create(ctx context.Context, p auth.Principal, in Properties) (Team, error) {
	name := strings.TrimSpace(deref(in.Name))
	if name == "" {
		return Team{}, errs.InvalidField("body.name", "name is required")
	}
	o := store.Organization{Name: name, OwnerUserID: p.UserID, PublicAPIKey: auth.NewPublicKey(),
		CompanyName: strings.TrimSpace(deref(in.CompanyName)), PlatformKey: strings.TrimSpace(deref(in.PlatformKey)),
		Industry: strings.TrimSpace(deref(in.Industry)), Purpose: strings.TrimSpace(deref(in.Purpose))}
	if err := s.db.CreateOrganization(ctx, &o, p.Email); err != nil {
		return Team{}, err
	}
	return s.Get(ctx, o.ID, auth.Owner)
}

// Update changes the team's properties.
func (s *Service) Update(ctx context.Context, a auth.Actor, in Properties) (Team, error) {
	u := store.OrganizationUpdate{CompanyName: trimmed(in.CompanyName), PlatformKey: trimmed(in.PlatformKey),
		Industry: trimmed(in.Industry), Purpose: trimmed(in.Purpose)}
	if in.Name != nil {
		name := strings.TrimSpace(*in.Name)
		if name == "" {
			return Team{}, errs.InvalidField("body.name", "name cannot be empty")
		}
		u.Name = &name
	}
	if err := s.db.UpdateOrganization(ctx, a.OrganizationID, u); err != nil {
		return Team{}, teamNotFound(err)
	}
	return s.Get(ctx, a.OrganizationID, a.Role)
}

// Delete deletes the team and, by cascade, everything it holds. A team with a paid
// subscription still running is refused: it must be cancelled first.
func (s *Service) Delete(ctx context.Context, a auth.Actor) error {
	o, err := s.db.OrganizationByID(ctx, a.OrganizationID)
	if err != nil {
		return teamNotFound(err)
	}
	numbers, err := s.db.RenewingNumberSubscriptions(ctx, o.ID)
	if err != nil {
		return err
	}
	if running := billing.RunningSubscriptions(o, numbers, s.now()); len(running) > 0 {
		return errs.UnprocessableErr(fmt.Sprintf("This team still has an active %s. Cancel it first, then delete the team.",
			strings.Join(running, " and ")))
	}
	return teamNotFound(s.db.DeleteOrganization(ctx, o.ID))
}

// nextLevel is the verification level a team at level asks for next ("" at the top).
var nextLevel = map[store.VerificationLevel]store.VerificationLevel{store.LevelNone: store.LevelL1, store.LevelL1: store.LevelL2}

// RequestVerification records a request for the next verification level and tells the site
// admins; while one is pending, it is answered again and nobody is told twice.
func (s *Service) RequestVerification(ctx context.Context, a auth.Actor) (store.VerificationRequest, error) {
	o, err := s.db.OrganizationByID(ctx, a.OrganizationID)
	if err != nil {
		return store.VerificationRequest{}, teamNotFound(err)
	}
	next := nextLevel[o.VerificationLevel]
	if next == "" {
		return store.VerificationRequest{}, errs.UnprocessableErr("This team is already verified at the highest level (L2).")
	}
	var v store.VerificationRequest
	err = s.db.InTx(ctx, func(ctx context.Context) error {
		pending, err := s.db.PendingVerificationRequest(ctx, o.ID)
		if err == nil {
			v = pending
			return nil
		}
		if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		v = store.VerificationRequest{OrganizationID: o.ID, CurrentLevel: o.VerificationLevel, RequestedLevel: next}
		if err := s.db.CreateVerificationRequest(ctx, &v); err != nil {
			return err
		}
		admins, err := s.db.SiteAdminEmails(ctx)
		if err != nil {
			return err
		}
		for _, to := range admins {
			if err := s.mail.Send(ctx, verificationRequestMail(to, o, next, s.adminLink(o.ID))); err != nil {
				return err
			}
		}
		return nil
	})
	return v, err
}

// IsMember says whether a user is an active member of a team. Unknown ids are not members.
func (s *Service) IsMember(ctx context.Context, teamID, userID string) (bool, error) {
	_, err := s.db.MemberOf(ctx, teamID, userID)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// ---- members ------------------------------------------------------------------------------

// Members lists the team's active and invited members, owner first, and how many there are.
func (s *Service) Members(ctx context.Context, a auth.Actor, pg Page) ([]Member, int, error) {
	ms, total, err := s.db.ListMembers(ctx, a.OrganizationID, pg.Limit, pg.Offset)
	if err != nil {
		return nil, 0, err
	}
	out, err := s.withUsers(ctx, ms)
	return out, total, err
}

// withUsers finds the users of member rows in two queries (by id, and by e-mail for
// invitations), never one per row.
func (s *Service) withUsers(ctx context.Context, ms []store.Member) ([]Member, error) {
	var ids, emails []string
	for _, m := range ms {
		if m.UserID != nil {
			ids = append(ids, *m.UserID)
		} else {
			emails = append(emails, m.Email)
		}
	}
	byID, err := s.db.UsersByIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	byEmail, err := s.db.UsersByEmails(ctx, emails)
	if err != nil {
		return nil, err
	}
	out := make([]Member, 0, len(ms))
	for _, m := range ms {
		var u store.User
		var ok bool
		if m.UserID != nil {
			u, ok = byID[*m.UserID]
		} else {
			u, ok = byEmail[m.Email]
		}
		mv := Member{Member: m}
		if ok {
			mv.User = &u
		}
		out = append(out, mv)
	}
	return out, nil
}

func (s *Service) member(ctx context.Context, m store.Member) (Member, error) {
	out, err := s.withUsers(ctx, []store.Member{m})
	if err != nil {
		return Member{}, err
	}
	return out[0], nil
}

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

// memberByEmail finds an active or invited member of the actor's team.
func (s *Service) memberByEmail(ctx context.Context, a auth.Actor, email string) (store.Member, error) {
	m, err := s.db.MemberByEmail(ctx, a.OrganizationID, email)
	if errors.Is(err, store.ErrNotFound) || (err == nil && m.Status == store.MemberRemoved) {
		return m, errMemberNotFound
	}
	return m, err
}

// SetRole gives an active or invited member another role. Nobody becomes owner this way and
// the owner's role cannot change. An admin may not change another admin's role: that is the
// owner's call. The keys the member made are lowered to the new role: a key never does more
// than its maker may.
func (s *Service) SetRole(ctx context.Context, a auth.Actor, email string, role auth.Role) (Member, error) {
	if role == auth.Owner {
		return Member{}, errs.UnprocessableErr("Nobody can be made owner by a role change: transfer the ownership instead.")
	}
	m, err := s.memberByEmail(ctx, a, email)
	if err != nil {
		return Member{}, err
	}
	if auth.Role(m.Role) == auth.Owner {
		return Member{}, errs.UnprocessableErr("The owner's role cannot be changed: ownership moves only by transfer.")
	}
	if auth.Role(m.Role) == auth.Admin && a.Role != auth.Owner && m.ID != a.MemberID {
		return Member{}, errs.ForbiddenErr("Only the owner can change the role of another admin.")
	}
	err = s.db.InTx(ctx, func(ctx context.Context) error {
		if err := s.db.SetMemberRole(ctx, a.OrganizationID, m.ID, string(role)); err != nil {
			return err
		}
		if m.UserID == nil {
			return nil
		}
		above := make([]string, 0, 4)
		for _, r := range role.Above() {
			above = append(above, string(r))
		}
		return s.db.LowerAPIKeyRoles(ctx, a.OrganizationID, *m.UserID, string(role), above)
	})
	if errors.Is(err, store.ErrNotFound) {
		return Member{}, errMemberNotFound
	}
	if err != nil {
		return Member{}, err
	}
	if m, err = s.db.MemberByID(ctx, a.OrganizationID, m.ID); err != nil {
		return Member{}, err
	}
	return s.member(ctx, m)
}

// Removal is a removed member and how many of their API keys were revoked.
type Removal struct {
	MemberID       string
	RevokedAPIKeys int
}

// Remove removes a member (status removed; the row and its history stay) and cancels a pending
// invitation. Anyone may remove themselves (leave); removing someone else needs admin. The
// owner can neither leave nor be removed. The API keys the member made are revoked unless
// keepKeys.
func (s *Service) Remove(ctx context.Context, a auth.Actor, email string, keepKeys bool) (Removal, error) {
	m, err := s.memberByEmail(ctx, a, email)
	if err != nil {
		return Removal{}, err
	}
	self := a.MemberID != "" && m.ID == a.MemberID
	if !self && !a.Role.AtLeast(auth.Admin) {
		return Removal{}, errs.ForbiddenErr(fmt.Sprintf("Your role in this team (%s) does not allow removing other members; it needs admin or higher. You can only leave the team yourself.", a.Role))
	}
	if auth.Role(m.Role) == auth.Owner {
		if self {
			return Removal{}, errs.UnprocessableErr("The owner cannot leave the team: transfer the ownership to another member first.")
		}
		return Removal{}, errs.UnprocessableErr("The owner cannot be removed: the ownership must be transferred first.")
	}
	out := Removal{MemberID: m.ID}
	// A pending ownership transfer to the member is left alone: confirming it is refused
	// (the nominee is no longer an active member), as the contract says.
	err = s.db.InTx(ctx, func(ctx context.Context) error {
		if err := s.db.RemoveMember(ctx, a.OrganizationID, m.ID); err != nil {
			return err
		}
		if m.UserID != nil && !keepKeys {
			var err error
			if out.RevokedAPIKeys, err = s.db.DeleteAPIKeysCreatedBy(ctx, a.OrganizationID, *m.UserID); err != nil {
				return err
			}
		}
		return s.db.CancelMemberTokens(ctx, store.TokenInvitation, a.OrganizationID, m.ID)
	})
	if errors.Is(err, store.ErrNotFound) {
		return Removal{}, errMemberNotFound
	}
	return out, err
}

// ---- ownership ----------------------------------------------------------------------------

// TransferOwnership e-mails an active member a link to become the owner. Nothing changes until
// they confirm; a new transfer cancels a pending one. The answer says where the link went.
func (s *Service) TransferOwnership(ctx context.Context, a auth.Actor, newOwnerEmail, origin string) (string, error) {
	base, err := s.links.Base(origin)
	if err != nil {
		return "", err
	}
	email := store.NormalizeEmail(newOwnerEmail)
	if email == store.NormalizeEmail(a.Email) {
		return "", errs.UnprocessableErr("You already own this team; name another member as the new owner.")
	}
	o, err := s.db.OrganizationByID(ctx, a.OrganizationID)
	if err != nil {
		return "", teamNotFound(err)
	}
	m, err := s.db.MemberByEmail(ctx, o.ID, email)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return "", err
	}
	if err != nil || m.Status != store.MemberActive || m.UserID == nil {
		return "", errs.UnprocessableErr(email + " is not an active member of this team. Only an active member can become its owner.")
	}
	token := auth.NewOpaqueToken()
	err = s.db.InTx(ctx, func(ctx context.Context) error {
		if err := s.db.CancelOrganizationTokens(ctx, store.TokenOwnershipTransfer, o.ID); err != nil {
			return err
		}
		oid, mid := o.ID, m.ID
		if err := s.db.CreateToken(ctx, &store.Token{Kind: store.TokenOwnershipTransfer, TokenHash: auth.HashToken(token),
			UserID: m.UserID, OrganizationID: &oid, MemberID: &mid, Email: email,
			ExpiresAt: s.now().UTC().Add(OwnershipTransferTTL)}, false); err != nil {
			return err
		}
		link := links.At(base, "/transfer-ownership", tokenQuery("transferOwnershipToken", token))
		return s.mail.Send(ctx, ownershipTransferMail(email, a.Email, o, link))
	})
	if err != nil {
		return "", err
	}
	if s.mail.Delivers() {
		return fmt.Sprintf("We have e-mailed %s a link to confirm. Nothing changes until they do.", email), nil
	}
	return mail.LinkSent(s.mail, email) + " Nothing changes until they confirm.", nil
}

// ConfirmTransfer completes a transfer: the nominee becomes owner and the previous owner an
// admin.
func (s *Service) ConfirmTransfer(ctx context.Context, p auth.Principal, token string) (Team, error) {
	t, err := s.db.TokenByHash(ctx, store.TokenOwnershipTransfer, auth.HashToken(token))
	if errors.Is(err, store.ErrNotFound) || (err == nil && (t.UsedAt != nil || s.now().After(t.ExpiresAt) ||
		t.OrganizationID == nil || t.MemberID == nil)) {
		return Team{}, errInvalidTransfer
	}
	if err != nil {
		return Team{}, err
	}
	if store.NormalizeEmail(t.Email) != store.NormalizeEmail(p.Email) {
		return Team{}, errs.ForbiddenErr("Only the member named as the new owner can confirm this transfer.")
	}
	orgID := *t.OrganizationID
	err = s.db.InTx(ctx, func(ctx context.Context) error {
		m, err := s.db.MemberByID(ctx, orgID, *t.MemberID)
		if err != nil {
			return err
		}
		if m.Status != store.MemberActive || m.UserID == nil || *m.UserID != p.UserID || auth.Role(m.Role) == auth.Owner {
			return errs.UnprocessableErr("This transfer can no longer happen: you are not an active member of the team, or you own it already.")
		}
		// Spends this token and cancels any other pending transfer of the team.
		if err := s.db.SpendToken(ctx, t.ID); err != nil {
			return err
		}
		if err := s.db.CancelOrganizationTokens(ctx, store.TokenOwnershipTransfer, orgID); err != nil {
			return err
		}
		return s.db.TransferOwnership(ctx, orgID, p.UserID)
	})
	if errors.Is(err, store.ErrNotFound) {
		return Team{}, errInvalidTransfer
	}
	if err != nil {
		return Team{}, err
	}
	return s.Get(ctx, orgID, auth.Owner)
}

// ---- helpers ------------------------------------------------------------------------------

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// trimmed trims an optional text field and keeps it absent when it was.
func trimmed(s *string) *string {
	if s == nil {
		return nil
	}
	v := strings.TrimSpace(*s)
	return &v
}
