package conversation_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/workflow"
)

func anyAddress(netip.Addr) bool { return true }

// hookFlow calls url with the data, then says a line using the answer's fields.
func hookFlow(url, method string, data map[string]any) workflow.Graph {
	d := workflow.Data{"webhookUrl": url, "webhookMethod": method}
	if data != nil {
		d["webhookData"] = data
	}
	return newFlow().node("start", workflow.Start, nil).
		node("hook", workflow.Webhook, d).
		node("say", workflow.Agent, workflow.Data{"instruction": `Say "Your order {{order.id}} is {{status}}; {{webhook.status}}."`}).
		node("end", workflow.EndCall, nil).
		edges("start>hook", "hook>say", "say>end").g
}

func hookStep(t *testing.T, e *conversation.Engine, st conversation.State) conversation.Step {
	t.Helper()
	for _, s := range stepsOf(t, e, st) {
		if s.Kind == string(workflow.Webhook) {
			return s
		}
	}
	t.Fatal("no webhook step")
	return conversation.Step{}
}

func TestWebhookCallAndFields(t *testing.T) {
	type got struct {
		method, path, query, auth, ctype string
		body                             map[string]any
	}
	var seen got
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		seen = got{method: r.Method, path: r.URL.Path, query: r.URL.RawQuery, auth: r.Header.Get("Authorization"), ctype: r.Header.Get("Content-Type")}
		_ = json.Unmarshal(raw, &seen.body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"status": "shipped", "order": {"id": 42, "late": false}, "items": [1, 2]}`))
	}))
	defer srv.Close()
	e := engine(conversation.Deps{HTTP: conversation.NewWebhookClient(conversation.WebhookOptions{Allow: anyAddress})})
	g := hookFlow(srv.URL+"/orders/{{phone}}", "POST", map[string]any{
		"params":  map[string]any{"id": "{{phone}}", "plan": "{{plan}}"},
		"headers": map[string]any{"Authorization": "Bearer {{firstName}}"},
		"body":    map[string]any{"name": "{{firstName}} {{lastName}}", "n": 3.0, "tags": []any{"{{email}}"}},
	})
	acts, st := call(t, e, setup(g))
	if seen.method != "POST" || seen.path != "/orders/+14155550100" || seen.query != "id=%2B14155550100&plan=Gold" ||
		seen.auth != "Bearer Ann" || seen.ctype != "application/json" {
		t.Fatalf("request %+v", seen)
	}
	if seen.body["name"] != "Ann Lee" || seen.body["n"] != 3.0 || seen.body["tags"].([]any)[0] != "ann@example.com" {
		t.Fatalf("body %v", seen.body)
	}
	if w := said(acts); len(w) != 2 || !strings.HasSuffix(w[0], "Your order 42 is shipped; shipped.") {
		t.Fatalf("said %q", w)
	}
	if s := hookStep(t, e, st); s.Status != conversation.StepDone || !strings.Contains(s.Detail, "answered 200") || strings.Contains(s.Detail, "id=") {
		t.Fatalf("step %+v", s)
	}
	// GET sends no body; a non-2xx answer is a failed step and the flow goes on without its
	// values.
	srv2 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > 0 {
			t.Errorf("GET with a body")
		}
		w.WriteHeader(500)
	}))
	defer srv2.Close()
	acts, st = call(t, e, setup(hookFlow(srv2.URL, "GET", nil)))
	if s := hookStep(t, e, st); s.Status != conversation.StepFailed || !strings.Contains(s.Detail, "answered 500") {
		t.Fatalf("step %+v", s)
	}
	// A line whose values are missing is not said (blanks are never spoken): the step's neutral line is.
	if w := said(acts); !strings.HasSuffix(w[0], "from Acme. Thank you.") || kinds(acts) != "say,say,hangup" {
		t.Fatalf("said %q", w)
	}
}

func TestWebhookGuard(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		_, _ = w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	port := srv.URL[strings.LastIndex(srv.URL, ":"):]

	// The default guard refuses loopback, by address and after resolving a name.
	guarded := engine(conversation.Deps{})
	for _, u := range []string{srv.URL, "http://localhost" + port + "/x", "http://[::1]" + port, "http://169.254.169.254/latest/meta-data"} {
		_, st := call(t, guarded, setup(hookFlow(u, "GET", nil)))
		if s := hookStep(t, guarded, st); s.Status != conversation.StepFailed || !strings.Contains(s.Detail, "private, loopback or link-local") {
			t.Fatalf("%s: step %+v", u, s)
		}
	}
	if hits.Load() != 0 {
		t.Fatalf("the guarded client reached the server %d times", hits.Load())
	}
	for addr, want := range map[string]bool{"127.0.0.1": false, "10.1.2.3": false, "172.16.0.1": false, "192.168.1.1": false,
		"169.254.169.254": false, "100.64.0.1": false, "0.0.0.0": false, "::1": false, "fe80::1": false, "fd00::1": false,
		"::ffff:127.0.0.1": false, "224.0.0.1": false, "8.8.8.8": true, "2606:4700:4700::1111": true, "93.184.216.34": true} {
		if got := conversation.AllowPublic(netip.MustParseAddr(addr)); got != want {
			t.Errorf("AllowPublic(%s) = %v", addr, got)
		}
	}

	// Redirects are not followed, even to an allowed address.
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, srv.URL+"/target", http.StatusFound)
	}))
	defer redirect.Close()
	open := engine(conversation.Deps{HTTP: conversation.NewWebhookClient(conversation.WebhookOptions{Allow: anyAddress})})
	_, st := call(t, open, setup(hookFlow(redirect.URL, "GET", nil)))
	if s := hookStep(t, open, st); s.Status != conversation.StepFailed || !strings.Contains(s.Detail, "redirect") {
		t.Fatalf("redirect step %+v", s)
	}
	if hits.Load() != 0 {
		t.Fatal("the redirect was followed")
	}

	// A webhook that does not answer in time fails the step; the call goes on.
	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	defer close(release)
	quick := engine(conversation.Deps{HTTP: conversation.NewWebhookClient(conversation.WebhookOptions{Allow: anyAddress}), WebhookTimeout: 150 * time.Millisecond})
	began := time.Now()
	acts, st := call(t, quick, setup(hookFlow(slow.URL, "POST", nil)))
	if s := hookStep(t, quick, st); s.Status != conversation.StepFailed || !strings.Contains(s.Detail, "did not answer within 150ms") {
		t.Fatalf("timeout step %+v", s)
	}
	if time.Since(began) > 3*time.Second || kinds(acts) != "say,say,hangup" {
		t.Fatalf("timeout took %s, actions %s", time.Since(began), kinds(acts))
	}
}

// An IPv6 address that carries an IPv4 one (IPv4-mapped, IPv4-compatible, 6to4, NAT64) is
// judged by the IPv4 address it carries, and the forms whose IPv4 part cannot be trusted
// (NAT64's local-use prefix, Teredo) are refused whole; the client refuses to dial them too.
func TestAllowPublicEmbeddedIPv4(t *testing.T) {
	for addr, want := range map[string]bool{
		"::ffff:127.0.0.1": false, "::ffff:10.0.0.1": false, "::ffff:8.8.8.8": true,
		"::127.0.0.1": false, "::10.0.0.1": false, "::8.8.8.8": false, // IPv4-compatible: deprecated, refused whole
		"2002:7f00:1::1": false, "2002:a00:1::": false, "2002:c0a8:101::1": false, "2002:a9fe:a9fe::1": false,
		"2002:808:808::1":    true, // 6to4 of 8.8.8.8
		"64:ff9b::127.0.0.1": false, "64:ff9b::10.1.2.3": false, "64:ff9b::169.254.169.254": false,
		"64:ff9b::8.8.8.8": true,                                    // NAT64's well-known prefix in front of a public address
		"64:ff9b:1::a00:1": false, "64:ff9b:1:ffff::808:808": false, // local-use NAT64: refused whole
		"2001:0:4136:e378:8000:63bf:3fff:fdd2": false, "2001::1": false, // Teredo: refused whole
		"2001:db8::1": false, "3fff::1": false, "fec0::1": false, "100::1": false, // documentation, site-local, discard
		"4000::1":   true, // global unicast IANA has not allocated: public, and nothing answers there (the e2e hook)
		"192.0.2.1": false, "198.51.100.7": false, "203.0.113.9": false, "240.0.0.1": false, "255.255.255.255": false,
		"2606:4700:4700::1111": true, "2001:4860:4860::8888": true, "8.8.8.8": true,
	} {
		if got := conversation.AllowPublic(netip.MustParseAddr(addr)); got != want {
			t.Errorf("AllowPublic(%s) = %v, want %v", addr, got, want)
		}
	}
	c := conversation.NewWebhookClient(conversation.WebhookOptions{Timeout: 2 * time.Second})
	for _, u := range []string{"http://[2002:7f00:1::1]:9/", "http://[::127.0.0.1]:9/", "http://[64:ff9b::7f00:1]:9/"} {
		res, err := c.Get(u)
		if err == nil {
			res.Body.Close()
		}
		if !errors.Is(err, conversation.ErrAddressRefused) {
			t.Errorf("GET %s: %v, want the address refused", u, err)
		}
	}
}
