package identity

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/store"
)

// Me answers the caller's account.
func (s *Service) Me(ctx context.Context, p auth.Principal) (Account, error) {
	u, err := s.db.UserByID(ctx, p.UserID)
	if err != nil {
		return Account{}, err
	}
	return s.account(ctx, u)
}

// UserByEmail answers a user the caller may know of: themselves, someone sharing a team with
// them (an active or invited member of a team the caller is active in), or anyone for site
// admins. Everyone else is not found, so the answer cannot tell whether an address has an
// account.
func (s *Service) UserByEmail(ctx context.Context, p auth.Principal, email string) (store.User, error) {
	notFound := errs.NotFoundf("User")
	u, err := s.db.UserByEmail(ctx, email)
	if errors.Is(err, store.ErrNotFound) {
		return u, notFound
	}
	if err != nil {
		return u, err
	}
	if u.ID != p.UserID && !p.IsSiteAdmin {
		shared, err := s.db.ShareATeam(ctx, p.UserID, u.ID, u.Email)
		if err != nil {
			return u, err
		}
		if !shared {
			return u, notFound
		}
	}
	return u, nil
}

// ProfileUpdate holds the profile fields to change: a nil field is kept, an empty string
// clears it.
type ProfileUpdate struct {
	Name, AvatarURL, PhoneNumber, JobTitle, Timezone, Locale *string
	Preferences                                              *map[string]any
}

// UpdateProfile changes the caller's profile.
func (s *Service) UpdateProfile(ctx context.Context, p auth.Principal, in ProfileUpdate) (Account, error) {
	u, err := s.db.UserByID(ctx, p.UserID)
	if err != nil {
		return Account{}, err
	}
	prof := ProfileOf(u)
	if in.Timezone != nil && *in.Timezone != "" {
		if _, err := time.LoadLocation(*in.Timezone); err != nil {
			return Account{}, errs.InvalidField("body.props.timezone", "timezone must be an IANA time zone name such as Europe/London")
		}
	}
	for _, f := range []struct {
		dst **string
		src *string
	}{
		{&prof.Name, in.Name}, {&prof.AvatarURL, in.AvatarURL}, {&prof.PhoneNumber, in.PhoneNumber},
		{&prof.JobTitle, in.JobTitle}, {&prof.Timezone, in.Timezone}, {&prof.Locale, in.Locale},
	} {
		if f.src == nil {
			continue
		}
		if v := strings.TrimSpace(*f.src); v != "" {
			*f.dst = &v
		} else {
			*f.dst = nil
		}
	}
	if in.Preferences != nil {
		prof.Preferences = *in.Preferences
		if raw, _ := json.Marshal(prof.Preferences); len(raw) > maxPreferencesBytes {
			return Account{}, errs.InvalidField("body.props.preferences", "preferences must be at most 16 KB")
		}
	}
	raw, _ := json.Marshal(prof)
	if err := s.db.UpdateUserProfile(ctx, u.ID, string(raw)); err != nil {
		return Account{}, err
	}
	if u, err = s.db.UserByID(ctx, u.ID); err != nil {
		return Account{}, err
	}
	return s.account(ctx, u)
}

// SelfOrAdmin answers the account id: the caller's own, or anyone's for site admins.
func (s *Service) SelfOrAdmin(ctx context.Context, p auth.Principal, id string) (Account, error) {
	if id != p.UserID && !p.IsSiteAdmin {
		return Account{}, errs.ForbiddenErr("You can only see your own account.")
	}
	u, err := s.db.UserByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return Account{}, errs.NotFoundf("User")
	}
	if err != nil {
		return Account{}, err
	}
	return s.account(ctx, u)
}

// Internal says whether an e-mail belongs to one of the internal staff domains.
func (s *Service) Internal(email string) bool {
	_, domain, _ := strings.Cut(email, "@")
	for _, d := range s.internal {
		if strings.EqualFold(domain, d) {
			return true
		}
	}
	return false
}

func (s *Service) account(ctx context.Context, u store.User) (Account, error) {
	owned, err := s.db.OrganizationsOwnedBy(ctx, u.ID)
	if err != nil {
		return Account{}, err
	}
	return Account{User: u, Profile: ProfileOf(u), OwnsTeams: len(owned) > 0, Internal: s.Internal(u.Email)}, nil
}
