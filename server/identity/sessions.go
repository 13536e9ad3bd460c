package identity

import (
	"context"
	"errors"
	"strings"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/store"
)

var errBadCredentials = errs.WithCode(errs.Unauthenticated, errs.CodeInvalidCredentials, "The e-mail or password is not correct.")

// SignIn checks the password and opens a session. Failures do not say whether the e-mail
// exists, and repeated failures for an account or an address are slowed down.
func (s *Service) SignIn(ctx context.Context, email, password, ref string, c Client) (Session, error) {
	email = store.NormalizeEmail(email)
	keys := []string{"email:" + email, "ip:" + c.IP}
	if wait := s.throttle.Wait(keys...); wait > 0 {
		return Session{}, errs.Retry(errs.TooManyRequests, "Too many failed sign-ins. Please wait before trying again.", wait)
	}
	u, err := s.db.UserByEmail(ctx, email)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return Session{}, err
	}
	ok, err := s.hasher.Check(ctx, u.PasswordHash, password) // an unknown e-mail checks a dummy hash
	if err != nil {
		return Session{}, busy(err)
	}
	if !ok {
		s.throttle.Fail(keys...)
		return Session{}, errBadCredentials
	}
	s.throttle.Succeed(keys[0])
	if s.mail.Delivers() && u.EmailConfirmedAt == nil {
		if _, ok := s.resends.take("confirm:" + u.ID); ok {
			if err := s.sendConfirmation(ctx, u); err != nil {
				return Session{}, err
			}
		}
		return Session{}, errs.WithCode(errs.Forbidden, errs.CodeEmailNotConfirmed, "Confirm your e-mail first: we have sent you a link.")
	}
	err = s.db.InTx(ctx, func(ctx context.Context) error {
		if ref != "" {
			if err := s.db.AddReferral(ctx, u.ID, ref, "sign-in"); err != nil {
				return err
			}
		}
		return s.db.TouchSignIn(ctx, u.ID)
	})
	if err != nil {
		return Session{}, err
	}
	if u, err = s.db.UserByID(ctx, u.ID); err != nil {
		return Session{}, err
	}
	return s.startSession(ctx, u, c)
}

// Refresh spends a refresh token and answers a new pair. A token presented a second time means
// it was stolen or replayed: the whole session is revoked.
func (s *Service) Refresh(ctx context.Context, refreshToken string) (Session, error) {
	token := strings.TrimSpace(refreshToken)
	if token == "" {
		return Session{}, errs.WithCode(errs.Unauthenticated, errs.CodeUnauthorized, "Send the refresh token in the X-RefreshToken header.")
	}
	next := auth.NewOpaqueToken()
	outcome, sess, err := s.db.RotateRefresh(ctx, auth.HashToken(token), auth.HashToken(next), s.refreshTTL)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return Session{}, errs.WithCode(errs.Unauthenticated, errs.CodeInvalidToken, "This refresh token is not valid; sign in again.")
	case err != nil:
		return Session{}, err
	case outcome == store.Reused:
		return Session{}, errs.WithCode(errs.Unauthenticated, errs.CodeRefreshTokenReused,
			"This refresh token was already used, so the session has been ended for safety. Sign in again.")
	case outcome == store.Dead:
		return Session{}, errs.WithCode(errs.Unauthenticated, errs.CodeInvalidToken, "This session has ended; sign in again.")
	}
	u, err := s.db.UserByID(ctx, sess.UserID)
	if err != nil {
		return Session{}, err
	}
	return s.session(ctx, u, sess, next)
}

// SignOut ends the caller's session. It needs the session's own refresh token: a token of
// another session (or none) is refused, so a stolen access token alone cannot end a session
// it does not hold the refresh token of, and one session cannot end another.
func (s *Service) SignOut(ctx context.Context, p auth.Principal, refreshToken string) error {
	token := strings.TrimSpace(refreshToken)
	if token == "" {
		return errs.ForbiddenErr("Send this session's refresh token in the X-RefreshToken header to sign out.")
	}
	sid, err := s.db.RefreshTokenSession(ctx, auth.HashToken(token))
	if errors.Is(err, store.ErrNotFound) || (err == nil && sid != p.SessionID) {
		return errs.ForbiddenErr("This refresh token belongs to another session; send the one of the session you sign out of.")
	}
	if err != nil {
		return err
	}
	return s.db.RevokeSession(ctx, p.SessionID, "signed out")
}

func (s *Service) startSession(ctx context.Context, u store.User, c Client) (Session, error) {
	refresh := auth.NewOpaqueToken()
	sess := store.Session{UserID: u.ID, UserAgent: truncate(c.UserAgent, 200), IP: c.IP}
	if err := s.db.CreateSession(ctx, &sess, auth.HashToken(refresh), s.refreshTTL); err != nil {
		return Session{}, err
	}
	return s.session(ctx, u, sess, refresh)
}

func (s *Service) session(ctx context.Context, u store.User, sess store.Session, refresh string) (Session, error) {
	access, exp, err := s.issuer.Issue(u.ID, sess.ID)
	if err != nil {
		return Session{}, err
	}
	acc, err := s.account(ctx, u)
	if err != nil {
		return Session{}, err
	}
	return Session{AccessToken: access, AccessExpiresAt: exp, AccessTTL: s.issuer.TTL(), RefreshToken: refresh,
		RefreshExpiresAt: sess.ExpiresAt, Account: acc}, nil
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
