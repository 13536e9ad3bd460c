package apitest

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/store"
)

// Caller is a signed-up user with a session.
type Caller struct {
	UserID, Email   string
	Access, Refresh string
}

// SignUp creates an account through the API (signed in at once: tests run without SMTP).
func (e *Env) SignUp(t testing.TB, email string) Caller {
	t.Helper()
	res := e.Do(Request{Method: http.MethodPost, Path: "/v1/auth/sign-up",
		Body: map[string]any{"email": email, "password": "correct horse battery", "name": "Test User"}})
	if res.Status != http.StatusCreated {
		t.Fatalf("sign up %s: %d %s", email, res.Status, res.Body)
	}
	var body struct {
		Data struct {
			User    struct{ ID string }
			Session struct{ AccessToken, RefreshToken string }
		}
	}
	res.JSON(t, &body)
	return Caller{UserID: body.Data.User.ID, Email: email, Access: body.Data.Session.AccessToken, Refresh: body.Data.Session.RefreshToken}
}

// Team makes an organisation owned by c straight in the store and returns its id.
func (e *Env) Team(t testing.TB, c Caller, name string) string {
	t.Helper()
	o := store.Organization{Name: name, OwnerUserID: c.UserID, PublicAPIKey: "betty_pk_" + store.NewID()}
	if err := e.DB.CreateOrganization(context.Background(), &o, c.Email); err != nil {
		t.Fatal(err)
	}
	return o.ID
}

// APIKey makes an API key of a team with a role straight in the store and returns its secret.
func (e *Env) APIKey(t testing.TB, org, role string) string {
	t.Helper()
	key, prefix := auth.NewAPIKey()
	k := store.APIKey{OrganizationID: org, Name: "test key " + prefix, Prefix: prefix, KeyHash: auth.HashToken(key), Role: role}
	if err := e.DB.CreateAPIKey(context.Background(), &k); err != nil {
		t.Fatal(err)
	}
	return key
}

// Exec runs a statement on the test database with ? placeholders (for rows no operation makes
// yet).
func (e *Env) Exec(t testing.TB, query string, args ...any) {
	t.Helper()
	if e.DB.Dialect() == store.Postgres {
		for i := 1; strings.Contains(query, "?"); i++ {
			query = strings.Replace(query, "?", fmt.Sprintf("$%d", i), 1)
		}
	}
	if _, err := e.DB.Writer().ExecContext(context.Background(), query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// PhoneNumber gives a team an active phone number bought through the carrier (straight in the
// store) and returns its id.
func (e *Env) PhoneNumber(t testing.TB, org, e164 string) string {
	t.Helper()
	id := store.NewID()
	now := time.Now().UTC()
	e.Exec(t, `INSERT INTO phone_numbers (id, organization_id, phone_number, status, is_non_telnyx, country_code, number_type,
		area_code, monthly_price, created_at, updated_at) VALUES (?, ?, ?, 'active', ?, 'US', 'local', ?, 1.5, ?, ?)`,
		id, org, e164, false, e164[2:5], now, now)
	return id
}
