package betty

import (
	"context"
	"net/http"
	"strconv"
	"testing"

	"github.com/bettyhq/betty/sdk/client"
)

// Hooks and templates are one call; zaps walk every page.
func TestZapier(t *testing.T) {
	h := http.NewServeMux()
	h.HandleFunc("GET /v1/apps/zapier/hooks", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("organizationId") != "team-1" {
			t.Errorf("hooks asked with %v", r.URL)
		}
		writeJSON(w, http.StatusOK, []client.ZapierHook{{Id: "h-1", Event: "call.completed", HookUrl: "https://hooks.zapier.com/x"}}, nil)
	})
	h.HandleFunc("GET /v1/apps/zapier/templates", func(w http.ResponseWriter, r *http.Request) {
		writeProblem(w, http.StatusServiceUnavailable, "unavailable", "Zapier is not configured on this server: set --zapier-client-id")
	})
	h.HandleFunc("GET /v1/apps/zapier/zaps", func(w http.ResponseWriter, r *http.Request) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		zaps := []client.ZapierZap{{Id: "z-" + strconv.Itoa(page), State: "on"}}
		writeJSON(w, http.StatusOK, zaps, &client.PageMeta{Page: page, TotalPages: 2, TotalSize: 2, HasNext: page < 2})
	})
	c, _ := newTestClient(t, h, WithAPIKey("betty_sk_k"))
	ctx := context.Background()
	hooks, err := c.ZapierHooks(ctx, "team-1")
	if err != nil || len(hooks) != 1 || hooks[0].Id != "h-1" {
		t.Fatalf("hooks: %+v %v", hooks, err)
	}
	if _, err := c.ZapierTemplates(ctx, "team-1"); err == nil {
		t.Fatal("templates on a server without Zapier answered no error")
	}
	var ids []string
	for z, err := range c.ZapierZaps(ctx, "team-1") {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, z.Id)
	}
	if len(ids) != 2 || ids[0] != "z-1" || ids[1] != "z-2" {
		t.Fatalf("zaps: %v", ids)
	}
}
