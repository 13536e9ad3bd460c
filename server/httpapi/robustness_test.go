package httpapi_test

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/internal/apitest"
	"github.com/bettyhq/betty/server/store"
)

// Defects found by probing a running server, each pinned by a test.

// X-Forwarded-For is anyone's to write: it is believed only from a configured proxy, so
// rotating it neither escapes a per-address limit nor changes the address a session records.
func TestForgedForwardedForIsIgnored(t *testing.T) {
	env := apitest.New(t, store.SQLite, apitest.WithRateLimit(1, 2))
	forged := func(addr string) *apitest.Response {
		return env.Do(apitest.Request{Method: "GET", Path: "/v1/server/info",
			Header: http.Header{"X-Forwarded-For": {addr}, "X-Real-Ip": {addr}}})
	}
	statuses := []int{forged("10.0.0.1").Status, forged("10.0.0.2").Status, forged("10.0.0.3").Status}
	if statuses[2] != http.StatusTooManyRequests {
		t.Fatalf("rotating X-Forwarded-For escaped the limit: %v", statuses)
	}

	// Behind a trusted proxy each forwarded client has its own bucket.
	_, loopback, _ := net.ParseCIDR("127.0.0.0/8")
	proxied := apitest.New(t, store.SQLite, apitest.WithRateLimit(1, 2), apitest.WithTrustedProxies(loopback))
	for i, addr := range []string{"10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4"} {
		res := proxied.Do(apitest.Request{Method: "GET", Path: "/v1/server/info", Header: http.Header{"X-Forwarded-For": {addr}}})
		if res.Status != http.StatusOK {
			t.Fatalf("client %d behind the proxy: %d", i, res.Status)
		}
	}

	// The session records the connection's address, not the forged one.
	plain := apitest.New(t, store.SQLite)
	c := plain.SignUp(t, "ada@example.com")
	res := plain.Do(apitest.Request{Method: "POST", Path: "/v1/auth/sign-in", Header: http.Header{"X-Forwarded-For": {"203.0.113.9"}},
		Body: map[string]any{"email": c.Email, "password": "correct horse battery"}})
	if res.Status != http.StatusOK {
		t.Fatalf("sign in: %d %s", res.Status, res.Body)
	}
	var ips []string
	if err := plain.DB.ExecRaw(context.Background(), "SELECT 1"); err != nil {
		t.Fatal(err)
	}
	rows := plain.DB.Writer().QueryRow("SELECT group_concat(DISTINCT ip) FROM sessions")
	var all string
	if err := rows.Scan(&all); err != nil {
		t.Fatal(err)
	}
	ips = strings.Split(all, ",")
	for _, ip := range ips {
		if ip != "127.0.0.1" {
			t.Fatalf("session addresses %v", ips)
		}
	}
}

// A client that sends headers and then trickles or stops its body loses the connection when
// the body deadline passes, instead of holding it for ever.
func TestStalledBodiesAreCutOff(t *testing.T) {
	env := apitest.New(t, store.SQLite, apitest.WithBodyTimeout(300*time.Millisecond))
	addr := strings.TrimPrefix(env.URL, "http://")
	const conns = 20
	var wg sync.WaitGroup
	held := make(chan int, conns)
	for i := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Error(err)
				return
			}
			defer c.Close()
			_, _ = c.Write([]byte("POST /v1/auth/sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{\"email\":"))
			_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
			r := bufio.NewReader(c)
			line, err := r.ReadString('\n')
			// Either an answer (408) or a closed connection: never silence until our deadline.
			if err != nil && isTimeout(err) {
				held <- i
				return
			}
			if err == nil && !strings.Contains(line, "408") {
				t.Errorf("connection %d answered %q", i, line)
			}
		}()
	}
	wg.Wait()
	close(held)
	if n := len(held); n > 0 {
		t.Fatalf("%d of %d stalled connections were still held after 10 s", n, conns)
	}
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// Go's decoder would accept data after the JSON value and store invalid UTF-8 as replacement
// characters; both are refused with a 400 naming the body, and nothing is written.
func TestTrailingDataAndInvalidUTF8AreRefused(t *testing.T) {
	env := apitest.New(t, store.SQLite)
	c := env.SignUp(t, "ada@example.com")
	for name, body := range map[string]string{
		"trailing data":   `{"name":"Acme"}garbage`,
		"a second value":  `{"name":"Acme"} {"name":"Again"}`,
		"invalid UTF-8":   "{\"name\":\"Ac\xffme\"}",
		"truncated UTF-8": "{\"name\":\"Acm\xc3\"}",
	} {
		res := env.Do(apitest.Request{Method: "POST", Path: "/v1/team/new", Token: c.Access, Body: body})
		p := res.Problem(t)
		if res.Status != http.StatusBadRequest || p.Code != "malformed_json" || len(p.Errors) != 1 || p.Errors[0].Field != "body" {
			t.Errorf("%s: %d %+v", name, res.Status, p)
		}
	}
	orgs, total, err := env.DB.UserOrganizations(context.Background(), c.UserID, 10, 0)
	if err != nil || total != 0 {
		t.Fatalf("a refused body created teams: %+v %v", orgs, err)
	}
	// Trailing white space is fine.
	if res := env.Do(apitest.Request{Method: "POST", Path: "/v1/team/new", Token: c.Access, Body: "{\"name\":\"Acme\"}\n  "}); res.Status != http.StatusCreated {
		t.Fatalf("trailing space: %d %s", res.Status, res.Body)
	}
}

// A percent-encoded @ in an e-mail path parameter is validated decoded, as the handler sees it.
func TestEncodedEmailPathParameters(t *testing.T) {
	env := apitest.New(t, store.SQLite)
	c := env.SignUp(t, "u+1@example.com")
	for _, path := range []string{"/v1/auth/user-email/u%2B1%40example.com", "/v1/auth/user-email/u%2B1@example.com"} {
		if res := env.Do(apitest.Request{Method: "GET", Path: path, Token: c.Access}); res.Status != http.StatusOK {
			t.Errorf("%s: %d %s", path, res.Status, res.Body)
		}
	}
	if _, err := env.DB.SetSiteAdmin(context.Background(), c.Email, true); err != nil {
		t.Fatal(err)
	}
	if res := env.Do(apitest.Request{Method: "GET", Path: "/v1/admin/organization/organizations-list-email/u%2B1%40example.com", Token: c.Access}); res.Status != http.StatusOK {
		t.Errorf("admin look-up: %d %s", res.Status, res.Body)
	}
	if res := env.Do(apitest.Request{Method: "GET", Path: "/v1/auth/user-email/not-an-email", Token: c.Access}); res.Status != http.StatusBadRequest {
		t.Errorf("not an e-mail: %d", res.Status)
	}
}

// Sign-out needs the refresh token of the session it ends: another session's (or none) is 403
// and ends nothing.
func TestSignOutNeedsItsOwnRefreshToken(t *testing.T) {
	env := apitest.New(t, store.SQLite)
	a := env.SignUp(t, "ada@example.com")
	res := env.Do(apitest.Request{Method: "POST", Path: "/v1/auth/sign-in", Body: map[string]any{"email": a.Email, "password": "correct horse battery"}})
	var other struct {
		Data struct{ AccessToken, RefreshToken string }
	}
	res.JSON(t, &other)
	signOut := func(refresh string) *apitest.Response {
		h := http.Header{}
		if refresh != "" {
			h.Set("X-RefreshToken", refresh)
		}
		return env.Do(apitest.Request{Method: "POST", Path: "/v1/auth/sign-out", Token: a.Access, Header: h})
	}
	for name, refresh := range map[string]string{"another session's": other.Data.RefreshToken, "none": "", "unknown": "nonsense"} {
		if res := signOut(refresh); res.Status != http.StatusForbidden || res.Problem(t).Code != "forbidden" {
			t.Errorf("%s refresh token: %d %s", name, res.Status, res.Body)
		}
	}
	for _, tok := range []string{a.Access, other.Data.AccessToken} {
		if res := env.Do(apitest.Request{Method: "GET", Path: "/v1/auth/me", Token: tok}); res.Status != http.StatusOK {
			t.Fatalf("a refused sign-out ended a session: %d", res.Status)
		}
	}
	if res := signOut(a.Refresh); res.Status != http.StatusOK {
		t.Fatalf("own sign-out: %d %s", res.Status, res.Body)
	}
	if res := env.Do(apitest.Request{Method: "GET", Path: "/v1/auth/me", Token: other.Data.AccessToken}); res.Status != http.StatusOK {
		t.Fatal("signing out one session ended the other")
	}
}

// The contract: invited members are visible to their team's members by e-mail.
func TestInvitedMembersCanBeLookedUp(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		bob := env.SignUp(t, "bob@example.com")
		org := a.createTeam(ada, "Acme").ID
		a.problem(http.StatusNotFound, ada.Access, "GET", "/v1/auth/user-email/"+bob.Email, nil)
		a.invite(ada, org, bob.Email, "member")
		a.want(http.StatusOK, ada.Access, "GET", "/v1/auth/user-email/"+bob.Email, nil, nil)
	})
}

// A storm of sign-ups is served within the hashing bound: some wait, the rest are told to come
// back (503 with Retry-After); none fails with a 500, and the server keeps answering.
func TestPasswordHashingStormIsBounded(t *testing.T) {
	env := apitest.New(t, store.SQLite, apitest.WithPasswordHashing(1, 20*time.Millisecond))
	const n = 12
	var wg sync.WaitGroup
	statuses := make(chan *apitest.Response, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses <- env.Do(apitest.Request{Method: "POST", Path: "/v1/auth/sign-up",
				Body: map[string]any{"email": "storm" + string(rune('a'+i)) + "@example.com", "password": "correct horse battery"}})
		}()
	}
	wg.Wait()
	close(statuses)
	created, busy := 0, 0
	for res := range statuses {
		switch res.Status {
		case http.StatusCreated:
			created++
		case http.StatusServiceUnavailable:
			busy++
			if p := res.Problem(t); p.Code != "unavailable" || res.Header.Get("Retry-After") == "" {
				t.Errorf("busy answer: %+v %v", p, res.Header)
			}
		default:
			t.Errorf("sign-up in a storm: %d %s", res.Status, res.Body)
		}
	}
	if created == 0 || busy == 0 {
		t.Fatalf("created %d, busy %d: the bound did not show", created, busy)
	}
	if res := env.Get("/healthz"); res.Status != http.StatusOK {
		t.Fatalf("healthz after the storm: %d", res.Status)
	}
}

// A 501 (an operation not built yet, or a feature the deployment did not configure, such as
// connecting HubSpot without its credentials) is logged as information: it is not a failure.
func TestUnbuiltOperationsAreNotLoggedAsErrors(t *testing.T) {
	env := apitest.New(t, store.SQLite)
	ada := env.SignUp(t, "ada@example.com")
	org := env.Team(t, ada, "Acme")
	// The test server has no HubSpot credentials.
	res := env.Do(apitest.Request{Method: "POST", Path: "/v1/apps/connect/hubspot", Body: map[string]any{"organizationId": org}, Token: ada.Access})
	if res.Status != http.StatusNotImplemented {
		t.Fatalf("%d", res.Status)
	}
	for _, line := range strings.Split(env.Logs.String(), "\n") {
		if strings.Contains(line, "connectHubspotApp") && strings.Contains(line, "level=ERROR") {
			t.Fatalf("501 logged as an error: %s", line)
		}
	}
}

// The dashboard's files are not API calls: fetching many of them spends none of the caller's
// burst, so a few quick reloads never refuse a script chunk (which broke the dashboard) and
// leave the API budget whole.
func TestRateLimitCountsOnlyAPICalls(t *testing.T) {
	env := apitest.New(t, store.SQLite, apitest.WithRateLimit(1, 2))
	for i, path := range []string{"/", "/dashboard/billing", "/assets/index.js", "/assets/chunk.js", "/favicon.svg", "/sign-in"} {
		if res := env.Do(apitest.Request{Method: "GET", Path: path}); res.Status == http.StatusTooManyRequests {
			t.Fatalf("dashboard file %d (%s) was rate limited", i, path)
		}
	}
	var statuses []int
	for range 3 {
		statuses = append(statuses, env.Do(apitest.Request{Method: "GET", Path: "/v1/server/info"}).Status)
	}
	if statuses[0] != http.StatusOK || statuses[1] != http.StatusOK || statuses[2] != http.StatusTooManyRequests {
		t.Fatalf("API calls after dashboard files: %v, want 200, 200, 429 (burst 2)", statuses)
	}
}
