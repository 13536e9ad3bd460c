package links

import (
	"net/url"
	"testing"

	"github.com/bettyhq/betty/server/errs"
)

func TestLinksPointOnlyAtThisDashboard(t *testing.T) {
	b := Builder{BaseURL: "https://betty.example.com", AllowedOrigins: []string{"http://localhost:5173"}}
	for origin, want := range map[string]string{
		"":                              "https://betty.example.com",
		"https://BETTY.example.com:443": "https://betty.example.com",
		"http://localhost:5173/":        "http://localhost:5173",
	} {
		if got, err := b.Base(origin); err != nil || got != want {
			t.Errorf("%q: %q %v", origin, got, err)
		}
	}
	for _, bad := range []string{"https://evil.example", "http://localhost:5173/path", "javascript:alert(1)", "https://u:p@betty.example.com"} {
		if _, err := b.Base(bad); !errs.Is(err, errs.Invalid) {
			t.Errorf("%q accepted: %v", bad, err)
		}
	}
	if got := b.To("/invite", url.Values{"inviteToken": {"a b"}}); got != "https://betty.example.com/invite?inviteToken=a+b" {
		t.Fatal(got)
	}
}
