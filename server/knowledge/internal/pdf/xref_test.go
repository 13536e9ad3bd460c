package pdf

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/knowledge/knowledgetest"
)

const hello = "BT /F1 12 Tf 72 700 Td (Hello world) Tj ET"

// A file whose cross-reference is a stream (with a PNG predictor), with its page tree and
// font packed in an object stream.
func TestXrefStreamAndObjectStream(t *testing.T) {
	w := onePage(hello, "", "")
	data := w.Write(knowledgetest.Options{XrefStream: true, Packed: []int{1, 2, 3, 5}})
	if bytes.Contains(data, []byte("\nxref")) || !bytes.Contains(data, []byte("/ObjStm")) {
		t.Fatal("not the layout under test")
	}
	if got := textOf(t, data); got != "Hello world" {
		t.Fatalf("%q", got)
	}
}

// An incremental update replaces a page's content: the newest section wins.
func TestPrevChain(t *testing.T) {
	base := onePage(hello, "", "").Write(knowledgetest.Options{})
	updated := knowledgetest.Update(base, 1, map[int]string{
		4: knowledgetest.Stream("", []byte("BT /F1 12 Tf 72 700 Td (Second edition) Tj ET")),
	})
	twice := knowledgetest.Update(updated, 1, map[int]string{
		6: "<< /Unrelated true >>",
	})
	if got := textOf(t, twice); got != "Second edition" {
		t.Fatalf("%q", got)
	}
}

// A hybrid file: a classic table for readers of PDF 1.4, and a cross-reference stream
// (/XRefStm) for the objects in an object stream, here the page tree.
func TestHybridFile(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("%PDF-1.5\n")
	off := map[int]int{}
	obj := func(n int, body string) {
		off[n] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", n, body)
	}
	obj(1, "<< /Type /Catalog /Pages 2 0 R >>")
	obj(3, "<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>")
	obj(4, knowledgetest.Stream("", []byte(hello)))
	obj(5, helvetica)
	packed := "2 0 << /Type /Pages /Kids [3 0 R] /Count 1 >>"
	obj(6, knowledgetest.Stream("/Type /ObjStm /N 1 /First 4", []byte(packed)))
	rows := []byte{2, 0, 6, 0}
	obj(7, knowledgetest.Stream("/Type /XRef /Size 8 /W [1 2 1] /Index [2 1]", rows))
	xref := b.Len()
	b.WriteString("xref\n0 8\n0000000000 65535 f \n")
	for n := 1; n < 8; n++ {
		if o, ok := off[n]; ok {
			fmt.Fprintf(&b, "%010d 00000 n \n", o)
		} else {
			b.WriteString("0000000000 65535 f \n")
		}
	}
	fmt.Fprintf(&b, "trailer\n<< /Size 8 /Root 1 0 R /XRefStm %d >>\nstartxref\n%d\n%%%%EOF\n", off[7], xref)
	if got := textOf(t, b.Bytes()); got != "Hello world" {
		t.Fatalf("%q", got)
	}
}

// Files whose cross-reference table is lost or wrong are read from their objects.
func TestRepair(t *testing.T) {
	good := onePage(hello, "", "").Write(knowledgetest.Options{})
	xref := bytes.Index(good, []byte("xref\n"))
	cases := map[string][]byte{
		// Every offset wrong: bytes inserted before the objects.
		"shifted": bytes.Replace(good, []byte("%PDF-1.7\n"), []byte("%PDF-1.7\n% a comment a text editor added\n"), 1),
		// No table, no trailer, no startxref: the catalog is found by its type.
		"no table": good[:xref],
		// The startxref offset points nowhere.
		"bad startxref": bytes.Replace(good, []byte(fmt.Sprintf("startxref\n%d", xref)), []byte("startxref\n12"), 1),
		// A table that does not parse.
		"garbled table": bytes.Replace(good, []byte("0000000000 65535 f"), []byte("garbage garbage ga"), 1),
		// Line ends changed to CR LF, as file transfers in text mode do.
		"crlf": bytes.ReplaceAll(good, []byte("\n"), []byte("\r\n")),
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			if got := textOf(t, data); got != "Hello world" {
				t.Fatalf("%q", got)
			}
		})
	}
	// A repaired file that is an update: the later object of a number wins.
	updated := knowledgetest.Update(good, 1, map[int]string{4: knowledgetest.Stream("", []byte("BT /F1 12 Tf 72 700 Td (Newer) Tj ET"))})
	cut := bytes.ReplaceAll(updated, []byte("startxref"), []byte("lost-xref"))
	if got := textOf(t, cut); got != "Newer" {
		t.Fatalf("repaired update: %q", got)
	}
	// A stream whose /Length is wrong ends at its endstream.
	wrong := bytes.Replace(good, []byte(fmt.Sprintf("/Length %d", len(hello))), []byte("/Length 7"), 1)
	if got := textOf(t, wrong); got != "Hello world" {
		t.Fatalf("wrong length: %q", got)
	}
}

// PDF 2.0 files read as 1.7 ones do.
func TestPDF20(t *testing.T) {
	data := onePage(hello, "", "").Write(knowledgetest.Options{Version: "2.0", XrefStream: true})
	if got := textOf(t, data); got != "Hello world" {
		t.Fatalf("%q", got)
	}
}

// Cross-reference chains that loop, object numbers past what the file can hold and
// object streams inside themselves are damage, found at once.
func TestXrefDamage(t *testing.T) {
	good := onePage(hello, "", "").Write(knowledgetest.Options{})
	xref := bytes.Index(good, []byte("\nxref\n")) + 1
	loop := bytes.Replace(good, []byte("/Root 1 0 R"), []byte(fmt.Sprintf("/Root 1 0 R /Prev %d", xref)), 1)
	mustFail(t, loop, ErrDamaged)
	huge := bytes.Replace(good, []byte("xref\n0 6"), []byte("xref\n0 600000"), 1)
	mustFail(t, huge, ErrDamaged)
	w := onePage(hello, "", "")
	stm := w.Write(knowledgetest.Options{XrefStream: true, Packed: []int{2}})
	// The object stream (7) claims to hold itself: entry 7 of the table says so.
	self := knowledgetest.XrefStreamPDF(map[int]string{1: "<< /Type /Catalog /Pages 3 0 R >>"}, nil, map[int]int{3: 3})
	mustFail(t, self, ErrDamaged)
	ext := knowledgetest.XrefStreamPDF(map[int]string{1: "<< /Type /Catalog /Pages 10 0 R >>"},
		[]knowledgetest.ObjStm{{Num: 8, Objects: map[int]string{10: "<< /Type /Pages /Kids [] /Count 0 >>"}, Extends: 9},
			{Num: 9, Objects: map[int]string{12: "null"}, Extends: 8}}, nil)
	_, err := readGlyphs(t, ext)
	if !errors.Is(err, ErrDamaged) {
		t.Fatalf("object streams extending each other: %v", err)
	}
	if got := textOf(t, stm); got != "Hello world" {
		t.Fatalf("%q", got)
	}
	// A reference to an object that resolves to itself.
	selfRef := strings.Replace(string(good), "2 0 obj\n<< /Type /Pages", "2 0 obj\n2 0 R\n<< /Type /Pages", 1)
	mustFail(t, []byte(selfRef), ErrDamaged)
}
