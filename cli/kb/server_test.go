package kb_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bettyhq/betty/cli/config"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/cli/kb"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/knowledge/knowledgetest"
	"github.com/bettyhq/betty/server/testserver"
)

// The commands against the real server: create, upload and wait (a PDF read, a scanned one
// refused with its reason), files, FAQs, search, activation, rename, delete.
func TestAgainstTheRealServer(t *testing.T) {
	env := testserver.Start(t)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	profile := &config.Profile{Server: env.URL, AccessToken: ada.Access, RefreshToken: ada.Refresh, Email: ada.Email, Team: team}
	run := func(opts clitest.Options, args ...string) (string, string, error) {
		t.Helper()
		opts.Profile = profile
		f, s := clitest.NewFactory(t, opts)
		err := clitest.Run(kb.NewCmdKB(f), args...)
		return s.Out.String(), s.ErrOut.String(), err
	}
	decode := func(out string, into any) {
		t.Helper()
		if err := json.Unmarshal([]byte(out), into); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
	}

	out, errOut, err := run(clitest.Options{}, "create", "Product manuals")
	if err != nil || !strings.Contains(errOut, `Created knowledge base "Product manuals"`) || len(strings.TrimSpace(out)) != 36 {
		t.Fatalf("create: %v %q %q", err, out, errOut)
	}
	dir := t.TempDir()
	manual := filepath.Join(dir, "kettle.pdf")
	scan := filepath.Join(dir, "scan.pdf")
	os.WriteFile(manual, knowledgetest.PDF(
		knowledgetest.Page{Heading: "Descaling", Paragraphs: []string{"Descale the kettle every month with white vinegar."}},
		knowledgetest.Page{Heading: "Warranty", Paragraphs: []string{"The kettle has a two year warranty."}}), 0o600)
	os.WriteFile(scan, knowledgetest.ScannedPDF(), 0o600)

	out, errOut, err = run(clitest.Options{}, "upload", "product manuals", manual, scan, "--wait", "--json")
	var files []struct{ ID, Name, Status string }
	decode(out, &files)
	if err == nil || !strings.Contains(err.Error(), "1 of 2 files could not be read") || len(files) != 2 || files[0].Status != "success" ||
		!strings.Contains(errOut, "kettle.pdf: read, 2 pages.") || !strings.Contains(errOut, "scan.pdf: could not be read: This PDF has no text layer") {
		t.Fatalf("upload: %v %s %s", err, out, errOut)
	}

	out, _, err = run(clitest.Options{}, "faq", "add", "Product manuals", "--name", "Delivery", "--text", "Q: Weekends? A: We deliver on Saturdays.")
	faqID := strings.TrimSpace(out)
	if err != nil || len(faqID) != 36 {
		t.Fatalf("faq add: %v %q", err, out)
	}
	if _, _, err = run(clitest.Options{Stdin: "Q: Weekends? A: Saturdays and Sundays."}, "faq", "edit", faqID, "--file", "-"); err != nil {
		t.Fatal(err)
	}
	out, _, err = run(clitest.Options{}, "files", "Product manuals", "--json")
	var listed []struct{ Name, Type, Status string }
	if decode(out, &listed); err != nil || len(listed) != 3 || listed[0].Type != "faq" || listed[0].Name != "Delivery" {
		t.Fatalf("files: %v %s", err, out)
	}

	out, _, err = run(clitest.Options{TTY: true}, "search", "Product manuals", "descaling with vinegar")
	if err != nil || !strings.Contains(out, "kettle.pdf") || !strings.Contains(out, "**vinegar**") {
		t.Fatalf("search: %v %s", err, out)
	}
	out, _, err = run(clitest.Options{}, "search", "Product manuals", "sundays", "--json")
	var hits []struct{ Name string }
	if decode(out, &hits); err != nil || len(hits) != 1 || hits[0].Name != "Delivery" {
		t.Fatalf("search the FAQ: %v %s", err, out)
	}

	c, err := betty.New(env.URL, betty.WithTokens(ada.Access, ada.Refresh))
	if err != nil {
		t.Fatal(err)
	}
	name := "Support"
	camp, err := betty.Do[client.Campaign](context.Background(), c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.CreateCampaign(ctx, client.CreateCampaignRequest{OrganizationId: team, Name: &name})
	})
	if err != nil {
		t.Fatal(err)
	}
	campaign := camp.Id
	if _, errOut, err = run(clitest.Options{}, "activate", "Product manuals", "--campaign", campaign); err != nil || !strings.Contains(errOut, "is now the active knowledge base") {
		t.Fatalf("activate: %v %s", err, errOut)
	}
	out, _, err = run(clitest.Options{}, "list", "--campaign", campaign, "--json")
	var kbs []struct {
		Name   string
		Active bool
	}
	if decode(out, &kbs); err != nil || len(kbs) != 1 || !kbs[0].Active {
		t.Fatalf("list: %v %s", err, out)
	}
	if _, _, err = run(clitest.Options{}, "deactivate", "Product manuals", "--campaign", campaign); err != nil {
		t.Fatal(err)
	}
	if _, _, err = run(clitest.Options{}, "rename", "Product manuals", "Manuals 2026"); err != nil {
		t.Fatal(err)
	}
	if _, _, err = run(clitest.Options{}, "delete", "Product manuals", "--yes"); err == nil || !strings.Contains(err.Error(), "no knowledge base") {
		t.Fatalf("the old name: %v", err)
	}
	if _, errOut, err = run(clitest.Options{}, "delete", "manuals 2026", "--yes"); err != nil || !strings.Contains(errOut, "Deleted") {
		t.Fatalf("delete: %v %s", err, errOut)
	}
}
