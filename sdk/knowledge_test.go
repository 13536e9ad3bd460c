package betty_test

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/knowledge/knowledgetest"
	"github.com/bettyhq/betty/server/testserver"
)

// The knowledge helpers against the real server: create, upload and wait for parsing, FAQs,
// search by knowledge base and by campaign, activation, the All iterators, deletion.
func TestKnowledgeAgainstTheRealServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	env := testserver.Start(t)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	c, err := betty.New(env.URL, betty.WithTokens(ada.Access, ada.Refresh))
	if err != nil {
		t.Fatal(err)
	}
	kb, err := c.CreateKnowledgeBase(ctx, team, "Manuals", "")
	if err != nil || kb.Name != "Manuals" || kb.CampaignId != nil {
		t.Fatalf("create: %+v %v", kb, err)
	}
	if _, err := c.CreateKnowledgeBase(ctx, team, "manuals", ""); !errors.Is(err, betty.ErrConflict) {
		t.Fatalf("same name: %v", err)
	}
	path := filepath.Join(t.TempDir(), "kettle.pdf")
	if err := os.WriteFile(path, knowledgetest.PDF(knowledgetest.Page{Heading: "Descaling", Paragraphs: []string{"Descale the kettle every month with vinegar."}}), 0o600); err != nil {
		t.Fatal(err)
	}
	var progressed bool
	f, err := c.UploadKnowledgeFile(ctx, team, kb.Id, path, betty.UploadOptions{Progress: func(sent, total int64) { progressed = sent == total }})
	if err != nil || f.Status != client.KnowledgeFileStatusParsing || !progressed {
		t.Fatalf("upload: %+v %v", f, err)
	}
	if f, err = c.WaitForKnowledgeFile(ctx, team, f.Id, 20*time.Millisecond); err != nil || f.Status != client.KnowledgeFileStatusSuccess || f.Pages == nil || *f.Pages != 1 {
		t.Fatalf("parsed: %+v %v", f, err)
	}
	faq, err := c.AddKnowledgeFAQ(ctx, kb.Id, "Guarantee", "Q: How long? A: Two years.")
	if err != nil || faq.Type != client.KnowledgeFileTypeFaq {
		t.Fatalf("faq: %+v %v", faq, err)
	}
	if faq, err = c.EditKnowledgeFAQ(ctx, faq.Id, "Guarantee", "Q: How long? A: Three years."); err != nil || !strings.Contains(*faq.Faq, "Three") {
		t.Fatalf("edit: %+v %v", faq, err)
	}
	var n int
	for f, err := range c.KnowledgeFiles(ctx, team, kb.Id) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		_ = f
	}
	if n != 2 {
		t.Fatalf("%d files", n)
	}
	hits, err := c.SearchKnowledge(ctx, team, betty.KnowledgeSearch{KnowledgeBaseID: kb.Id, Query: "descaling vinegar"})
	if err != nil || len(hits) != 1 || hits[0].Name != "kettle.pdf" || !strings.Contains(hits[0].Snippet, "**") {
		t.Fatalf("search: %+v %v", hits, err)
	}

	campName := "Support"
	camp, err := betty.Do[client.Campaign](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.CreateCampaign(ctx, client.CreateCampaignRequest{OrganizationId: team, Name: &campName})
	})
	if err != nil {
		t.Fatal(err)
	}
	if l, err := c.ActivateKnowledgeBase(ctx, team, kb.Id, camp.Id); err != nil || !l.Active {
		t.Fatalf("activate: %+v %v", l, err)
	}
	if hits, err := c.SearchKnowledge(ctx, team, betty.KnowledgeSearch{CampaignID: camp.Id, Query: "years"}); err != nil || len(hits) != 1 || hits[0].Type != client.KnowledgeFileTypeFaq {
		t.Fatalf("campaign search: %+v %v", hits, err)
	}
	for got, err := range c.KnowledgeBases(ctx, team, camp.Id) {
		if err != nil || got.Id != kb.Id || !got.Active {
			t.Fatalf("campaign's knowledge bases: %+v %v", got, err)
		}
	}
	if _, err := c.DeactivateKnowledgeBase(ctx, team, kb.Id, camp.Id); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteKnowledgeFile(ctx, team, f.Id); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteKnowledgeBase(ctx, team, kb.Id); err != nil {
		t.Fatal(err)
	}
	if _, err := c.KnowledgeFile(ctx, team, faq.Id); !errors.Is(err, betty.ErrNotFound) {
		t.Fatalf("after deleting the knowledge base: %v", err)
	}
}
