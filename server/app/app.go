// Package app wires Betty's server together: configuration → store → HTTP handler, and runs
// it until the context ends, then shuts down gracefully.
package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/httpapi"
	"github.com/bettyhq/betty/server/mail"
	"github.com/bettyhq/betty/server/store"
)

// App is a configured server.
type App struct {
	cfg     config.Config
	log     *slog.Logger
	db      *store.DB
	handler http.Handler
}

// New opens and migrates the database and builds the HTTP handler.
func New(ctx context.Context, cfg config.Config, log *slog.Logger, dashboard fs.FS, version string) (*App, error) {
	db, err := store.Open(ctx, store.Options{DatabaseURL: cfg.DatabaseURL, DataDir: cfg.DataDir})
	if err != nil {
		return nil, err
	}
	applied, err := db.Migrate(ctx)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("migrate: %w", err)
	}
	for _, m := range applied {
		log.InfoContext(ctx, "migration applied", "version", m.Version, "name", m.Name)
	}
	secret, err := db.Secret(ctx, "access_token_signing_key", auth.NewSecret)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("signing key: %w", err)
	}
	smtp, err := mail.ParseSMTP(cfg.SMTPURL, cfg.MailFrom)
	if err != nil {
		db.Close()
		return nil, err
	}
	h, err := httpapi.New(httpapi.Deps{
		Log: log, DB: db, Version: version, Dashboard: dashboard, MaxBodyBytes: cfg.MaxBodyBytes,
		Issuer:     auth.NewIssuer([]byte(secret), cfg.AccessTokenTTL),
		Mailer:     mail.NewOutbox(db, log, smtp),
		RefreshTTL: cfg.RefreshTokenTTL,
		RateLimit:  httpapi.RateLimit{Rate: cfg.RateLimit, Burst: cfg.RateBurst},
		BaseURL:    cfg.BaseURL, AllowedOrigins: cfg.AllowedOrigins, InternalDomains: cfg.InternalDomains,
	})
	if err != nil {
		db.Close()
		return nil, err
	}
	return &App{cfg: cfg, log: log, db: db, handler: h}, nil
}

// Handler is the HTTP handler (for tests that serve it themselves).
func (a *App) Handler() http.Handler { return a.handler }

// DB is the application's database.
func (a *App) DB() *store.DB { return a.db }

// Close releases the database.
func (a *App) Close() error { return a.db.Close() }

// PrintSummary writes what the server runs with, for the person who started it.
func (a *App) PrintSummary(w io.Writer, addr string) {
	dataDir := a.cfg.DataDir
	fmt.Fprintf(w, "Betty is running at %s\n", a.cfg.BaseURL)
	fmt.Fprintf(w, "  listening  %s\n", addr)
	fmt.Fprintf(w, "  database   %s (%s)\n", a.db.Dialect(), a.db.Source())
	fmt.Fprintf(w, "  data dir   %s\n", dataDir)
	mailer := "mail=outbox (local: links are logged)"
	if a.cfg.SMTPURL != "" {
		mailer = "mail=smtp"
	}
	fmt.Fprintf(w, "  providers  %s\n", mailer)
}

// Serve serves on ln until ctx ends, then stops accepting, lets requests in flight finish
// (up to the shutdown timeout) and returns.
func (a *App) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           a.handler,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(a.log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	a.log.Info("shutting down", "timeout", a.cfg.ShutdownTimeout.String())
	sctx, cancel := context.WithTimeout(context.Background(), a.cfg.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	a.log.Info("stopped")
	return nil
}
