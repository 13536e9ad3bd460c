package teams

import (
	"context"
	"errors"
	"time"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/store"
)

// The site administrators' view of every team. The HTTP policy lets only site admins call
// these; they take no actor.

// AdminTeam is a team with its standing.
type AdminTeam struct {
	Team
	MemberCount    int
	PendingRequest *store.VerificationRequest
	// RefreshedAt is set when the caller asked for fresh data.
	RefreshedAt *time.Time
}

// AdminTeam answers an organisation with its standing. There is no payment provider yet, so
// refresh re-reads the database and stamps RefreshedAt.
func (s *Service) AdminTeam(ctx context.Context, orgID string, refresh bool) (AdminTeam, error) {
	o, err := s.db.OrganizationByID(ctx, orgID)
	if errors.Is(err, store.ErrNotFound) {
		return AdminTeam{}, errs.NotFoundf("Organization")
	}
	if err != nil {
		return AdminTeam{}, err
	}
	teams, err := s.withOwners(ctx, []store.OrganizationRole{{Organization: o}})
	if err != nil {
		return AdminTeam{}, err
	}
	out := AdminTeam{Team: teams[0]}
	if out.MemberCount, err = s.db.CountActiveMembers(ctx, o.ID); err != nil {
		return AdminTeam{}, err
	}
	if refresh {
		t := s.now().UTC()
		out.RefreshedAt = &t
	}
	v, err := s.db.PendingVerificationRequest(ctx, o.ID)
	switch {
	case err == nil:
		out.PendingRequest = &v
	case !errors.Is(err, store.ErrNotFound):
		return AdminTeam{}, err
	}
	return out, nil
}

// AdminTeamsOwnedBy answers the organisations a user (by e-mail) owns.
func (s *Service) AdminTeamsOwnedBy(ctx context.Context, email string, refresh bool) ([]AdminTeam, error) {
	u, err := s.db.UserByEmail(ctx, email)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errs.NotFoundf("User")
	}
	if err != nil {
		return nil, err
	}
	orgs, err := s.db.OrganizationsOwnedBy(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	out := make([]AdminTeam, 0, len(orgs))
	for _, o := range orgs {
		a, err := s.AdminTeam(ctx, o.ID, refresh)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// UserTeams is a user with every membership they have (any status), each with its team.
type UserTeams struct {
	User        store.User
	Memberships []Membership
}

// Membership is a member row with its organisation.
type Membership struct {
	Member store.Member
	Team   store.Organization
}

// SearchUsers lists users whose e-mail contains search, by e-mail, with their memberships,
// and how many match.
func (s *Service) SearchUsers(ctx context.Context, search string, pg Page) ([]UserTeams, int, error) {
	users, total, err := s.db.SearchUsers(ctx, search, pg.Limit, pg.Offset)
	if err != nil {
		return nil, 0, err
	}
	out := make([]UserTeams, 0, len(users))
	for _, u := range users {
		ut, err := s.userTeams(ctx, u)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, ut)
	}
	return out, total, nil
}

// UserTeamsByID answers a user (by id) and their memberships.
func (s *Service) UserTeamsByID(ctx context.Context, id string) (UserTeams, error) {
	u, err := s.db.UserByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return UserTeams{}, errs.NotFoundf("User")
	}
	if err != nil {
		return UserTeams{}, err
	}
	return s.userTeams(ctx, u)
}

// UserTeamsByEmail answers a user (by e-mail) and their memberships.
func (s *Service) UserTeamsByEmail(ctx context.Context, email string) (UserTeams, error) {
	u, err := s.db.UserByEmail(ctx, email)
	if errors.Is(err, store.ErrNotFound) {
		return UserTeams{}, errs.NotFoundf("User")
	}
	if err != nil {
		return UserTeams{}, err
	}
	return s.userTeams(ctx, u)
}

func (s *Service) userTeams(ctx context.Context, u store.User) (UserTeams, error) {
	ms, err := s.db.UserMemberships(ctx, u.ID, u.Email)
	if err != nil {
		return UserTeams{}, err
	}
	ids := make([]string, 0, len(ms))
	for _, m := range ms {
		ids = append(ids, m.OrganizationID)
	}
	orgs, err := s.db.OrganizationsByIDs(ctx, ids)
	if err != nil {
		return UserTeams{}, err
	}
	out := UserTeams{User: u, Memberships: make([]Membership, 0, len(ms))}
	for _, m := range ms {
		out.Memberships = append(out.Memberships, Membership{Member: m, Team: orgs[m.OrganizationID]})
	}
	return out, nil
}

// SetVerificationLevel sets an organisation's verification level, completes the pending
// request it answers, and e-mails the owner the news, all in one transaction.
func (s *Service) SetVerificationLevel(ctx context.Context, orgID string, level store.VerificationLevel) (AdminTeam, error) {
	err := s.db.InTx(ctx, func(ctx context.Context) error {
		o, err := s.db.OrganizationByID(ctx, orgID)
		if err != nil {
			return err
		}
		if err := s.db.SetVerificationLevel(ctx, orgID, level); err != nil {
			return err
		}
		if o.VerificationLevel == level {
			return nil // nothing changed; nobody to tell
		}
		owner, err := s.db.UserByID(ctx, o.OwnerUserID)
		if err != nil {
			return err
		}
		return s.mail.Send(ctx, verificationLevelMail(owner.Email, o, o.VerificationLevel, level,
			s.links.To("/dashboard/team", teamQuery(o.ID))))
	})
	if errors.Is(err, store.ErrNotFound) {
		return AdminTeam{}, errs.NotFoundf("Organization")
	}
	if err != nil {
		return AdminTeam{}, err
	}
	return s.AdminTeam(ctx, orgID, false)
}

// SetTier sets an organisation's subscription tier by hand.
func (s *Service) SetTier(ctx context.Context, orgID string, tier store.SubscriptionTier) (AdminTeam, error) {
	if err := s.db.SetSubscriptionTier(ctx, orgID, tier); errors.Is(err, store.ErrNotFound) {
		return AdminTeam{}, errs.NotFoundf("Organization")
	} else if err != nil {
		return AdminTeam{}, err
	}
	return s.AdminTeam(ctx, orgID, false)
}
