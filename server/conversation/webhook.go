package conversation

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/bettyhq/betty/server/workflow"

	"github.com/bettyhq/betty/internal/plural"
)

// WebhookOptions configure NewWebhookClient.
type WebhookOptions struct {
	// Timeout bounds one request, answer included (default 10 s).
	Timeout time.Duration
	// Allow says whether an address may be reached (default AllowPublic). Tests that need
	// an httptest server pass func(netip.Addr) bool { return true }.
	Allow func(netip.Addr) bool
}

// ErrAddressRefused is the error of a webhook whose host is (or resolves to) an address
// Allow refuses.
var ErrAddressRefused = errors.New("the webhook's address is private, loopback or link-local")

// ErrRedirect is the error of a webhook that answered a redirect: redirects are not followed.
var ErrRedirect = errors.New("the webhook answered a redirect, which is not followed")

// NewWebhookClient returns the HTTP client webhooks are sent with: it connects only to the
// addresses Allow accepts, checked on the address actually dialled (after DNS resolution, so
// a name that resolves to 127.0.0.1 or 169.254.169.254 is refused too), follows no redirect,
// ignores proxy settings (a proxy would dial for it) and gives up after Timeout.
func NewWebhookClient(o WebhookOptions) *http.Client {
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.Allow == nil {
		o.Allow = AllowPublic
	}
	d := &net.Dialer{Timeout: o.Timeout, Control: func(network, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("%w: %s", ErrAddressRefused, address)
		}
		if !o.Allow(ap.Addr().Unmap()) {
			return fmt.Errorf("%w: %s", ErrAddressRefused, ap.Addr())
		}
		return nil
	}}
	tr := &http.Transport{
		Proxy:                 nil,
		DialContext:           d.DialContext,
		TLSHandshakeTimeout:   o.Timeout,
		ResponseHeaderTimeout: o.Timeout,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       30 * time.Second,
	}
	return &http.Client{Transport: tr, Timeout: o.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return ErrRedirect }}
}

var refusedPrefixes = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),   // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("198.51.100.0/24"), // documentation
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, and the broadcast address
	// IPv6 forms that carry an IPv4 address the guard cannot judge: IPv4-compatible
	// addresses (deprecated by RFC 4291, yet a host with a sit tunnel still sends them to the
	// IPv4 address), NAT64's local-use prefix (RFC 8215: the operator picks where the IPv4
	// address sits, and the translator is inside the network by definition) and Teredo
	// (RFC 4380: a server's and an obfuscated client's IPv4 address; no service is reached
	// at one, and a host running a Teredo client would send to the embedded address).
	netip.MustParsePrefix("::/96"),
	netip.MustParsePrefix("64:ff9b:1::/48"),
	netip.MustParsePrefix("2001::/32"),
	netip.MustParsePrefix("100::/64"),      // discard-only
	netip.MustParsePrefix("2001:db8::/32"), // documentation
	netip.MustParsePrefix("3fff::/20"),     // documentation too (RFC 9637)
	netip.MustParsePrefix("fec0::/10"),     // site-local (deprecated, still routed inside some networks)
}

var (
	// nat64 is NAT64's well-known prefix (RFC 6052): the last 32 bits are the IPv4 address
	// the translator reaches.
	nat64 = netip.MustParsePrefix("64:ff9b::/96")
	// sixToFour is 6to4 (RFC 3056): bits 16 to 47 are the IPv4 address of the tunnel's end.
	sixToFour = netip.MustParsePrefix("2002::/16")
)

// AllowPublic accepts only public unicast addresses: it refuses loopback, private (RFC 1918,
// fc00::/7), link-local (169.254.0.0/16 — cloud metadata — and fe80::/10), unspecified,
// multicast, carrier-grade NAT and other special ranges. An IPv6 address that carries an IPv4
// one the network delivers to (IPv4-mapped, 6to4, NAT64's well-known prefix) is judged by that
// IPv4 address; the other forms that embed one are refused whole (refusedPrefixes).
func AllowPublic(a netip.Addr) bool {
	a = a.Unmap()
	if v4, ok := embeddedIPv4(a); ok {
		a = v4
	}
	if !a.IsValid() || a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsInterfaceLocalMulticast() || a.IsMulticast() || a.IsUnspecified() {
		return false
	}
	for _, p := range refusedPrefixes {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

// embeddedIPv4 answers the IPv4 address a 6to4 or NAT64 (well-known prefix) address reaches.
func embeddedIPv4(a netip.Addr) (netip.Addr, bool) {
	b := a.As16()
	switch {
	case !a.Is6():
		return netip.Addr{}, false
	case nat64.Contains(a):
		return netip.AddrFrom4([4]byte(b[12:16])), true
	case sixToFour.Contains(a):
		return netip.AddrFrom4([4]byte(b[2:6])), true
	}
	return netip.Addr{}, false
}

// maxWebhookAnswer bounds what is read of a webhook's answer; maxWebhookFields the fields
// kept from it.
const (
	maxWebhookAnswer = 1 << 20
	maxWebhookFields = 100
	maxWebhookValue  = 1000 // bytes of one field kept (the State goes with every event)
)

// webhook calls a Webhook step: its method and URL, webhookData params (added to the query),
// headers and body (JSON), every text with placeholders filled. The fields of a JSON object
// answer become placeholders for later steps, both as {{field}} and {{webhook.field}} (nested
// objects with dots: {{order.id}}). A webhook that fails (refused address, redirect, timeout,
// non-2xx) is logged as a failed step and the flow goes on.
func (w *walk) webhook(ctx context.Context, n workflow.Node) {
	kind := string(n.Type)
	method := strings.ToUpper(firstNonEmpty(n.Data.String(workflow.FieldMethod), http.MethodPost))
	raw := w.fillWith(n.Data.String(workflow.FieldWebhookURL), url.PathEscape)
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		w.step(n.ID, kind, StepFailed, fmt.Sprintf("The webhook URL %q is not an absolute http or https URL.", raw))
		return
	}
	wd, _ := n.Data[workflow.FieldWebhookData].(map[string]any)
	if params, ok := wd["params"].(map[string]any); ok && len(params) > 0 {
		q := u.Query()
		for _, k := range sortedKeys(params) {
			if s, ok := params[k].(string); ok {
				q.Set(k, w.fill(s))
			}
		}
		u.RawQuery = q.Encode()
	}
	var body io.Reader
	if b, ok := wd["body"]; ok && b != nil && method != http.MethodGet {
		if m, isObj := b.(map[string]any); !isObj || len(m) > 0 {
			enc, err := json.Marshal(w.fillJSON(b))
			if err != nil {
				w.step(n.ID, kind, StepFailed, "The webhook body is not JSON.")
				return
			}
			body = bytes.NewReader(enc)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, w.e.d.WebhookTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, u.String(), body)
	if err != nil {
		w.step(n.ID, kind, StepFailed, "The webhook request could not be built: "+err.Error())
		return
	}
	req.Header.Set("User-Agent", "Betty-Webhook/1")
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if headers, ok := wd["headers"].(map[string]any); ok {
		for _, k := range sortedKeys(headers) {
			if s, ok := headers[k].(string); ok {
				req.Header.Set(k, w.fill(s))
			}
		}
	}
	where := method + " " + redacted(u)
	res, err := w.e.d.HTTP.Do(req)
	if err != nil {
		why := "could not be reached"
		switch {
		case errors.Is(err, ErrAddressRefused):
			why = "was refused: its address is private, loopback or link-local"
		case errors.Is(err, ErrRedirect):
			why = "answered a redirect, which is not followed"
		case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
			why = fmt.Sprintf("did not answer within %s", w.e.d.WebhookTimeout)
		}
		w.e.d.Log.Warn("conversation: webhook failed", "node", n.ID, "url", redacted(u), "err", err)
		w.step(n.ID, kind, StepFailed, fmt.Sprintf("%s %s.", where, why))
		return
	}
	defer res.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(res.Body, maxWebhookAnswer+1))
	if err != nil {
		w.step(n.ID, kind, StepFailed, fmt.Sprintf("%s broke off its answer.", where))
		return
	}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		w.step(n.ID, kind, StepFailed, fmt.Sprintf("%s answered %d.", where, res.StatusCode))
		return
	}
	kept := 0
	var obj map[string]any
	if len(answer) <= maxWebhookAnswer && json.Unmarshal(answer, &obj) == nil {
		if w.st.Vars == nil {
			w.st.Vars = map[string]string{}
		}
		flat := map[string]string{}
		flatten("", obj, flat)
		for _, k := range sortedKeys(flat) {
			if kept == maxWebhookFields {
				break
			}
			v := flat[k]
			if len(v) > maxWebhookValue {
				v = v[:maxWebhookValue]
			}
			w.st.Vars[k] = v
			w.st.Vars["webhook."+k] = v
			kept++
		}
	}
	w.step(n.ID, kind, StepDone, fmt.Sprintf("%s answered %d; %s kept for later steps.", where, res.StatusCode, plural.Count(kept, "field", "fields")))
}

// fillJSON fills placeholders in every text of a JSON value.
func (w *walk) fillJSON(v any) any {
	switch x := v.(type) {
	case string:
		return w.fill(x)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = w.fillJSON(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = w.fillJSON(e)
		}
		return out
	}
	return v
}

// flatten keeps the scalar fields of a JSON object, nested objects' with dotted names.
func flatten(prefix string, v any, out map[string]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			name := k
			if prefix != "" {
				name = prefix + "." + k
			}
			flatten(name, e, out)
		}
	case string:
		out[prefix] = x
	case float64, bool:
		out[prefix] = fmt.Sprint(x)
	case nil:
		out[prefix] = ""
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// redacted is the URL without its query and credentials (they often carry secrets).
func redacted(u *url.URL) string {
	c := *u
	c.User, c.RawQuery, c.Fragment = nil, "", ""
	return c.String()
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// lifecycle sets the contact's lifecycle stage through the CRM: skipped in a test run and
// when no CRM is connected, failed (the call goes on) when the CRM refuses.
func (w *walk) lifecycle(ctx context.Context, n workflow.Node) {
	stage := n.Data.String(workflow.FieldStage)
	kind := string(n.Type)
	switch {
	case w.s.IsTest:
		w.step(n.ID, kind, StepSkipped, fmt.Sprintf("Lifecycle stage %q not set: this is a test run.", stage))
	case w.e.d.CRM == nil:
		w.step(n.ID, kind, StepSkipped, fmt.Sprintf("Lifecycle stage %q not set: HubSpot is not connected.", stage))
	default:
		if err := w.e.d.CRM.SetLifecycleStage(ctx, w.s.OrganizationID, w.s.Contact, stage); err != nil {
			w.e.d.Log.Warn("conversation: lifecycle stage not set", "node", n.ID, "err", err)
			w.step(n.ID, kind, StepFailed, fmt.Sprintf("Lifecycle stage %q could not be set in HubSpot.", stage))
			return
		}
		w.st.Vars = setVar(w.st.Vars, "lifecycleStage", stage)
		w.step(n.ID, kind, StepDone, fmt.Sprintf("Lifecycle stage %q queued for HubSpot (see the call log's CRM updates).", stage))
	}
}

func setVar(m map[string]string, k, v string) map[string]string {
	if m == nil {
		m = map[string]string{}
	}
	m[k] = v
	return m
}
