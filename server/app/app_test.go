package app

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/store"
)

// The app starts on a fresh data dir (creating and migrating SQLite), serves, and on
// cancellation lets a slow request finish before returning.
func TestServeAndGracefulShutdown(t *testing.T) {
	cfg := config.Config{Addr: "127.0.0.1:0", DataDir: t.TempDir(), BaseURL: "http://x", LogLevel: "info",
		LogFormat: "text", MaxBodyBytes: 1 << 20, ShutdownTimeout: 5 * time.Second,
		AccessTokenTTL: time.Minute, RefreshTokenTTL: time.Hour}
	var logs bytes.Buffer
	a, err := New(context.Background(), cfg, slog.New(slog.NewTextHandler(&logs, nil)), nil, "v1.2.3")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Serve(ctx, ln) }()
	url := "http://" + ln.Addr().String()

	res, err := http.Get(url + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), `"version":"v1.2.3"`) {
		t.Fatalf("readyz: %d %s", res.StatusCode, body)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no shutdown")
	}
	if _, err := http.Get(url + "/healthz"); err == nil {
		t.Fatal("still serving after shutdown")
	}
	if !strings.Contains(logs.String(), "migration applied") || !strings.Contains(logs.String(), "stopped") {
		t.Fatalf("logs: %s", logs.String())
	}
	var summary bytes.Buffer
	a.PrintSummary(&summary, ln.Addr().String())
	if !strings.Contains(summary.String(), "database   sqlite") {
		t.Fatalf("summary: %s", summary.String())
	}
}

// One betty serve works a SQLite database: a second one on the same data directory is refused
// with the reason, and may start once the first has let go.
func TestOneServerADataDirectory(t *testing.T) {
	cfg := config.Config{Addr: "127.0.0.1:0", DataDir: t.TempDir(), BaseURL: "http://x", LogLevel: "info",
		LogFormat: "text", MaxBodyBytes: 1 << 20, ShutdownTimeout: 5 * time.Second,
		AccessTokenTTL: time.Minute, RefreshTokenTTL: time.Hour}
	ctx := context.Background()
	open := func() *App {
		a, err := New(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), nil, "test")
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	first := open()
	if err := first.Start(ctx); err != nil {
		t.Fatal(err)
	}
	second := open()
	defer second.Close()
	if err := second.Start(ctx); err == nil || !strings.Contains(err.Error(), "another betty serve is using the data directory") {
		t.Fatalf("a second server on the data directory: %v", err)
	}
	stop, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := first.jobs.Stop(stop); err != nil {
		t.Fatal(err)
	}
	first.Close()
	if err := second.Start(ctx); err != nil {
		t.Fatalf("once the first let go: %v", err)
	}
	second.jobs.Stop(stop)
}

// A request authenticated by an API key writes nothing: the key's use is kept in memory (the
// keys' list shows it at once) and written by the next flush.
func TestAnAPIKeyReadWritesNothing(t *testing.T) {
	ctx := context.Background()
	cfg := config.Default()
	cfg.DataDir, cfg.BaseURL = t.TempDir(), "http://x"
	a, err := New(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), nil, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	db := a.DB()
	u := &store.User{Email: "ada@example.com"}
	if err := db.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	o := &store.Organization{Name: "Acme", OwnerUserID: u.ID}
	if err := db.CreateOrganization(ctx, o, u.Email); err != nil {
		t.Fatal(err)
	}
	secret, prefix := auth.NewAPIKey()
	k := &store.APIKey{OrganizationID: o.ID, Name: "CRM", Prefix: prefix, KeyHash: auth.HashToken(secret), Role: "developer", CreatedBy: &u.ID}
	if err := db.CreateAPIKey(ctx, k); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(a.Handler())
	defer srv.Close()
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/v1/team/members/list?organizationId="+o.ID, nil)
	req.Header.Set("X-API-Key", secret)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("read by key: %d", res.StatusCode)
	}
	stored := func() *time.Time {
		keys, err := db.ListAPIKeys(ctx, o.ID)
		if err != nil || len(keys) != 1 {
			t.Fatalf("keys: %v %v", keys, err)
		}
		return keys[0].LastUsedAt
	}
	if got := stored(); got != nil {
		t.Fatalf("the read wrote last_used_at = %v", got)
	}
	if _, ok := a.keyUses.Last(k.ID); !ok {
		t.Fatal("the use was not recorded")
	}
	a.flushKeyUses()
	if got := stored(); got == nil || time.Since(*got) > time.Minute {
		t.Fatalf("after the flush last_used_at = %v", got)
	}
}
