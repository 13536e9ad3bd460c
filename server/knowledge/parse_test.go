package knowledge_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bettyhq/betty/server/knowledge"
	"github.com/bettyhq/betty/server/knowledge/knowledgetest"
)

func parse(t *testing.T, data []byte, f knowledge.Format) (knowledge.Document, error) {
	t.Helper()
	return knowledge.Parse(context.Background(), bytes.NewReader(data), int64(len(data)), f)
}

func text(doc knowledge.Document) string {
	var parts []string
	for _, b := range doc.Blocks {
		parts = append(parts, b.Text)
	}
	return strings.Join(parts, "\n")
}

func TestParsePDFWithText(t *testing.T) {
	data := knowledgetest.PDF(
		knowledgetest.Page{Heading: "Delivery", Paragraphs: []string{"We deliver on Saturdays (9am to 1pm).", "Parcels over 30 kg go by freight."}},
		knowledgetest.Page{Heading: "Refunds", Paragraphs: []string{"Refunds take five working days."}},
	)
	doc, err := parse(t, data, knowledge.PDF)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Pages != 2 {
		t.Fatalf("pages %d", doc.Pages)
	}
	var headings []string
	for _, b := range doc.Blocks {
		if b.Heading {
			headings = append(headings, b.Text)
		}
	}
	if strings.Join(headings, ",") != "Delivery,Refunds" {
		t.Fatalf("headings %q in %+v", headings, doc.Blocks)
	}
	all := text(doc)
	if !strings.Contains(all, "We deliver on Saturdays (9am to 1pm).") || !strings.Contains(all, "Refunds take five working days.") {
		t.Fatalf("text %q", all)
	}
	if last := doc.Blocks[len(doc.Blocks)-1]; last.Page != 2 {
		t.Fatalf("last block on page %d", last.Page)
	}
}

func TestParseUnreadableFilesSayWhy(t *testing.T) {
	for name, c := range map[string]struct {
		data   []byte
		format knowledge.Format
		want   string
	}{
		"scanned pdf":   {knowledgetest.ScannedPDF(), knowledge.PDF, "no text layer"},
		"encrypted pdf": {knowledgetest.EncryptedPDF(), knowledge.PDF, "password-protected"},
		"corrupt pdf":   {knowledgetest.Corrupt(), knowledge.PDF, "looks damaged"},
		"truncated pdf": {knowledgetest.PDF(knowledgetest.Page{Paragraphs: []string{"hello"}})[:200], knowledge.PDF, "looks damaged"},
		"corrupt docx":  {[]byte("PK\x03\x04 not really a zip"), knowledge.DOCX, "looks damaged"},
		// An object number that would make the reader allocate gigabytes.
		"forged xref": {bytes.Replace(knowledgetest.PDF(knowledgetest.Page{Paragraphs: []string{"hello"}}), []byte("xref\n0 "), []byte("xref\n900000000000 "), 1),
			knowledge.PDF, "looks damaged"},
		"empty text": {[]byte("  \n\n "), knowledge.Text, "no text"},
		"bad csv":    {[]byte("a,b\n\"unterminated,1\n2,\"x\"y\n"), knowledge.CSV, ""},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := parse(t, c.data, c.format)
			var pe *knowledge.ParseError
			if c.want == "" {
				if err != nil && !errors.As(err, &pe) {
					t.Fatalf("not a ParseError: %v", err)
				}
				return
			}
			if !errors.As(err, &pe) || !strings.Contains(pe.Message, c.want) {
				t.Fatalf("%v, want a ParseError saying %q", err, c.want)
			}
		})
	}
}

// A PDF protected by an owner password only (its permissions) opens for everyone: its text
// is read, whatever the cipher.
func TestParseOwnerProtectedPDF(t *testing.T) {
	for _, kind := range []string{"rc4-40", "rc4-128", "aes-128", "aes-256"} {
		doc, err := parse(t, knowledgetest.OwnerProtectedPDF(kind, "Refunds take five working days."), knowledge.PDF)
		if err != nil || text(doc) != "Refunds take five working days." {
			t.Fatalf("%s: %q %v", kind, text(doc), err)
		}
	}
}

func TestParseDOCX(t *testing.T) {
	data := knowledgetest.DOCX(
		knowledgetest.Para{Style: "Title", Text: "Returns policy"},
		knowledgetest.Para{Text: "Bring the receipt & the product."},
		knowledgetest.Para{Style: "Heading1", Text: "Warranty", PageBreak: true},
		knowledgetest.Para{Text: "Two years on every device."},
	)
	doc, err := parse(t, data, knowledge.DOCX)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Pages != 2 || len(doc.Blocks) != 4 || !doc.Blocks[0].Heading || doc.Blocks[1].Text != "Bring the receipt & the product." ||
		!doc.Blocks[2].Heading || doc.Blocks[3].Page != 2 {
		t.Fatalf("%+v", doc)
	}
}

// A run of text longer than the reader's buffer keeps every character and reference, even
// those its buffer cuts in two.
func TestParseDOCXLongRun(t *testing.T) {
	want := strings.Repeat("déjà vu & “quotes” — ", 20_000)
	doc, err := parse(t, knowledgetest.DOCX(knowledgetest.Para{Text: want}), knowledge.DOCX)
	if err != nil || len(doc.Blocks) != 1 || doc.Blocks[0].Text != strings.TrimSpace(want) {
		t.Fatalf("%v, %d blocks, text differs: %t", err, len(doc.Blocks), len(doc.Blocks) == 1 && doc.Blocks[0].Text != want)
	}
}

func TestParseTextFormats(t *testing.T) {
	md, err := parse(t, []byte("# Opening hours\n\nMonday to Friday.\n\n## Holidays\nClosed.\n```\n# not a heading\n```\n"), knowledge.Markdown)
	if err != nil || !md.Blocks[0].Heading || md.Blocks[0].Text != "Opening hours" || !md.Blocks[2].Heading || strings.Contains(md.Blocks[2].Text, "not") {
		t.Fatalf("markdown %+v %v", md, err)
	}
	csv, err := parse(t, []byte("product,price\nKettle,25\nToaster,30\n"), knowledge.CSV)
	if err != nil || len(csv.Blocks) != 2 || csv.Blocks[0].Text != "product: Kettle; price: 25" {
		t.Fatalf("csv %+v %v", csv, err)
	}
	html, err := parse(t, []byte(`<html><head><title>x</title><style>p{}</style></head><body><h1>FAQ</h1><p>We&nbsp;open at <b>9</b>.</p><script>alert(1)</script><!-- hidden --></body></html>`), knowledge.HTML)
	if err != nil || len(html.Blocks) != 2 || !html.Blocks[0].Heading || html.Blocks[1].Text != "We open at 9." {
		t.Fatalf("html %+v %v", html, err)
	}
	latin1, err := parse(t, []byte("Caf\xe9 cr\xe8me"), knowledge.Text)
	if err != nil || latin1.Blocks[0].Text != "Café crème" {
		t.Fatalf("latin-1 %+v %v", latin1, err)
	}
}

// Passages are 500–1,000 characters, headings start them, and every word of the document is
// in one.
func TestSplit(t *testing.T) {
	doc := knowledge.Document{Blocks: []knowledge.Block{
		{Heading: true, Text: "Shipping", Page: 1},
		{Text: knowledgetest.Lorem(1, 300), Page: 1},
		{Text: knowledgetest.Lorem(2, 400), Page: 1},
		{Text: knowledgetest.Lorem(3, 2500), Page: 2},
		{Heading: true, Text: "Refunds", Page: 3},
		{Text: "Short.", Page: 3},
	}}
	ps := knowledge.Split(doc)
	if len(ps) < 4 {
		t.Fatalf("%d passages", len(ps))
	}
	for i, p := range ps {
		n := utf8.RuneCountInString(p.Content)
		if n > knowledge.MaxPassage+len("Shipping\n") || (i < len(ps)-1 && i > 0 && n < 200) {
			t.Errorf("passage %d has %d characters: %.60q", i, n, p.Content)
		}
		if p.Page == nil {
			t.Errorf("passage %d has no page", i)
		}
	}
	if !strings.HasPrefix(ps[0].Content, "Shipping\n") || *ps[0].Page != 1 {
		t.Fatalf("first %q", ps[0].Content)
	}
	if last := ps[len(ps)-1]; last.Content != "Refunds\n\nShort." || *last.Page != 3 {
		t.Fatalf("last %q", last.Content)
	}
	if !strings.HasPrefix(ps[2].Content, "Shipping\n") {
		t.Fatalf("a continued section does not start with its heading: %.40q", ps[2].Content)
	}
}

func TestTerms(t *testing.T) {
	got := knowledge.Terms(`Deliver "ON" saturday?? OR NEAR(x) -- ' ; deliver Café`)
	if strings.Join(got, ",") != "deliver,saturday,near,x,café" {
		t.Fatalf("%q", got)
	}
	if got := knowledge.Terms("How do I descale the kettle?"); strings.Join(got, ",") != "descale,kettle" {
		t.Fatalf("common words: %q", got)
	}
	if got := knowledge.Terms("Who are you?"); strings.Join(got, ",") != "who,are,you" {
		t.Fatalf("only common words: %q", got)
	}
}

// Whatever the bytes, parsing answers (never panics).
func FuzzParse(f *testing.F) {
	f.Add(knowledgetest.PDF(knowledgetest.Page{Heading: "A", Paragraphs: []string{"b c"}}), 0)
	f.Add(knowledgetest.DOCX(knowledgetest.Para{Text: "x"}), 1)
	f.Add([]byte("<p>x</p>"), 2)
	formats := []knowledge.Format{knowledge.PDF, knowledge.DOCX, knowledge.HTML, knowledge.CSV, knowledge.Markdown, knowledge.Text}
	f.Fuzz(func(t *testing.T, data []byte, which int) {
		if which < 0 {
			which = -which
		}
		_, _ = knowledge.Parse(context.Background(), bytes.NewReader(data), int64(len(data)), formats[which%len(formats)])
	})
}

// PDFs written by pdflatex, groff and Ghostscript, enscript and LibreOffice read as pdftotext
// reads them (testdata/knowledge/real/README.md says how each was made).
func TestRealWorldPDFs(t *testing.T) {
	for name, want := range map[string][]string{
		"pdflatex.pdf": {"The office’s efficient staff\nwill find the receipt — or “fluffy” excuses",
			"Naïve\nbuyers ask about the affine warranty", "Crème brûlée, český,\nseñor."},
		"groff-ghostscript.pdf": {"a flat fee of €35 applies", "We answer within two working days. Final fixes and efficient office workflows matter.",
			"• E-mail: any day."},
		"enscript-ghostscript.pdf": {"Contact: support@example.com -- phone +44 20 7946 0000.", `Prices include VAT (20%) & delivery costs are "shown at checkout".`},
		"libreoffice.pdf": {"Café owners should descale weekly —\n“efficiency” and fluency matter; naïve users often forget.",
			"Does not switch on Not on its base Place it firmly on the base", "Straße, Øresund, Łódź, Ærøskøbing, œuvre, ½ cup, 25 °C, 5 × 3 ÷ 2 ≠ 7."},
	} {
		data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "knowledge", "real", name))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := parse(t, data, knowledge.PDF)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		all := text(doc)
		for _, w := range want {
			if !strings.Contains(all, w) {
				t.Errorf("%s: no %q in\n%s", name, w, all)
			}
		}
	}
}

// The documents kept in testdata/knowledge read as they should.
func TestTestdataDocuments(t *testing.T) {
	for name, want := range map[string]string{"manual.pdf": "", "policy.docx": "", "scanned.pdf": "no text layer",
		"protected.pdf": "password-protected", "corrupt.pdf": "looks damaged"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "knowledge", name))
		if err != nil {
			t.Fatal(err)
		}
		format, _ := knowledge.FormatOf(map[string]string{".pdf": "application/pdf",
			".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document"}[filepath.Ext(name)])
		doc, err := parse(t, data, format)
		var pe *knowledge.ParseError
		switch {
		case want == "" && (err != nil || len(knowledge.Split(doc)) == 0):
			t.Errorf("%s: %v", name, err)
		case want != "" && (!errors.As(err, &pe) || !strings.Contains(pe.Message, want)):
			t.Errorf("%s: %v, want %q", name, err, want)
		}
	}
}
