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
	uses  *auth.KeyUses
}

// SetKeyUses gives the service the recorder of API keys' uses, whose times not yet written
// show in the keys' list.
func (s *Service) SetKeyUses(u *auth.KeyUses) { s.uses = u }

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
