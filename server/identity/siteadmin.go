package identity

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bettyhq/betty/server/store"
)

// Site administrators (issue 21, decision). A self-hosted server needs someone who can grant
// credits and change tiers from the first day, without a command on the server host. As
// Gitea, Grafana and Mattermost do, the first account to sign up on a server that has none
// becomes its site administrator (store.CreateFirstUserAsAdmin: atomic, so two first
// sign-ups at once make exactly one admin). An operator who exposes a fresh server publicly,
// where a stranger could sign up first, names the administrator instead (--admin-email):
// then the first-account rule is off, and only that e-mail becomes site administrator, when
// it signs up or at start if the account exists already. `betty admin grant` on the server
// host grants and revokes site administration as before, under either rule.

// createAccount inserts a new account, making it site administrator under the server's rule.
// It joins the transaction in ctx.
func (s *Service) createAccount(ctx context.Context, u *store.User) error {
	if s.adminEmail == "" {
		_, err := s.db.CreateFirstUserAsAdmin(ctx, u)
		return err
	}
	if store.NormalizeEmail(u.Email) == s.adminEmail {
		t := time.Now().UTC()
		u.IsSiteAdmin, u.SiteAdminSince = true, &t
	}
	return s.db.CreateUser(ctx, u)
}

// GrantNamedAdmin makes the account named by --admin-email site administrator when it exists
// already (the server calls it at start); nothing without --admin-email or before that
// account signs up.
func (s *Service) GrantNamedAdmin(ctx context.Context) error {
	if s.adminEmail == "" {
		return nil
	}
	u, err := s.db.UserByEmail(ctx, s.adminEmail)
	if errors.Is(err, store.ErrNotFound) || (err == nil && u.IsSiteAdmin) {
		return nil
	}
	if err != nil {
		return err
	}
	_, err = s.db.SetSiteAdmin(ctx, s.adminEmail, true)
	return err
}

// SiteAdminRule says, for the start-up summary, who this server's site administrators are
// or how it will get one.
func (s *Service) SiteAdminRule(ctx context.Context) (string, error) {
	admins, err := s.db.SiteAdminEmails(ctx)
	if err != nil {
		return "", err
	}
	if s.adminEmail != "" {
		line := s.adminEmail + " (--admin-email)"
		var others []string
		for _, a := range admins {
			if a != s.adminEmail {
				others = append(others, a)
			}
		}
		if len(others) > 0 {
			line += "; also " + strings.Join(others, ", ")
		}
		return "site admin: " + line, nil
	}
	switch len(admins) {
	case 0:
		empty, err := s.db.NoUsers(ctx)
		if err != nil {
			return "", err
		}
		if empty {
			return "site admin: the first account to sign up becomes site administrator (or name one: --admin-email)", nil
		}
		return "site admin: none (grant one on this host: betty admin grant EMAIL)", nil
	case 1:
		return "site admin: " + admins[0], nil
	}
	return fmt.Sprintf("site admins: %s", strings.Join(admins, ", ")), nil
}
