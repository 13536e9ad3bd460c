package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/integrations"
	"github.com/bettyhq/betty/server/internal/apitest"
	"github.com/bettyhq/betty/server/store"
)

// connectedApp stores a connected HubSpot app for org straight through the service (the OAuth
// round trip is the HubSpot tests').
func connectedApp(t *testing.T, env *apitest.Env, org, account string) integrations.App {
	t.Helper()
	svc, err := integrations.New(env.DB, appsTestKey(t, env), nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := svc.Save(context.Background(), integrations.Connection{OrganizationID: org, Integration: integrations.HubSpot,
		AccountID: account, Name: account + ".hubspot.com",
		Tokens: integrations.Tokens{AccessToken: "secret-access-" + account, RefreshToken: "secret-refresh", ExpiresAt: time.Now().Add(time.Hour)}})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// appsTestKey is the key the test server seals credentials with (the one it made and kept).
func appsTestKey(t *testing.T, env *apitest.Env) []byte {
	t.Helper()
	// The server stored its key at start-up; this value is never used.
	raw, err := env.DB.Secret(context.Background(), "integration_token_key", func() string { return "unused" })
	if err != nil {
		t.Fatal(err)
	}
	key, err := integrations.ParseKey(raw)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

func TestConnectedAppsListAndDisconnect(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		api := newTeamAPI(t, env)
		owner := env.SignUp(t, "owner@example.com")
		org := env.Team(t, owner, "Acme")
		a := connectedApp(t, env, org, "111")
		b := connectedApp(t, env, org, "222")

		type appJSON struct {
			ID, ConnectedAppID, IntegrationID, Status, Name string
			ConnectionID, AccountID                         *string
		}
		var list struct{ Data []appJSON }
		api.want(http.StatusOK, owner.Access, "GET", "/v1/apps/connected?organizationId="+org, nil, &list)
		if len(list.Data) != 2 || list.Data[0].ID != b.ID || list.Data[1].ID != a.ID || list.Data[0].ConnectedAppID != b.ID ||
			list.Data[0].IntegrationID != "hubspot" || list.Data[0].Status != "connected" || *list.Data[0].AccountID != "222" {
			t.Fatalf("list: %+v", list.Data)
		}
		res := env.Do(apitest.Request{Method: "GET", Path: "/v1/apps/connected?organizationId=" + org, Token: owner.Access})
		for _, secret := range []string{"secret-access", "secret-refresh", "sealed"} {
			if strings.Contains(string(res.Body), secret) {
				t.Fatalf("the list shows %q: %s", secret, res.Body)
			}
		}

		// A member may list but not disconnect; a developer may.
		member := env.SignUp(t, "member@example.com")
		api.join(owner, org, member, "member")
		api.want(http.StatusOK, member.Access, "GET", "/v1/apps/connected?organizationId="+org, nil, nil)
		api.want(http.StatusForbidden, member.Access, "POST", "/v1/apps/disconnect", map[string]any{"id": a.ID, "organizationId": org}, nil)
		var one struct{ Data appJSON }
		api.want(http.StatusOK, owner.Access, "POST", "/v1/apps/disconnect", map[string]any{"id": a.ID, "organizationId": org}, &one)
		if one.Data.Status != "disconnected" || one.Data.ConnectionID != nil {
			t.Fatalf("disconnected: %+v", one.Data)
		}
		api.want(http.StatusOK, owner.Access, "POST", "/v1/apps/disconnect", map[string]any{"id": a.ID, "organizationId": org}, &one)
		stored, _ := env.DB.ConnectedAppByID(context.Background(), org, a.ID)
		if stored.Status != store.AppDisconnected || stored.SealedTokens != nil {
			t.Fatalf("stored after disconnecting: %+v", stored)
		}
		api.want(http.StatusNotFound, owner.Access, "POST", "/v1/apps/disconnect", map[string]any{"id": store.NewID(), "organizationId": org}, nil)
	})
}
