package knowledge_test

import (
	"fmt"
	"os"
	"testing"
)

func TestZZDump(t *testing.T) {
	path := os.Getenv("DUMP")
	if path == "" {
		t.Skip()
	}
	data, _ := os.ReadFile(path)
	doc, err := parse(t, data, "pdf")
	fmt.Printf("pages %d err %v\n", doc.Pages, err)
	for _, b := range doc.Blocks {
		h := ""
		if b.Heading {
			h = "# "
		}
		fmt.Printf("[p%d] %s%s\n", b.Page, h, b.Text)
	}
}
