package dashboard

import (
	"io/fs"
	"strings"
	"testing"
)

func TestDistIsRootedAtDist(t *testing.T) {
	files := Dist()
	if _, err := fs.Stat(files, ".gitkeep"); err != nil {
		t.Fatalf("Dist() should hold dist/.gitkeep at its root: %v", err)
	}
	if _, err := fs.Stat(files, "dist"); err == nil {
		t.Fatal("Dist() should be rooted inside dist/, not above it")
	}
}

func TestDistServesTheBuiltApp(t *testing.T) {
	page, err := fs.ReadFile(Dist(), "index.html")
	if err != nil {
		t.Skip("dashboard not built (run `npm run build` in dashboard/); only dist/.gitkeep is embedded")
	}
	if !strings.Contains(string(page), `<div id="root">`) {
		t.Fatalf("index.html has no #root element:\n%s", page)
	}
}
