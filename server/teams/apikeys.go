package teams

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/store"
)

// APIKey is a team's key with its maker and the maker's membership now ("" when unknown).
//
// The rule (docs/roles.md): a key never does more than the member who made it may. Demoting
// the maker lowers their keys to the new role (SetRole); removing the maker revokes their keys
// unless the remover keeps them (Remove), and a kept key shows its maker as removed.
type APIKey struct {
	store.APIKey
	Creator       *store.User
	CreatorStatus store.MemberStatus
}

// APIKeys lists the team's keys, newest first, without their secrets.
func (s *Service) APIKeys(ctx context.Context, a auth.Actor) ([]APIKey, error) {
	keys, err := s.db.ListAPIKeys(ctx, a.OrganizationID)
	if err != nil {
		return nil, err
	}
	var creators []string
	for _, k := range keys {
		if k.CreatedBy != nil {
			creators = append(creators, *k.CreatedBy)
		}
	}
	users, err := s.db.UsersByIDs(ctx, creators)
	if err != nil {
		return nil, err
	}
	statuses, err := s.db.MemberStatusesOf(ctx, a.OrganizationID, creators)
	if err != nil {
		return nil, err
	}
	out := make([]APIKey, 0, len(keys))
	for _, k := range keys {
		v := APIKey{APIKey: k}
		if s.uses != nil {
			if t, ok := s.uses.Last(k.ID); ok && (k.LastUsedAt == nil || t.After(*k.LastUsedAt)) {
				t = t.UTC()
				v.LastUsedAt = &t
			}
		}
		if k.CreatedBy != nil {
			if u, ok := users[*k.CreatedBy]; ok {
				v.Creator = &u
			}
			v.CreatorStatus = statuses[*k.CreatedBy]
		}
		out = append(out, v)
	}
	return out, nil
}

// CreateAPIKey makes a key acting in the team with a role no higher than the creator's. The
// secret is returned this once; the server keeps its hash.
func (s *Service) CreateAPIKey(ctx context.Context, a auth.Actor, name string, role auth.Role) (APIKey, string, error) {
	if role == "" {
		role = auth.Developer
	}
	if role == auth.Owner || !role.Valid() {
		return APIKey{}, "", errs.ForbiddenErr("An API key cannot have the owner role.")
	}
	if !a.Role.AtLeast(role) {
		return APIKey{}, "", errs.ForbiddenErr(fmt.Sprintf("An API key cannot have a higher role (%s) than yours (%s).", role, a.Role))
	}
	name = strings.TrimSpace(name)
	if name == "" {
		return APIKey{}, "", errs.InvalidField("body.name", "name is required")
	}
	secret, prefix := auth.NewAPIKey()
	k := store.APIKey{OrganizationID: a.OrganizationID, Name: name, Prefix: prefix, KeyHash: auth.HashToken(secret), Role: string(role)}
	if a.UserID != "" {
		uid := a.UserID
		k.CreatedBy = &uid
	}
	err := s.db.InTx(ctx, func(ctx context.Context) error {
		n, err := s.db.CountAPIKeys(ctx, a.OrganizationID)
		if err != nil {
			return err
		}
		if n >= MaxAPIKeys {
			return errs.New(errs.LimitReached, fmt.Sprintf("A team can have at most %d API keys. Delete one you no longer use first.", MaxAPIKeys))
		}
		return s.db.CreateAPIKey(ctx, &k)
	})
	if errors.Is(err, store.ErrConflict) {
		return APIKey{}, "", errs.ConflictErr(fmt.Sprintf("This team already has an API key named %q.", name))
	}
	if err != nil {
		return APIKey{}, "", err
	}
	out := APIKey{APIKey: k}
	if k.CreatedBy != nil {
		u, err := s.db.UserByID(ctx, *k.CreatedBy)
		if err != nil {
			return APIKey{}, "", err
		}
		out.Creator, out.CreatorStatus = &u, store.MemberActive
	}
	return out, secret, nil
}

// DeleteAPIKey revokes a key of the team; calls with it are refused from then on.
func (s *Service) DeleteAPIKey(ctx context.Context, a auth.Actor, id string) error {
	err := s.db.DeleteAPIKey(ctx, a.OrganizationID, id)
	if errors.Is(err, store.ErrNotFound) {
		return errs.NotFoundf("API key")
	}
	return err
}
