package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/integrations"
	"github.com/bettyhq/betty/server/integrations/hubspot"
	"github.com/bettyhq/betty/server/integrations/hubspot/hubspottest"
	"github.com/bettyhq/betty/server/internal/apitest"
	"github.com/bettyhq/betty/server/store"
)

// withHubSpot points the test server's HubSpot app at a fake portal.
func withHubSpot(f *hubspottest.Server) apitest.Option {
	return apitest.WithConfig(func(c *config.Config) {
		c.HubSpotClientID, c.HubSpotClientSecret = f.Opts.ClientID, f.Opts.ClientSecret
		c.HubSpotAPIURL, c.HubSpotAuthURL = f.URL, f.URL+"/oauth/authorize"
	})
}

// follow sends the browser's request to a URL of the server (its public host is betty.test).
func follow(t *testing.T, env *apitest.Env, raw string) *apitest.Response {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return env.Do(apitest.Request{Method: "GET", Path: u.RequestURI()})
}

// finishHubSpot is the browser coming back from HubSpot to the callback cb, which sends it on
// to the dashboard's callback page, and that page relaying the code as by (whose session it
// has): it answers finishHubspotAuthorization's response.
func finishHubSpot(t *testing.T, env *apitest.Env, by apitest.Caller, cb string) *apitest.Response {
	t.Helper()
	res := follow(t, env, cb)
	loc, err := url.Parse(res.Header.Get("Location"))
	if err != nil || res.Status != http.StatusFound || loc.Path != "/dashboard/apps/hubspot/callback" {
		t.Fatalf("callback: %d %s", res.Status, res.Header.Get("Location"))
	}
	q := loc.Query()
	return env.Do(apitest.Request{Method: "POST", Path: "/v1/apps/hubspot/callback", Token: by.Access,
		Body: map[string]any{"organizationId": q.Get("teamId"), "code": q.Get("code"), "state": q.Get("state")}})
}

// connectHubSpot runs the OAuth round trip as owner approving the fake portal, and answers
// the connected app's id.
func connectHubSpot(t *testing.T, env *apitest.Env, f *hubspottest.Server, owner apitest.Caller, org string) string {
	t.Helper()
	var auth struct {
		Data struct{ AuthorizationURL string }
	}
	newTeamAPI(t, env).want(http.StatusOK, owner.Access, "POST", "/v1/apps/connect/hubspot", map[string]any{"organizationId": org}, &auth)
	cb, err := f.Approve(auth.Data.AuthorizationURL)
	if err != nil {
		t.Fatal(err)
	}
	res := finishHubSpot(t, env, owner, cb)
	var app struct{ Data struct{ ID, Status string } }
	if res.Status != http.StatusOK {
		t.Fatalf("finish: %d %s", res.Status, res.Body)
	}
	if res.JSON(t, &app); app.Data.Status != "connected" || app.Data.ID == "" {
		t.Fatalf("finish: %s", res.Body)
	}
	return app.Data.ID
}

// hubspotNode makes an outbound workflow whose Contacts node's source is the HubSpot app.
func hubspotNode(t *testing.T, env *apitest.Env, owner apitest.Caller, org, appID string) (wf, nodeID string) {
	t.Helper()
	a := newTeamAPI(t, env)
	ag := createAgent(t, a, owner, org, map[string]any{})
	var w struct{ Data workflowJSON }
	a.want(http.StatusCreated, owner.Access, "POST", "/v1/workflow/create",
		map[string]any{"organizationId": org, "name": "HubSpot calls", "agentId": ag.ID, "workflowType": "outbound"}, &w)
	nodeID = fmt.Sprintf("contacts-%d", time.Now().UnixNano())
	a.want(http.StatusOK, owner.Access, "POST", "/v1/workflow/save", map[string]any{"workflowId": w.Data.ID,
		"nodes": []any{node(nodeID, "contacts", nil), node("start-"+nodeID, "start", nil)}, "edges": []any{}}, nil)
	a.want(http.StatusOK, owner.Access, "POST", "/v1/workflow/contacts", map[string]any{"organizationId": org, "workflowId": w.Data.ID,
		"nodeId": nodeID, "source": "hubspot", "connectedAppId": appID}, nil)
	return w.Data.ID, nodeID
}

type hubspotContacts struct {
	Data []contactJSON
	Meta struct{ TotalSize, Page, TotalPages int }
}

func TestHubSpotConnect(t *testing.T) {
	f := hubspottest.New(hubspottest.Options{})
	defer f.Close()
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		owner := env.SignUp(t, "owner@example.com")
		org := env.Team(t, owner, "Acme")

		var auth struct {
			Data struct {
				AuthorizationURL string
				ExpiresAt        time.Time
			}
		}
		a.want(http.StatusOK, owner.Access, "POST", "/v1/apps/connect/hubspot", map[string]any{"organizationId": org}, &auth)
		u, _ := url.Parse(auth.Data.AuthorizationURL)
		q := u.Query()
		if !strings.HasPrefix(auth.Data.AuthorizationURL, f.URL+"/oauth/authorize?") || q.Get("client_id") != f.Opts.ClientID ||
			q.Get("redirect_uri") != "http://betty.test/v1/apps/hubspot/callback" || q.Get("state") == "" ||
			q.Get("scope") != "crm.objects.contacts.read crm.objects.contacts.write crm.schemas.contacts.read crm.lists.read oauth" ||
			time.Until(auth.Data.ExpiresAt) > 11*time.Minute {
			t.Fatalf("authorisation: %+v", auth.Data)
		}
		// The fake's page has the buttons a person clicks (the dashboard's e2e test clicks them).
		page := env.Client
		res, err := page.Get(auth.Data.AuthorizationURL)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("authorise page: %d", res.StatusCode)
		}

		cb, err := f.Approve(auth.Data.AuthorizationURL)
		if err != nil {
			t.Fatal(err)
		}
		// The callback sends the browser on to the dashboard's page, which relays the code as
		// the signed-in user.
		r := follow(t, env, cb)
		relay, _ := url.Parse(r.Header.Get("Location"))
		if r.Status != http.StatusFound || !strings.HasPrefix(r.Header.Get("Location"), "http://betty.test/dashboard/apps/hubspot/callback?") ||
			relay.Query().Get("teamId") != org || relay.Query().Get("code") == "" || relay.Query().Get("state") == "" {
			t.Fatalf("callback: %d %s", r.Status, r.Header.Get("Location"))
		}
		var app struct{ Data struct{ ID, Status string } }
		a.want(http.StatusOK, owner.Access, "POST", "/v1/apps/hubspot/callback", map[string]any{"organizationId": org,
			"code": relay.Query().Get("code"), "state": relay.Query().Get("state")}, &app)
		appID := app.Data.ID
		var list struct {
			Data []struct {
				ID, Name, Status string
				AccountID        *string
			}
		}
		a.want(http.StatusOK, owner.Access, "GET", "/v1/apps/connected?organizationId="+org, nil, &list)
		if len(list.Data) != 1 || list.Data[0].ID != appID || list.Data[0].Name != "acme.hubspot.com" || *list.Data[0].AccountID != "24017381" {
			t.Fatalf("connected apps: %+v", list.Data)
		}

		reason := func(raw string) string {
			t.Helper()
			r := follow(t, env, raw)
			loc, _ := url.Parse(r.Header.Get("Location"))
			if r.Status != http.StatusFound || loc.Query().Get("result") != "error" {
				t.Fatalf("%s: %d %s", raw, r.Status, r.Header.Get("Location"))
			}
			return loc.Query().Get("reason")
		}
		field := func(res *apitest.Response) string {
			t.Helper()
			p := res.Problem(t)
			if res.Status != http.StatusUnprocessableEntity {
				t.Fatalf("%d %+v", res.Status, p)
			}
			if len(p.Errors) == 0 {
				return ""
			}
			return p.Errors[0].Field
		}
		// The state works once; a forged one, a refusal, an unknown code are each named.
		if got := field(finishHubSpot(t, env, owner, cb)); got != "body.state" {
			t.Fatalf("a used state: %s", got)
		}
		if got := reason("/v1/apps/hubspot/callback?code=x&state=forged.sig"); got != "invalid_state" {
			t.Fatalf("a forged state: %s", got)
		}
		fresh := func() string {
			a.want(http.StatusOK, owner.Access, "POST", "/v1/apps/connect/hubspot", map[string]any{"organizationId": org}, &auth)
			u, _ := url.Parse(auth.Data.AuthorizationURL)
			return url.QueryEscape(u.Query().Get("state"))
		}
		if got := reason("/v1/apps/hubspot/callback?error=access_denied&state=" + fresh()); got != "denied" {
			t.Fatalf("denied: %s", got)
		}
		if got := field(finishHubSpot(t, env, owner, "/v1/apps/hubspot/callback?code=unknown&state="+fresh())); got != "body.code" {
			t.Fatalf("a bad code: %s", got)
		}
		a.problem(http.StatusBadRequest, "", "GET", "/v1/apps/hubspot/callback", nil)

		// Approving the same portal again reconnects the same app; a reconnection of an app
		// of another portal is refused.
		if again := connectHubSpot(t, env, f, owner, org); again != appID {
			t.Fatalf("the same portal made another app: %s %s", again, appID)
		}
		other := connectedApp(t, env, org, "999")
		a.want(http.StatusOK, owner.Access, "POST", "/v1/apps/reconnect/hubspot", map[string]any{"organizationId": org, "id": other.ID}, &auth)
		cb, _ = f.Approve(auth.Data.AuthorizationURL)
		if res := finishHubSpot(t, env, owner, cb); res.Status != http.StatusUnprocessableEntity || !strings.Contains(res.Problem(t).Detail, "different HubSpot account") {
			t.Fatalf("another portal: %d %s", res.Status, res.Body)
		}
		a.want(http.StatusOK, owner.Access, "POST", "/v1/apps/reconnect/hubspot", map[string]any{"organizationId": org, "id": appID}, &auth)
		a.problem(http.StatusNotFound, owner.Access, "POST", "/v1/apps/reconnect/hubspot", map[string]any{"organizationId": org, "id": "nope"})
		apps, err := integrations.New(env.DB, appsTestKey(t, env), nil)
		if err != nil {
			t.Fatal(err)
		}
		zap, err := apps.Save(context.Background(), integrations.Connection{OrganizationID: org, Integration: integrations.Zapier,
			AccountID: "z1", Name: "ops@example.com", Tokens: integrations.Tokens{AccessToken: "z"}})
		if err != nil {
			t.Fatal(err)
		}
		a.problem(http.StatusUnprocessableEntity, owner.Access, "POST", "/v1/apps/reconnect/hubspot", map[string]any{"organizationId": org, "id": zap.ID})

		// Roles: a member may not connect; an API key may not (a person approves).
		member := env.SignUp(t, "member@example.com")
		a.join(owner, org, member, "member")
		a.problem(http.StatusForbidden, member.Access, "POST", "/v1/apps/connect/hubspot", map[string]any{"organizationId": org})
		key := env.APIKey(t, org, "owner")
		a.problem(http.StatusForbidden, key, "POST", "/v1/apps/connect/hubspot", map[string]any{"organizationId": org})

		// Disconnecting revokes the refresh token at HubSpot.
		before := f.Count("revoke")
		a.want(http.StatusOK, owner.Access, "POST", "/v1/apps/disconnect", map[string]any{"organizationId": org, "id": appID}, nil)
		if f.Count("revoke") != before+1 {
			t.Fatalf("revocations: %d → %d", before, f.Count("revoke"))
		}
	}, withHubSpot(f))
}

// HubSpot's callback is a public browser redirect: whoever follows it with a team's state
// (a stranger with the link, another team's member) uses nothing up and connects nothing;
// only the user who started the flow, signed in, finishes it, and the others' attempts leave
// the state working for them.
func TestHubSpotStateIsItsUsers(t *testing.T) {
	f := hubspottest.New(hubspottest.Options{})
	defer f.Close()
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		bob := env.SignUp(t, "bob@example.com")
		other := env.Team(t, bob, "Other")
		carol := env.SignUp(t, "carol@example.com")
		a.join(ada, org, carol, "developer")

		var auth struct {
			Data struct{ AuthorizationURL string }
		}
		a.want(http.StatusOK, ada.Access, "POST", "/v1/apps/connect/hubspot", map[string]any{"organizationId": org}, &auth)
		u, _ := url.Parse(auth.Data.AuthorizationURL)
		state := u.Query().Get("state")
		// A stranger follows the callback with Ada's state and a code of their own: it goes on
		// to the dashboard's page, and nothing is exchanged nor used up.
		exchanged := f.Count("token.code")
		r := follow(t, env, "/v1/apps/hubspot/callback?code=strangers-code&state="+url.QueryEscape(state))
		if r.Status != http.StatusFound || f.Count("token.code") != exchanged {
			t.Fatalf("a stranger's visit: %d %s, %d code exchanges", r.Status, r.Header.Get("Location"), f.Count("token.code")-exchanged)
		}
		cb, err := f.Approve(auth.Data.AuthorizationURL)
		if err != nil {
			t.Fatal(err)
		}
		relay, _ := url.Parse(follow(t, env, cb).Header.Get("Location"))
		q := relay.Query()
		// Another team's member, and a teammate, present it: refused, nothing used up.
		for who, team := range map[apitest.Caller]string{bob: other, carol: org} {
			p := a.problem(http.StatusUnprocessableEntity, who.Access, "POST", "/v1/apps/hubspot/callback",
				map[string]any{"organizationId": team, "code": q.Get("code"), "state": q.Get("state")})
			if len(p.Errors) != 1 || p.Errors[0].Field != "body.state" {
				t.Fatalf("%s presenting Ada's state: %+v", who.Email, p)
			}
		}
		if f.Count("token.code") != exchanged {
			t.Fatal("someone else's attempt exchanged the code")
		}
		var app struct{ Data struct{ Status string } }
		a.want(http.StatusOK, ada.Access, "POST", "/v1/apps/hubspot/callback",
			map[string]any{"organizationId": org, "code": q.Get("code"), "state": q.Get("state")}, &app)
		if app.Data.Status != "connected" {
			t.Fatalf("Ada's connection: %+v", app.Data)
		}
		var list struct{ Data []struct{ ID string } }
		a.want(http.StatusOK, bob.Access, "GET", "/v1/apps/connected?organizationId="+other, nil, &list)
		if len(list.Data) != 0 {
			t.Fatalf("Bob's team got a connection: %+v", list.Data)
		}
	}, withHubSpot(f))
}

func TestHubSpotContactsAndStages(t *testing.T) {
	f := hubspottest.New(hubspottest.Options{})
	defer f.Close()
	ada := f.AddContact(map[string]string{"firstname": "Ada", "lastname": "Lovelace", "email": "ada@example.com",
		"phone": "(415) 555-0123", "lifecyclestage": "marketingqualifiedlead"})
	grace := f.AddContact(map[string]string{"firstname": "Grace", "lastname": "Hopper", "phone": "+44 20 7946 0958", "lifecyclestage": "1234"})
	broken := f.AddContact(map[string]string{"firstname": "Broken", "lastname": "Lovelace", "phone": "12"})
	for i := range 150 {
		f.AddContact(map[string]string{"firstname": "Filler", "lastname": strconv.Itoa(i), "phone": fmt.Sprintf("+1415666%04d", i)})
	}
	f.AddStage(hubspottest.Stage{Label: "Churned", Value: "1234", DisplayOrder: 9})
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		owner := env.SignUp(t, "owner@example.com")
		org := env.Team(t, owner, "Acme")
		appID := connectHubSpot(t, env, f, owner, org)
		q := "?organizationId=" + org + "&connectedAppId=" + appID
		f.SetProperty(ada, "lifecyclestage", "marketingqualifiedlead") // the portal is shared by the dialects' runs

		var stages struct{ Data []struct{ ID, Name string } }
		a.want(http.StatusOK, owner.Access, "GET", "/v1/apps/hubspot/lifecyclestages"+q, nil, &stages)
		if len(stages.Data) != 9 || stages.Data[2].ID != "marketingqualifiedlead" || stages.Data[8].Name != "Churned" {
			t.Fatalf("stages: %+v", stages.Data)
		}

		var found hubspotContacts
		a.want(http.StatusOK, owner.Access, "GET", "/v1/apps/hubspot/contacts/search"+q+"&match=lovelace", nil, &found)
		if len(found.Data) != 2 || found.Meta.TotalSize != 2 || found.Data[0].ID != ada || found.Data[0].Phone != "+14155550123" ||
			*found.Data[0].LifecycleStage != "marketing lead" || found.Data[1].ID != broken || found.Data[1].BettyMetadata.Status != "failed" {
			t.Fatalf("search: %+v", found)
		}
		a.want(http.StatusOK, owner.Access, "GET", "/v1/apps/hubspot/contacts/search"+q, nil, &found)
		if len(found.Data) != 100 || found.Meta.TotalSize != 153 {
			t.Fatalf("search without match: %d %+v", len(found.Data), found.Meta)
		}
		a.want(http.StatusOK, owner.Access, "GET", "/v1/apps/hubspot/contacts"+q+"&page=2", nil, &found)
		if len(found.Data) != 53 || found.Meta.Page != 2 || found.Meta.TotalPages != 2 || found.Meta.TotalSize != 153 {
			t.Fatalf("list page 2: %d %+v", len(found.Data), found.Meta)
		}
		a.want(http.StatusOK, owner.Access, "GET", "/v1/apps/hubspot/contacts"+q, nil, &found)
		if found.Data[1].ID != grace || *found.Data[1].LifecycleStage != "other" || found.Data[1].Phone != "+442079460958" {
			t.Fatalf("list page 1: %+v", found.Data[:2])
		}

		// Picking for a node stores the matches as the node's contacts, once.
		wf, nodeID := hubspotNode(t, env, owner, org, appID)
		nq := q + "&workflowId=" + wf + "&nodeId=" + nodeID
		a.want(http.StatusOK, owner.Access, "GET", "/v1/apps/hubspot/contacts/search"+nq+"&match=lovelace", nil, &found)
		a.want(http.StatusOK, owner.Access, "GET", "/v1/apps/hubspot/contacts/search"+nq+"&match=ada", nil, &found)
		a.want(http.StatusOK, owner.Access, "GET", "/v1/apps/hubspot/contacts"+nq, nil, &found)
		if len(found.Data) != 2 || found.Meta.TotalSize != 2 || found.Data[0].ID != ada || found.Data[0].BettyMetadata.Status != "pending" ||
			found.Data[1].BettyMetadata.Status != "failed" || *found.Data[1].BettyMetadata.LastError != "Invalid phone number" {
			t.Fatalf("the node's contacts: %+v", found)
		}
		// Listing refreshes the stored copies from HubSpot; a contact deleted there leaves.
		f.SetProperty(ada, "lifecyclestage", "customer")
		f.DeleteContact(broken)
		a.want(http.StatusOK, owner.Access, "GET", "/v1/apps/hubspot/contacts"+nq, nil, &found)
		if len(found.Data) != 1 || *found.Data[0].LifecycleStage != "customer" {
			t.Fatalf("refreshed: %+v", found.Data)
		}
		broken = f.AddContact(map[string]string{"firstname": "Broken", "lastname": "Lovelace", "phone": "12"})

		// Both or neither of nodeId and workflowId; the node must use this app.
		a.problem(http.StatusBadRequest, owner.Access, "GET", "/v1/apps/hubspot/contacts/search"+q+"&nodeId="+nodeID, nil)
		other := connectedApp(t, env, org, "555")
		a.problem(http.StatusUnprocessableEntity, owner.Access, "GET",
			"/v1/apps/hubspot/contacts/search?organizationId="+org+"&connectedAppId="+other.ID+"&workflowId="+wf+"&nodeId="+nodeID, nil)
		a.problem(http.StatusNotFound, owner.Access, "GET", "/v1/apps/hubspot/contacts/search"+q+"&workflowId=nope&nodeId="+nodeID, nil)

		// Roles: readonly may list but not search; API keys work (no person needed).
		viewer := env.SignUp(t, "viewer@example.com")
		a.join(owner, org, viewer, "readonly")
		a.want(http.StatusOK, viewer.Access, "GET", "/v1/apps/hubspot/lifecyclestages"+q, nil, nil)
		a.want(http.StatusOK, viewer.Access, "GET", "/v1/apps/hubspot/contacts"+q, nil, nil)
		a.problem(http.StatusForbidden, viewer.Access, "GET", "/v1/apps/hubspot/contacts/search"+q, nil)
		a.want(http.StatusOK, env.APIKey(t, org, "member"), "GET", "/v1/apps/hubspot/contacts/search"+q+"&match=ada", nil, nil)

		// Another team cannot use the app.
		stranger := env.SignUp(t, "stranger@example.com")
		orgB := env.Team(t, stranger, "Other")
		a.problem(http.StatusNotFound, stranger.Access, "GET", "/v1/apps/hubspot/contacts?organizationId="+orgB+"&connectedAppId="+appID, nil)
		a.problem(http.StatusNotFound, stranger.Access, "GET", "/v1/apps/hubspot/contacts"+q, nil)

		// HubSpot unreachable (5xx, rate limited, too slow) is 503; a Zapier app is 422.
		for _, status := range []int{http.StatusInternalServerError, http.StatusTooManyRequests} {
			f.FailNext("/crm/v3/", status, 1)
			p := a.problem(http.StatusServiceUnavailable, owner.Access, "GET", "/v1/apps/hubspot/lifecyclestages"+q, nil)
			if !strings.Contains(p.Detail, "HubSpot is unreachable") {
				t.Fatalf("%d: %+v", status, p)
			}
		}

		// A disconnected app is 422 everywhere.
		a.want(http.StatusOK, owner.Access, "POST", "/v1/apps/disconnect", map[string]any{"organizationId": org, "id": appID}, nil)
		for _, path := range []string{"/v1/apps/hubspot/lifecyclestages" + q, "/v1/apps/hubspot/contacts" + q, "/v1/apps/hubspot/contacts/search" + q} {
			if p := a.problem(http.StatusUnprocessableEntity, owner.Access, "GET", path, nil); !strings.Contains(p.Detail, "disconnected") {
				t.Fatalf("%s: %+v", path, p)
			}
		}
		// A Contacts node cannot take a disconnected app as its source.
		p := a.problem(http.StatusUnprocessableEntity, owner.Access, "POST", "/v1/workflow/contacts", map[string]any{"organizationId": org,
			"workflowId": wf, "nodeId": nodeID, "source": "hubspot", "connectedAppId": appID})
		if !strings.Contains(p.Detail, "disconnected") {
			t.Fatalf("a disconnected source: %+v", p)
		}
		// An access token HubSpot refuses early is renewed (503, try again), the app stays
		// connected; a revoked connection (the portal uninstalled the app) disconnects on first use.
		appID = connectHubSpot(t, env, f, owner, org)
		q = "?organizationId=" + org + "&connectedAppId=" + appID
		refreshes := f.Counts()["token.refresh"]
		f.FailNext("/crm/v3/properties", http.StatusUnauthorized, 1)
		res := a.do(owner.Access, "GET", "/v1/apps/hubspot/lifecyclestages"+q, nil)
		if res.Status != http.StatusServiceUnavailable || res.Header.Get("Retry-After") != "1" || f.Counts()["token.refresh"] != refreshes+1 {
			t.Fatalf("a refused access token: %d %q %s", res.Status, res.Header.Get("Retry-After"), res.Body)
		}
		a.want(http.StatusOK, owner.Access, "GET", "/v1/apps/hubspot/lifecyclestages"+q, nil, nil)
		f.RevokeAll()
		a.problem(http.StatusUnprocessableEntity, owner.Access, "GET", "/v1/apps/hubspot/lifecyclestages"+q, nil)
		var list struct{ Data []struct{ ID, Status string } }
		a.want(http.StatusOK, owner.Access, "GET", "/v1/apps/connected?organizationId="+org, nil, &list)
		for _, app := range list.Data {
			if app.ID == appID && app.Status != "disconnected" {
				t.Fatalf("revoked app: %+v", app)
			}
		}
	}, withHubSpot(f))
}

func TestHubSpotWebhooks(t *testing.T) {
	f := hubspottest.New(hubspottest.Options{})
	defer f.Close()
	ada := f.AddContact(map[string]string{"firstname": "Ada", "lastname": "Lovelace", "phone": "+14155550123", "lifecyclestage": "lead"})
	bob := f.AddContact(map[string]string{"firstname": "Bob", "lastname": "Lovelace", "phone": "+14155550124"})
	cy := f.AddContact(map[string]string{"firstname": "Cy", "lastname": "Lovelace", "phone": "+14155550125"})
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		owner := env.SignUp(t, "owner@example.com")
		org := env.Team(t, owner, "Acme")
		appID := connectHubSpot(t, env, f, owner, org)
		wf, nodeID := hubspotNode(t, env, owner, org, appID)
		nq := "?organizationId=" + org + "&connectedAppId=" + appID + "&workflowId=" + wf + "&nodeId=" + nodeID
		a.want(http.StatusOK, owner.Access, "GET", "/v1/apps/hubspot/contacts/search"+nq+"&match=lovelace", nil, nil)

		send := func(secret string, at time.Time, body string) *apitest.Response {
			ts := strconv.FormatInt(at.UnixMilli(), 10)
			sig := hubspot.Sign(secret, "POST", "http://betty.test/v1/webhooks/hubspot", []byte(body), ts)
			return env.Do(apitest.Request{Method: "POST", Path: "/v1/webhooks/hubspot", Body: []byte(body),
				Header: http.Header{"Content-Type": {"application/json"}, "X-HubSpot-Signature-v3": {sig}, "X-HubSpot-Request-Timestamp": {ts}}})
		}
		batch := fmt.Sprintf(`[{"eventId":1001,"subscriptionId":7,"portalId":24017381,"appId":1,"occurredAt":%d,"subscriptionType":"contact.propertyChange","attemptNumber":0,"objectId":%s,"propertyName":"lifecyclestage","propertyValue":"salesqualifiedlead","changeSource":"CRM"},
			{"eventId":1002,"portalId":24017381,"occurredAt":1,"subscriptionType":"contact.deletion","objectId":%s},
			{"eventId":1003,"portalId":24017381,"occurredAt":1,"subscriptionType":"company.creation","objectId":5},
			{"eventId":1004,"portalId":24017381,"occurredAt":1,"subscriptionType":"contact.privacyDeletion","objectId":%s}]`, time.Now().UnixMilli(), ada, bob, cy)
		secret := f.Opts.ClientSecret
		if res := send("wrong", time.Now(), batch); res.Status != http.StatusUnauthorized {
			t.Fatalf("wrong secret: %d %s", res.Status, res.Body)
		}
		if res := send(secret, time.Now().Add(-6*time.Minute), batch); res.Status != http.StatusUnauthorized {
			t.Fatalf("stale: %d %s", res.Status, res.Body)
		}
		if res := send(secret, time.Now(), `{"not":"an array"}`); res.Status != http.StatusBadRequest {
			t.Fatalf("malformed: %d %s", res.Status, res.Body)
		}
		if res := send(secret, time.Now(), batch); res.Status != http.StatusOK {
			t.Fatalf("valid: %d %s", res.Status, res.Body)
		}
		// Both deletions took the contacts out before any refresh from HubSpot.
		var left int
		q := `SELECT COUNT(*) FROM workflow_contacts WHERE external_id IN (?, ?)`
		if env.DB.Dialect() == store.Postgres {
			q = `SELECT COUNT(*) FROM workflow_contacts WHERE external_id IN ($1, $2)`
		}
		if err := env.DB.Writer().QueryRowContext(context.Background(), q, bob, cy).Scan(&left); err != nil || left != 0 {
			t.Fatalf("deleted contacts left: %d %v", left, err)
		}
		var found hubspotContacts
		read := func() {
			t.Helper()
			a.want(http.StatusOK, owner.Access, "GET", "/v1/apps/hubspot/contacts"+nq, nil, &found)
		}
		// (Listing refreshes from HubSpot too: keep HubSpot in step with the events.)
		f.SetProperty(ada, "lifecyclestage", "salesqualifiedlead")
		f.DeleteContact(bob)
		f.DeleteContact(cy)
		read()
		if len(found.Data) != 1 || found.Data[0].ID != ada || *found.Data[0].LifecycleStage != "sales lead" {
			t.Fatalf("after the batch: %+v", found.Data)
		}
		// A replay (same event ids) changes nothing, even if the value differs.
		env.Exec(t, `UPDATE workflow_contacts SET lifecycle_stage = 'lead' WHERE external_id = ?`, ada)
		replay := strings.Replace(batch, "salesqualifiedlead", "customer", 1)
		if res := send(secret, time.Now(), replay); res.Status != http.StatusOK {
			t.Fatalf("replay: %d %s", res.Status, res.Body)
		}
		f.SetProperty(ada, "lifecyclestage", "lead")
		read()
		if *found.Data[0].LifecycleStage != "lead" {
			t.Fatalf("a replayed event was applied: %+v", found.Data[0])
		}
		// An uninstall disconnects the portal's apps.
		if res := send(secret, time.Now(), `[{"eventId":2001,"portalId":24017381,"occurredAt":1,"subscriptionType":"app.uninstall","objectId":0}]`); res.Status != http.StatusOK {
			t.Fatalf("uninstall: %d %s", res.Status, res.Body)
		}
		a.problem(http.StatusUnprocessableEntity, owner.Access, "GET", "/v1/apps/hubspot/contacts"+nq, nil)
	}, withHubSpot(f))
}

// A Contacts node calling a HubSpot list: the list is checked, read in the background (a run
// waits for it), its members listed with the source, and the search does not pick for it.
func TestHubSpotListSource(t *testing.T) {
	f := hubspottest.New(hubspottest.Options{})
	defer f.Close()
	ada := f.AddContact(map[string]string{"firstname": "Ada", "lastname": "List", "phone": "+14155550141"})
	bob := f.AddContact(map[string]string{"firstname": "Bob", "lastname": "List", "phone": "+14155550142"})
	f.AddContact(map[string]string{"firstname": "Cy", "lastname": "Elsewhere", "phone": "+14155550143"})
	list := f.AddList("Renewals", ada, bob)
	companies := f.AddListOf("Accounts", "0-2", "9001")
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		owner := env.SignUp(t, "owner@example.com")
		org := env.Team(t, owner, "Acme")
		appID := connectHubSpot(t, env, f, owner, org)
		wf, nodeID := hubspotNode(t, env, owner, org, appID)
		set := func(listID string) map[string]any {
			return map[string]any{"organizationId": org, "workflowId": wf, "nodeId": nodeID, "source": "hubspot", "connectedAppId": appID, "listId": listID}
		}
		for _, bad := range []string{"renewals", "424242", companies} {
			if p := a.problem(http.StatusBadRequest, owner.Access, "POST", "/v1/workflow/contacts", set(bad)); len(p.Errors) != 1 || p.Errors[0].Field != "body.listId" {
				t.Errorf("list %q: %+v", bad, p)
			}
		}
		f.FailNext("/crm/v3/lists", http.StatusForbidden, 1)
		if p := a.problem(http.StatusUnprocessableEntity, owner.Access, "POST", "/v1/workflow/contacts", set(list)); !strings.Contains(p.Detail, "reconnect") {
			t.Errorf("without list access: %+v", p)
		}

		var src struct {
			Data struct{ Status, ListID string }
		}
		a.want(http.StatusOK, owner.Access, "POST", "/v1/workflow/contacts", set(list), &src)
		if src.Data.Status != "parsing" {
			t.Fatalf("set: %+v", src.Data)
		}
		nq := "?organizationId=" + org + "&connectedAppId=" + appID + "&workflowId=" + wf + "&nodeId=" + nodeID
		var found struct {
			hubspotContacts
			Source struct{ Status, ListId string }
		}
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			a.want(http.StatusOK, owner.Access, "GET", "/v1/apps/hubspot/contacts"+nq, nil, &found)
			if found.Source.Status != "parsing" || time.Now().After(deadline) {
				break
			}
		}
		if found.Source.Status != "success" || found.Source.ListId != list ||
			len(found.Data) != 2 || found.Data[0].ID != ada || found.Data[1].ID != bob {
			t.Fatalf("the list's members: %+v", found)
		}
		if p := a.problem(http.StatusUnprocessableEntity, owner.Access, "GET", "/v1/apps/hubspot/contacts/search"+nq+"&match=elsewhere", nil); !strings.Contains(p.Detail, "list") {
			t.Errorf("search on a list node: %+v", p)
		}
		// Without a node there is no source in the answer.
		var plain map[string]any
		a.want(http.StatusOK, owner.Access, "GET", "/v1/apps/hubspot/contacts?organizationId="+org+"&connectedAppId="+appID, nil, &plain)
		if _, ok := plain["source"]; ok {
			t.Errorf("a portal's contacts carry a source: %v", plain["source"])
		}
	}, withHubSpot(f))
}

// A run over a node's HubSpot contacts calls them like CSV ones (the simulator's calls), and
// the lifecycle-stage node writes the stage back to HubSpot after an answered call.
func TestHubSpotContactsAreCalled(t *testing.T) {
	f := hubspottest.New(hubspottest.Options{})
	defer f.Close()
	// Numbers whose local time is within the default calling window now (the workflow is in no
	// campaign), so the run ends whatever the hour the test runs.
	var ids, numbers []string
	for i := range 5 {
		numbers = append(numbers, awakeNumber(t, fmt.Sprintf("%04d", 300+i)))
		ids = append(ids, f.AddContact(map[string]string{"firstname": "Callee", "lastname": fmt.Sprint(i), "phone": numbers[i],
			"lifecyclestage": "lead"}))
	}
	f.AddContact(map[string]string{"firstname": "Callee", "lastname": "Unusable", "phone": "12"})
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		owner := env.SignUp(t, "owner@example.com")
		org := env.Team(t, owner, "Acme")
		appID := connectHubSpot(t, env, f, owner, org)
		env.Exec(t, `UPDATE organizations SET credits_balance = 100 WHERE id = ?`, org)
		ag := createAgent(t, a, owner, org, map[string]any{})
		phone := env.PhoneNumber(t, org, fmt.Sprintf("+1415777%04d", time.Now().UnixNano()%10000))
		var w struct{ Data workflowJSON }
		a.want(http.StatusCreated, owner.Access, "POST", "/v1/workflow/create",
			map[string]any{"organizationId": org, "name": "HubSpot calls", "agentId": ag.ID, "workflowType": "outbound"}, &w)
		wf := w.Data.ID
		a.want(http.StatusOK, owner.Access, "POST", "/v1/workflow/config/phone", map[string]any{"workflowId": wf, "phoneNumberId": phone}, nil)
		s := fmt.Sprint(time.Now().UnixNano())
		nodeID := "contacts-" + s
		a.want(http.StatusOK, owner.Access, "POST", "/v1/workflow/save", map[string]any{"workflowId": wf,
			"nodes": []any{node(nodeID, "contacts", nil), node("start-"+s, "start", nil),
				node("hello-"+s, "agent", map[string]any{"instruction": "Greet {{firstName}}."}),
				node("stage-"+s, "hubspot-lifecycle-stage", map[string]any{"lifeCycleStage": "customer"}), node("end-"+s, "end-call", nil)},
			"edges": []any{edge("e1-"+s, "start-"+s, "hello-"+s), edge("e2-"+s, "hello-"+s, "stage-"+s), edge("e3-"+s, "stage-"+s, "end-"+s)}}, nil)
		a.want(http.StatusOK, owner.Access, "POST", "/v1/workflow/contacts", map[string]any{"organizationId": org, "workflowId": wf,
			"nodeId": nodeID, "source": "hubspot", "connectedAppId": appID}, nil)
		for _, id := range ids {
			f.SetProperty(id, "lifecyclestage", "lead")
		}
		a.want(http.StatusOK, owner.Access, "GET", "/v1/apps/hubspot/contacts/search?organizationId="+org+"&connectedAppId="+appID+
			"&workflowId="+wf+"&nodeId="+nodeID+"&match=callee", nil, nil)

		var started struct{ Data jobJSON }
		a.want(http.StatusCreated, owner.Access, "POST", "/v1/workflow/run/"+wf, map[string]any{"organizationId": org}, &started)
		if started.Data.Progress.Total != 5 { // the unusable number is not called
			t.Fatalf("started: %+v", started.Data.Progress)
		}
		deadline := time.Now().Add(90 * time.Second)
		var st struct{ Data []jobJSON }
		for {
			a.want(http.StatusOK, owner.Access, "GET", "/v2/jobs/status?ids="+started.Data.ID, nil, &st)
			if st.Data[0].Status != "in-progress" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the run did not finish: %+v", st.Data[0])
			}
			time.Sleep(100 * time.Millisecond)
		}
		var logs struct {
			Data []struct{ ID, Status, To string }
		}
		a.want(http.StatusOK, owner.Access, "GET", "/v1/call/logs?organizationId="+org+"&sizePerPage=100", nil, &logs)
		called, completed := map[string]bool{}, []string{}
		for _, l := range logs.Data {
			called[l.To] = true
			if l.Status == "completed" || l.Status == "voicemail" { // answered, by a person or a machine
				completed = append(completed, l.ID)
			}
		}
		for _, n := range numbers {
			if !called[n] {
				t.Fatalf("%s was not called: %+v", n, logs.Data)
			}
		}
		if len(logs.Data) != 5 {
			t.Fatalf("the unusable number was dialled, or a number twice: %+v", logs.Data)
		}
		if len(completed) == 0 {
			t.Skip("no simulated call was answered (70% each): nothing to write back")
		}
		// Each answered call wrote its contact's stage back (a River job), visible on its log.
		deadline = time.Now().Add(30 * time.Second)
		for _, id := range completed {
			for {
				var one struct {
					Data struct {
						CrmUpdates []struct{ Stage, Status string } `json:"crmUpdates"`
					}
				}
				a.want(http.StatusOK, owner.Access, "GET", "/v1/call/log/"+id+"?organizationId="+org, nil, &one)
				if u := one.Data.CrmUpdates; len(u) == 1 && u[0].Status == "done" && u[0].Stage == "customer" {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("call %s: %+v", id, one.Data)
				}
				time.Sleep(100 * time.Millisecond)
			}
		}
		done := 0
		for _, id := range ids {
			if f.Contact(id)["lifecyclestage"] == "customer" {
				done++
			}
		}
		if done != len(completed) {
			t.Fatalf("%d contacts are customers in HubSpot, %d calls were answered", done, len(completed))
		}
	}, withHubSpot(f))
}
