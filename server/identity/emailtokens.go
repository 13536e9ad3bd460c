package identity

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/mail"
	"github.com/bettyhq/betty/server/store"
)

// RequestPasswordReset e-mails a reset link when the account exists, and answers the same
// either way (the answer says where links go, never whether the account exists).
func (s *Service) RequestPasswordReset(ctx context.Context, email string) (string, error) {
	u, err := s.db.UserByEmail(ctx, email)
	switch {
	case err == nil:
		if _, ok := s.resends.take("reset:" + u.ID); ok {
			err := s.db.InTx(ctx, func(ctx context.Context) error {
				token, err := s.oneTimeToken(ctx, store.TokenPasswordReset, u, PasswordResetTTL)
				if err != nil {
					return err
				}
				return s.mail.Send(ctx, passwordResetMail(u.Email, s.links.To("/reset-password", tokenQuery(token))))
			})
			if err != nil {
				return "", err
			}
		}
	case !errors.Is(err, store.ErrNotFound):
		return "", err
	}
	if s.mail.Delivers() {
		return "If an account uses this e-mail, we have sent it a link to reset the password.", nil
	}
	return "If an account uses this e-mail, its reset link was written to the server log (this server sends no e-mail; " +
		"a site admin can also list it with `betty admin mail list`).", nil
}

// ConfirmPasswordReset sets a new password with an e-mailed token, ends every session and
// confirms the e-mail (the link proved it).
func (s *Service) ConfirmPasswordReset(ctx context.Context, token, password string) error {
	if err := checkPassword(password); err != nil {
		return err
	}
	hash, err := s.hasher.Hash(ctx, password)
	if err != nil {
		return busy(err)
	}
	return s.db.InTx(ctx, func(ctx context.Context) error {
		t, err := s.spend(ctx, store.TokenPasswordReset, token, "This reset link is not valid or has expired. Ask for a new one.")
		if err != nil {
			return err
		}
		if err := s.db.SetPassword(ctx, *t.UserID, hash); err != nil {
			return err
		}
		if err := s.db.ConfirmEmail(ctx, *t.UserID); err != nil {
			return err
		}
		return s.db.RevokeUserSessions(ctx, *t.UserID, "password reset")
	})
}

// ConfirmEmail confirms an account's e-mail with the e-mailed token. A link followed twice
// is not an error.
func (s *Service) ConfirmEmail(ctx context.Context, token string) (store.User, error) {
	invalid := errs.WithCode(errs.Invalid, errs.CodeInvalidToken, "This confirmation link is not valid or has expired.")
	t, err := s.db.TokenByHash(ctx, store.TokenEmailConfirm, auth.HashToken(token))
	if errors.Is(err, store.ErrNotFound) || (err == nil && t.UsedAt == nil && time.Now().After(t.ExpiresAt)) {
		return store.User{}, invalid
	}
	if err != nil {
		return store.User{}, err
	}
	if t.UsedAt == nil {
		err = s.db.InTx(ctx, func(ctx context.Context) error {
			if err := s.db.SpendToken(ctx, t.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
				return err
			}
			return s.db.ConfirmEmail(ctx, *t.UserID)
		})
		if err != nil {
			return store.User{}, err
		}
	}
	u, err := s.db.UserByID(ctx, *t.UserID)
	if err != nil {
		return store.User{}, err
	}
	if u.EmailConfirmedAt == nil || store.NormalizeEmail(t.Email) != u.Email {
		return store.User{}, invalid // a link from before a newer one was sent, for an address since changed
	}
	return u, nil
}

// ResendConfirmation sends a new confirmation link (at most once a minute) and says where it
// went.
func (s *Service) ResendConfirmation(ctx context.Context, p auth.Principal) (string, error) {
	u, err := s.db.UserByID(ctx, p.UserID)
	if err != nil {
		return "", err
	}
	if u.EmailConfirmedAt != nil {
		return "", errs.ConflictErr("Your e-mail is already confirmed.")
	}
	if wait, ok := s.resends.take("confirm:" + u.ID); !ok {
		return "", errs.Retry(errs.TooManyRequests, "We made a link less than a minute ago. Please use that one.", wait)
	}
	if err := s.sendConfirmation(ctx, u); err != nil {
		return "", err
	}
	if s.mail.Delivers() {
		return "We have sent you a new confirmation link.", nil
	}
	return "A new confirmation link is ready. " + mail.LinkSent(s.mail, u.Email), nil
}

// sendConfirmation e-mails an account a link confirming its address.
func (s *Service) sendConfirmation(ctx context.Context, u store.User) error {
	return s.db.InTx(ctx, func(ctx context.Context) error {
		token, err := s.oneTimeToken(ctx, store.TokenEmailConfirm, u, EmailConfirmTTL)
		if err != nil {
			return err
		}
		return s.mail.Send(ctx, confirmEmailMail(u.Email, s.links.To("/confirm-email", tokenQuery(token))))
	})
}

// oneTimeToken makes a token for a user (replacing earlier ones of the kind) and returns it.
func (s *Service) oneTimeToken(ctx context.Context, kind store.TokenKind, u store.User, ttl time.Duration) (string, error) {
	token := auth.NewOpaqueToken()
	uid := u.ID
	t := store.Token{Kind: kind, TokenHash: auth.HashToken(token), UserID: &uid, Email: u.Email, ExpiresAt: time.Now().UTC().Add(ttl)}
	return token, s.db.CreateToken(ctx, &t, true)
}

// spend uses up a one-time token: unknown, used or expired tokens are invalid with message.
func (s *Service) spend(ctx context.Context, kind store.TokenKind, token, message string) (store.Token, error) {
	return SpendToken(ctx, s.db, kind, token, message)
}

// SpendToken uses up a one-time token of a kind: unknown, used or expired tokens are an
// Invalid error (code invalid_token) with message. The one place tokens are consumed.
func SpendToken(ctx context.Context, db *store.DB, kind store.TokenKind, token, message string) (store.Token, error) {
	invalid := errs.WithCode(errs.Invalid, errs.CodeInvalidToken, message)
	t, err := db.TokenByHash(ctx, kind, auth.HashToken(token))
	if errors.Is(err, store.ErrNotFound) || (err == nil && (t.UsedAt != nil || time.Now().After(t.ExpiresAt))) {
		return t, invalid
	}
	if err != nil {
		return t, err
	}
	if err := db.SpendToken(ctx, t.ID); errors.Is(err, store.ErrNotFound) {
		return t, invalid
	} else if err != nil {
		return t, err
	}
	return t, nil
}

// cooldown allows one action per key per interval (resending e-mails).
type cooldown struct {
	every time.Duration
	mu    sync.Mutex
	last  map[string]time.Time
}

func newCooldown(every time.Duration) *cooldown {
	return &cooldown{every: every, last: map[string]time.Time{}}
}

// take says whether key may act now, and if so records it; otherwise how long to wait.
func (c *cooldown) take(key string) (time.Duration, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	for k, t := range c.last { // forget old entries so the map stays small
		if now.Sub(t) >= c.every {
			delete(c.last, k)
		}
	}
	if t, ok := c.last[key]; ok && now.Sub(t) < c.every {
		return c.every - now.Sub(t), false
	}
	c.last[key] = now
	return 0, true
}
