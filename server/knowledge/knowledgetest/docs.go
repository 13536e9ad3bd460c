// Package knowledgetest makes the documents knowledge-base tests and benchmarks read: PDFs
// with a text layer, a scanned one without, a password-protected one, DOCX files and a
// damaged file, written from scratch so no binary test file needs trusting.
package knowledgetest

import (
	"archive/zip"
	"bytes"
	"fmt"
	"strings"
)

// Page is one page of a PDF: a heading in a large font, then paragraphs.
type Page struct {
	Heading    string
	Paragraphs []string
}

// PDF writes a PDF 1.7 whose pages hold the given text in Helvetica (with widths, so word
// positions are real), each paragraph wrapped at about 80 characters a line.
func PDF(pages ...Page) []byte {
	var contents []string
	for _, p := range pages {
		var c strings.Builder
		y := 740
		if p.Heading != "" {
			fmt.Fprintf(&c, "BT /F1 18 Tf 72 %d Td (%s) Tj ET\n", y, escape(p.Heading))
			y -= 30
		}
		for _, para := range p.Paragraphs {
			for _, line := range wrap(para, 80) {
				fmt.Fprintf(&c, "BT /F1 11 Tf 72 %d Td (%s) Tj ET\n", y, escape(line))
				y -= 14
			}
			y -= 14
		}
		contents = append(contents, c.String())
	}
	return build(contents, nil, "")
}

// ScannedPDF writes a one-page PDF whose page is only an image: no text layer, as a scan.
func ScannedPDF() []byte {
	img := "q 400 0 0 400 72 300 cm /Im1 Do Q\n"
	return build([]string{img}, []string{"<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length 4 >>\nstream\n\x00\xff\xff\x00\nendstream"}, "")
}

// EncryptedPDF writes a PDF encrypted with a user password (RC4, revision 2): it cannot be
// opened without the password.
func EncryptedPDF() []byte {
	o := strings.Repeat("\x11", 32)
	u := strings.Repeat("\x22", 32)
	enc := fmt.Sprintf("<< /Filter /Standard /V 1 /R 2 /O <%x> /U <%x> /P -44 >>", o, u)
	return build([]string{"BT /F1 11 Tf 72 700 Td (secret) Tj ET\n"}, nil, enc)
}

// Corrupt is a file that claims to be a PDF and is not one.
func Corrupt() []byte {
	return []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog /Pages 2 0 R >>\nthis is not a pdf at all\n%%EOF\n")
}

// build writes the objects of a PDF: catalog, pages, font, then a page and a content stream
// per content, then extra objects (named /Im1, /Im2… in each page's resources), and an
// /Encrypt dictionary in the trailer when encrypt is not empty.
func build(contents, extra []string, encrypt string) []byte {
	var b bytes.Buffer
	var offsets []int
	obj := func(body string) int {
		offsets = append(offsets, b.Len())
		n := len(offsets)
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", n, body)
		return n
	}
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	n := len(contents)
	firstPage := 4
	firstExtra := firstPage + 2*n
	var kids, xobjects []string
	for i := range n {
		kids = append(kids, fmt.Sprintf("%d 0 R", firstPage+2*i))
	}
	for i := range extra {
		xobjects = append(xobjects, fmt.Sprintf("/Im%d %d 0 R", i+1, firstExtra+i))
	}
	obj("<< /Type /Catalog /Pages 2 0 R >>")
	obj(fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), n))
	widths := strings.TrimSpace(strings.Repeat("556 ", 126-32+1))
	obj("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /FirstChar 32 /LastChar 126 /Widths [" + widths + "] >>")
	for i, c := range contents {
		res := "/Font << /F1 3 0 R >>"
		if len(xobjects) > 0 {
			res += " /XObject << " + strings.Join(xobjects, " ") + " >>"
		}
		obj(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << %s >> /Contents %d 0 R >>", res, firstPage+2*i+1))
		obj(fmt.Sprintf("<< /Length %d >>\nstream\n%sendstream", len(c), c))
	}
	for _, e := range extra {
		obj(e)
	}
	encRef := ""
	if encrypt != "" {
		encRef = fmt.Sprintf(" /Encrypt %d 0 R /ID [<00112233445566778899aabbccddeeff> <00112233445566778899aabbccddeeff>]", obj(encrypt))
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offsets)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R%s >>\nstartxref\n%d\n%%%%EOF\n", len(offsets)+1, encRef, xref)
	return b.Bytes()
}

func escape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `(`, `\(`, `)`, `\)`).Replace(s)
}

// wrap cuts text into lines of at most width characters at spaces.
func wrap(text string, width int) []string {
	var lines []string
	var cur strings.Builder
	for _, w := range strings.Fields(text) {
		if cur.Len() > 0 && cur.Len()+1+len(w) > width {
			lines = append(lines, cur.String())
			cur.Reset()
		}
		if cur.Len() > 0 {
			cur.WriteByte(' ')
		}
		cur.WriteString(w)
	}
	if cur.Len() > 0 {
		lines = append(lines, cur.String())
	}
	return lines
}

// Para is a paragraph of a DOCX: Style "Heading1", "Title" or "" for body text; PageBreak
// puts a page break before it.
type Para struct {
	Style     string
	Text      string
	PageBreak bool
}

// DOCX writes a minimal Word document with the given paragraphs.
func DOCX(paras ...Para) []byte {
	var body strings.Builder
	for _, p := range paras {
		body.WriteString("<w:p>")
		if p.Style != "" {
			fmt.Fprintf(&body, `<w:pPr><w:pStyle w:val="%s"/></w:pPr>`, p.Style)
		}
		if p.PageBreak {
			body.WriteString(`<w:r><w:br w:type="page"/></w:r>`)
		}
		fmt.Fprintf(&body, `<w:r><w:t xml:space="preserve">%s</w:t></w:r></w:p>`, xmlEscape(p.Text))
	}
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	add := func(name, content string) {
		w, _ := z.Create(name)
		_, _ = w.Write([]byte(content))
	}
	add("[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`)
	add("_rels/.rels", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`)
	add("word/document.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`+body.String()+`</w:body></w:document>`)
	_ = z.Close()
	return b.Bytes()
}

func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// Lorem is n characters of varied English prose, for filling pages.
func Lorem(seed, n int) string {
	words := strings.Fields(`the customer may return any product within thirty days of delivery for a full refund
		our support team answers questions by phone and e-mail on working days between nine and five
		shipping is free for orders above fifty euros and takes two to four working days inside the union
		warranty claims need the original receipt and a short description of the fault and the serial number
		subscriptions renew every month unless cancelled before the renewal date in the account settings
		installation appointments can be booked online and moved free of charge up to one day before`)
	var b strings.Builder
	for i := seed; b.Len() < n; i++ {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[(i*7+i/3)%len(words)])
	}
	return b.String()
}
