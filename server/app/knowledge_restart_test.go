package app

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/knowledge/knowledgetest"
)

// A knowledge file added while no worker runs (the server stopped between the commit and the
// parsing) is read once a server starts again on the same data: the parsing job was committed
// with the file, so nothing stays parsing.
func TestKnowledgeParsingResumesAfterARestart(t *testing.T) {
	ctx := context.Background()
	cfg := config.Default()
	cfg.DataDir, cfg.BaseURL, cfg.RateLimit = t.TempDir(), "http://betty.test", 0
	log := slog.New(slog.NewTextHandler(io.Discard, nil))

	first, err := New(ctx, cfg, log, nil, "test")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(first.Handler()) // its workers are never started
	c, err := betty.New(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SignUp(ctx, client.SignUpRequest{Email: "ada@example.com", Password: "correct horse battery"}); err != nil {
		t.Fatal(err)
	}
	team, err := betty.Do[client.Organization](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.CreateTeam(ctx, client.CreateTeamRequest{Name: "Acme"})
	})
	if err != nil {
		t.Fatal(err)
	}
	kb, err := c.CreateKnowledgeBase(ctx, team.Id, "Manuals", "")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "manual.pdf")
	if err := os.WriteFile(path, knowledgetest.PDF(knowledgetest.Page{Heading: "Descaling", Paragraphs: []string{"Use vinegar."}}), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := c.UploadKnowledgeFile(ctx, team.Id, kb.Id, path, betty.UploadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if got, err := c.KnowledgeFile(ctx, team.Id, f.Id); err != nil || got.Status != client.KnowledgeFileStatusParsing {
		t.Fatalf("without workers: %+v %v", got, err)
	}
	access, refresh := c.Tokens()
	srv.Close()
	first.Close()

	second, err := New(ctx, cfg, log, nil, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	if err := second.Start(runCtx); err != nil {
		t.Fatal(err)
	}
	srv = httptest.NewServer(second.Handler())
	defer srv.Close()
	c, err = betty.New(srv.URL, betty.WithTokens(access, refresh))
	if err != nil {
		t.Fatal(err)
	}
	waitCtx, stop := context.WithTimeout(ctx, 30*time.Second)
	defer stop()
	got, err := c.WaitForKnowledgeFile(waitCtx, team.Id, f.Id, 50*time.Millisecond)
	if err != nil || got.Status != client.KnowledgeFileStatusSuccess || got.Pages == nil || *got.Pages != 1 {
		t.Fatalf("after the restart: %+v %v", got, err)
	}
	if hits, err := c.SearchKnowledge(ctx, team.Id, betty.KnowledgeSearch{KnowledgeBaseID: kb.Id, Query: "vinegar"}); err != nil || len(hits) != 1 {
		t.Fatalf("search after the restart: %+v %v", hits, err)
	}
}
