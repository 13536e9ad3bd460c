package betty_test

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/testserver"
)

// The SDK against the real server: sign-in, automatic refresh of an expired access token,
// API keys, and typed errors.
func TestAgainstTheRealServer(t *testing.T) {
	ctx := context.Background()
	env := testserver.Start(t, testserver.WithAccessTokenTTL(time.Second))
	ada := env.SignUp(t, "ada@example.com")

	var saved atomic.Int32
	c, err := betty.New(env.URL, betty.WithTokenSaver(func(string, string) { saved.Add(1) }))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SignIn(ctx, "ada@example.com", "wrong password"); !errors.Is(err, betty.ErrUnauthorized) {
		t.Fatalf("wrong password: %v", err)
	}
	if _, err := c.SignIn(ctx, "ada@example.com", "correct horse battery"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond) // the access token expires
	me, err := c.Me(ctx)
	if err != nil || me.Id != ada.UserID {
		t.Fatalf("me after expiry: %+v %v", me, err)
	}
	if saved.Load() != 2 { // sign-in, then the refresh
		t.Fatalf("saver called %d times", saved.Load())
	}

	// An API key of team A reaches team A and nothing else.
	orgA := env.Team(t, ada, "Team A")
	orgB := env.Team(t, env.SignUp(t, "bob@example.com"), "Team B")
	k, err := betty.New(env.URL, betty.WithAPIKey(env.APIKey(t, orgA, "developer")))
	if err != nil {
		t.Fatal(err)
	}
	_, err = betty.DoPage[client.TeamMember](ctx, k, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.ListTeamMembers(ctx, &client.ListTeamMembersParams{OrganizationId: orgB})
	})
	var apiErr *betty.APIError
	if !errors.Is(err, betty.ErrNotFound) || !errors.As(err, &apiErr) || apiErr.RequestID == "" {
		t.Fatalf("other team by key: %v", err)
	}
	if _, err := k.Me(ctx); !errors.Is(err, betty.ErrForbidden) {
		t.Fatalf("me by key: %v", err)
	}
	if err := c.SignOut(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Me(ctx); !errors.Is(err, betty.ErrUnauthorized) {
		t.Fatalf("after sign-out: %v", err)
	}
}

// Sign-up against the real server, with and without e-mail delivery.
func TestSignUpAgainstTheRealServer(t *testing.T) {
	ctx := context.Background()
	name := "Ada"
	ada := client.SignUpRequest{Email: "ada@example.com", Password: "correct horse battery", Name: &name}

	env := testserver.Start(t)
	c, err := betty.New(env.URL)
	if err != nil {
		t.Fatal(err)
	}
	info, err := c.ServerInfo(ctx)
	if err != nil || info.MailDelivery != client.Outbox || info.EmailConfirmationRequired {
		t.Fatalf("server info without SMTP: %+v %v", info, err)
	}
	r, err := c.SignUp(ctx, ada)
	if err != nil || r.Session == nil || r.EmailConfirmationRequired {
		t.Fatalf("sign-up: %+v %v", r, err)
	}
	if me, err := c.Me(ctx); err != nil || me.Id != r.User.Id || deref(me.Profile.Name) != "Ada" {
		t.Fatalf("me after sign-up: %+v %v", me, err)
	}
	if _, err := c.SignUp(ctx, ada); !errors.Is(err, betty.ErrConflict) {
		t.Fatalf("second sign-up: %v", err)
	}
	_, err = c.SignUp(ctx, client.SignUpRequest{Email: "bob@example.com", Password: "short"})
	var apiErr *betty.APIError
	if !errors.Is(err, betty.ErrValidation) || !errors.As(err, &apiErr) || len(apiErr.Fields) != 1 || apiErr.Fields[0].Field != "body.password" {
		t.Fatalf("short password: %v", err)
	}

	env = testserver.Start(t, testserver.WithMailDelivery())
	c, _ = betty.New(env.URL)
	if info, err := c.ServerInfo(ctx); err != nil || info.MailDelivery != client.Smtp || !info.EmailConfirmationRequired {
		t.Fatalf("server info with SMTP: %+v %v", info, err)
	}
	r, err = c.SignUp(ctx, ada)
	if err != nil || r.Session != nil || !r.EmailConfirmationRequired {
		t.Fatalf("sign-up to confirm: %+v %v", r, err)
	}
	if a, rt := c.Tokens(); a != "" || rt != "" {
		t.Errorf("tokens kept without a session: %q %q", a, rt)
	}
	if _, err := c.SignIn(ctx, "ada@example.com", "correct horse battery"); !errors.Is(err, betty.ErrForbidden) {
		t.Fatalf("sign-in before confirming: %v", err)
	}
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
