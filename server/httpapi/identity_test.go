package httpapi_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/internal/apitest"
	"github.com/bettyhq/betty/server/store"
)

const password = "correct horse battery"

func post(path string, body any) apitest.Request {
	return apitest.Request{Method: http.MethodPost, Path: path, Body: body}
}

// linkToken reads the newest e-mail of a kind sent to addr and returns its link's token.
func linkToken(t *testing.T, env *apitest.Env, addr, kind, param string) string {
	t.Helper()
	mails, err := env.DB.Outbox(context.Background(), addr)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mails {
		if m.Kind == kind {
			u, err := url.Parse(m.Link)
			if err != nil {
				t.Fatal(err)
			}
			return u.Query().Get(param)
		}
	}
	t.Fatalf("no %s e-mail to %s", kind, addr)
	return ""
}

func TestSignUpSignInAndMe(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		c := env.SignUp(t, "Ada@Example.com")
		res := env.Do(apitest.Request{Method: "GET", Path: "/v1/auth/me", Token: c.Access})
		var me struct {
			Data struct {
				Email                           string
				HasNoTeamsOwned, EmailConfirmed bool
				Profile                         struct{ Name string }
			}
		}
		res.JSON(t, &me)
		if res.Status != 200 || me.Data.Email != "ada@example.com" || !me.Data.HasNoTeamsOwned || me.Data.EmailConfirmed || me.Data.Profile.Name != "Test User" {
			t.Fatalf("me: %d %s", res.Status, res.Body)
		}
		// The same e-mail cannot sign up twice.
		if res := env.Do(post("/v1/auth/sign-up", map[string]any{"email": "ada@example.com", "password": password})); res.Status != 409 {
			t.Fatalf("second sign-up: %d", res.Status)
		}
		// Sign-in with a referral; the referral is recorded.
		res = env.Do(post("/v1/auth/sign-in", map[string]any{"email": "ADA@example.com", "password": password, "ref": "partner-42"}))
		if res.Status != 200 {
			t.Fatalf("sign in: %d %s", res.Status, res.Body)
		}
		refs, _ := env.DB.Referrals(context.Background(), c.UserID)
		if len(refs) != 1 || refs[0] != "partner-42" {
			t.Fatalf("referrals: %v", refs)
		}
		// Wrong password and unknown e-mail fail alike.
		bad := env.Do(post("/v1/auth/sign-in", map[string]any{"email": "ada@example.com", "password": "wrong password"})).Problem(t)
		unknown := env.Do(post("/v1/auth/sign-in", map[string]any{"email": "nobody@example.com", "password": "wrong password"})).Problem(t)
		if bad.Status != 401 || bad.Code != "invalid_credentials" || bad.Detail != unknown.Detail || bad.Code != unknown.Code {
			t.Fatalf("failures differ: %+v %+v", bad, unknown)
		}
		if strings.Contains(env.Logs.String(), password) {
			t.Fatal("a password reached the logs")
		}
	})
}

func TestMissingBadAndExpiredCredentials(t *testing.T) {
	env := apitest.New(t, store.SQLite, apitest.WithAccessTokenTTL(time.Millisecond))
	c := env.SignUp(t, "ada@example.com")
	for _, tc := range []struct {
		token, code string
	}{
		{"", "unauthorized"},
		{"not-a-jwt", "invalid_token"},
		{"betty_sk_doesnotexist", "invalid_token"},
	} {
		p := env.Do(apitest.Request{Method: "GET", Path: "/v1/auth/me", Token: tc.token}).Problem(t)
		if p.Status != 401 || p.Code != tc.code {
			t.Errorf("token %q: %+v", tc.token, p)
		}
	}
	time.Sleep(1100 * time.Millisecond)
	p := env.Do(apitest.Request{Method: "GET", Path: "/v1/auth/me", Token: c.Access}).Problem(t)
	if p.Status != 401 || p.Code != "token_expired" {
		t.Fatalf("expired: %+v", p)
	}
	// A token signed with another secret is refused.
	other, _, _ := auth.NewIssuer([]byte("another secret"), time.Hour).Issue(c.UserID, "session")
	if p := env.Do(apitest.Request{Method: "GET", Path: "/v1/auth/me", Token: other}).Problem(t); p.Code != "invalid_token" {
		t.Fatalf("foreign token: %+v", p)
	}
}

func refresh(env *apitest.Env, token string) *apitest.Response {
	return env.Do(apitest.Request{Method: http.MethodPost, Path: "/v1/auth/refresh", Header: http.Header{"X-RefreshToken": {token}}})
}

func TestRefreshRotatesAndReuseRevokesTheSession(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		c := env.SignUp(t, "ada@example.com")
		res := refresh(env, c.Refresh)
		var s struct {
			Data struct{ AccessToken, RefreshToken string }
		}
		res.JSON(t, &s)
		if res.Status != 200 || s.Data.RefreshToken == c.Refresh || s.Data.AccessToken == "" {
			t.Fatalf("refresh: %d %s", res.Status, res.Body)
		}
		if res := env.Do(apitest.Request{Method: "GET", Path: "/v1/auth/me", Token: s.Data.AccessToken}); res.Status != 200 {
			t.Fatalf("new access token: %d", res.Status)
		}
		// The old refresh token again: theft. The whole session ends, new tokens included.
		if p := refresh(env, c.Refresh).Problem(t); p.Status != 401 || p.Code != "refresh_token_reused" {
			t.Fatalf("reuse: %+v", p)
		}
		if p := refresh(env, s.Data.RefreshToken).Problem(t); p.Code != "invalid_token" {
			t.Fatalf("after reuse the newest refresh token still works: %+v", p)
		}
		if p := env.Do(apitest.Request{Method: "GET", Path: "/v1/auth/me", Token: s.Data.AccessToken}).Problem(t); p.Code != "invalid_token" {
			t.Fatalf("after reuse the access token still works: %+v", p)
		}
		if p := refresh(env, "made-up").Problem(t); p.Status != 401 || p.Code != "invalid_token" {
			t.Fatalf("unknown refresh token: %+v", p)
		}
	})
}

func TestSignOutEndsTheSession(t *testing.T) {
	env := apitest.New(t, store.SQLite)
	c := env.SignUp(t, "ada@example.com")
	res := env.Do(apitest.Request{Method: "POST", Path: "/v1/auth/sign-out", Token: c.Access, Header: http.Header{"X-RefreshToken": {c.Refresh}}})
	if res.Status != 200 {
		t.Fatalf("sign out: %d %s", res.Status, res.Body)
	}
	if p := env.Do(apitest.Request{Method: "GET", Path: "/v1/auth/me", Token: c.Access}).Problem(t); p.Code != "invalid_token" {
		t.Fatalf("access after sign-out: %+v", p)
	}
	if p := refresh(env, c.Refresh).Problem(t); p.Code != "invalid_token" {
		t.Fatalf("refresh after sign-out: %+v", p)
	}
}

func TestConfirmationRequiredWhenMailIsDelivered(t *testing.T) {
	env := apitest.New(t, store.SQLite, apitest.WithMailDelivery())
	res := env.Do(post("/v1/auth/sign-up", map[string]any{"email": "ada@example.com", "password": password}))
	var body struct {
		Data struct {
			EmailConfirmationRequired bool
			Session                   *struct{}
		}
	}
	res.JSON(t, &body)
	if res.Status != 201 || !body.Data.EmailConfirmationRequired || body.Data.Session != nil {
		t.Fatalf("sign-up with mail delivery: %d %s", res.Status, res.Body)
	}
	signIn := post("/v1/auth/sign-in", map[string]any{"email": "ada@example.com", "password": password})
	if p := env.Do(signIn).Problem(t); p.Status != 403 || p.Code != "email_not_confirmed" {
		t.Fatalf("unconfirmed sign-in: %+v", p)
	}
	token := linkToken(t, env, "ada@example.com", "confirm-email", "token")
	if res := env.Do(post("/v1/auth/confirm-email", map[string]any{"token": token})); res.Status != 200 {
		t.Fatalf("confirm: %d %s", res.Status, res.Body)
	}
	if res := env.Do(signIn); res.Status != 200 {
		t.Fatalf("confirmed sign-in: %d %s", res.Status, res.Body)
	}
}

func TestEmailConfirmationAndPasswordReset(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		c := env.SignUp(t, "ada@example.com")
		token := linkToken(t, env, c.Email, "confirm-email", "token")
		for range 2 { // a link followed twice is fine
			res := env.Do(post("/v1/auth/confirm-email", map[string]any{"token": token}))
			if res.Status != 200 || !strings.Contains(string(res.Body), `"emailConfirmed":true`) {
				t.Fatalf("confirm: %d %s", res.Status, res.Body)
			}
		}
		if p := env.Do(post("/v1/auth/confirm-email", map[string]any{"token": "forged"})).Problem(t); p.Code != "invalid_token" {
			t.Fatalf("forged confirmation: %+v", p)
		}
		// Password reset: the same answer whether or not the account exists.
		known := env.Do(post("/v1/auth/password-reset/request", map[string]any{"email": c.Email}))
		unknown := env.Do(post("/v1/auth/password-reset/request", map[string]any{"email": "nobody@example.com"}))
		if known.Status != 200 || string(known.Body) != string(unknown.Body) {
			t.Fatalf("reset answers differ: %s / %s", known.Body, unknown.Body)
		}
		reset := linkToken(t, env, c.Email, "password-reset", "token")
		if res := env.Do(post("/v1/auth/password-reset/confirm", map[string]any{"token": reset, "password": "a brand new secret"})); res.Status != 200 {
			t.Fatalf("reset: %d %s", res.Status, res.Body)
		}
		if p := env.Do(post("/v1/auth/password-reset/confirm", map[string]any{"token": reset, "password": "yet another one"})).Problem(t); p.Code != "invalid_token" {
			t.Fatalf("reset token used twice: %+v", p)
		}
		if p := env.Do(apitest.Request{Method: "GET", Path: "/v1/auth/me", Token: c.Access}).Problem(t); p.Code != "invalid_token" {
			t.Fatalf("sessions survive a password reset: %+v", p)
		}
		if res := env.Do(post("/v1/auth/sign-in", map[string]any{"email": c.Email, "password": "a brand new secret"})); res.Status != 200 {
			t.Fatalf("sign in with the new password: %d", res.Status)
		}
	})
}
