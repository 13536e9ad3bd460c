package zapier

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/errs"
)

// A hook URL must be https and must not be, or resolve to, a private, loopback or link-local
// address: a name that resolves to one among public ones is refused too.
func TestHookURLGuard(t *testing.T) {
	dns := map[string][]string{"hooks.zapier.com": {"54.86.20.1"}, "sneaky.example": {"54.86.20.1", "10.0.0.5"},
		"metadata.example": {"169.254.169.254"}, "v6.example": {"::1"},
		"sixtofour.example": {"2606:4700:4700::1111", "2002:a00:1::1"}, "nat64.example": {"64:ff9b::a9fe:a9fe"},
		"nat64-public.example": {"64:ff9b::3656:1401"}}
	h := &Hooks{cfg: HooksConfig{Allow: conversation.AllowPublic, Resolve: func(_ context.Context, host string) ([]netip.Addr, error) {
		var out []netip.Addr
		for _, a := range dns[host] {
			out = append(out, netip.MustParseAddr(a))
		}
		if out == nil {
			return nil, errors.New("no such host")
		}
		return out, nil
	}}}
	ctx := context.Background()
	for raw, want := range map[string]errs.Kind{
		"https://hooks.zapier.com/hooks/standard/1/abc/": 0,
		"https://54.86.20.1/x":                           0,
		"http://hooks.zapier.com/x":                      errs.Invalid,
		"https://user:pw@hooks.zapier.com/x":             errs.Invalid,
		"https://sneaky.example/x":                       errs.Unprocessable,
		"https://metadata.example/latest":                errs.Unprocessable,
		"https://v6.example/x":                           errs.Unprocessable,
		"https://127.0.0.1/x":                            errs.Unprocessable,
		"https://[::ffff:10.0.0.1]/x":                    errs.Unprocessable,
		"https://nowhere.example/x":                      errs.Unprocessable,
		// IPv6 forms of private and loopback IPv4 addresses, written or resolved.
		"https://[2002:7f00:1::1]/":          errs.Unprocessable,
		"https://[::127.0.0.1]/":             errs.Unprocessable,
		"https://[64:ff9b::10.0.0.1]/":       errs.Unprocessable,
		"https://[64:ff9b:1::a00:1]/":        errs.Unprocessable,
		"https://[2001:0:4136:e378::1]/":     errs.Unprocessable,
		"https://sixtofour.example/x":        errs.Unprocessable,
		"https://nat64.example/x":            errs.Unprocessable,
		"https://nat64-public.example/x":     0,
		"https://[2002:3656:1401::1]/hooks/": 0,
	} {
		err := h.checkURL(ctx, raw)
		if want == 0 && err != nil || want != 0 && !errs.Is(err, want) {
			t.Errorf("%s: %v", raw, err)
		}
	}
}

// A hook not reached is said in plain words: a timeout, or anything else.
func TestUnreached(t *testing.T) {
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer slow.Close()
	_, err := (&http.Client{Timeout: 50 * time.Millisecond}).Get(slow.URL)
	if got := unreached(err); got != "the hook did not answer within 10 seconds" {
		t.Errorf("timeout: %q (%v)", got, err)
	}
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	_, err = http.Get(closed.URL)
	if got := unreached(err); got != "the hook could not be reached" {
		t.Errorf("refused: %q (%v)", got, err)
	}
}

// Which entity is which event: a call once it ended, a finished run but never a test run, an
// inbox item only while it is new and not deleted, every added contact.
func TestDue(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name string
		ev   Event
		st   State
		due  bool
	}{
		{"call in progress", CallCompleted, State{}, false},
		{"call ended", CallCompleted, State{Final: true}, true},
		{"run in progress", JobFinished, State{}, false},
		{"run finished", JobFinished, State{Final: true}, true},
		{"test run finished", JobFinished, State{Final: true, Test: true}, false},
		{"new inbox item", InboxItemCreated, State{Created: now.Add(-time.Minute)}, true},
		{"inbox item just under the limit", InboxItemCreated, State{Created: now.Add(-FreshInbox + time.Second)}, true},
		{"old inbox item changed", InboxItemCreated, State{Created: now.Add(-FreshInbox)}, false},
		{"deleted inbox item", InboxItemCreated, State{Created: now, Deleted: true}, false},
		{"contact", ContactAdded, State{}, true},
		{"unknown event", Event("call.started"), State{Final: true}, false},
	} {
		if got := Due(tt.ev, tt.st, now); got != tt.due {
			t.Errorf("%s: due %v, want %v", tt.name, got, tt.due)
		}
	}
}
