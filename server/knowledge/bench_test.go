package knowledge_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/bettyhq/betty/server/knowledge"
	"github.com/bettyhq/betty/server/knowledge/knowledgetest"
)

// Reading and splitting a 200-page PDF, without the database (benchreport measures the
// whole job, indexing included, on SQLite and PostgreSQL).
func BenchmarkParsePDF200Pages(b *testing.B) {
	pages := make([]knowledgetest.Page, 200)
	for i := range pages {
		pages[i] = knowledgetest.Page{Heading: fmt.Sprintf("Section %d", i+1),
			Paragraphs: []string{knowledgetest.Lorem(i, 700), knowledgetest.Lorem(i+1, 700), knowledgetest.Lorem(i+2, 600)}}
	}
	data := knowledgetest.PDF(pages...)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		doc, err := knowledge.Parse(context.Background(), bytes.NewReader(data), int64(len(data)), knowledge.PDF)
		if err != nil || doc.Pages != 200 {
			b.Fatal(doc.Pages, err)
		}
		knowledge.Split(doc)
	}
	b.ReportMetric(200*float64(b.N)/b.Elapsed().Seconds(), "pages/s")
}
