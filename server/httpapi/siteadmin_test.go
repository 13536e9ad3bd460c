package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/internal/apitest"
)

// signUpAdmin signs email up and answers whether the new account is a site administrator, as
// the sign-up answer and getCurrentUser both say.
func signUpAdmin(t *testing.T, env *apitest.Env, email string) bool {
	t.Helper()
	res := env.Do(apitest.Request{Method: http.MethodPost, Path: "/v1/auth/sign-up",
		Body: map[string]any{"email": email, "password": "correct horse battery", "name": "Someone"}})
	if res.Status != http.StatusCreated {
		t.Fatalf("sign up %s: %d %s", email, res.Status, res.Body)
	}
	var body struct {
		Data struct {
			User    struct{ IsSiteAdmin bool }
			Session struct{ AccessToken string }
		}
	}
	res.JSON(t, &body)
	me := env.Do(apitest.Request{Method: http.MethodGet, Path: "/v1/auth/me", Token: body.Data.Session.AccessToken})
	var who struct{ Data struct{ IsSiteAdmin bool } }
	me.JSON(t, &who)
	if me.Status != http.StatusOK || who.Data.IsSiteAdmin != body.Data.User.IsSiteAdmin {
		t.Fatalf("getCurrentUser of %s: %d %s", email, me.Status, me.Body)
	}
	return body.Data.User.IsSiteAdmin
}

// By default the first account to sign up on a fresh server is its site administrator, and
// may use the admin operations at once; the next one is not.
func TestFirstAccountIsSiteAdmin(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		if !signUpAdmin(t, env, "first@example.com") {
			t.Fatal("the first account is not site admin")
		}
		if signUpAdmin(t, env, "second@example.com") {
			t.Fatal("the second account is site admin")
		}
	}, apitest.WithFirstAccountAdmin())
}

// With --admin-email the first account is nobody special; the named one is admin.
func TestAdminEmailNamesTheSiteAdmin(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		if signUpAdmin(t, env, "stranger@example.com") {
			t.Fatal("the first account is site admin despite --admin-email")
		}
		if !signUpAdmin(t, env, "Boss@Example.com") {
			t.Fatal("the named account is not site admin")
		}
	}, apitest.WithConfig(func(c *config.Config) { c.AdminEmail = "boss@example.com" }))
}
