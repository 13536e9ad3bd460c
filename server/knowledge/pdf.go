package knowledge

import (
	"errors"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/ledongthuc/pdf"
)

// The PDF reader is github.com/ledongthuc/pdf: pure Go (no cgo, so `betty` stays one static
// binary), no dependencies of its own, maintained (2026), with per-page access to the text
// and each glyph's position and size, and decryption of files protected by an owner password
// only. It recovers from most malformed input; Parse recovers from the rest.

// maxPDFPages bounds the pages read: a page count past it is a lie of a damaged file.
const maxPDFPages = 20_000

func parsePDF(r io.ReaderAt, size int64) (Document, error) {
	if !plausibleXref(r, size) {
		return Document{}, unreadable("%s", damaged(PDF))
	}
	rd, err := pdf.NewReader(pdf17(r), size)
	switch {
	case errors.Is(err, pdf.ErrInvalidPassword):
		return Document{}, unreadable("This PDF is password-protected; upload it without a password.")
	case err != nil && strings.Contains(err.Error(), "encrypt"):
		return Document{}, unreadable("This PDF is encrypted in a way Betty cannot read; save a copy without protection (or as DOCX) and upload that.")
	case err != nil:
		return Document{}, unreadable("%s", damaged(PDF))
	}
	n := rd.NumPage()
	if n <= 0 || n > maxPDFPages {
		return Document{}, unreadable("%s", damaged(PDF))
	}
	doc := Document{Pages: n}
	for i := 1; i <= n; i++ {
		doc.Blocks = append(doc.Blocks, pdfPage(rd.Page(i), i)...)
	}
	return doc, nil
}

// pdfPage lays out one page's glyphs as lines, and lines as blocks: a vertical gap wider than
// a line starts a paragraph, and a line in a font clearly larger than the page's body text is
// a heading. A page that cannot be read gives no text (the others still count).
func pdfPage(p pdf.Page, num int) (blocks []Block) {
	defer func() {
		if recover() != nil {
			blocks = nil
		}
	}()
	if p.V.IsNull() {
		return nil
	}
	glyphs := p.Content().Text
	if len(glyphs) == 0 {
		return nil
	}
	type line struct {
		text       strings.Builder
		y, size    float64
		prevX, end float64
	}
	var lines []*line
	var cur *line
	for _, g := range glyphs {
		if g.S == "" {
			continue
		}
		fs := math.Max(g.FontSize, 1)
		newLine := cur == nil || math.Abs(g.Y-cur.y) > fs*0.5 || g.X < cur.prevX-fs*2
		if newLine {
			cur = &line{y: g.Y, size: fs}
			lines = append(lines, cur)
		} else if g.X-cur.end > fs*0.15 && !strings.HasSuffix(cur.text.String(), " ") && g.S != " " {
			cur.text.WriteByte(' ')
		}
		cur.text.WriteString(g.S)
		cur.prevX, cur.end = g.X, g.X+g.W
		cur.size = math.Max(cur.size, fs)
	}
	// The body text's size is the one most characters are set in.
	chars := map[float64]int{}
	body := 0.0
	for _, l := range lines {
		chars[l.size] += l.text.Len()
		if chars[l.size] > chars[body] {
			body = l.size
		}
	}
	var para []string
	flush := func() {
		if len(para) > 0 {
			blocks = append(blocks, Block{Page: num, Text: strings.Join(para, "\n")})
			para = nil
		}
	}
	for i, l := range lines {
		text := strings.Join(strings.Fields(l.text.String()), " ")
		if text == "" {
			continue
		}
		if l.size >= body*1.25 && len(text) < 200 {
			flush()
			blocks = append(blocks, Block{Page: num, Heading: true, Text: text})
			continue
		}
		if i > 0 && math.Abs(lines[i-1].y-l.y) > l.size*1.8 {
			flush()
		}
		para = append(para, text)
	}
	flush()
	return blocks
}

// pdf17 presents a PDF 2.0 file as 1.7 to the reader, which checks the header's version; the
// syntax it reads is the same.
func pdf17(r io.ReaderAt) io.ReaderAt { return headerFix{r} }

type headerFix struct{ io.ReaderAt }

func (h headerFix) ReadAt(p []byte, off int64) (int, error) {
	n, err := h.ReaderAt.ReadAt(p, off)
	const at = 5 // "%PDF-2.0": the version starts at byte 5
	if off <= at && off+int64(n) >= at+3 && string(p[at-off:at-off+3]) == "2.0" {
		copy(p[at-off:], "1.7")
	}
	return n, err
}

// maxPDFObjects bounds the object numbers a PDF may use; past it the reader's cross-reference
// table alone would take gigabytes.
const maxPDFObjects = 2_000_000

var (
	// A cross-reference subsection header: right after the xref keyword, or right after an
	// entry ("0000000009 00000 n").
	xrefSection = regexp.MustCompile(`(?:\bxref|\d{10}[ ]\d{5}[ ][nf])[ \t]*\r?\n[ \t]*(\d{1,19})[ \t]+(\d{1,19})[ \t]*\r?\n`)
	xrefSize    = regexp.MustCompile(`/Size[ \t\r\n]*(\d{1,19})`)
	xrefIndex   = regexp.MustCompile(`/Index[ \t\r\n]*\[([\d \t\r\n]*)\]`)
)

// plausibleXref refuses a PDF whose cross-reference sections or sizes name object numbers
// that no file of its size holds (an object takes at least 4 bytes): the reader sizes its
// table by them, and a forged "0 99999999999" would exhaust the server's memory.
func plausibleXref(r io.ReaderAt, size int64) bool {
	raw, err := io.ReadAll(io.NewSectionReader(r, 0, size))
	if err != nil {
		return false
	}
	bound := min(size/4+16, maxPDFObjects)
	ok := func(nums ...string) bool {
		var total int64
		for _, n := range nums {
			v, err := strconv.ParseInt(n, 10, 64)
			if err != nil || v > bound {
				return false
			}
			total += v
		}
		return total <= bound
	}
	for _, m := range xrefSection.FindAllSubmatch(raw, -1) {
		if !ok(string(m[1]), string(m[2])) {
			return false
		}
	}
	for _, m := range xrefSize.FindAllSubmatch(raw, -1) {
		if !ok(string(m[1])) {
			return false
		}
	}
	for _, m := range xrefIndex.FindAllSubmatch(raw, -1) {
		f := strings.Fields(string(m[1]))
		for i := 0; i+1 < len(f); i += 2 {
			if !ok(f[i], f[i+1]) {
				return false
			}
		}
	}
	return true
}
