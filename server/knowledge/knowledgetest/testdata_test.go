package knowledgetest_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/bettyhq/betty/server/knowledge/knowledgetest"
)

var update = flag.Bool("update", false, "rewrite testdata/knowledge")

// testdata/knowledge holds the generated test documents as files, for trying the CLI and the
// dashboard by hand; they stay what the generators make (go test -update rewrites them).
func TestTestdataDocumentsAreCurrent(t *testing.T) {
	docs := map[string][]byte{
		"manual.pdf": knowledgetest.PDF(
			knowledgetest.Page{Heading: "Delivery", Paragraphs: []string{"We deliver parcels on Saturdays between nine and one.", knowledgetest.Lorem(1, 600)}},
			knowledgetest.Page{Heading: "Refunds", Paragraphs: []string{"Refunds reach your card within five working days.", knowledgetest.Lorem(2, 600)}},
			knowledgetest.Page{Heading: "Warranty", Paragraphs: []string{"Every kettle carries a two year warranty."}}),
		"scanned.pdf":   knowledgetest.ScannedPDF(),
		"protected.pdf": knowledgetest.EncryptedPDF(),
		"corrupt.pdf":   knowledgetest.Corrupt(),
		"policy.docx": knowledgetest.DOCX(
			knowledgetest.Para{Style: "Title", Text: "Returns policy"},
			knowledgetest.Para{Text: "Bring the receipt and the kettle to any shop."},
			knowledgetest.Para{Style: "Heading1", Text: "Exchanges", PageBreak: true},
			knowledgetest.Para{Text: "Exchanges are free within thirty days."}),
	}
	dir := filepath.Join("..", "..", "..", "testdata", "knowledge")
	for name, want := range docs {
		path := filepath.Join(dir, name)
		if *update {
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s differs from what the generator makes (%v); run go test ./server/knowledge/knowledgetest -update", path, err)
		}
	}
}
