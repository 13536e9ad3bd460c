package knowledge_test

import (
	"context"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/knowledge"
	"github.com/bettyhq/betty/server/knowledge/knowledgetest"
	"github.com/bettyhq/betty/server/store"
)

// twoShortPages is a PDF of two pages of body text (no headings) that together hold less
// than one passage: what was merged into one passage cited as page 1.
func twoShortPages() []byte {
	return knowledgetest.PDF(
		knowledgetest.Page{Paragraphs: []string{"Q: When are you open?", "A: We are open from 9:00 to 17:00, Monday to Friday."}},
		knowledgetest.Page{Paragraphs: []string{"Q: How long does a refund take?", "A: Refunds reach your card within five working days."}},
	)
}

func pageOf(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

// A passage never spans pages: each short page is its own passage, citing its page.
func TestSplitKeepsEachPage(t *testing.T) {
	doc, err := parse(t, twoShortPages(), knowledge.PDF)
	if err != nil {
		t.Fatal(err)
	}
	ps := knowledge.Split(doc)
	if len(ps) != 2 {
		t.Fatalf("%d passages: %+v", len(ps), ps)
	}
	if pageOf(ps[0].Page) != 1 || !strings.Contains(ps[0].Content, "open from 9:00") || strings.Contains(ps[0].Content, "refund") {
		t.Fatalf("page 1 passage: page %d %q", pageOf(ps[0].Page), ps[0].Content)
	}
	if pageOf(ps[1].Page) != 2 || ps[1].Content != "Q: How long does a refund take?\n\nA: Refunds reach your card within five working days." {
		t.Fatalf("page 2 passage: page %d %q", pageOf(ps[1].Page), ps[1].Content)
	}
}

// A section running on over a page break is cut there; the passage on the new page starts
// with the section's heading and cites the new page. A heading alone at the foot of a page
// moves to the page its text is on.
func TestSplitCutsSectionsAtPageBreaks(t *testing.T) {
	doc := knowledge.Document{Blocks: []knowledge.Block{
		{Heading: true, Text: "Delivery", Page: 1},
		{Text: "We deliver on Saturdays.", Page: 1},
		{Text: "Parcels over 30 kg go by freight.", Page: 2},
		{Heading: true, Text: "Warranty", Page: 2},
		{Text: "Two years on every kettle.", Page: 3},
	}}
	ps := knowledge.Split(doc)
	var got []string
	for _, p := range ps {
		got = append(got, strings.ReplaceAll(p.Content, "\n", "/")+"@"+string(rune('0'+pageOf(p.Page))))
	}
	want := "Delivery//We deliver on Saturdays.@1|Delivery/Parcels over 30 kg go by freight.@2|Warranty/Two years on every kettle.@3"
	if strings.Join(got, "|") != want {
		t.Fatalf("passages\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
}

// A question answered on page 2 is found on page 2, through the knowledge search the API and
// the call engine use.
func TestSearchCitesThePageOfTheAnswer(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc, files, a, kbID := kb(t, db, knowledge.Limits{})
		e, err := svc.AddFile(ctx, a, kbID, files.add("faq.pdf", "application/pdf", twoShortPages()), "")
		if err != nil {
			t.Fatal(err)
		}
		if err := svc.ParseFile(ctx, a.OrganizationID, e.ID, false); err != nil {
			t.Fatal(err)
		}
		for q, page := range map[string]int{"How long does a refund take?": 2, "When are you open on Monday?": 1} {
			hits, err := svc.Search(ctx, a, knowledge.SearchInput{KnowledgeBaseID: kbID, Query: q})
			if err != nil || len(hits) == 0 {
				t.Fatalf("%s: %v %v", q, hits, err)
			}
			if pageOf(hits[0].Page) != page || hits[0].Name != "faq.pdf" {
				t.Fatalf("%s: cited %s page %d, want page %d: %q", q, hits[0].Name, pageOf(hits[0].Page), page, hits[0].Content)
			}
		}
	})
}
