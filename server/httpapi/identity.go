package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/mail"
	"github.com/bettyhq/betty/server/problem"
	"github.com/bettyhq/betty/server/store"
)

// Identity answers the Auth tag: accounts, sessions and the current user.
type Identity struct{ *handlers }

const (
	emailConfirmTTL  = 24 * time.Hour
	passwordResetTTL = time.Hour
	minPasswordLen   = 8
)

var errBadCredentials = problem.Unauthorized(api.ProblemCodeInvalidCredentials, "The e-mail or password is not correct.")

// SignUp creates an account. Without SMTP the account is signed in at once (the confirmation
// e-mail still goes to the outbox); with SMTP the e-mail must be confirmed first.
func (h *Identity) SignUp(ctx context.Context, req api.SignUpRequestObject) (api.SignUpResponseObject, error) {
	b := req.Body
	if len(b.Password) < minPasswordLen {
		return nil, problem.Validation(problem.Field("body.password", fmt.Sprintf("password must have at least %d characters", minPasswordLen)))
	}
	hash, err := auth.HashPassword(b.Password)
	if err != nil {
		return nil, err
	}
	profile := api.UserProfile{Preferences: map[string]any{}}
	if b.Name != nil && strings.TrimSpace(*b.Name) != "" {
		name := strings.TrimSpace(*b.Name)
		profile.Name = &name
	}
	raw, _ := json.Marshal(profile)
	u := store.User{Email: string(b.Email), PasswordHash: hash, Profile: string(raw)}
	err = h.DB.InTx(ctx, func(ctx context.Context) error {
		if err := h.DB.CreateUser(ctx, &u); err != nil {
			return err
		}
		if b.Ref != nil && *b.Ref != "" {
			return h.DB.AddReferral(ctx, u.ID, *b.Ref, "sign-up")
		}
		return nil
	})
	if errors.Is(err, store.ErrConflict) {
		return nil, problem.Conflict("An account with this e-mail already exists. Sign in instead.")
	}
	if err != nil {
		return nil, err
	}
	if err := h.sendConfirmation(ctx, u); err != nil {
		return nil, err
	}
	out, err := h.user(ctx, u)
	if err != nil {
		return nil, err
	}
	result := api.SignUpResult{User: out, EmailConfirmationRequired: h.Mailer.Delivers()}
	if !result.EmailConfirmationRequired {
		s, err := h.startSession(ctx, u)
		if err != nil {
			return nil, err
		}
		result.Session = &s
	}
	return api.SignUp201JSONResponse{Status: http.StatusCreated, Data: result}, nil
}

// SignIn checks the password and opens a session. Failures do not say whether the e-mail
// exists, and repeated failures for an account or an address are slowed down.
func (h *Identity) SignIn(ctx context.Context, req api.SignInRequestObject) (api.SignInResponseObject, error) {
	b := req.Body
	email := store.NormalizeEmail(string(b.Email))
	keys := []string{"email:" + email, "ip:" + requestFrom(ctx).ip}
	if wait := h.throttle.Wait(keys...); wait > 0 {
		return nil, tooManyRequests("Too many failed sign-ins. Please wait before trying again.", wait)
	}
	u, err := h.DB.UserByEmail(ctx, email)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	if !auth.CheckPassword(u.PasswordHash, b.Password) { // an unknown e-mail checks a dummy hash
		h.throttle.Fail(keys...)
		return nil, errBadCredentials
	}
	h.throttle.Succeed(keys[0])
	if h.Mailer.Delivers() && u.EmailConfirmedAt == nil {
		if _, ok := h.resends.take("confirm:" + u.ID); ok {
			if err := h.sendConfirmation(ctx, u); err != nil {
				return nil, err
			}
		}
		return nil, &problem.Error{Status: http.StatusForbidden, Code: api.ProblemCodeEmailNotConfirmed,
			Detail: "Confirm your e-mail first: we have sent you a link."}
	}
	if b.Ref != nil && *b.Ref != "" {
		if err := h.DB.AddReferral(ctx, u.ID, *b.Ref, "sign-in"); err != nil {
			return nil, err
		}
	}
	if err := h.DB.TouchSignIn(ctx, u.ID); err != nil {
		return nil, err
	}
	if u, err = h.DB.UserByID(ctx, u.ID); err != nil {
		return nil, err
	}
	s, err := h.startSession(ctx, u)
	if err != nil {
		return nil, err
	}
	return api.SignIn200JSONResponse{Status: http.StatusOK, Data: s}, nil
}

// RefreshSession spends the refresh token and answers a new pair. A token presented a second
// time means it was stolen or replayed: the whole session is revoked.
func (h *Identity) RefreshSession(ctx context.Context, _ api.RefreshSessionRequestObject) (api.RefreshSessionResponseObject, error) {
	token := strings.TrimSpace(requestFrom(ctx).header.Get("X-RefreshToken"))
	if token == "" {
		return nil, problem.Unauthorized(api.ProblemCodeUnauthorized, "Send the refresh token in the X-RefreshToken header.")
	}
	next := auth.NewOpaqueToken()
	outcome, s, err := h.DB.RotateRefresh(ctx, auth.HashToken(token), auth.HashToken(next), h.RefreshTTL)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil, problem.Unauthorized(api.ProblemCodeInvalidToken, "This refresh token is not valid; sign in again.")
	case err != nil:
		return nil, err
	case outcome == store.Reused:
		return nil, problem.Unauthorized(api.ProblemCodeRefreshTokenReused,
			"This refresh token was already used, so the session has been ended for safety. Sign in again.")
	case outcome == store.Dead:
		return nil, problem.Unauthorized(api.ProblemCodeInvalidToken, "This session has ended; sign in again.")
	}
	u, err := h.DB.UserByID(ctx, s.UserID)
	if err != nil {
		return nil, err
	}
	out, err := h.session(ctx, u, s, next)
	if err != nil {
		return nil, err
	}
	return api.RefreshSession200JSONResponse{Status: http.StatusOK, Data: out}, nil
}

// SignOut ends the caller's session.
func (h *Identity) SignOut(ctx context.Context, _ api.SignOutRequestObject) (api.SignOutResponseObject, error) {
	if err := h.DB.RevokeSession(ctx, principal(ctx).SessionID, "signed out"); err != nil {
		return nil, err
	}
	return api.SignOut200JSONResponse{Status: http.StatusOK, Data: api.Message{Message: "Signed out."}}, nil
}

// GetCurrentUser answers the caller's account.
func (h *Identity) GetCurrentUser(ctx context.Context, _ api.GetCurrentUserRequestObject) (api.GetCurrentUserResponseObject, error) {
	u, err := h.DB.UserByID(ctx, principal(ctx).UserID)
	if err != nil {
		return nil, err
	}
	out, err := h.user(ctx, u)
	if err != nil {
		return nil, err
	}
	return api.GetCurrentUser200JSONResponse{Status: http.StatusOK, Data: out}, nil
}

// RequestPasswordReset e-mails a reset link when the account exists, and answers the same
// either way.
func (h *Identity) RequestPasswordReset(ctx context.Context, req api.RequestPasswordResetRequestObject) (api.RequestPasswordResetResponseObject, error) {
	u, err := h.DB.UserByEmail(ctx, string(req.Body.Email))
	switch {
	case err == nil:
		if _, ok := h.resends.take("reset:" + u.ID); ok {
			token, err := h.oneTimeToken(ctx, store.TokenPasswordReset, u, passwordResetTTL)
			if err != nil {
				return nil, err
			}
			link := h.link("/reset-password", url.Values{"token": {token}})
			if err := h.Mailer.Send(ctx, mail.Message{To: u.Email, Kind: "password-reset", Link: link,
				Subject: "Reset your Betty password",
				Text:    "Someone asked to reset the password of your Betty account. If it was you, open this link within an hour:\n\n" + link + "\n\nIf not, ignore this e-mail.\n"}); err != nil {
				return nil, err
			}
		}
	case !errors.Is(err, store.ErrNotFound):
		return nil, err
	}
	return api.RequestPasswordReset200JSONResponse{Status: http.StatusOK,
		Data: api.Message{Message: "If an account uses this e-mail, we have sent it a link to reset the password."}}, nil
}

// ConfirmPasswordReset sets a new password with an e-mailed token, ends every session and
// confirms the e-mail (the link proved it).
func (h *Identity) ConfirmPasswordReset(ctx context.Context, req api.ConfirmPasswordResetRequestObject) (api.ConfirmPasswordResetResponseObject, error) {
	if len(req.Body.Password) < minPasswordLen {
		return nil, problem.Validation(problem.Field("body.password", fmt.Sprintf("password must have at least %d characters", minPasswordLen)))
	}
	t, err := h.spend(ctx, store.TokenPasswordReset, req.Body.Token, "This reset link is not valid or has expired. Ask for a new one.")
	if err != nil {
		return nil, err
	}
	hash, err := auth.HashPassword(req.Body.Password)
	if err != nil {
		return nil, err
	}
	err = h.DB.InTx(ctx, func(ctx context.Context) error {
		if err := h.DB.SetPassword(ctx, *t.UserID, hash); err != nil {
			return err
		}
		if err := h.DB.ConfirmEmail(ctx, *t.UserID); err != nil {
			return err
		}
		return h.DB.RevokeUserSessions(ctx, *t.UserID, "password reset")
	})
	if err != nil {
		return nil, err
	}
	return api.ConfirmPasswordReset200JSONResponse{Status: http.StatusOK,
		Data: api.Message{Message: "Your password has been changed. Sign in with the new one."}}, nil
}

// ConfirmEmail confirms an account's e-mail with the e-mailed token. A link followed twice
// is not an error.
func (h *Identity) ConfirmEmail(ctx context.Context, req api.ConfirmEmailRequestObject) (api.ConfirmEmailResponseObject, error) {
	t, err := h.DB.TokenByHash(ctx, store.TokenEmailConfirm, auth.HashToken(req.Body.Token))
	invalid := problem.New(http.StatusBadRequest, api.ProblemCodeInvalidToken, "This confirmation link is not valid or has expired.")
	if errors.Is(err, store.ErrNotFound) || (err == nil && t.UsedAt == nil && time.Now().After(t.ExpiresAt)) {
		return nil, invalid
	}
	if err != nil {
		return nil, err
	}
	u, err := h.DB.UserByID(ctx, *t.UserID)
	if err != nil {
		return nil, err
	}
	if t.UsedAt == nil {
		err = h.DB.InTx(ctx, func(ctx context.Context) error {
			if err := h.DB.SpendToken(ctx, t.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
				return err
			}
			return h.DB.ConfirmEmail(ctx, u.ID)
		})
		if err != nil {
			return nil, err
		}
		if u, err = h.DB.UserByID(ctx, u.ID); err != nil {
			return nil, err
		}
	}
	if u.EmailConfirmedAt == nil || store.NormalizeEmail(t.Email) != u.Email {
		return nil, invalid // a link from before a newer one was sent, for an address since changed
	}
	return api.ConfirmEmail200JSONResponse{Status: http.StatusOK, Data: api.EmailConfirmation{
		Email: openapi_types.Email(u.Email), EmailConfirmed: true, EmailConfirmedAt: *u.EmailConfirmedAt}}, nil
}

// ResendEmailConfirmation sends a new confirmation link (at most once a minute).
func (h *Identity) ResendEmailConfirmation(ctx context.Context, _ api.ResendEmailConfirmationRequestObject) (api.ResendEmailConfirmationResponseObject, error) {
	u, err := h.DB.UserByID(ctx, principal(ctx).UserID)
	if err != nil {
		return nil, err
	}
	if u.EmailConfirmedAt != nil {
		return nil, problem.Conflict("Your e-mail is already confirmed.")
	}
	if wait, ok := h.resends.take("confirm:" + u.ID); !ok {
		return nil, tooManyRequests("We sent a link less than a minute ago. Please check your inbox.", wait)
	}
	if err := h.sendConfirmation(ctx, u); err != nil {
		return nil, err
	}
	return api.ResendEmailConfirmation200JSONResponse{Status: http.StatusOK,
		Data: api.Message{Message: "We have sent you a new confirmation link."}}, nil
}

// GetUserByEmail answers a short card of a user the caller may know of: themselves, someone
// sharing a team with them, or anyone for site admins. Everyone else is a 404, so the
// operation cannot tell whether an address has an account.
func (h *Identity) GetUserByEmail(ctx context.Context, req api.GetUserByEmailRequestObject) (api.GetUserByEmailResponseObject, error) {
	p := principal(ctx)
	u, err := h.DB.UserByEmail(ctx, string(req.Email))
	notFound := problem.NotFound("User")
	if errors.Is(err, store.ErrNotFound) {
		return nil, notFound
	}
	if err != nil {
		return nil, err
	}
	if u.ID != p.UserID && !p.IsSiteAdmin {
		shared, err := h.shareATeam(ctx, p.UserID, u.ID)
		if err != nil {
			return nil, err
		}
		if !shared {
			return nil, notFound
		}
	}
	return api.GetUserByEmail200JSONResponse{Status: http.StatusOK, Data: summary(u)}, nil
}

func (h *Identity) shareATeam(ctx context.Context, a, b string) (bool, error) {
	mine, err := h.DB.UserMemberships(ctx, a, "")
	if err != nil {
		return false, err
	}
	for _, m := range mine {
		if m.Status != "active" {
			continue
		}
		if _, err := h.DB.MemberOf(ctx, m.OrganizationID, b); err == nil {
			return true, nil
		} else if !errors.Is(err, store.ErrNotFound) {
			return false, err
		}
	}
	return false, nil
}

// UpdateCurrentUserProfile changes the caller's profile: fields sent replace the stored ones;
// an empty string clears a text field.
func (h *Identity) UpdateCurrentUserProfile(ctx context.Context, req api.UpdateCurrentUserProfileRequestObject) (api.UpdateCurrentUserProfileResponseObject, error) {
	u, err := h.DB.UserByID(ctx, principal(ctx).UserID)
	if err != nil {
		return nil, err
	}
	prof := profileOf(u)
	in := req.Body.Props
	if in.Timezone != nil && *in.Timezone != "" {
		if _, err := time.LoadLocation(*in.Timezone); err != nil {
			return nil, problem.Validation(problem.Field("body.props.timezone", "timezone must be an IANA time zone name such as Europe/London"))
		}
	}
	for _, f := range []struct {
		dst **string
		src *string
	}{
		{&prof.Name, in.Name}, {&prof.AvatarUrl, in.AvatarUrl}, {&prof.PhoneNumber, in.PhoneNumber},
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
		if raw, _ := json.Marshal(prof.Preferences); len(raw) > 16<<10 {
			return nil, problem.Validation(problem.Field("body.props.preferences", "preferences must be at most 16 KB"))
		}
	}
	raw, _ := json.Marshal(prof)
	if err := h.DB.UpdateUserProfile(ctx, u.ID, string(raw)); err != nil {
		return nil, err
	}
	if u, err = h.DB.UserByID(ctx, u.ID); err != nil {
		return nil, err
	}
	out, err := h.user(ctx, u)
	if err != nil {
		return nil, err
	}
	return api.UpdateCurrentUserProfile200JSONResponse{Status: http.StatusOK, Data: out}, nil
}

// GetAdminProfile answers a user's site-admin standing: oneself, or anyone for site admins.
func (h *Identity) GetAdminProfile(ctx context.Context, req api.GetAdminProfileRequestObject) (api.GetAdminProfileResponseObject, error) {
	u, err := h.selfOrAdmin(ctx, req.Id)
	if err != nil {
		return nil, err
	}
	return api.GetAdminProfile200JSONResponse{Status: http.StatusOK, Data: api.AdminProfile{
		UserId: u.ID, Email: openapi_types.Email(u.Email), IsSiteAdmin: u.IsSiteAdmin,
		IsInternal: h.internal(u.Email), SiteAdminSince: u.SiteAdminSince}}, nil
}

// GetUser answers a user: oneself, or anyone for site admins.
func (h *Identity) GetUser(ctx context.Context, req api.GetUserRequestObject) (api.GetUserResponseObject, error) {
	u, err := h.selfOrAdmin(ctx, req.Id)
	if err != nil {
		return nil, err
	}
	out, err := h.user(ctx, u)
	if err != nil {
		return nil, err
	}
	return api.GetUser200JSONResponse{Status: http.StatusOK, Data: out}, nil
}

func (h *Identity) selfOrAdmin(ctx context.Context, id string) (store.User, error) {
	p := principal(ctx)
	if id != p.UserID && !p.IsSiteAdmin {
		return store.User{}, problem.Forbidden("You can only see your own account.")
	}
	u, err := h.DB.UserByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return u, problem.NotFound("User")
	}
	return u, err
}

// ---- shared by the identity and team handlers ------------------------------------------

// startSession opens a session for u and answers its tokens.
func (h *handlers) startSession(ctx context.Context, u store.User) (api.Session, error) {
	refresh := auth.NewOpaqueToken()
	info := requestFrom(ctx)
	s := store.Session{UserID: u.ID, UserAgent: truncate(info.userAgent, 200), IP: info.ip}
	if err := h.DB.CreateSession(ctx, &s, auth.HashToken(refresh), h.RefreshTTL); err != nil {
		return api.Session{}, err
	}
	return h.session(ctx, u, s, refresh)
}

func (h *handlers) session(ctx context.Context, u store.User, s store.Session, refresh string) (api.Session, error) {
	access, exp, err := h.Issuer.Issue(u.ID, s.ID)
	if err != nil {
		return api.Session{}, err
	}
	out, err := h.user(ctx, u)
	if err != nil {
		return api.Session{}, err
	}
	return api.Session{AccessToken: access, RefreshToken: refresh, TokenType: api.Bearer, ExpiresAt: exp,
		ExpiresIn: max(1, int(h.Issuer.TTL().Seconds())), RefreshTokenExpiresAt: s.ExpiresAt, User: out}, nil
}

// user renders an account with its computed flags.
func (h *handlers) user(ctx context.Context, u store.User) (api.User, error) {
	owned, err := h.DB.OrganizationsOwnedBy(ctx, u.ID)
	if err != nil {
		return api.User{}, err
	}
	return api.User{
		Id: u.ID, Email: openapi_types.Email(u.Email), Profile: profileOf(u), IsSiteAdmin: u.IsSiteAdmin,
		IsInternal: h.internal(u.Email), HasNoTeamsOwned: len(owned) == 0,
		EmailConfirmed: u.EmailConfirmedAt != nil, EmailConfirmedAt: u.EmailConfirmedAt,
		LastSignInAt: u.LastSignInAt, CreatedAt: u.CreatedAt, UpdatedAt: u.UpdatedAt,
	}, nil
}

// internal says whether an e-mail belongs to one of the internal staff domains.
func (h *handlers) internal(email string) bool {
	_, domain, _ := strings.Cut(email, "@")
	for _, d := range h.InternalDomains {
		if strings.EqualFold(domain, d) {
			return true
		}
	}
	return false
}

func profileOf(u store.User) api.UserProfile {
	var p api.UserProfile
	_ = json.Unmarshal([]byte(u.Profile), &p)
	if p.Preferences == nil {
		p.Preferences = map[string]any{}
	}
	return p
}

func summary(u store.User) api.UserSummary {
	p := profileOf(u)
	return api.UserSummary{Id: u.ID, Email: openapi_types.Email(u.Email), Name: p.Name, AvatarUrl: p.AvatarUrl}
}

// sendConfirmation e-mails an account a link confirming its address.
func (h *handlers) sendConfirmation(ctx context.Context, u store.User) error {
	token, err := h.oneTimeToken(ctx, store.TokenEmailConfirm, u, emailConfirmTTL)
	if err != nil {
		return err
	}
	link := h.link("/confirm-email", url.Values{"token": {token}})
	return h.Mailer.Send(ctx, mail.Message{To: u.Email, Kind: "confirm-email", Link: link,
		Subject: "Confirm your e-mail for Betty",
		Text:    "Welcome to Betty. Confirm your e-mail address by opening this link within 24 hours:\n\n" + link + "\n"})
}

// oneTimeToken makes a token for a user (replacing earlier ones of the kind) and returns it.
func (h *handlers) oneTimeToken(ctx context.Context, kind string, u store.User, ttl time.Duration) (string, error) {
	token := auth.NewOpaqueToken()
	uid := u.ID
	t := store.Token{Kind: kind, TokenHash: auth.HashToken(token), UserID: &uid, Email: u.Email, ExpiresAt: time.Now().UTC().Add(ttl)}
	return token, h.DB.CreateToken(ctx, &t, true)
}

// spend uses up a one-time token: unknown, used or expired tokens are a 400 with detail.
func (h *handlers) spend(ctx context.Context, kind, token, detail string) (store.Token, error) {
	invalid := problem.New(http.StatusBadRequest, api.ProblemCodeInvalidToken, detail)
	t, err := h.DB.TokenByHash(ctx, kind, auth.HashToken(token))
	if errors.Is(err, store.ErrNotFound) || (err == nil && (t.UsedAt != nil || time.Now().After(t.ExpiresAt))) {
		return t, invalid
	}
	if err != nil {
		return t, err
	}
	if err := h.DB.SpendToken(ctx, t.ID); errors.Is(err, store.ErrNotFound) {
		return t, invalid
	} else if err != nil {
		return t, err
	}
	return t, nil
}

// link is an absolute link into the dashboard at BaseURL.
func (h *handlers) link(path string, q url.Values) string { return dashboardLink(h.BaseURL, path, q) }

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
