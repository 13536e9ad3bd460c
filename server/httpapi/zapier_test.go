package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/integrations/zapier/zapiertest"
	"github.com/bettyhq/betty/server/internal/apitest"
)

func init() {
	resourceFixtures["disconnectZapierApp"] = zapierAppFixture
}

// zapierEnv is a server pointed at a fake Zapier, posting hooks to a fake receiver.
type zapierEnv struct {
	fake *zapiertest.Server
	rcv  *zapiertest.Receiver
}

func newZapierEnv(t *testing.T) (zapierEnv, apitest.Option) {
	z := zapierEnv{fake: zapiertest.New(), rcv: zapiertest.NewReceiver()}
	t.Cleanup(z.fake.Close)
	t.Cleanup(z.rcv.Close)
	return z, apitest.WithConfig(func(c *config.Config) {
		c.ZapierAPIURL, c.ZapierTokenURL = z.fake.URL, z.fake.TokenURL()
		c.ZapierClientID, c.ZapierClientSecret = zapiertest.ClientID, zapiertest.ClientSecret
		c.ZapierHookTesting = &config.ZapierHookTesting{HTTP: z.rcv.Client(500 * time.Millisecond), Allow: z.rcv.Allow(),
			RetryDelays: []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 300 * time.Millisecond}}
	})
}

// zapierAppFixture connects Zapier for team A (its connected app is the resource).
func zapierAppFixture(t *testing.T, env *apitest.Env, owner apitest.Caller, org string) map[string]string {
	t.Helper()
	var app struct{ Data struct{ ID string } }
	res := newTeamAPI(t, env).do(owner.Access, "POST", "/v1/auth/zapier/callback", map[string]any{"code": zapiertest.GoodCode, "organizationId": org})
	if res.Status != http.StatusOK {
		// A server without the fake Zapier (the isolation and fuzz tests): a row stands in.
		id := fmt.Sprintf("zapier-app-%d", time.Now().UnixNano())
		env.Exec(t, `INSERT INTO connected_apps (id, organization_id, integration, status, name, created_at, updated_at)
			VALUES (?, ?, 'zapier', 'disconnected', 'Zapier', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`, id, org)
		return map[string]string{"id": id}
	}
	res.JSON(t, &app)
	return map[string]string{"id": app.Data.ID}
}

type hookJSON struct {
	ID, OrganizationID, Event, HookURL string
	LastDelivery                       *struct {
		Status     string
		Attempts   int
		HTTPStatus *int `json:"httpStatus"`
		Error      *string
	}
}

func TestZapierConnectionAPI(t *testing.T) {
	z, opt := newZapierEnv(t)
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		key := env.APIKey(t, org, "developer")
		bob := env.SignUp(t, "bob@example.com")
		other := env.Team(t, bob, "Other")

		var tpl struct {
			Data []struct {
				ID, Title, URL string
				Steps          []struct {
					Title    string
					ImageURL *string `json:"imageUrl"`
				}
			}
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/apps/zapier/templates?organizationId="+org, nil, &tpl)
		if len(tpl.Data) != 2 || tpl.Data[0].ID != "1001" || len(tpl.Data[0].Steps) != 2 {
			t.Fatalf("templates: %+v", tpl.Data)
		}
		a.want(http.StatusOK, key, "GET", "/v1/apps/zapier/templates?organizationId="+org, nil, nil)
		a.problem(http.StatusNotFound, bob.Access, "GET", "/v1/apps/zapier/templates?organizationId="+org, nil)

		// Zaps need the connection.
		p := a.problem(http.StatusUnprocessableEntity, ada.Access, "GET", "/v1/apps/zapier/zaps?organizationId="+org, nil)
		if !strings.Contains(p.Detail, "connect Zapier") {
			t.Fatalf("zaps before connecting: %+v", p)
		}
		// The callback: a person of the team, with a code Zapier accepts.
		a.problem(http.StatusForbidden, key, "POST", "/v1/auth/zapier/callback", map[string]any{"code": zapiertest.GoodCode, "organizationId": org})
		a.problem(http.StatusBadRequest, ada.Access, "POST", "/v1/auth/zapier/callback", map[string]any{"code": zapiertest.GoodCode, "teamId": org})
		a.problem(http.StatusUnprocessableEntity, ada.Access, "POST", "/v1/auth/zapier/callback", map[string]any{"code": "stale", "organizationId": org})
		a.problem(http.StatusNotFound, bob.Access, "POST", "/v1/auth/zapier/callback", map[string]any{"code": zapiertest.GoodCode, "organizationId": org})
		type appJSON struct {
			ID, Status, Name, IntegrationID string
			AccountID                       *string
		}
		var app struct{ Data appJSON }
		a.want(http.StatusOK, ada.Access, "POST", "/v1/auth/zapier/callback", map[string]any{"code": zapiertest.GoodCode, "organizationId": org}, &app)
		if app.Data.Status != "connected" || app.Data.IntegrationID != "zapier" || app.Data.AccountID == nil || *app.Data.AccountID != zapiertest.AccountID ||
			!strings.Contains(app.Data.Name, zapiertest.AccountEmail) {
			t.Fatalf("connected: %+v", app.Data)
		}
		var again struct{ Data appJSON }
		a.want(http.StatusOK, ada.Access, "POST", "/v1/auth/zapier/callback", map[string]any{"code": zapiertest.GoodCode, "organizationId": org}, &again)
		if again.Data.ID != app.Data.ID {
			t.Fatalf("connecting again made another record: %+v %+v", again.Data, app.Data)
		}

		z.fake.Set(func(s *zapiertest.Server) {
			s.Zaps = nil
			for i := range 6 {
				s.Zaps = append(s.Zaps, zapiertest.Zap{ID: fmt.Sprintf("zap-%d", i), Title: fmt.Sprintf("Zap %d", i), Enabled: i%2 == 0,
					UpdatedAt: time.Date(2026, 1, 1, i, 0, 0, 0, time.UTC), Apps: []string{"Betty", "Slack"}})
			}
		})
		var zaps struct {
			Data []struct{ ID, State, URL string }
			Meta struct {
				Page, TotalSize, TotalPages int
				HasNext                     bool
			}
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/apps/zapier/zaps?organizationId="+org, nil, &zaps)
		if len(zaps.Data) != 4 || zaps.Meta.TotalSize != 6 || !zaps.Meta.HasNext || zaps.Data[0].State != "on" || zaps.Data[1].State != "off" {
			t.Fatalf("zaps: %+v", zaps)
		}
		a.want(http.StatusOK, key, "GET", "/v1/apps/zapier/zaps?organizationId="+org+"&page=9", nil, &zaps)
		if len(zaps.Data) != 2 || zaps.Meta.Page != 2 || zaps.Data[0].ID != "zap-4" {
			t.Fatalf("zaps clamped to the last page: %+v", zaps)
		}
		z.fake.Set(func(s *zapiertest.Server) { s.FailAPI = http.StatusBadGateway })
		for _, path := range []string{"/v1/apps/zapier/zaps?organizationId=" + org, "/v1/apps/zapier/templates?organizationId=" + org} {
			if res := a.do(ada.Access, "GET", path, nil); res.Status != http.StatusServiceUnavailable {
				t.Fatalf("%s while Zapier fails: %d %s", path, res.Status, res.Body)
			}
		}
		z.fake.Set(func(s *zapiertest.Server) { s.FailAPI = 0 })

		// Disconnecting: another team's id is 404, a readonly member is 403; then revoked.
		a.problem(http.StatusNotFound, bob.Access, "POST", "/v1/apps/zapier/disconnect", map[string]any{"organizationId": other, "id": app.Data.ID})
		ro := env.APIKey(t, org, "readonly")
		a.problem(http.StatusForbidden, ro, "POST", "/v1/apps/zapier/disconnect", map[string]any{"organizationId": org, "id": app.Data.ID})
		revoked := len(z.fake.Revoked)
		var off struct{ Data appJSON }
		a.want(http.StatusOK, ada.Access, "POST", "/v1/apps/zapier/disconnect", map[string]any{"organizationId": org, "id": app.Data.ID}, &off)
		if off.Data.Status != "disconnected" || len(z.fake.Revoked) != revoked+1 {
			t.Fatalf("disconnected: %+v, revoked %d → %d", off.Data, revoked, len(z.fake.Revoked))
		}
		a.problem(http.StatusUnprocessableEntity, ada.Access, "GET", "/v1/apps/zapier/zaps?organizationId="+org, nil)
	}, opt)
}

// Without Zapier's OAuth client the partner-API operations answer 503 naming the settings;
// the REST hooks still work.
// Connecting starts at connectZapierApp: Zapier's authorise page with a signed state, which
// the callback checks (once, for its own team).
func TestZapierConnectStartAPI(t *testing.T) {
	_, opt := newZapierEnv(t)
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		bob := env.SignUp(t, "bob@example.com")
		other := env.Team(t, bob, "Other")
		key := env.APIKey(t, org, "developer")
		a.problem(http.StatusForbidden, key, "POST", "/v1/apps/connect/zapier", map[string]any{"organizationId": org})
		a.problem(http.StatusNotFound, bob.Access, "POST", "/v1/apps/connect/zapier", map[string]any{"organizationId": org})
		member := env.SignUp(t, "member@example.com")
		a.join(ada, org, member, "member")
		a.problem(http.StatusForbidden, member.Access, "POST", "/v1/apps/connect/zapier", map[string]any{"organizationId": org})

		start := func(by apitest.Caller, team string) string {
			var out struct {
				Data struct {
					AuthorizationURL string `json:"authorizationUrl"`
					ExpiresAt        time.Time
				}
			}
			a.want(http.StatusOK, by.Access, "POST", "/v1/apps/connect/zapier", map[string]any{"organizationId": team}, &out)
			u, err := url.Parse(out.Data.AuthorizationURL)
			if err != nil || u.Path != "/v2/authorize" || u.Query().Get("client_id") != zapiertest.ClientID ||
				u.Query().Get("response_type") != "code" || u.Query().Get("redirect_uri") != "http://betty.test/apps/zapier/callback" ||
				u.Query().Get("state") == "" || time.Until(out.Data.ExpiresAt) > 10*time.Minute {
				t.Fatalf("authorisation: %+v", out.Data)
			}
			return u.Query().Get("state")
		}
		state := start(ada, org)
		// Another team's state, and a forged one, do not complete this team's connection.
		p := a.problem(http.StatusUnprocessableEntity, ada.Access, "POST", "/v1/auth/zapier/callback",
			map[string]any{"code": zapiertest.GoodCode, "organizationId": org, "state": start(bob, other)})
		if p.Errors[0].Field != "body.state" {
			t.Fatalf("another team's state: %+v", p)
		}
		a.problem(http.StatusUnprocessableEntity, ada.Access, "POST", "/v1/auth/zapier/callback",
			map[string]any{"code": zapiertest.GoodCode, "organizationId": org, "state": state + "x"})
		// Only the user the state was issued to may use it up: another team's member, and
		// another developer of the same team, are refused and leave it working for Ada.
		carol := env.SignUp(t, "carol@example.com")
		a.join(ada, org, carol, "developer")
		for who, body := range map[apitest.Caller]map[string]any{
			bob:   {"code": zapiertest.GoodCode, "organizationId": other, "state": state},
			carol: {"code": zapiertest.GoodCode, "organizationId": org, "state": state},
		} {
			if p := a.problem(http.StatusUnprocessableEntity, who.Access, "POST", "/v1/auth/zapier/callback", body); p.Errors[0].Field != "body.state" {
				t.Fatalf("someone else's state: %+v", p)
			}
		}
		var app struct{ Data struct{ Status string } }
		a.want(http.StatusOK, ada.Access, "POST", "/v1/auth/zapier/callback",
			map[string]any{"code": zapiertest.GoodCode, "organizationId": org, "state": state}, &app)
		if app.Data.Status != "connected" {
			t.Fatalf("connected: %+v", app.Data)
		}
		// A state works once.
		a.problem(http.StatusUnprocessableEntity, ada.Access, "POST", "/v1/auth/zapier/callback",
			map[string]any{"code": zapiertest.GoodCode, "organizationId": org, "state": state})
	}, opt)
}

func TestZapierNotConfiguredAPI(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		for _, r := range []struct{ method, path string }{{"GET", "/v1/apps/zapier/templates?organizationId=" + org},
			{"GET", "/v1/apps/zapier/zaps?organizationId=" + org}, {"POST", "/v1/auth/zapier/callback"}, {"POST", "/v1/apps/connect/zapier"}} {
			res := a.do(ada.Access, r.method, r.path, map[string]any{"code": "c", "organizationId": org})
			if strings.HasSuffix(r.path, "/connect/zapier") {
				res = a.do(ada.Access, r.method, r.path, map[string]any{"organizationId": org})
			}
			if r.method == "GET" {
				res = a.do(ada.Access, r.method, r.path, nil)
			}
			if res.Status != http.StatusServiceUnavailable || !strings.Contains(string(res.Body), "--zapier-client-id") {
				t.Fatalf("%s %s without Zapier: %d %s", r.method, r.path, res.Status, res.Body)
			}
		}
		var hooks struct{ Data []hookJSON }
		a.want(http.StatusOK, ada.Access, "GET", "/v1/apps/zapier/hooks?organizationId="+org, nil, &hooks)
	})
}

func TestZapierHooksAPI(t *testing.T) {
	z, opt := newZapierEnv(t)
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		key := env.APIKey(t, org, "developer")
		member := env.APIKey(t, org, "member")
		bob := env.SignUp(t, "bob@example.com")
		other := env.Team(t, bob, "Other")
		otherKey := env.APIKey(t, other, "developer")
		url := z.rcv.Hook("/hooks/" + org + "/calls")

		// Subscribing is for API keys of developers and above.
		a.problem(http.StatusForbidden, ada.Access, "POST", "/v1/apps/zapier/hooks", map[string]any{"hookUrl": url, "event": "call.completed"})
		a.problem(http.StatusForbidden, member, "POST", "/v1/apps/zapier/hooks", map[string]any{"hookUrl": url, "event": "call.completed"})
		var h struct{ Data hookJSON }
		a.want(http.StatusCreated, key, "POST", "/v1/apps/zapier/hooks", map[string]any{"hookUrl": url, "event": "call.completed"}, &h)
		if h.Data.OrganizationID != org || h.Data.Event != "call.completed" || h.Data.HookURL != url {
			t.Fatalf("subscribed: %+v", h.Data)
		}
		var same struct{ Data hookJSON }
		a.want(http.StatusCreated, key, "POST", "/v1/apps/zapier/hooks", map[string]any{"hookUrl": url, "event": "call.completed"}, &same)
		if same.Data.ID != h.Data.ID {
			t.Fatalf("the same URL and event again: %+v vs %+v", same.Data, h.Data)
		}
		// https only; never a private, loopback or link-local address.
		a.problem(http.StatusBadRequest, key, "POST", "/v1/apps/zapier/hooks", map[string]any{"hookUrl": "http://hooks.zapier.com/x", "event": "call.completed"})
		a.problem(http.StatusBadRequest, key, "POST", "/v1/apps/zapier/hooks", map[string]any{"hookUrl": url, "event": "call.started"})
		for _, bad := range []string{"https://10.0.0.7/hook", "https://169.254.169.254/latest/meta-data", "https://[::1]:8443/x",
			"https://192.168.1.20/x", "https://[fd00::1]/x"} {
			p := a.problem(http.StatusUnprocessableEntity, key, "POST", "/v1/apps/zapier/hooks", map[string]any{"hookUrl": bad, "event": "job.finished"})
			if len(p.Errors) == 0 || p.Errors[0].Field != "body.hookUrl" {
				t.Fatalf("SSRF %s: %+v", bad, p)
			}
		}

		// Listing: the team's members by session, its keys; not another team.
		var list struct{ Data []hookJSON }
		a.want(http.StatusOK, ada.Access, "GET", "/v1/apps/zapier/hooks?organizationId="+org, nil, &list)
		if len(list.Data) != 1 || list.Data[0].ID != h.Data.ID {
			t.Fatalf("hooks: %+v", list.Data)
		}
		a.want(http.StatusOK, member, "GET", "/v1/apps/zapier/hooks?organizationId="+org, nil, &list)
		a.problem(http.StatusNotFound, bob.Access, "GET", "/v1/apps/zapier/hooks?organizationId="+org, nil)
		a.problem(http.StatusNotFound, otherKey, "GET", "/v1/apps/zapier/hooks?organizationId="+org, nil)

		// Samples: one made-up example per event until the team has real ones.
		for _, ev := range []string{"call.completed", "job.finished", "inbox.item.created", "contact.added"} {
			var s struct{ Data []map[string]any }
			a.want(http.StatusOK, key, "GET", "/v1/apps/zapier/hooks/sample?event="+ev, nil, &s)
			if len(s.Data) != 1 || s.Data[0]["id"] == nil {
				t.Fatalf("sample of %s: %+v", ev, s.Data)
			}
		}
		a.problem(http.StatusForbidden, ada.Access, "GET", "/v1/apps/zapier/hooks/sample?event=job.finished", nil)

		// Unsubscribing: another team's key finds nothing; then gone, then 404.
		a.problem(http.StatusNotFound, otherKey, "DELETE", "/v1/apps/zapier/hooks/"+h.Data.ID, nil)
		a.problem(http.StatusForbidden, ada.Access, "DELETE", "/v1/apps/zapier/hooks/"+h.Data.ID, nil)
		a.want(http.StatusOK, key, "DELETE", "/v1/apps/zapier/hooks/"+h.Data.ID, nil, nil)
		a.problem(http.StatusNotFound, key, "DELETE", "/v1/apps/zapier/hooks/"+h.Data.ID, nil)

		// At most 50 per team.
		for i := range 50 {
			a.want(http.StatusCreated, key, "POST", "/v1/apps/zapier/hooks", map[string]any{"hookUrl": fmt.Sprintf("%s/%d", url, i), "event": "job.finished"}, nil)
		}
		p := a.problem(http.StatusUnprocessableEntity, key, "POST", "/v1/apps/zapier/hooks", map[string]any{"hookUrl": url + "/51", "event": "job.finished"})
		if p.Code != "limit_reached" {
			t.Fatalf("the 51st hook: %+v", p)
		}
		a.want(http.StatusCreated, key, "POST", "/v1/apps/zapier/hooks", map[string]any{"hookUrl": url + "/7", "event": "job.finished"}, nil) // an existing one still answers
		a.want(http.StatusCreated, otherKey, "POST", "/v1/apps/zapier/hooks", map[string]any{"hookUrl": url + "/51", "event": "job.finished"}, nil)
	}, opt)
}

// zapierWorkflow makes, in org, an outbound workflow ready to run whose Contacts node's
// source is zapier; it answers the workflow and node ids.
func zapierWorkflow(t *testing.T, env *apitest.Env, owner apitest.Caller, org string) (wf, nodeID string) {
	t.Helper()
	a := newTeamAPI(t, env)
	env.Exec(t, `UPDATE organizations SET credits_balance = 100 WHERE id = ?`, org)
	ag := createAgent(t, a, owner, org, map[string]any{})
	phone := env.PhoneNumber(t, org, fmt.Sprintf("+1415777%04d", time.Now().UnixNano()%10000))
	var w struct{ Data workflowJSON }
	a.want(http.StatusCreated, owner.Access, "POST", "/v1/workflow/create",
		map[string]any{"organizationId": org, "name": "Zapier calls", "agentId": ag.ID, "workflowType": "outbound"}, &w)
	a.want(http.StatusOK, owner.Access, "POST", "/v1/workflow/config/phone", map[string]any{"workflowId": w.Data.ID, "phoneNumberId": phone}, nil)
	s := fmt.Sprint(time.Now().UnixNano())
	nodeID = "contacts-" + s
	a.want(http.StatusOK, owner.Access, "POST", "/v1/workflow/save", map[string]any{"workflowId": w.Data.ID,
		"nodes": []any{node(nodeID, "contacts", nil), node("start-"+s, "start", nil),
			node("hello-"+s, "agent", map[string]any{"instruction": "Greet {{firstName}}."}), node("end-"+s, "end-call", nil)},
		"edges": []any{edge("e1-"+s, "start-"+s, "hello-"+s), edge("e2-"+s, "hello-"+s, "end-"+s)}}, nil)
	a.want(http.StatusOK, owner.Access, "POST", "/v1/workflow/contacts", map[string]any{"organizationId": org, "workflowId": w.Data.ID,
		"nodeId": nodeID, "source": "zapier"}, nil)
	return w.Data.ID, nodeID
}

func TestZapierContactsAPI(t *testing.T) {
	_, opt := newZapierEnv(t)
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		key := env.APIKey(t, org, "member")
		bob := env.SignUp(t, "bob@example.com")
		other := env.Team(t, bob, "Other")
		otherKey := env.APIKey(t, other, "developer")
		wf, nodeID := zapierWorkflow(t, env, ada, org)

		push := func(token string, contacts ...map[string]any) *apitest.Response {
			return a.do(token, "POST", "/v1/apps/zapier/contacts", map[string]any{"workflowId": wf, "nodeId": nodeID, "contacts": contacts})
		}
		if res := push(ada.Access, map[string]any{"phone": "+14155550123"}); res.Status != http.StatusForbidden {
			t.Fatalf("a user token: %d %s", res.Status, res.Body)
		}
		if res := push(otherKey, map[string]any{"phone": "+14155550123"}); res.Status != http.StatusNotFound {
			t.Fatalf("another team's key: %d %s", res.Status, res.Body)
		}
		res := push(key, map[string]any{"phone": "(415) 555-0123", "firstName": "Ada", "plan": "gold", "seats": 3, "vip": true},
			map[string]any{"phone": "not a number", "firstName": "Nobody"},
			map[string]any{"phone": "+442079460000", "lifecycleStage": "lead"})
		if res.Status != http.StatusCreated {
			t.Fatalf("push: %d %s", res.Status, res.Body)
		}
		var out struct {
			Data struct {
				Added, Updated int
				Contacts       []map[string]any
			}
		}
		res.JSON(t, &out)
		c := out.Data.Contacts
		if out.Data.Added != 3 || out.Data.Updated != 0 || len(c) != 3 || c[0]["phone"] != "+14155550123" || c[0]["plan"] != "gold" ||
			c[0]["seats"] != "3" || c[0]["vip"] != "true" || c[1]["betty_metadata"].(map[string]any)["status"] != "failed" ||
			c[2]["lifecycleStage"] != "lead" {
			t.Fatalf("pushed: %s", res.Body)
		}
		// The same number again updates the contact; a new field joins the old ones.
		res = push(key, map[string]any{"phone": "+1 415 555 0123", "lastName": "Lovelace", "plan": "platinum"})
		res.JSON(t, &out)
		c = out.Data.Contacts
		if res.Status != http.StatusCreated || out.Data.Added != 0 || out.Data.Updated != 1 || c[0]["firstName"] != "Ada" ||
			c[0]["lastName"] != "Lovelace" || c[0]["plan"] != "platinum" || c[0]["seats"] != "3" {
			t.Fatalf("pushed again: %d %s", res.Status, res.Body)
		}
		var listed struct{ Meta struct{ TotalSize int } }
		a.want(http.StatusOK, ada.Access, "GET", fmt.Sprintf("/v1/workflow/contacts/data?workflowId=%s&nodeId=%s", wf, nodeID), nil, &listed)
		if listed.Meta.TotalSize != 3 {
			t.Fatalf("the node has %d contacts", listed.Meta.TotalSize)
		}
		// Too many, bad extra fields, a node whose source is not zapier.
		many := make([]map[string]any, 101)
		for i := range many {
			many[i] = map[string]any{"phone": "+14155550123"}
		}
		if res := push(key, many...); res.Status != http.StatusBadRequest {
			t.Fatalf("101 contacts: %d", res.Status)
		}
		if res := push(key, map[string]any{"phone": "+14155550123", "nested": map[string]any{"a": 1}}); res.Status != http.StatusBadRequest {
			t.Fatalf("a nested extra field: %d %s", res.Status, res.Body)
		}
		if res := a.do(key, "POST", "/v1/apps/zapier/contacts", map[string]any{"workflowId": wf, "nodeId": "nope",
			"contacts": []any{map[string]any{"phone": "+14155550123"}}}); res.Status != http.StatusNotFound {
			t.Fatalf("an unknown node: %d %s", res.Status, res.Body)
		}
		env.Exec(t, `UPDATE workflow_contact_sources SET source = 'csv' WHERE node_id = ?`, nodeID)
		if res := push(key, map[string]any{"phone": "+14155550123"}); res.Status != http.StatusUnprocessableEntity || !strings.Contains(string(res.Body), "not zapier") {
			t.Fatalf("a CSV node: %d %s", res.Status, res.Body)
		}
	}, opt)
}

// deliveredEvents answers the events of the JSON bodies the receiver accepted at path.
func waitDelivered(t *testing.T, rcv *zapiertest.Receiver, path string, n int) [][]byte {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		got := rcv.Delivered(path)
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d deliveries of %d (attempts %d)", path, len(got), n, rcv.Attempts(path))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestZapierDeliveriesAPI(t *testing.T) {
	z, opt := newZapierEnv(t)
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		key := env.APIKey(t, org, "developer")
		wf, nodeID := zapierWorkflow(t, env, ada, org)
		base := "/hooks/" + org
		sub := func(path, ev string) string {
			var h struct{ Data hookJSON }
			a.want(http.StatusCreated, key, "POST", "/v1/apps/zapier/hooks", map[string]any{"hookUrl": z.rcv.Hook(base + path), "event": ev}, &h)
			return h.Data.ID
		}
		sub("/calls", "call.completed")
		sub("/jobs", "job.finished")
		sub("/inbox", "inbox.item.created")
		sub("/contacts", "contact.added")
		z.rcv.Behave(base+"/flaky", zapiertest.Behaviour{Fail: 2})
		sub("/flaky", "contact.added")
		z.rcv.Behave(base+"/gone", zapiertest.Behaviour{Status: http.StatusGone})
		gone := sub("/gone", "contact.added")
		z.rcv.Behave(base+"/slow", zapiertest.Behaviour{Delay: 2 * time.Second})
		sub("/slow", "contact.added")
		z.rcv.Behave(base+"/down", zapiertest.Behaviour{Status: http.StatusInternalServerError})
		down := sub("/down", "job.finished")

		push := func(phones ...string) {
			cs := []map[string]any{}
			for _, p := range phones {
				cs = append(cs, map[string]any{"phone": p, "firstName": "Ann"})
			}
			a.want(http.StatusCreated, key, "POST", "/v1/apps/zapier/contacts", map[string]any{"workflowId": wf, "nodeId": nodeID, "contacts": cs}, nil)
		}
		// Numbers within the default calling window now (the workflow is in no campaign), so the
		// run ends whatever the hour the test runs.
		n1, n2, n3, n4 := awakeNumber(t, "0101"), awakeNumber(t, "0102"), awakeNumber(t, "0103"), awakeNumber(t, "0104")
		push(n1)
		var started struct{ Data jobJSON }
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/workflow/run/"+wf, map[string]any{"organizationId": org}, &started)
		push(n2, n3) // they join the run in progress
		push(n1)     // known: no contact.added

		contacts := waitDelivered(t, z.rcv, base+"/contacts", 3)
		phones := map[any]bool{}
		for _, b := range contacts { // deliveries run concurrently: any order
			var c map[string]any
			_ = json.Unmarshal(b, &c)
			if c["workflowId"] != wf || c["nodeId"] != nodeID || c["firstName"] != "Ann" {
				t.Fatalf("contact.added payload: %s", b)
			}
			phones[c["phone"]] = true
		}
		if len(phones) != 3 || !phones[n1] || !phones[n3] {
			t.Fatalf("contact.added deliveries: %v", phones)
		}
		jobs := waitDelivered(t, z.rcv, base+"/jobs", 1)
		var job jobJSON
		_ = json.Unmarshal(jobs[0], &job)
		if job.ID != started.Data.ID || job.Status != "success" || job.Progress.Total != 3 || job.Progress.Completed+job.Progress.Failed != 3 {
			t.Fatalf("job.finished payload (the pushed contacts joined the run): %s", jobs[0])
		}
		calls := waitDelivered(t, z.rcv, base+"/calls", 3)
		var call struct{ ID, Status string }
		_ = json.Unmarshal(calls[0], &call)
		if call.ID == "" || call.Status == "" || call.Status == "in-progress" {
			t.Fatalf("call.completed payload: %s", calls[0])
		}
		// A call the agent held carries its post-call analysis (summary, outcome, fields).
		for _, b := range calls {
			var c struct {
				Status   string
				Analysis *struct{ Summary, Outcome string }
			}
			_ = json.Unmarshal(b, &c)
			if c.Status == "completed" && (c.Analysis == nil || c.Analysis.Summary == "" || c.Analysis.Outcome == "") {
				t.Fatalf("call.completed payload without its analysis: %s", b)
			}
		}
		var inbox struct{ Meta struct{ TotalSize int } }
		a.want(http.StatusOK, ada.Access, "GET", "/v1/inbox?organizationId="+org, nil, &inbox)
		if inbox.Meta.TotalSize > 0 {
			waitDelivered(t, z.rcv, base+"/inbox", inbox.Meta.TotalSize)
		}

		// Retries: a hook failing twice gets all three on their third attempts; a slow one
		// times out and is retried; a 410 unsubscribes.
		waitDelivered(t, z.rcv, base+"/flaky", 3)
		deadline := time.Now().Add(30 * time.Second)
		for {
			var list struct{ Data []hookJSON }
			a.want(http.StatusOK, key, "GET", "/v1/apps/zapier/hooks?organizationId="+org, nil, &list)
			still := false
			for _, h := range list.Data {
				still = still || h.ID == gone
			}
			if !still {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the hook that answered 410 is still subscribed")
			}
			time.Sleep(50 * time.Millisecond)
		}
		// The hooks show their latest delivery: taken (after failed tries), refused by every try.
		hooks := func() map[string]hookJSON {
			var list struct{ Data []hookJSON }
			a.want(http.StatusOK, ada.Access, "GET", "/v1/apps/zapier/hooks?organizationId="+org, nil, &list)
			out := map[string]hookJSON{}
			for _, h := range list.Data {
				out[strings.TrimPrefix(h.HookURL, z.rcv.Hook(base))] = h
			}
			return out
		}
		if d := hooks()["/flaky"].LastDelivery; d == nil || d.Status != "delivered" || d.Attempts < 1 || d.HTTPStatus == nil || *d.HTTPStatus != 200 || d.Error != nil {
			t.Fatalf("the flaky hook's last delivery: %+v", d)
		}
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			d := hooks()["/down"].LastDelivery
			if d != nil && d.Status == "failed" {
				if d.Attempts != 4 || d.HTTPStatus == nil || *d.HTTPStatus != 500 || d.Error == nil || *d.Error != "the hook answered 500" {
					t.Fatalf("the failing hook's last delivery: %+v", d)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the failing hook %s: %+v", down, d)
			}
		}
		// Deliveries already under way when it answered 410 may still knock; none after.
		goneTries := z.rcv.Attempts(base + "/gone")
		if goneTries < 1 || goneTries > 3 {
			t.Fatalf("the 410 hook was tried %d times", goneTries)
		}
		for deadline := time.Now().Add(30 * time.Second); z.rcv.Attempts(base+"/slow") < 4; {
			if time.Now().After(deadline) {
				t.Fatalf("the slow hook was tried %d times", z.rcv.Attempts(base+"/slow"))
			}
			time.Sleep(50 * time.Millisecond)
		}
		// Each entity once per subscription, whatever else happens.
		push(n4)
		waitDelivered(t, z.rcv, base+"/contacts", 4)
		time.Sleep(300 * time.Millisecond)
		if n := len(z.rcv.Delivered(base + "/contacts")); n != 4 {
			t.Fatalf("contact.added delivered %d times", n)
		}
		if n := z.rcv.Attempts(base + "/gone"); n != goneTries {
			t.Fatalf("the unsubscribed hook was tried again: %d", n)
		}
		if n := len(z.rcv.Delivered(base + "/jobs")); n != 1 {
			t.Fatalf("job.finished delivered %d times", n)
		}

		// Samples are now the recent payloads, newest first, exactly as posted.
		var s struct{ Data []map[string]any }
		a.want(http.StatusOK, key, "GET", "/v1/apps/zapier/hooks/sample?event=job.finished", nil, &s)
		var posted map[string]any
		_ = json.Unmarshal(jobs[0], &posted)
		if len(s.Data) != 1 || fmt.Sprint(s.Data[0]) != fmt.Sprint(posted) {
			t.Fatalf("job.finished samples: %+v vs %+v", s.Data, posted)
		}
		a.want(http.StatusOK, key, "GET", "/v1/apps/zapier/hooks/sample?event=contact.added", nil, &s)
		if len(s.Data) != 3 || s.Data[0]["phone"] != n4 {
			t.Fatalf("contact.added samples (newest first): %+v", s.Data)
		}
	}, opt)
}

// A credential about to expire is refreshed before zaps are asked, one Zapier refuses early is
// renewed; a refresh Zapier refuses disconnects the app and zaps answer 422.
func TestZapierRefreshAPI(t *testing.T) {
	z, opt := newZapierEnv(t)
	z.fake.Set(func(s *zapiertest.Server) { s.ExpiresIn = 60 }) // inside the 5-minute margin
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		z.fake.Set(func(s *zapiertest.Server) { s.RefuseGrant = false })
		var app struct{ Data struct{ ID, Status string } }
		a.want(http.StatusOK, ada.Access, "POST", "/v1/auth/zapier/callback", map[string]any{"code": zapiertest.GoodCode, "organizationId": org}, &app)
		before := z.fake.Refreshed
		a.want(http.StatusOK, ada.Access, "GET", "/v1/apps/zapier/zaps?organizationId="+org, nil, nil)
		if z.fake.Refreshed != before+1 {
			t.Fatalf("refreshed %d times", z.fake.Refreshed-before)
		}
		// An access token Zapier refuses before its time is renewed and the zaps asked again.
		z.fake.Set(func(s *zapiertest.Server) { s.ExpiresIn = 3600 })
		a.want(http.StatusOK, ada.Access, "GET", "/v1/apps/zapier/zaps?organizationId="+org, nil, nil) // now holds a long-lived token
		z.fake.ForgetAccessTokens()
		before = z.fake.Refreshed
		a.want(http.StatusOK, ada.Access, "GET", "/v1/apps/zapier/zaps?organizationId="+org, nil, nil)
		if z.fake.Refreshed != before+1 {
			t.Fatalf("a refused token: refreshed %d times", z.fake.Refreshed-before)
		}
		z.fake.Set(func(s *zapiertest.Server) { s.RefuseGrant = true })
		z.fake.ForgetAccessTokens()
		p := a.problem(http.StatusUnprocessableEntity, ada.Access, "GET", "/v1/apps/zapier/zaps?organizationId="+org, nil)
		if !strings.Contains(p.Detail, "reconnect") {
			t.Fatalf("a refused refresh: %+v", p)
		}
		var apps struct{ Data []struct{ ID, Status string } }
		a.want(http.StatusOK, ada.Access, "GET", "/v1/apps/connected?organizationId="+org, nil, &apps)
		if len(apps.Data) != 1 || apps.Data[0].ID != app.Data.ID || apps.Data[0].Status != "disconnected" {
			t.Fatalf("after a refused refresh: %+v", apps.Data)
		}
		z.fake.Set(func(s *zapiertest.Server) { s.RefuseGrant, s.ExpiresIn = false, 60 })
	}, opt)
}
