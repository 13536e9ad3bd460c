package knowledge_test

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/knowledge"
	"github.com/bettyhq/betty/server/knowledge/knowledgetest"
)

// hostile is a file made to hurt a parser, and how reading it must end.
type hostile struct {
	name   string
	format knowledge.Format
	data   []byte
	// want is what the ParseError says; "" accepts any answer (text or a ParseError), so
	// long as it comes in time and within memory; budget accepts the parse budget ending it
	// too (the file is only work, repeated: nothing to detect).
	want string
}

// budget is the parse budget of these tests (Limits.Time, in the service); a case that ends
// by the budget gets a short one.
const budget, shortBudget = 5 * time.Second, 200 * time.Millisecond

// parseBounded reads a file with a deadline, so a parser that loops for ever fails the test
// instead of hanging the suite, and answers what the parse allocated.
func parseBounded(t *testing.T, data []byte, f knowledge.Format, within time.Duration) (knowledge.Document, error, uint64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	type result struct {
		doc   knowledge.Document
		err   error
		alloc uint64
	}
	done := make(chan result, 1)
	go func() {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		doc, err := knowledge.Parse(ctx, bytes.NewReader(data), int64(len(data)), f)
		runtime.ReadMemStats(&after)
		done <- result{doc, err, after.TotalAlloc - before.TotalAlloc}
	}()
	select {
	case r := <-done:
		return r.doc, r.err, r.alloc
	case <-time.After(10 * time.Second):
		t.Fatalf("no answer within 10 s (a parser that never ends)")
	}
	return knowledge.Document{}, nil, 0
}

func checkHostile(t *testing.T, c hostile) {
	t.Helper()
	within := budget
	if c.want == "budget" {
		within = shortBudget
	}
	doc, err, alloc := parseBounded(t, c.data, c.format, within)
	var pe *knowledge.ParseError
	switch {
	case c.want == "budget" && errors.Is(err, context.DeadlineExceeded):
	case err != nil && !errors.As(err, &pe):
		t.Fatalf("not a ParseError: %v", err)
	case c.want != "" && c.want != "budget" && (pe == nil || !strings.Contains(pe.Message, c.want)):
		t.Fatalf("got %v (%d blocks), want a ParseError saying %q", err, len(doc.Blocks), c.want)
	}
	// What a parse may allocate in all (garbage included): the file, and a bounded amount
	// on top whatever the file declares or inflates to.
	if limit := 3*uint64(len(c.data)) + 96<<20; alloc > limit {
		t.Fatalf("allocated %d MiB reading a %d KiB file (at most %d MiB)", alloc>>20, len(c.data)>>10, limit>>20)
	}
}

const damaged = "looks damaged"

// PDFs whose object graph loops, nests, lies about its size or inflates without end each end
// in an answer, fast: cycles are detected, not followed.
func TestHostilePDFs(t *testing.T) {
	page := "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>"
	content := knowledgetest.Stream("", []byte("BT /F1 12 Tf 72 700 Td (Hello) Tj ET"))
	cases := []hostile{
		{"cyclic page tree", knowledge.PDF, knowledgetest.CyclicPageTree(), damaged},
		{"page tree cycle through a grandchild", knowledge.PDF, knowledgetest.RawPDF("",
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [6 0 R] /Count 2 >>",
			page, content, knowledgetest.Font,
			"<< /Type /Pages /Parent 2 0 R /Kids [3 0 R 2 0 R] /Count 2 >>"), damaged},
		// The page inherits its resources from a parent that is itself.
		{"cyclic parent chain", knowledge.PDF, knowledgetest.RawPDF("",
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			"<< /Type /Page /Parent 3 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
			content, knowledgetest.Font), ""},
		{"cyclic outlines", knowledge.PDF, knowledgetest.RawPDF("",
			"<< /Type /Catalog /Pages 2 0 R /Outlines 6 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			page, content, knowledgetest.Font,
			"<< /Type /Outlines /First 7 0 R /Last 7 0 R >>",
			"<< /Title (Loop) /Parent 6 0 R /First 7 0 R /Next 7 0 R /Prev 7 0 R >>"), ""},
		{"cross-reference sections that loop", knowledge.PDF, prevLoop(), ""},
		{"object streams that extend each other", knowledge.PDF, knowledgetest.XrefStreamPDF(
			map[int]string{1: "<< /Type /Catalog /Pages 10 0 R >>"},
			[]knowledgetest.ObjStm{{Num: 8, Objects: map[int]string{11: "null"}, Extends: 9}, {Num: 9, Objects: map[int]string{12: "null"}, Extends: 8}},
			map[int]int{10: 8}), damaged},
		{"an object stream inside itself", knowledge.PDF, knowledgetest.XrefStreamPDF(
			map[int]string{1: "<< /Type /Catalog /Pages 10 0 R >>"}, nil, map[int]int{10: 10}), damaged},
		{"object streams inside each other", knowledge.PDF, knowledgetest.XrefStreamPDF(
			map[int]string{1: "<< /Type /Catalog /Pages 10 0 R >>"}, nil, map[int]int{10: 11, 11: 10}), damaged},
		{"deep nesting in the page", knowledge.PDF, knowledgetest.RawPDF("",
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			"<< /Type /Page /Parent 2 0 R /X "+strings.Repeat("[", 100_000)+" /Contents 4 0 R >>",
			content, knowledgetest.Font), ""},
		{"deep nesting in the content", knowledge.PDF, knowledgetest.RawPDF("",
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			page, knowledgetest.Stream("", []byte(strings.Repeat("[ << /A ", 200_000))), knowledgetest.Font), ""},
		{"a huge declared page count", knowledge.PDF, knowledgetest.RawPDF("",
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 2000000000 >>",
			page, content, knowledgetest.Font), ""},
		{"5,000 pages in one flat tree", knowledge.PDF, knowledgetest.ManyPages(5_000), ""},
		{"a stream longer than the file", knowledge.PDF, knowledgetest.RawPDF("",
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			page, "<< /Length 99999999 >>\nstream\nBT /F1 12 Tf (Hello) Tj ET", knowledgetest.Font), ""},
		{"a truncated compressed stream", knowledge.PDF, knowledgetest.RawPDF("",
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			page, "<< /Filter /FlateDecode /Length 6 >>\nstream\nx\xda\x0b\x71\x0a\x00\nendstream", knowledgetest.Font), ""},
		{"a content stream inflating to 1 GiB", knowledge.PDF, knowledgetest.FlateBombPDF(1 << 30), damaged},
		{"one stream drawn 100,000 times", knowledge.PDF, knowledgetest.RawPDF("",
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			"<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 5 0 R >> >> /Contents ["+strings.Repeat("4 0 R ", 100_000)+"] >>",
			knowledgetest.Stream("", []byte("BT /F1 12 Tf 72 700 Td (Hello) Tj ET "+strings.Repeat("q Q ", 2000))), knowledgetest.Font), "budget"},
		{"a string of 8 million characters", knowledge.PDF, knowledgetest.RawPDF("",
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			page, knowledgetest.Stream("", []byte("BT /F1 12 Tf 72 700 Td ("+strings.Repeat("ab ", 8_000_000/3)+") Tj ET")), knowledgetest.Font), ""},
		{"an array of 4 million numbers", knowledge.PDF, knowledgetest.RawPDF("",
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			page, knowledgetest.Stream("", []byte("BT /F1 12 Tf ["+strings.Repeat("1 ", 4_000_000)+"] TJ ET")), knowledgetest.Font), ""},
		{"one font under 10,000 names, with 200,000 widths", knowledge.PDF, knowledgetest.RawPDF("",
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			"<< /Type /Page /Parent 2 0 R /Resources << /Font << "+fontNames(10_000)+">> >> /Contents 4 0 R >>",
			knowledgetest.Stream("", []byte("BT "+showInEach(10_000)+"ET")),
			"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /FirstChar 0 /LastChar 255 /Widths 6 0 R >>",
			"["+strings.Repeat("500 ", 200_000)+"]"), ""},
		{"a CMap of 400,000 characters", knowledge.PDF, knowledgetest.RawPDF("",
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			page, content,
			"<< /Type /Font /Subtype /Type0 /BaseFont /X /Encoding /Identity-H /ToUnicode 6 0 R >>",
			knowledgetest.Stream("", []byte(bigCMap(400_000)))), ""},
		{"a forged object count", knowledge.PDF, bytes.Replace(knowledgetest.CyclicPageTree(), []byte("/Size 6"), []byte("/Size 999999999"), 1), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkHostile(t, c) })
	}
}

// fontNames is a font dictionary's entries naming object 5 n times.
func fontNames(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "/F%d 5 0 R ", i)
	}
	return b.String()
}

// showInEach shows a letter in each of n fonts.
func showInEach(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "/F%d 12 Tf (abc) Tj ", i)
	}
	return b.String()
}

// bigCMap is a ToUnicode CMap of n single mappings, in sections of 100 as the format wants.
func bigCMap(n int) string {
	var b strings.Builder
	b.WriteString("begincmap 1 begincodespacerange <000000> <ffffff> endcodespacerange\n")
	for i := 0; i < n; i += 100 {
		b.WriteString("100 beginbfchar\n")
		for j := i; j < i+100; j++ {
			fmt.Fprintf(&b, "<%06x> <%04x>\n", j, j%65536)
		}
		b.WriteString("endbfchar\n")
	}
	b.WriteString("endcmap\n")
	return b.String()
}

// prevLoop is a PDF whose cross-reference table names itself as the previous one.
func prevLoop() []byte {
	data := knowledgetest.RawPDF("/Prev 0",
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
		knowledgetest.Stream("", []byte("BT /F1 12 Tf 72 700 Td (Hello) Tj ET")), knowledgetest.Font)
	at := bytes.LastIndex(data, []byte("startxref\n"))
	var xref int
	fmt.Sscanf(string(data[at+len("startxref\n"):]), "%d", &xref)
	return bytes.Replace(data, []byte("/Prev 0"), []byte(fmt.Sprintf("/Prev %d", xref)), 1)
}

// Word documents that inflate to gigabytes, nest a million deep, carry a million attributes
// or entity tricks end in an answer, fast and in bounded memory.
func TestHostileDOCX(t *testing.T) {
	doc := func(body string) string {
		return `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` +
			body + `</w:body></w:document>`
	}
	cases := []hostile{
		{"zip bomb", knowledge.DOCX, knowledgetest.ZipBomb(1<<30, false), damaged},
		{"zip bomb whose headers lie", knowledge.DOCX, knowledgetest.ZipBomb(1<<30, true), ""},
		{"a bomb just under 200 MB", knowledge.DOCX, knowledgetest.ZipBomb(190<<20, false), ""},
		{"deep nesting", knowledge.DOCX, knowledgetest.DOCXOf(doc(strings.Repeat("<w:p><w:r>", 1_000_000) + "<w:t>deep</w:t>")), ""},
		{"billion laughs", knowledge.DOCX, knowledgetest.DOCXOf(`<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY a "aaaaaaaaaa">` +
			`<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">` +
			`<!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;"><!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;">]>` +
			`<w:document xmlns:w="x"><w:body><w:p><w:r><w:t>laugh &g;&g;&g;</w:t></w:r></w:p></w:body></w:document>`), ""},
		{"a million attributes", knowledge.DOCX, knowledgetest.DOCXOf(doc("<w:p " + attrs(1_000_000) + "><w:r><w:t>many</w:t></w:r></w:p>")), ""},
		{"one attribute of 40 MB", knowledge.DOCX, knowledgetest.DOCXOf(doc(`<w:p w:x="` + strings.Repeat("v", 40<<20) + `"><w:r><w:t>big</w:t></w:r></w:p>`)), ""},
		{"character references", knowledge.DOCX, knowledgetest.DOCXOf(doc("<w:p><w:r><w:t>" + strings.Repeat("&#x10FFFF;&#99999999999;&amp;amp;", 100_000) + "</w:t></w:r></w:p>")), ""},
		{"a million empty paragraphs", knowledge.DOCX, knowledgetest.DOCXOf(doc(strings.Repeat("<w:p><w:r><w:t>x</w:t></w:r></w:p>", 1_000_000))), ""},
		{"100,000 zip entries", knowledge.DOCX, manyEntries(100_000), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkHostile(t, c) })
	}
}

func attrs(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `a%d="" `, i)
	}
	return b.String()
}

// HTML, CSV, Markdown and text built to make a parser quadratic or to allocate per byte end in
// an answer, fast and in bounded memory.
func TestHostileText(t *testing.T) {
	cases := []hostile{
		{"html: 100,000 scripts", knowledge.HTML, []byte("<p>x</p>" + strings.Repeat("<script></script>", 100_000)), ""},
		{"html: 100,000 unclosed styles", knowledge.HTML, []byte("<p>x</p>" + strings.Repeat("<STYLE>", 100_000)), ""},
		{"html: deep nesting", knowledge.HTML, []byte(strings.Repeat("<div>", 1_000_000) + "deep"), ""},
		{"html: a million attributes", knowledge.HTML, []byte("<p " + attrs(1_000_000) + ">many</p>"), ""},
		{"html: entity tricks", knowledge.HTML, []byte("<p>" + strings.Repeat("&amp;amp;&#99999999999;&#x10FFFF;&nbsp", 200_000) + "</p>"), ""},
		{"html: 20 MB of one comment", knowledge.HTML, []byte("<p>x</p><!--" + strings.Repeat("-", 20<<20)), ""},
		{"csv: a line of 20 million columns", knowledge.CSV, bytes.Repeat([]byte(","), 20<<20), "columns"},
		{"csv: a million quoted fields over a million lines", knowledge.CSV, []byte("a\n" + strings.Repeat("\"\n\",", 1_000_000)), "columns"},
		{"csv: a 30 MB line", knowledge.CSV, []byte("a,b\n" + strings.Repeat("x", 30<<20) + "\n"), ""},
		{"markdown: 20 million blank lines", knowledge.Markdown, append([]byte("# Title\ntext\n"), bytes.Repeat([]byte("\n"), 20<<20)...), ""},
		{"markdown: a million headings", knowledge.Markdown, bytes.Repeat([]byte("# h\n"), 1_000_000), ""},
		{"markdown: 20 MB of hashes", knowledge.Markdown, append(bytes.Repeat([]byte("#"), 20<<20), " end"...), ""},
		{"markdown: a million fences", knowledge.Markdown, bytes.Repeat([]byte("```\nx\n"), 1_000_000), ""},
		{"text: one line of 25 MB", knowledge.Text, bytes.Repeat([]byte("word "), 5<<20), "more text"},
		{"text: two million one-letter paragraphs", knowledge.Text, bytes.Repeat([]byte("a\n\n"), 2_000_000), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkHostile(t, c) })
	}
}

// manyEntries is a DOCX (zip) of n tiny entries beside its document.
func manyEntries(n int) []byte {
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	for i := range n {
		w, _ := z.CreateHeader(&zip.FileHeader{Name: fmt.Sprintf("x/%d", i)})
		_, _ = w.Write(nil)
	}
	w, _ := z.Create("word/document.xml")
	_, _ = w.Write([]byte(`<w:document xmlns:w="x"><w:body><w:p><w:r><w:t>entries</w:t></w:r></w:p></w:body></w:document>`))
	_ = z.Close()
	return b.Bytes()
}
