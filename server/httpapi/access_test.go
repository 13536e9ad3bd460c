package httpapi_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/internal/apitest"
	"github.com/bettyhq/betty/server/store"
)

func TestRateLimitPerCaller(t *testing.T) {
	env := apitest.New(t, store.SQLite, apitest.WithRateLimit(1, 3))
	a := env.SignUp(t, "a@example.com") // one request of the anonymous bucket
	me := apitest.Request{Method: "GET", Path: "/v1/auth/me", Token: a.Access}
	for i := range 3 {
		if res := env.Do(me); res.Status != 200 {
			t.Fatalf("request %d: %d", i, res.Status)
		}
	}
	res := env.Do(me)
	p := res.Problem(t)
	if res.Status != 429 || p.Code != "rate_limited" || p.Detail != "You're making requests too fast! Please slow down." {
		t.Fatalf("over the limit: %d %+v", res.Status, p)
	}
	if s, err := strconv.Atoi(res.Header.Get("Retry-After")); err != nil || s < 1 {
		t.Fatalf("Retry-After %q", res.Header.Get("Retry-After"))
	}
	// Another caller has a bucket of their own.
	b := env.APIKey(t, env.Team(t, a, "Acme"), "developer")
	if res := env.Do(apitest.Request{Method: "GET", Path: "/v1/team/members/list?organizationId=x", Token: b}); res.Status == 429 {
		t.Fatal("callers share a bucket")
	}
}

func TestBruteForceSignInIsSlowed(t *testing.T) {
	env := apitest.New(t, store.SQLite)
	c := env.SignUp(t, "ada@example.com")
	wrong := post("/v1/auth/sign-in", map[string]any{"email": c.Email, "password": "guess guess"})
	for i := range 5 {
		if res := env.Do(wrong); res.Status != 401 {
			t.Fatalf("failure %d: %d", i, res.Status)
		}
	}
	res := env.Do(wrong)
	if res.Status != 429 || res.Header.Get("Retry-After") == "" {
		t.Fatalf("sixth failure: %d %s", res.Status, res.Body)
	}
	// Even the right password waits: the account is being guessed at.
	if res := env.Do(post("/v1/auth/sign-in", map[string]any{"email": c.Email, "password": password})); res.Status != 429 {
		t.Fatalf("right password while throttled: %d", res.Status)
	}
}

func TestUserLookupsAreLimitedToOneselfTeammatesAndAdmins(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		ctx := context.Background()
		ada := env.SignUp(t, "ada@example.com")
		bob := env.SignUp(t, "bob@example.com")
		get := func(c apitest.Caller, path string) int {
			return env.Do(apitest.Request{Method: "GET", Path: path, Token: c.Access}).Status
		}
		if s := get(ada, "/v1/auth/user/"+ada.UserID); s != 200 {
			t.Errorf("own user: %d", s)
		}
		if s := get(ada, "/v1/auth/user/"+bob.UserID); s != 403 {
			t.Errorf("someone else's user: %d", s)
		}
		if s := get(ada, "/v1/auth/admin-profile/"+bob.UserID); s != 403 {
			t.Errorf("someone else's admin profile: %d", s)
		}
		if s := get(ada, "/v1/auth/user-email/bob@example.com"); s != 404 {
			t.Errorf("a stranger by e-mail: %d", s)
		}
		// Sharing a team makes bob findable.
		org := env.Team(t, ada, "Acme")
		m, err := env.DB.Invite(ctx, org, bob.Email, "member", ada.UserID)
		if err != nil {
			t.Fatal(err)
		}
		if err := env.DB.ActivateMember(ctx, org, m.ID, bob.UserID); err != nil {
			t.Fatal(err)
		}
		if s := get(ada, "/v1/auth/user-email/bob@example.com"); s != 200 {
			t.Errorf("a teammate by e-mail: %d", s)
		}
		// Site admins see anyone.
		if _, err := env.DB.SetSiteAdmin(ctx, ada.Email, true); err != nil {
			t.Fatal(err)
		}
		carol := env.SignUp(t, "carol@example.com")
		for _, path := range []string{"/v1/auth/user/" + carol.UserID, "/v1/auth/admin-profile/" + carol.UserID, "/v1/auth/user-email/carol@example.com"} {
			if s := get(ada, path); s != 200 {
				t.Errorf("admin %s: %d", path, s)
			}
		}
	})
}

func TestProfileUpdate(t *testing.T) {
	env := apitest.New(t, store.SQLite)
	c := env.SignUp(t, "ada@example.com")
	res := env.Do(apitest.Request{Method: "POST", Path: "/v1/auth/user", Token: c.Access,
		Body: map[string]any{"props": map[string]any{"jobTitle": "Engineer", "timezone": "Europe/London", "name": ""}}})
	var body struct {
		Data struct {
			Profile struct {
				JobTitle, Timezone string
				Name               *string
			}
		}
	}
	res.JSON(t, &body)
	if res.Status != 200 || body.Data.Profile.JobTitle != "Engineer" || body.Data.Profile.Timezone != "Europe/London" || body.Data.Profile.Name != nil {
		t.Fatalf("profile: %d %s", res.Status, res.Body)
	}
	p := env.Do(apitest.Request{Method: "POST", Path: "/v1/auth/user", Token: c.Access,
		Body: map[string]any{"props": map[string]any{"timezone": "Mars/Olympus"}}}).Problem(t)
	if p.Status != 400 || p.Errors[0].Field != "body.props.timezone" {
		t.Fatalf("bad timezone: %+v", p)
	}
}

func TestSiteAdminOperations(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		ctx := context.Background()
		admin := env.SignUp(t, "admin@example.com")
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		do := func(c apitest.Caller, method, path string) *apitest.Response {
			return env.Do(apitest.Request{Method: method, Path: path, Token: c.Access})
		}
		// Not a site admin yet: refused.
		if res := do(admin, "GET", "/v1/admin/organization/refresh-organization-id/"+org); res.Status != 403 {
			t.Fatalf("non-admin: %d", res.Status)
		}
		if _, err := env.DB.SetSiteAdmin(ctx, admin.Email, true); err != nil {
			t.Fatal(err)
		}
		res := do(admin, "GET", "/v1/admin/organization/refresh-organization-id/"+org+"?refresh=true")
		if res.Status != 200 {
			t.Fatalf("by id: %d %s", res.Status, res.Body)
		}
		if res := do(admin, "GET", "/v1/admin/organization/refresh-organization-email/ada@example.com"); res.Status != 200 {
			t.Fatalf("by owner e-mail: %d %s", res.Status, res.Body)
		}
		res = do(admin, "GET", "/v1/admin/organization/users-organizations?searchEmail=ADA&page=9")
		var search struct {
			Data []struct {
				User          struct{ Email string }
				Organizations []struct{ Name, Role string }
			}
			Meta struct{ Page, TotalSize int }
		}
		res.JSON(t, &search)
		if res.Status != 200 || len(search.Data) != 1 || search.Data[0].Organizations[0].Role != "owner" || search.Meta.Page != 1 {
			t.Fatalf("search (page clamped): %d %s", res.Status, res.Body)
		}
		for _, path := range []string{"/v1/admin/organization/organizations-list/" + ada.UserID, "/v1/admin/organization/organizations-list-email/ada@example.com"} {
			if res := do(admin, "GET", path); res.Status != 200 {
				t.Fatalf("%s: %d %s", path, res.Status, res.Body)
			}
		}
		res = do(admin, "POST", "/v1/admin/organization/update-organization-level?organizationId="+org+"&verificationLevel=l1")
		if res.Status != 200 || !contains(res.Body, `"verificationLevel":"l1"`) {
			t.Fatalf("level: %d %s", res.Status, res.Body)
		}
		res = do(admin, "POST", "/v1/admin/organization/update-organization-tier?organizationId="+org+"&subscriptionTier=tier2")
		if res.Status != 200 || !contains(res.Body, `"subscriptionTier":"tier2"`) {
			t.Fatalf("tier: %d %s", res.Status, res.Body)
		}
		if res := do(admin, "POST", "/v1/admin/organization/update-organization-tier?organizationId=nope&subscriptionTier=tier2"); res.Status != 404 {
			t.Fatalf("unknown org: %d", res.Status)
		}
		// The outbox: every message the server wrote, newest first, with where it went.
		// The level change e-mailed the owner; the list has it above her confirmation, and each is
		// kept (no SMTP) once the sending job ran.
		var mail struct {
			Data []struct{ Recipient, Kind, Status, Link, Subject string }
			Meta struct{ TotalSize int }
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			res = do(admin, "GET", "/v1/admin/mail?recipient=ADA@example.com")
			res.JSON(t, &mail)
			if res.Status != 200 || len(mail.Data) != 2 || mail.Meta.TotalSize != 2 {
				t.Fatalf("mail: %d %s", res.Status, res.Body)
			}
			if mail.Data[0].Status == "kept" && mail.Data[1].Status == "kept" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("mail never kept: %s", res.Body)
			}
			time.Sleep(20 * time.Millisecond)
		}
		if m := mail.Data[0]; m.Kind != "verification-level" || m.Subject != "Acme is now verified at level L1 on Betty" ||
			!strings.Contains(m.Link, "/dashboard/team?teamId="+org) {
			t.Fatalf("level e-mail: %+v", m)
		}
		if m := mail.Data[1]; m.Kind != "confirm-email" || !strings.Contains(m.Link, "/confirm-email?token=") {
			t.Fatalf("confirmation: %+v", m)
		}
		if res := do(ada, "GET", "/v1/admin/mail"); res.Status != http.StatusForbidden {
			t.Fatalf("mail as a user: %d", res.Status)
		}
		// API keys never reach site-admin operations.
		key := env.APIKey(t, org, "admin")
		if res := env.Do(apitest.Request{Method: "GET", Path: "/v1/admin/organization/organizations-list/" + ada.UserID, Token: key}); res.Status != http.StatusForbidden {
			t.Fatalf("API key on admin: %d", res.Status)
		}
	})
}

func contains(b []byte, s string) bool { return strings.Contains(string(b), s) }

func TestAPIKeyInEitherHeader(t *testing.T) {
	env := apitest.New(t, store.SQLite)
	ada := env.SignUp(t, "ada@example.com")
	org := env.Team(t, ada, "Acme")
	key := env.APIKey(t, org, "readonly")
	path := "/v1/team/members/list?organizationId=" + org
	if res := env.Do(apitest.Request{Method: "GET", Path: path, Header: http.Header{"X-Api-Key": {key}}}); res.Status != 200 {
		t.Fatalf("X-API-Key: %d %s", res.Status, res.Body)
	}
	if res := env.Do(apitest.Request{Method: "GET", Path: path, Token: key}); res.Status != 200 {
		t.Fatalf("Bearer key: %d %s", res.Status, res.Body)
	}
	// A readonly key cannot invite: its role is the key's.
	res := env.Do(apitest.Request{Method: "POST", Path: "/v1/team/invite", Token: key, Body: map[string]any{"organizationId": org, "email": "bob@example.com"}})
	if res.Status != 403 {
		t.Fatalf("readonly key invites: %d %s", res.Status, res.Body)
	}
}

func TestInternalStaffAreFlagged(t *testing.T) {
	env := apitest.New(t, store.SQLite, apitest.WithInternalDomains("betty.dev", "staff.example"))
	for email, want := range map[string]bool{"ada@betty.dev": true, "bob@STAFF.example": true, "carol@example.com": false} {
		c := env.SignUp(t, email)
		res := env.Do(apitest.Request{Method: "GET", Path: "/v1/auth/me", Token: c.Access})
		var me struct{ Data struct{ IsInternal bool } }
		res.JSON(t, &me)
		if me.Data.IsInternal != want {
			t.Errorf("%s: isInternal %v", email, me.Data.IsInternal)
		}
	}
}
