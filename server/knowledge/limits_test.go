package knowledge_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/jobs"
	"github.com/bettyhq/betty/server/knowledge"
	"github.com/bettyhq/betty/server/knowledge/knowledgetest"
	"github.com/bettyhq/betty/server/store"
)

// uploads are a team's uploads as the knowledge feature sees them: fileUrl "upload:<name>"
// names one; opening it may call a hook first.
type uploads struct {
	mu     sync.Mutex
	files  map[string][]byte // name → bytes
	types  map[string]string // name → MIME type
	onRead func(name string) // called at the first read of an opened upload
	opened []string
}

func (u *uploads) add(name, mimeType string, data []byte) string {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.files == nil {
		u.files, u.types = map[string][]byte{}, map[string]string{}
	}
	u.files[name], u.types[name] = data, mimeType
	return "upload:" + name
}

func (u *uploads) Resolve(_ context.Context, _, url string) (knowledge.Upload, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	name := strings.TrimPrefix(url, "upload:")
	return knowledge.Upload{ID: name, Name: name, Type: u.types[name], Size: int64(len(u.files[name]))}, nil
}

func (u *uploads) Open(_ context.Context, _, id string) (knowledge.Object, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.opened = append(u.opened, id)
	return &object{Reader: bytes.NewReader(u.files[id]), name: id, hook: u.onRead}, nil
}

func (u *uploads) URL(context.Context, string, string) (string, error)           { return "", nil }
func (u *uploads) Use(context.Context, string, string, string) error             { return nil }
func (u *uploads) Discard(context.Context, string, string, string) (bool, error) { return false, nil }
func (u *uploads) Purge(context.Context, string, string)                         {}

type object struct {
	*bytes.Reader
	name string
	hook func(string)
	once sync.Once
}

func (o *object) ReadAt(p []byte, off int64) (int, error) {
	if o.hook != nil {
		o.once.Do(func() { o.hook(o.name) })
	}
	return o.Reader.ReadAt(p, off)
}
func (o *object) Close() error { return nil }

// kb makes a team with a knowledge base and a service reading its files within limits; its
// jobs are queued, never worked: the tests call ParseFile as the job would.
func kb(t *testing.T, db *store.DB, limits knowledge.Limits) (*knowledge.Service, *uploads, auth.Actor, string) {
	t.Helper()
	ctx := context.Background()
	u := store.User{Email: "kb-" + store.NewID() + "@example.com"}
	if err := db.CreateUser(ctx, &u); err != nil {
		t.Fatal(err)
	}
	o := store.Organization{Name: "Team", OwnerUserID: u.ID, PublicAPIKey: "pk_" + store.NewID()}
	if err := db.CreateOrganization(ctx, &o, u.Email); err != nil {
		t.Fatal(err)
	}
	a := auth.Actor{Principal: auth.Principal{UserID: u.ID}, Grant: auth.Grant{OrganizationID: o.ID, Role: auth.Owner}}
	q := jobs.New(db, slog.New(slog.NewTextHandler(io.Discard, nil)), jobs.Config{})
	files := &uploads{}
	svc := knowledge.New(db, q, files, limits)
	if err := q.Open(); err != nil {
		t.Fatal(err)
	}
	base, err := svc.Create(ctx, a, "Manuals", nil)
	if err != nil {
		t.Fatal(err)
	}
	return svc, files, a, base.ID
}

// slowPDF is a PDF that is only work: one content stream drawn 100,000 times, 800 MB to read.
func slowPDF() []byte {
	return knowledgetest.RawPDF("",
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 5 0 R >> >> /Contents ["+strings.Repeat("4 0 R ", 100_000)+"] >>",
		knowledgetest.Stream("", []byte("BT /F1 12 Tf 72 700 Td (Hello) Tj ET "+strings.Repeat("q Q ", 2000))), knowledgetest.Font)
}

// within runs fn and fails the test if it has not returned after 20 s: fn must end by itself,
// not hang the suite.
func within(t *testing.T, fn func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- fn() }()
	select {
	case err := <-done:
		return err
	case <-time.After(20 * time.Second):
		t.Fatal("no answer within 20 s")
		return nil
	}
}

// A file still being read when its time budget runs out ends in error, "the file looks
// damaged", like every other file that cannot be read.
func TestParseBudgetEndsTheFile(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc, files, a, kbID := kb(t, db, knowledge.Limits{Time: 50 * time.Millisecond})
		e, err := svc.AddFile(ctx, a, kbID, files.add("slow.pdf", "application/pdf", slowPDF()), "")
		if err != nil {
			t.Fatal(err)
		}
		if err := within(t, func() error { return svc.ParseFile(ctx, a.OrganizationID, e.ID, false) }); err != nil {
			t.Fatal(err)
		}
		got, err := db.KnowledgeFileByID(ctx, a.OrganizationID, e.ID)
		if err != nil || got.Status != store.KnowledgeError || got.ErrorMessage == nil || !strings.Contains(*got.ErrorMessage, "the file looks damaged") {
			t.Fatalf("%+v %v", got, err)
		}
	})
}

// When the server stops, a parse in progress stops too (its loops watch the job's context),
// and the file stays parsing, to be read again from the start: nothing is half-written.
func TestParseStopsWithTheServer(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc, files, a, kbID := kb(t, db, knowledge.Limits{Time: 5 * time.Minute})
		e, err := svc.AddFile(ctx, a, kbID, files.add("slow.pdf", "application/pdf", slowPDF()), "")
		if err != nil {
			t.Fatal(err)
		}
		jobCtx, stop := context.WithCancel(ctx)
		files.onRead = func(string) { stop() } // the server stops once reading has begun
		err = within(t, func() error { return svc.ParseFile(jobCtx, a.OrganizationID, e.ID, false) })
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("stopped parse: %v", err)
		}
		got, err := db.KnowledgeFileByID(ctx, a.OrganizationID, e.ID)
		if err != nil || got.Status != store.KnowledgeParsing {
			t.Fatalf("after the stop: %+v %v", got, err)
		}
		// The next server reads it again.
		files.onRead = nil
		files.add("slow.pdf", "application/pdf", knowledgetest.PDF(knowledgetest.Page{Paragraphs: []string{"Read after the restart."}}))
		if err := svc.ParseFile(ctx, a.OrganizationID, e.ID, false); err != nil {
			t.Fatal(err)
		}
		if got, err := db.KnowledgeFileByID(ctx, a.OrganizationID, e.ID); err != nil || got.Status != store.KnowledgeSuccess {
			t.Fatalf("read again: %+v %v", got, err)
		}
	})
}

// A parse waits for its share of the memory budget: while one file holds all of it, another
// is not even opened.
func TestParsesShareTheMemoryBudget(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc, files, a, kbID := kb(t, db, knowledge.Limits{Memory: 32 << 20}) // one DOCX's share
		first, err := svc.AddFile(ctx, a, kbID, files.add("first.docx", docxType, knowledgetest.DOCX(knowledgetest.Para{Text: "first"})), "")
		if err != nil {
			t.Fatal(err)
		}
		second, err := svc.AddFile(ctx, a, kbID, files.add("second.docx", docxType, knowledgetest.DOCX(knowledgetest.Para{Text: "second"})), "")
		if err != nil {
			t.Fatal(err)
		}
		reading, release := make(chan struct{}), make(chan struct{})
		files.onRead = func(name string) {
			if name == "first.docx" {
				close(reading)
				<-release
			}
		}
		done := make(chan error, 1)
		go func() { done <- svc.ParseFile(ctx, a.OrganizationID, first.ID, false) }()
		<-reading
		waiting, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		defer cancel()
		if err := svc.ParseFile(waiting, a.OrganizationID, second.ID, false); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("second parse while the first holds the memory: %v", err)
		}
		files.mu.Lock()
		opened := strings.Join(files.opened, ",")
		files.mu.Unlock()
		if opened != "first.docx" {
			t.Fatalf("opened %s", opened)
		}
		close(release)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if err := svc.ParseFile(ctx, a.OrganizationID, second.ID, false); err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{first.ID, second.ID} {
			if got, err := db.KnowledgeFileByID(ctx, a.OrganizationID, id); err != nil || got.Status != store.KnowledgeSuccess {
				t.Fatalf("%+v %v", got, err)
			}
		}
	})
}

const docxType = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"

// A file whose parsing job River gave up on (every attempt interrupted) ends in error when
// the sweep runs; a file whose job is still to run is left to it.
func TestSweepEndsFilesRiverGaveUpOn(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc, files, a, kbID := kb(t, db, knowledge.Limits{})
		abandoned, err := svc.AddFile(ctx, a, kbID, files.add("crashy.pdf", "application/pdf", knowledgetest.CyclicPageTree()), "")
		if err != nil {
			t.Fatal(err)
		}
		if err := db.ExecRaw(ctx, `UPDATE river_job SET state = 'discarded', finalized_at = CURRENT_TIMESTAMP WHERE kind = 'knowledge_parse'`); err != nil {
			t.Fatal(err)
		}
		waiting, err := svc.AddFile(ctx, a, kbID, files.add("fine.pdf", "application/pdf", knowledgetest.PDF(knowledgetest.Page{Paragraphs: []string{"x"}})), "")
		if err != nil {
			t.Fatal(err)
		}
		if err := svc.SweepAbandoned(ctx); err != nil {
			t.Fatal(err)
		}
		got, err := db.KnowledgeFileByID(ctx, a.OrganizationID, abandoned.ID)
		if err != nil || got.Status != store.KnowledgeError || got.ErrorMessage == nil || !strings.Contains(*got.ErrorMessage, "the file looks damaged") {
			t.Fatalf("abandoned: %+v %v", got, err)
		}
		if got, err := db.KnowledgeFileByID(ctx, a.OrganizationID, waiting.ID); err != nil || got.Status != store.KnowledgeParsing {
			t.Fatalf("waiting: %+v %v", got, err)
		}
	})
}
