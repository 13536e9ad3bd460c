package knowledge_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/bettyhq/betty/server/knowledge"
)

// TestDumpDocument prints the blocks Betty reads from the file BETTY_DUMP names (PDF, or the
// format BETTY_DUMP_FORMAT names), to compare with another reader's by eye:
//
//	BETTY_DUMP=some.pdf go test -run TestDumpDocument -v ./server/knowledge/
//	pdftotext some.pdf -
func TestDumpDocument(t *testing.T) {
	path := os.Getenv("BETTY_DUMP")
	if path == "" {
		t.Skip("set BETTY_DUMP to a file")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	format := knowledge.Format(os.Getenv("BETTY_DUMP_FORMAT"))
	if format == "" {
		format = knowledge.PDF
	}
	doc, err := parse(t, data, format)
	fmt.Printf("pages %d, error %v\n", doc.Pages, err)
	for _, b := range doc.Blocks {
		mark := ""
		if b.Heading {
			mark = "# "
		}
		fmt.Printf("[p%d] %s%s\n", b.Page, mark, b.Text)
	}
}
