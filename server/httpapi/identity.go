package httpapi

import (
	"context"
	"net/http"

	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/identity"
)

// Identity answers the Auth tag: accounts, sessions and the current user. Each handler binds,
// calls the identity domain and renders.
type Identity struct{ svc *identity.Service }

// SignUp creates an account.
func (h *Identity) SignUp(ctx context.Context, req api.SignUpRequestObject) (api.SignUpResponseObject, error) {
	b := req.Body
	res, err := h.svc.SignUp(ctx, identity.SignUpInput{Email: string(b.Email), Password: b.Password, Name: deref(b.Name), Ref: deref(b.Ref)},
		requestFrom(ctx).client)
	if err != nil {
		return nil, err
	}
	out := api.SignUpResult{User: renderAccount(res.Account), EmailConfirmationRequired: res.EmailConfirmationRequired}
	if res.Session != nil {
		s := renderSession(*res.Session)
		out.Session = &s
	}
	return api.SignUp201JSONResponse{Status: http.StatusCreated, Data: out}, nil
}

// SignIn opens a session.
func (h *Identity) SignIn(ctx context.Context, req api.SignInRequestObject) (api.SignInResponseObject, error) {
	s, err := h.svc.SignIn(ctx, string(req.Body.Email), req.Body.Password, deref(req.Body.Ref), requestFrom(ctx).client)
	if err != nil {
		return nil, err
	}
	return api.SignIn200JSONResponse{Status: http.StatusOK, Data: renderSession(s)}, nil
}

// RefreshSession spends the refresh token and answers a new pair.
func (h *Identity) RefreshSession(ctx context.Context, _ api.RefreshSessionRequestObject) (api.RefreshSessionResponseObject, error) {
	s, err := h.svc.Refresh(ctx, requestFrom(ctx).header.Get("X-RefreshToken"))
	if err != nil {
		return nil, err
	}
	return api.RefreshSession200JSONResponse{Status: http.StatusOK, Data: renderSession(s)}, nil
}

// SignOut ends the caller's session.
func (h *Identity) SignOut(ctx context.Context, _ api.SignOutRequestObject) (api.SignOutResponseObject, error) {
	if err := h.svc.SignOut(ctx, principal(ctx), requestFrom(ctx).header.Get("X-RefreshToken")); err != nil {
		return nil, err
	}
	return api.SignOut200JSONResponse{Status: http.StatusOK, Data: api.Message{Message: "Signed out."}}, nil
}

// GetCurrentUser answers the caller's account.
func (h *Identity) GetCurrentUser(ctx context.Context, _ api.GetCurrentUserRequestObject) (api.GetCurrentUserResponseObject, error) {
	a, err := h.svc.Me(ctx, principal(ctx))
	if err != nil {
		return nil, err
	}
	return api.GetCurrentUser200JSONResponse{Status: http.StatusOK, Data: renderAccount(a)}, nil
}

// RequestPasswordReset e-mails a reset link when the account exists.
func (h *Identity) RequestPasswordReset(ctx context.Context, req api.RequestPasswordResetRequestObject) (api.RequestPasswordResetResponseObject, error) {
	msg, err := h.svc.RequestPasswordReset(ctx, string(req.Body.Email))
	if err != nil {
		return nil, err
	}
	return api.RequestPasswordReset200JSONResponse{Status: http.StatusOK, Data: api.Message{Message: msg}}, nil
}

// ConfirmPasswordReset sets a new password with an e-mailed token.
func (h *Identity) ConfirmPasswordReset(ctx context.Context, req api.ConfirmPasswordResetRequestObject) (api.ConfirmPasswordResetResponseObject, error) {
	if err := h.svc.ConfirmPasswordReset(ctx, req.Body.Token, req.Body.Password); err != nil {
		return nil, err
	}
	return api.ConfirmPasswordReset200JSONResponse{Status: http.StatusOK,
		Data: api.Message{Message: "Your password has been changed. Sign in with the new one."}}, nil
}

// ConfirmEmail confirms an account's e-mail with the e-mailed token.
func (h *Identity) ConfirmEmail(ctx context.Context, req api.ConfirmEmailRequestObject) (api.ConfirmEmailResponseObject, error) {
	u, err := h.svc.ConfirmEmail(ctx, req.Body.Token)
	if err != nil {
		return nil, err
	}
	return api.ConfirmEmail200JSONResponse{Status: http.StatusOK, Data: api.EmailConfirmation{
		Email: openapi_types.Email(u.Email), EmailConfirmed: true, EmailConfirmedAt: *u.EmailConfirmedAt}}, nil
}

// ResendEmailConfirmation sends a new confirmation link.
func (h *Identity) ResendEmailConfirmation(ctx context.Context, _ api.ResendEmailConfirmationRequestObject) (api.ResendEmailConfirmationResponseObject, error) {
	msg, err := h.svc.ResendConfirmation(ctx, principal(ctx))
	if err != nil {
		return nil, err
	}
	return api.ResendEmailConfirmation200JSONResponse{Status: http.StatusOK, Data: api.Message{Message: msg}}, nil
}

// GetUserByEmail answers a short card of a user the caller may know of.
func (h *Identity) GetUserByEmail(ctx context.Context, req api.GetUserByEmailRequestObject) (api.GetUserByEmailResponseObject, error) {
	u, err := h.svc.UserByEmail(ctx, principal(ctx), string(req.Email))
	if err != nil {
		return nil, err
	}
	return api.GetUserByEmail200JSONResponse{Status: http.StatusOK, Data: renderSummary(u)}, nil
}

// UpdateCurrentUserProfile changes the caller's profile.
func (h *Identity) UpdateCurrentUserProfile(ctx context.Context, req api.UpdateCurrentUserProfileRequestObject) (api.UpdateCurrentUserProfileResponseObject, error) {
	in := req.Body.Props
	a, err := h.svc.UpdateProfile(ctx, principal(ctx), identity.ProfileUpdate{Name: in.Name, AvatarURL: in.AvatarUrl,
		PhoneNumber: in.PhoneNumber, JobTitle: in.JobTitle, Timezone: in.Timezone, Locale: in.Locale, Preferences: in.Preferences})
	if err != nil {
		return nil, err
	}
	return api.UpdateCurrentUserProfile200JSONResponse{Status: http.StatusOK, Data: renderAccount(a)}, nil
}

// GetAdminProfile answers a user's site-admin standing: oneself, or anyone for site admins.
func (h *Identity) GetAdminProfile(ctx context.Context, req api.GetAdminProfileRequestObject) (api.GetAdminProfileResponseObject, error) {
	a, err := h.svc.SelfOrAdmin(ctx, principal(ctx), req.Id)
	if err != nil {
		return nil, err
	}
	return api.GetAdminProfile200JSONResponse{Status: http.StatusOK, Data: api.AdminProfile{
		UserId: a.ID, Email: openapi_types.Email(a.Email), IsSiteAdmin: a.IsSiteAdmin,
		IsInternal: a.Internal, SiteAdminSince: a.SiteAdminSince}}, nil
}

// GetUser answers a user: oneself, or anyone for site admins.
func (h *Identity) GetUser(ctx context.Context, req api.GetUserRequestObject) (api.GetUserResponseObject, error) {
	a, err := h.svc.SelfOrAdmin(ctx, principal(ctx), req.Id)
	if err != nil {
		return nil, err
	}
	return api.GetUser200JSONResponse{Status: http.StatusOK, Data: renderAccount(a)}, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
