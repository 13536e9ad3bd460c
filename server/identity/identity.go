// Package identity is accounts and sessions: sign-up, sign-in, refresh and sign-out, e-mail
// confirmation, password reset, profiles and who may see which user. It knows nothing of
// HTTP: handlers (server/httpapi) and the CLI's server-side commands call it.
package identity

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/links"
	"github.com/bettyhq/betty/server/mail"
	"github.com/bettyhq/betty/server/store"
)

const (
	// MinPasswordLen is the shortest password accepted.
	MinPasswordLen = 8
	// EmailConfirmTTL and PasswordResetTTL are how long the e-mailed links work.
	EmailConfirmTTL  = 24 * time.Hour
	PasswordResetTTL = time.Hour
	// ResendEvery is how often a confirmation or reset e-mail may be sent again to one account.
	ResendEvery = time.Minute
	// maxPreferencesBytes bounds a profile's free-form preferences.
	maxPreferencesBytes = 16 << 10
)

// Service is the identity domain.
type Service struct {
	db         *store.DB
	issuer     *auth.Issuer
	mail       mail.Mailer
	hasher     *auth.Hasher
	links      links.Builder
	refreshTTL time.Duration
	internal   []string
	throttle   *auth.Throttle
	resends    *cooldown
}

// Config is what the service needs besides its collaborators.
type Config struct {
	// RefreshTTL is how long an unused session lives.
	RefreshTTL time.Duration
	// InternalDomains are the staff e-mail domains whose users are flagged internal.
	InternalDomains []string
}

// New returns the identity service.
func New(db *store.DB, issuer *auth.Issuer, m mail.Mailer, hasher *auth.Hasher, l links.Builder, cfg Config) *Service {
	if cfg.RefreshTTL <= 0 {
		cfg.RefreshTTL = 30 * 24 * time.Hour
	}
	return &Service{db: db, issuer: issuer, mail: m, hasher: hasher, links: l, refreshTTL: cfg.RefreshTTL,
		internal: cfg.InternalDomains, throttle: auth.NewThrottle(5, 15*time.Minute), resends: newCooldown(ResendEvery)}
}

// Client is where a request comes from, recorded on sessions and used by throttling.
type Client struct {
	IP        string
	UserAgent string
}

// Profile is a user's profile, stored as JSON on the account.
type Profile struct {
	Name        *string        `json:"name,omitempty"`
	AvatarURL   *string        `json:"avatarUrl,omitempty"`
	PhoneNumber *string        `json:"phoneNumber,omitempty"`
	JobTitle    *string        `json:"jobTitle,omitempty"`
	Timezone    *string        `json:"timezone,omitempty"`
	Locale      *string        `json:"locale,omitempty"`
	Preferences map[string]any `json:"preferences"`
}

// ProfileOf reads a user's profile.
func ProfileOf(u store.User) Profile {
	var p Profile
	_ = json.Unmarshal([]byte(u.Profile), &p)
	if p.Preferences == nil {
		p.Preferences = map[string]any{}
	}
	return p
}

// Account is a user with what is computed about them.
type Account struct {
	store.User
	Profile Profile
	// OwnsTeams is false for a user who owns no team (the dashboard sends them to onboarding).
	OwnsTeams bool
	// Internal: the e-mail belongs to a staff domain.
	Internal bool
}

// Session is a signed-in session's tokens.
type Session struct {
	AccessToken     string
	AccessExpiresAt time.Time
	AccessTTL       time.Duration
	RefreshToken    string
	// RefreshExpiresAt is when the session ends if unused.
	RefreshExpiresAt time.Time
	Account          Account
}

// SignUpInput is a new account.
type SignUpInput struct {
	Email, Password, Name, Ref string
}

// SignUpResult is the new account, with a session unless the e-mail must be confirmed first.
type SignUpResult struct {
	Account                   Account
	EmailConfirmationRequired bool
	Session                   *Session
}

func checkPassword(password string) error {
	if len(password) < MinPasswordLen {
		return errs.InvalidField("body.password", fmt.Sprintf("password must have at least %d characters", MinPasswordLen))
	}
	return nil
}

// busy turns the hasher's refusal into the answer callers see.
func busy(err error) error {
	if errors.Is(err, auth.ErrBusy) {
		return errs.Retry(errs.Unavailable, "The server is busy signing people in. Please try again in a few seconds.", 2*time.Second)
	}
	return err
}

// SignUp creates an account. Without SMTP the account is signed in at once (the confirmation
// e-mail still goes to the outbox); with SMTP the e-mail must be confirmed first.
func (s *Service) SignUp(ctx context.Context, in SignUpInput, c Client) (SignUpResult, error) {
	if err := checkPassword(in.Password); err != nil {
		return SignUpResult{}, err
	}
	hash, err := s.hasher.Hash(ctx, in.Password)
	if err != nil {
		return SignUpResult{}, busy(err)
	}
	profile := Profile{Preferences: map[string]any{}}
	if name := strings.TrimSpace(in.Name); name != "" {
		profile.Name = &name
	}
	raw, _ := json.Marshal(profile)
	u := store.User{Email: in.Email, PasswordHash: hash, Profile: string(raw)}
	err = s.db.InTx(ctx, func(ctx context.Context) error {
		if err := s.db.CreateUser(ctx, &u); err != nil {
			return err
		}
		if in.Ref != "" {
			if err := s.db.AddReferral(ctx, u.ID, in.Ref, "sign-up"); err != nil {
				return err
			}
		}
		return s.sendConfirmation(ctx, u)
	})
	if errors.Is(err, store.ErrConflict) {
		return SignUpResult{}, errs.ConflictErr("An account with this e-mail already exists. Sign in instead.")
	}
	if err != nil {
		return SignUpResult{}, err
	}
	acc, err := s.account(ctx, u)
	if err != nil {
		return SignUpResult{}, err
	}
	res := SignUpResult{Account: acc, EmailConfirmationRequired: s.mail.Delivers()}
	if !res.EmailConfirmationRequired {
		sess, err := s.startSession(ctx, u, c)
		if err != nil {
			return res, err
		}
		res.Session = &sess
	}
	return res, nil
}

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

// Me answers the caller's account.
func (s *Service) Me(ctx context.Context, p auth.Principal) (Account, error) {
	u, err := s.db.UserByID(ctx, p.UserID)
	if err != nil {
		return Account{}, err
	}
	return s.account(ctx, u)
}

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

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
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
