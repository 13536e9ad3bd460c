package knowledge_test

import (
	"context"
	"io/fs"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/knowledge"
	"github.com/bettyhq/betty/server/knowledge/knowledgetest"
	"github.com/bettyhq/betty/server/store"
)

// migrationUp is the Up part of a migration of the database's dialect.
func migrationUp(t *testing.T, db *store.DB, name string) string {
	t.Helper()
	b, err := fs.ReadFile(store.MigrationsFS(db.Dialect()), name)
	if err != nil {
		t.Fatal(err)
	}
	up, _, ok := strings.Cut(string(b), "-- +goose Down")
	if !ok {
		t.Fatalf("%s has no Down part", name)
	}
	return strings.TrimPrefix(up, "-- +goose Up")
}

// A file of several pages indexed before passages kept their page is read again: migration
// 00024 marks it, the sweep queues it (it does not fail it, as it fails a file never read),
// its old passages answer meanwhile, and once read its page-2 answer cites page 2. A file of
// one page, and a FAQ, are left as they are.
func TestFilesSplitAcrossPagesAreReadAgain(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc, files, a, kbID := kb(t, db, knowledge.Limits{})
		two, err := svc.AddFile(ctx, a, kbID, files.add("faq.pdf", "application/pdf", twoShortPages()), "")
		if err != nil {
			t.Fatal(err)
		}
		one, err := svc.AddFile(ctx, a, kbID, files.add("one.pdf", "application/pdf",
			knowledgetest.PDF(knowledgetest.Page{Paragraphs: []string{"Gift cards never expire."}})), "")
		if err != nil {
			t.Fatal(err)
		}
		faq, err := svc.AddFAQ(ctx, a, kbID, "Parking", "Twenty free spaces behind the shop.")
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{two.ID, one.ID} {
			if err := svc.ParseFile(ctx, a.OrganizationID, id, false); err != nil {
				t.Fatal(err)
			}
		}
		// As the old splitter left it: both pages in one passage, cited as page 1; its jobs done.
		page1 := 1
		old := []store.Passage{{Page: &page1, Content: "Q: When are you open?\n\nA: We are open from 9:00 to 17:00, Monday to Friday.\n\n" +
			"Q: How long does a refund take?\n\nA: Refunds reach your card within five working days."}}
		if err := db.ReplacePassages(ctx, a.OrganizationID, kbID, two.ID, old); err != nil {
			t.Fatal(err)
		}
		if err := db.ExecRaw(ctx, `UPDATE river_job SET state = 'completed', finalized_at = CURRENT_TIMESTAMP WHERE kind = 'knowledge_parse'`); err != nil {
			t.Fatal(err)
		}
		refund := func() store.PassageHit {
			t.Helper()
			hits, err := svc.Search(ctx, a, knowledge.SearchInput{KnowledgeBaseID: kbID, Query: "How long does a refund take?"})
			if err != nil || len(hits) != 1 {
				t.Fatalf("refund search: %+v %v", hits, err)
			}
			return hits[0]
		}
		if err := db.ExecRaw(ctx, migrationUp(t, db, "00024_passages_keep_their_page.sql")); err != nil {
			t.Fatal(err)
		}
		status := func(id string) store.KnowledgeFileStatus {
			t.Helper()
			f, err := db.KnowledgeFileByID(ctx, a.OrganizationID, id)
			if err != nil {
				t.Fatal(err)
			}
			return f.Status
		}
		if status(two.ID) != store.KnowledgeParsing || status(one.ID) != store.KnowledgeSuccess || status(faq.ID) != store.KnowledgeSuccess {
			t.Fatalf("after the migration: %s %s %s", status(two.ID), status(one.ID), status(faq.ID))
		}
		if err := svc.SweepAbandoned(ctx); err != nil {
			t.Fatal(err)
		}
		if status(two.ID) != store.KnowledgeParsing || pageOf(refund().Page) != 1 {
			t.Fatalf("while waiting: %s, page %d", status(two.ID), pageOf(refund().Page))
		}
		if err := svc.SweepAbandoned(ctx); err != nil { // queued once: the job is live
			t.Fatal(err)
		}
		var queued int
		if err := db.Writer().QueryRowContext(ctx, `SELECT COUNT(*) FROM river_job WHERE kind = 'knowledge_parse' AND state = 'available'`).Scan(&queued); err != nil || queued != 1 {
			t.Fatalf("queued %d jobs, %v", queued, err)
		}
		if err := svc.ParseFile(ctx, a.OrganizationID, two.ID, false); err != nil {
			t.Fatal(err)
		}
		if got := refund(); status(two.ID) != store.KnowledgeSuccess || pageOf(got.Page) != 2 || strings.Contains(got.Content, "open") {
			t.Fatalf("read again: %s, page %d %q", status(two.ID), pageOf(got.Page), got.Content)
		}
	})
}
