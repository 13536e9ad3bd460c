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
	adminEmail string
	throttle   *auth.Throttle
	resends    *cooldown
}

// Config is what the service needs besides its collaborators.
type Config struct {
	// RefreshTTL is how long an unused session lives.
	RefreshTTL time.Duration
	// InternalDomains are the staff e-mail domains whose users are flagged internal.
	InternalDomains []string
	// AdminEmail names the site administrator; empty: the first account is (siteadmin.go).
	AdminEmail string
}

// New returns the identity service.
func New(db *store.DB, issuer *auth.Issuer, m mail.Mailer, hasher *auth.Hasher, l links.Builder, cfg Config) *Service {
	if cfg.RefreshTTL <= 0 {
		cfg.RefreshTTL = 30 * 24 * time.Hour
	}
	return &Service{db: db, issuer: issuer, mail: m, hasher: hasher, links: l, refreshTTL: cfg.RefreshTTL,
		internal: cfg.InternalDomains, adminEmail: store.NormalizeEmail(cfg.AdminEmail), throttle: auth.NewThrottle(5, 15*time.Minute), resends: newCooldown(ResendEvery)}
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
		if err := s.createAccount(ctx, &u); err != nil {
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
