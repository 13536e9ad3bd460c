package store_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/store"
)

// Knowledge bases on both dialects: one active per campaign, entries, passages searched with
// stemming and highlighting, nothing of another team found, passages gone with their file.
func TestKnowledgeBases(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		_, org := teamFixture(t, db, "owner@example.com")
		_, other := teamFixture(t, db, "other@example.com")
		c := store.Campaign{OrganizationID: org.ID, Name: "Renewals", Direction: "outbound", Status: "draft", Priority: "medium", Purpose: "Other", Settings: "{}"}
		if err := db.CreateCampaign(ctx, &c); err != nil {
			t.Fatal(err)
		}
		a := store.KnowledgeBase{OrganizationID: org.ID, Name: "Prices", CampaignID: &c.ID}
		b := store.KnowledgeBase{OrganizationID: org.ID, Name: "Policies"}
		for _, kb := range []*store.KnowledgeBase{&a, &b} {
			if err := db.CreateKnowledgeBase(ctx, kb); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.CreateKnowledgeBase(ctx, &store.KnowledgeBase{OrganizationID: org.ID, Name: "prices"}); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("same name: %v", err)
		}
		if err := db.LinkKnowledgeBase(ctx, org.ID, a.ID, c.ID); err != nil {
			t.Fatal(err)
		}
		if got, err := db.KnowledgeBaseByID(ctx, org.ID, a.ID); err != nil || !got.Active {
			t.Fatalf("created for the campaign: %+v %v", got, err)
		}
		// Activating b deactivates a, in one go.
		l, err := db.ActivateKnowledgeBase(ctx, org.ID, b.ID, c.ID)
		if err != nil || !l.Active {
			t.Fatalf("activate: %+v %v", l, err)
		}
		list, total, err := db.ListKnowledgeBases(ctx, org.ID, c.ID, 20, 0)
		if err != nil || total != 2 || list[0].Name != "Policies" || !list[0].Active || list[1].Active {
			t.Fatalf("campaign list: %+v %d %v", list, total, err)
		}
		if id, err := db.ActiveKnowledgeBase(ctx, org.ID, c.ID); err != nil || id != b.ID {
			t.Fatalf("active: %s %v", id, err)
		}
		if _, err := db.DeactivateKnowledgeBase(ctx, org.ID, b.ID, c.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ActiveKnowledgeBase(ctx, org.ID, c.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("after deactivating: %v", err)
		}
		if _, err := db.DeactivateKnowledgeBase(ctx, other.ID, b.ID, c.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("another team deactivates: %v", err)
		}

		f := store.KnowledgeFile{OrganizationID: org.ID, KnowledgeBaseID: a.ID, Type: "pdf", Status: store.KnowledgeParsing, Name: "prices.pdf"}
		if err := db.CreateKnowledgeFile(ctx, &f); err != nil {
			t.Fatal(err)
		}
		page := 2
		f.Status, f.Pages = store.KnowledgeSuccess, &page
		if err := db.FinishKnowledgeFile(ctx, f, []store.Passage{
			{Page: &page, Content: "We deliver parcels on Saturdays between nine and one."},
			{Page: &page, Content: "Refunds take five working days."},
		}); err != nil {
			t.Fatal(err)
		}
		if err := db.FinishKnowledgeFile(ctx, f, nil); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("finishing twice: %v", err)
		}
		hits, err := db.SearchPassages(ctx, org.ID, store.SearchScope{KnowledgeBaseID: a.ID}, []string{"delivering", "weekend"}, 5)
		if err != nil || len(hits) != 1 || hits[0].Page == nil || *hits[0].Page != 2 || hits[0].Name != "prices.pdf" ||
			!strings.Contains(hits[0].Snippet, "**deliver**") || hits[0].Rank <= 0 {
			t.Fatalf("search: %+v %v", hits, err)
		}
		for _, odd := range [][]string{{"名前", "x"}, {"ǅ"}, {"or", "and", "not"}, {"near"}, {"1½"}, {"the"}} {
			if _, err := db.SearchPassages(ctx, org.ID, store.SearchScope{KnowledgeBaseID: a.ID}, odd, 5); err != nil {
				t.Fatalf("terms %q: %v", odd, err)
			}
		}
		if hits, err := db.SearchPassages(ctx, other.ID, store.SearchScope{KnowledgeBaseID: a.ID}, []string{"deliver"}, 5); err != nil || len(hits) != 0 {
			t.Fatalf("another team finds: %+v %v", hits, err)
		}
		if err := db.DeleteKnowledgeFile(ctx, org.ID, f.ID); err != nil {
			t.Fatal(err)
		}
		if hits, err := db.SearchPassages(ctx, org.ID, store.SearchScope{KnowledgeBaseID: a.ID}, []string{"deliver"}, 5); err != nil || len(hits) != 0 {
			t.Fatalf("found after deleting the file: %+v %v", hits, err)
		}
	})
}
