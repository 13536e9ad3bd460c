package teams

import (
	"context"
	"errors"
	"fmt"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/store"
)

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
