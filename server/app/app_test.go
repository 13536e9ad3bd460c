package app

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/config"
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
