package app

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
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
	c, team, f := knowledgeTeam(t, srv.URL, "manual.pdf",
		knowledgetest.PDF(knowledgetest.Page{Heading: "Descaling", Paragraphs: []string{"Use vinegar."}}))
	time.Sleep(300 * time.Millisecond)
	if got, err := c.KnowledgeFile(ctx, team.Id, f.Id); err != nil || got.Status != client.KnowledgeFileStatusParsing {
		t.Fatalf("without workers: %+v %v", got, err)
	}
	srv.Close()
	first.Close()

	c = startAgain(t, cfg, log, c)
	got, err := waitForFile(c, team, f)
	if err != nil || got.Status != client.KnowledgeFileStatusSuccess || got.Pages == nil || *got.Pages != 1 {
		t.Fatalf("after the restart: %+v %v", got, err)
	}
	if hits, err := c.SearchKnowledge(ctx, team.Id, betty.KnowledgeSearch{KnowledgeBaseID: f.KnowledgeBaseId, Query: "vinegar"}); err != nil || len(hits) != 1 {
		t.Fatalf("search after the restart: %+v %v", hits, err)
	}
}

// syncBuffer is a log that goroutines write at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// parseJobState answers the state of the one knowledge parsing job.
func parseJobState(t *testing.T, a *App) string {
	t.Helper()
	var state string
	if err := a.DB().Writer().QueryRow(`SELECT state FROM river_job WHERE kind = 'knowledge_parse'`).Scan(&state); err != nil {
		t.Fatal(err)
	}
	return state
}

// knowledgeTeam signs up on srv, makes a team and a knowledge base, and uploads data to it as
// name; it answers the client, the team and the file.
func knowledgeTeam(t *testing.T, url, name string, data []byte) (*betty.Client, client.Organization, client.KnowledgeFile) {
	t.Helper()
	ctx := context.Background()
	c, err := betty.New(url)
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
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := c.UploadKnowledgeFile(ctx, team.Id, kb.Id, path, betty.UploadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return c, team, f
}

// slowPDF is a PDF that is only work: one content stream drawn 100,000 times, seconds of
// reading before its limits or its time budget end it.
func slowPDF() []byte {
	return knowledgetest.RawPDF("",
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 5 0 R >> >> /Contents ["+strings.Repeat("4 0 R ", 100_000)+"] >>",
		knowledgetest.Stream("", []byte("BT /F1 12 Tf 72 700 Td (Hello) Tj ET "+strings.Repeat("q Q ", 2000))), knowledgetest.Font)
}

// `betty serve` stopping while a file is being read stops the reading too, so the workers stop
// within the shutdown budget (the old parsers never looked at the context: the shutdown
// waited, gave up, and left a core busy); the file, still parsing, is read again from the
// start by the next server — here with a time budget that ends it in error.
func TestKnowledgeParsingStopsWithTheServer(t *testing.T) {
	ctx := context.Background()
	cfg := config.Default()
	cfg.DataDir, cfg.BaseURL, cfg.RateLimit = t.TempDir(), "http://betty.test", 0
	cfg.ShutdownTimeout = 100 * time.Millisecond // the parse gets no time to finish: it is cancelled
	cfg.KnowledgeParseTimeout = 5 * time.Minute
	var logs syncBuffer
	first, err := New(ctx, cfg, slog.New(slog.NewTextHandler(&logs, nil)), nil, "test")
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	serveCtx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- first.Serve(serveCtx, ln) }()
	c, team, f := knowledgeTeam(t, "http://"+ln.Addr().String(), "slow.pdf", slowPDF())
	for parseJobState(t, first) != "running" {
		time.Sleep(10 * time.Millisecond)
	}
	stop()
	select {
	case err := <-served:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("betty serve did not return")
	}
	if strings.Contains(logs.String(), "did not stop cleanly") {
		t.Fatalf("the workers missed the shutdown budget:\n%s", logs.String())
	}
	if state := parseJobState(t, first); state != "available" {
		t.Fatalf("the interrupted parse is %s, not available to the next server", state)
	}
	first.Close()

	cfg.KnowledgeParseTimeout = time.Second
	c = startAgain(t, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), c)
	got, err := waitForFile(c, team, f)
	if err != nil || got.Status != client.KnowledgeFileStatusError || got.ErrorMessage == nil || !strings.Contains(*got.ErrorMessage, "the file looks damaged") {
		t.Fatalf("after the restart: %+v %v", got, err)
	}
}

// A file whose parsing job River gave up on (every attempt interrupted by a crash) does not
// stay parsing: the sweep a server runs when it starts leading ends it in error.
func TestKnowledgeFilesRiverGaveUpOnEndInError(t *testing.T) {
	ctx := context.Background()
	cfg := config.Default()
	cfg.DataDir, cfg.BaseURL, cfg.RateLimit = t.TempDir(), "http://betty.test", 0
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	first, err := New(ctx, cfg, log, nil, "test")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(first.Handler()) // its workers are never started
	c, team, f := knowledgeTeam(t, srv.URL, "crashy.pdf", knowledgetest.CyclicPageTree())
	if err := first.DB().ExecRaw(ctx, `UPDATE river_job SET state = 'discarded', finalized_at = CURRENT_TIMESTAMP WHERE kind = 'knowledge_parse'`); err != nil {
		t.Fatal(err)
	}
	srv.Close()
	first.Close()

	c = startAgain(t, cfg, log, c)
	got, err := waitForFile(c, team, f)
	if err != nil || got.Status != client.KnowledgeFileStatusError || got.ErrorMessage == nil || !strings.Contains(*got.ErrorMessage, "the file looks damaged") {
		t.Fatalf("after the restart: %+v %v", got, err)
	}
}

// A file being read when `betty serve` crashed (SIGKILL: its job left running, attempted once)
// is read again as soon as the next server starts on the same SQLite data, not 15 minutes
// later when River would rescue it.
func TestKnowledgeParsingResumesAfterACrash(t *testing.T) {
	ctx := context.Background()
	cfg := config.Default()
	cfg.DataDir, cfg.BaseURL, cfg.RateLimit = t.TempDir(), "http://betty.test", 0
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	first, err := New(ctx, cfg, log, nil, "test")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(first.Handler()) // its workers are never started
	c, team, f := knowledgeTeam(t, srv.URL, "manual.pdf", knowledgetest.PDF(knowledgetest.Page{Paragraphs: []string{"Returns are free for 30 days."}}))
	// What the crashed process left: the job running since it fetched it, one attempt made.
	if err := first.DB().ExecRaw(ctx, `UPDATE river_job SET state = 'running', attempt = 1, attempted_at = CURRENT_TIMESTAMP WHERE kind = 'knowledge_parse'`); err != nil {
		t.Fatal(err)
	}
	srv.Close()
	first.Close()

	c = startAgain(t, cfg, log, c)
	got, err := waitForFile(c, team, f)
	if err != nil || got.Status != client.KnowledgeFileStatusSuccess {
		t.Fatalf("after the restart: %+v %v", got, err)
	}
}

// startAgain starts a server with its workers on cfg's data, as the next `betty serve` would,
// and answers a client of it signed in as c was.
func startAgain(t *testing.T, cfg config.Config, log *slog.Logger, c *betty.Client) *betty.Client {
	t.Helper()
	a, err := New(context.Background(), cfg, log, nil, "test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	runCtx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	if err := a.Start(runCtx); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(a.Handler())
	t.Cleanup(srv.Close)
	access, refresh := c.Tokens()
	again, err := betty.New(srv.URL, betty.WithTokens(access, refresh))
	if err != nil {
		t.Fatal(err)
	}
	return again
}

// waitForFile waits, 30 s at most, for a knowledge file to end parsing.
func waitForFile(c *betty.Client, team client.Organization, f client.KnowledgeFile) (client.KnowledgeFile, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return c.WaitForKnowledgeFile(ctx, team.Id, f.Id, 50*time.Millisecond)
}
