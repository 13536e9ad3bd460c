package httpapi_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/app"
	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/internal/apitest"
	"github.com/bettyhq/betty/server/store"
)

func benchHandler(b *testing.B) http.Handler {
	cfg := config.Default()
	cfg.DataDir, cfg.RateLimit = b.TempDir(), 0
	a, err := app.New(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), nil, "bench")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { a.Close() })
	return a.Handler()
}

// The cost of the whole middleware stack on the lightest operation.
func BenchmarkHealth(b *testing.B) {
	h := benchHandler(b)
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
		if rec.Code != 200 {
			b.Fatal(rec.Code)
		}
	}
}

// Request validation of a JSON body against the contract (a public operation answered 501
// until built).
func BenchmarkValidateJSONBody(b *testing.B) {
	h := benchHandler(b)
	body := `{"name":"Ada Lovelace","email":"ada@example.com","phoneNumber":"+15555550100","company":"Acme","message":"Call me"}`
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, "/v1/call/book-a-call", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusNotImplemented {
			b.Fatal(rec.Code, rec.Body.String())
		}
	}
}

// An authenticated team read: JWT check, session and user lookups, membership, the list.
func BenchmarkAuthenticatedTeamRead(b *testing.B) {
	env := apitest.New(b, store.SQLite, apitest.WithoutResponseCheck())
	ada := env.SignUp(b, "ada@example.com")
	org := env.Team(b, ada, "Acme")
	req := apitest.Request{Method: http.MethodGet, Path: "/v1/team/members/list?organizationId=" + org, Token: ada.Access}
	b.ReportAllocs()
	for b.Loop() {
		if res := env.Do(req); res.Status != 200 {
			b.Fatal(res.Status)
		}
	}
}
