package betty

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bettyhq/betty/sdk/client"
)

// campaignServer serves GET /v1/campaigns in pages of 2 over the given names, clamping a page
// past the last one as the server does.
func campaignServer(names []string, requested *[]int) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/campaigns/list" || r.URL.Query().Get("organizationId") != "org-1" {
			writeProblem(w, 404, "not_found", "No such route.")
			return
		}
		page, err := strconv.Atoi(r.URL.Query().Get("page"))
		if err != nil {
			writeProblem(w, 400, "validation_failed", "page is required", client.FieldError{Field: "query.page", Message: "is required"})
			return
		}
		*requested = append(*requested, page)
		const size = 2
		pages := (len(names) + size - 1) / size
		page = min(max(page, 1), pages)
		start := (page - 1) * size
		end := min(start+size, len(names))
		var items []map[string]any
		for i, n := range names[start:end] {
			items = append(items, map[string]any{"id": "c" + strconv.Itoa(start+i+1), "name": n, "organizationId": "org-1"})
		}
		writeJSON(w, 200, items, &client.PageMeta{
			Page: page, TotalSize: len(names), Start: start + 1, End: end,
			HasNext: page < pages, HasPrevious: page > 1, TotalPages: pages,
		})
	})
}

func listCampaigns(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
	return api.ListCampaigns(ctx, &client.ListCampaignsParams{OrganizationId: "org-1", Page: &page})
}

func TestDoPage(t *testing.T) {
	var requested []int
	c, _ := newTestClient(t, campaignServer([]string{"a", "b", "c"}, &requested), WithAPIKey("betty_sk_test"))

	p, err := DoPage[client.Campaign](t.Context(), c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return listCampaigns(ctx, api, 2)
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) != 1 || p.Items[0].Name != "c" || p.Items[0].Id != "c3" {
		t.Errorf("items = %+v", p.Items)
	}
	want := client.PageMeta{Page: 2, TotalSize: 3, Start: 3, End: 3, HasNext: false, HasPrevious: true, TotalPages: 2}
	if p.Meta != want {
		t.Errorf("meta = %+v, want %+v", p.Meta, want)
	}
}

func TestDoPageWithoutMeta(t *testing.T) {
	c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, []string{"x"}, nil)
	}))
	_, err := DoPage[string](t.Context(), c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return listCampaigns(ctx, api, 1)
	})
	if err == nil || !strings.Contains(err.Error(), "no pagination meta") {
		t.Errorf("err = %v", err)
	}
}

func TestAllWalksEveryPage(t *testing.T) {
	var requested []int
	c, _ := newTestClient(t, campaignServer([]string{"a", "b", "c", "d", "e"}, &requested))

	var names []string
	for campaign, err := range All[client.Campaign](t.Context(), c, listCampaigns) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, campaign.Name)
	}
	if strings.Join(names, ",") != "a,b,c,d,e" {
		t.Errorf("names = %v", names)
	}
	if len(requested) != 3 || requested[0] != 1 || requested[1] != 2 || requested[2] != 3 {
		t.Errorf("pages requested = %v, want [1 2 3]", requested)
	}
}

func TestAllStopsWhenTheConsumerBreaks(t *testing.T) {
	var requested []int
	c, _ := newTestClient(t, campaignServer([]string{"a", "b", "c", "d", "e"}, &requested))

	var names []string
	for campaign, err := range All[client.Campaign](t.Context(), c, listCampaigns) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, campaign.Name)
		if campaign.Name == "c" {
			break
		}
	}
	if strings.Join(names, ",") != "a,b,c" {
		t.Errorf("names = %v", names)
	}
	if len(requested) != 2 {
		t.Errorf("pages requested = %v, want [1 2]: no page after the break", requested)
	}
}

func TestAllStopsAtTheFirstError(t *testing.T) {
	var calls atomic.Int32
	c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 2 {
			writeProblem(w, 403, "forbidden", "Not your team.")
			return
		}
		writeJSON(w, 200, []string{"x", "y"}, &client.PageMeta{Page: 1, HasNext: true, TotalPages: 5, TotalSize: 10})
	}))

	var items []string
	var errs []error
	for item, err := range All[string](t.Context(), c, listCampaigns) {
		if err != nil {
			errs = append(errs, err)
			if item != "" {
				t.Errorf("item with the error = %q, want the zero value", item)
			}
			continue // the walk must end by itself
		}
		items = append(items, item)
	}
	if len(items) != 2 || len(errs) != 1 || !errors.Is(errs[0], ErrForbidden) {
		t.Errorf("items = %v, errs = %v", items, errs)
	}
	if n := calls.Load(); n != 2 {
		t.Errorf("calls = %d, want 2", n)
	}
}

func TestAllStopsOnAClampedPage(t *testing.T) {
	var calls atomic.Int32
	c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		// A server that wrongly says there is more, yet serves page 1 again.
		writeJSON(w, 200, []string{"x"}, &client.PageMeta{Page: 1, HasNext: true})
	}))
	n := 0
	for _, err := range All[string](t.Context(), c, listCampaigns) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 2 || calls.Load() != 2 {
		t.Errorf("items = %d, calls = %d; want 2 and 2", n, calls.Load())
	}
}

func TestDoDecodesTheEnvelope(t *testing.T) {
	c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"status":200,"data":{"status":"ok","version":"1.2.3","database":"sqlite","time":"2025-01-02T03:04:05Z"}}`))
	}))
	h, err := Do[map[string]string](t.Context(), c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.GetHealth(ctx)
	})
	if err != nil {
		t.Fatal(err)
	}
	if h["version"] != "1.2.3" || h["database"] != "sqlite" {
		t.Errorf("data = %v", h)
	}
}

func TestDoRejectsWhatIsNotAnEnvelope(t *testing.T) {
	tests := map[string]struct {
		status int
		body   string
		want   string
	}{
		"no body":  {204, "", "no body"},
		"not JSON": {200, "ok", "decoding the envelope"},
		"no data":  {200, `{"status":200}`, "no data"},
		"bad data": {200, `{"status":200,"data":[1]}`, "decoding data"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.status)
				_, _ = w.Write([]byte(tt.body))
			}))
			_, err := Do[client.User](t.Context(), c, getMe)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "GET /v1/auth/me") {
				t.Errorf("err = %v, want one naming the call and %q", err, tt.want)
			}
		})
	}
}

func TestNoContent(t *testing.T) {
	for _, status := range []int{200, 202, 204} {
		c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if status == 204 {
				w.WriteHeader(status)
				return
			}
			writeJSON(w, status, map[string]string{"message": "done"}, nil)
		}))
		if err := NoContent(t.Context(), c, getMe); err != nil {
			t.Errorf("HTTP %d: %v", status, err)
		}
	}
}

func TestTransportErrorsPassThrough(t *testing.T) {
	c, _ := newTestClient(t, http.NotFoundHandler())
	want := errors.New("boom")
	_, err := Do[string](t.Context(), c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return nil, want
	})
	if !errors.Is(err, want) {
		t.Errorf("err = %v", err)
	}
	if err := NoContent(t.Context(), c, nil); err == nil {
		t.Error("NoContent with a nil call succeeded")
	}
}

func TestNew(t *testing.T) {
	c, err := New("http://localhost:8080///")
	if err != nil {
		t.Fatal(err)
	}
	if c.Server() != "http://localhost:8080" {
		t.Errorf("Server() = %q", c.Server())
	}
	if c.RawClient().Server != "http://localhost:8080/" || c.Raw() == nil || c.Raw().ClientInterface != c.RawClient() {
		t.Errorf("the raw clients are not wired to the server")
	}
	for _, bad := range []string{"", "localhost:8080", "ftp://host", "http://", "http://a b"} {
		if _, err := New(bad); err == nil {
			t.Errorf("New(%q) succeeded", bad)
		}
	}
}

func TestWithHTTPClientIsNotModified(t *testing.T) {
	var got string
	c0, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Get("Authorization")
		writeJSON(w, 200, userJSON("ada@example.com"), nil)
	}))
	hc := &http.Client{Timeout: 7 * time.Second}
	c, err := New(c0.Server(), WithHTTPClient(hc), WithAPIKey("betty_sk_x"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Me(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got != "Bearer betty_sk_x" {
		t.Errorf("Authorization = %q", got)
	}
	if hc.Transport != nil {
		t.Error("the caller's http.Client was modified")
	}
	if c.httpClient.Timeout != 7*time.Second {
		t.Errorf("Timeout = %v, want the caller's", c.httpClient.Timeout)
	}
}
