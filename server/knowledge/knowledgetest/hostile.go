package knowledgetest

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"hash/adler32"
	"hash/crc32"
	"slices"
	"strings"
	"sync"
)

// Hostile documents: files an attacker writes to make a parser loop, recurse or allocate
// without end. The tests that read them must end, fast, whatever the parser.

// RawPDF writes a PDF of the given object bodies, numbered from 1 (object 1 is the
// catalog), with a classic cross-reference table and a trailer naming the root and, when
// trailer is not empty, more entries (such as "/Prev 123").
func RawPDF(trailer string, objects ...string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offsets := make([]int, len(objects))
	for i, body := range objects {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, body)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objects)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R %s >>\nstartxref\n%d\n%%%%EOF\n", len(objects)+1, trailer, xref)
	return b.Bytes()
}

// Stream is the body of a stream object holding data, with dict's entries and its length.
func Stream(dict string, data []byte) string {
	return fmt.Sprintf("<< %s /Length %d >>\nstream\n%s\nendstream", dict, len(data), data)
}

// Font is the body of the Helvetica font object the hostile PDFs name /F1.
const Font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"

// CyclicPageTree is the 607-byte kind of PDF that kept a parser busy for ever: its page tree
// node (object 2) lists itself among its kids.
func CyclicPageTree() []byte {
	return RawPDF("",
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
		Stream("", []byte("BT /F1 12 Tf 72 700 Td (Hello) Tj ET")),
		Font)
}

// ManyPages is a PDF of n pages in one flat page tree, each with a line of text: a reader
// that walks the tree from its root for every page takes n² steps.
func ManyPages(n int) []byte {
	pages := make([]Page, n)
	for i := range pages {
		pages[i] = Page{Paragraphs: []string{fmt.Sprintf("Page %d of the catalogue.", i+1)}}
	}
	return PDF(pages...)
}

// Inflating is deflate data that inflates to head, then chunk repeated n times, then tail,
// made without compressing all of it: each part is compressed on its own and flushed, so its
// back-references stay inside it, and the compressed chunk is repeated as it is.
func Inflating(head, chunk []byte, n int, tail []byte) []byte {
	part := func(p []byte) []byte {
		var b bytes.Buffer
		w, _ := flate.NewWriter(&b, flate.BestCompression)
		_, _ = w.Write(p)
		_ = w.Flush()
		return b.Bytes()
	}
	c := part(chunk)
	var out bytes.Buffer
	out.Write(part(head))
	out.Grow(len(c) * n)
	for range n {
		out.Write(c)
	}
	out.Write(part(tail))
	out.Write([]byte{1, 0, 0, 0xff, 0xff}) // the final block: stored, empty
	return out.Bytes()
}

// repeated answers the CRC-32 and Adler-32 of head, chunk n times, tail.
func repeated(head, chunk []byte, n int, tail []byte) (uint32, uint32) {
	crc := crc32.NewIEEE()
	ad := adler32.New()
	for _, h := range []interface{ Write([]byte) (int, error) }{crc, ad} {
		_, _ = h.Write(head)
		for range n {
			_, _ = h.Write(chunk)
		}
		_, _ = h.Write(tail)
	}
	return crc.Sum32(), ad.Sum32()
}

// ZipBomb is a DOCX whose document part is a paragraph of one run of text that inflates to
// about inflated bytes. With lie, its zip headers declare a hundredth of that.
func ZipBomb(inflated int64, lie bool) []byte {
	return zipBomb(`<w:p><w:r><w:t>`, bytes.Repeat([]byte("all work and no play "), 1<<16/21), `</w:t></w:r></w:p>`, inflated, lie)
}

// ZipBombParagraphs is ZipBomb with a document part of short paragraphs, over and over.
func ZipBombParagraphs(inflated int64, lie bool) []byte {
	return zipBomb("", bytes.Repeat([]byte("<w:p><w:r><w:t>all work and no play makes jack a dull boy</w:t></w:r></w:p>"), 1<<16/80), "", inflated, lie)
}

func zipBomb(open string, chunk []byte, end string, inflated int64, lie bool) []byte {
	head := []byte(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
		`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` + open)
	tail := []byte(end + `</w:body></w:document>`)
	n := int(inflated / int64(len(chunk)))
	data := Inflating(head, chunk, n, tail)
	crc, _ := repeated(head, chunk, n, tail)
	size := uint64(len(head)+len(tail)) + uint64(n)*uint64(len(chunk))
	if lie {
		size /= 100
	}
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	w, _ := z.Create("[Content_Types].xml")
	_, _ = w.Write([]byte(`<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`))
	raw, _ := z.CreateRaw(&zip.FileHeader{Name: "word/document.xml", Method: zip.Deflate, CRC32: crc,
		CompressedSize64: uint64(len(data)), UncompressedSize64: size})
	_, _ = raw.Write(data)
	_ = z.Close()
	return b.Bytes()
}

// DOCXOf is a DOCX whose document part is xml as it is (compressed).
func DOCXOf(xml string) []byte {
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	w, _ := z.Create("word/document.xml")
	_, _ = w.Write([]byte(xml))
	_ = z.Close()
	return b.Bytes()
}

// FlateBombPDF is a one-page PDF whose content stream inflates to about inflated bytes of
// nothing but spaces.
func FlateBombPDF(inflated int64) []byte {
	chunk := bytes.Repeat([]byte(" "), 1<<16)
	n := int(inflated / int64(len(chunk)))
	head := []byte("BT /F1 12 Tf 72 700 Td (Hello) Tj ET\n")
	data := Inflating(head, chunk, n, nil)
	_, ad := repeated(head, chunk, n, nil)
	z := append([]byte{0x78, 0xda}, data...)
	z = binary.BigEndian.AppendUint32(z, ad)
	return RawPDF("",
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
		fmt.Sprintf("<< /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream", len(z), z),
		Font)
}

// ObjStm is an object stream of a PDF with a cross-reference stream: its object number, the
// objects it holds by number, and the object stream it extends (0: none).
type ObjStm struct {
	Num     int
	Objects map[int]string
	Extends int
}

// XrefStreamPDF writes a PDF whose cross-reference is a stream (PDF 1.5), so objects can live
// in object streams: top are the objects at the top level by number (1 is the catalog),
// streams the object streams, and claims cross-reference entries that say object n is in
// object stream s whatever is true.
func XrefStreamPDF(top map[int]string, streams []ObjStm, claims map[int]int) []byte {
	in := map[int]int{} // object → the object stream its entry names
	bodies := map[int]string{}
	for n, body := range top {
		bodies[n] = body
	}
	for _, s := range streams {
		var index, objs strings.Builder
		nums := make([]int, 0, len(s.Objects))
		for n := range s.Objects {
			nums = append(nums, n)
		}
		slices.Sort(nums)
		for _, n := range nums {
			fmt.Fprintf(&index, "%d %d ", n, objs.Len())
			objs.WriteString(s.Objects[n] + " ")
			in[n] = s.Num
		}
		dict := fmt.Sprintf("/Type /ObjStm /N %d /First %d", len(nums), index.Len())
		if s.Extends != 0 {
			dict += fmt.Sprintf(" /Extends %d 0 R", s.Extends)
		}
		bodies[s.Num] = Stream(dict, []byte(index.String()+objs.String()))
	}
	for n, s := range claims {
		in[n] = s
	}
	size := 0
	for n := range bodies {
		size = max(size, n+1)
	}
	for n := range in {
		size = max(size, n+1)
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offsets := map[int]int{}
	for n := 1; n < size; n++ {
		if body, ok := bodies[n]; ok {
			offsets[n] = b.Len()
			fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", n, body)
		}
	}
	xrefNum, xrefAt := size, b.Len()
	var entries bytes.Buffer
	entry := func(kind byte, v uint32) {
		entries.WriteByte(kind)
		entries.Write(binary.BigEndian.AppendUint32(nil, v))
		entries.Write([]byte{0, 0})
	}
	for n := 0; n <= xrefNum; n++ {
		switch s, claimed := in[n]; {
		case n == xrefNum:
			entry(1, uint32(xrefAt))
		case claimed:
			entry(2, uint32(s))
		case offsets[n] != 0:
			entry(1, uint32(offsets[n]))
		default:
			entries.Write([]byte{0, 0, 0, 0, 0, 0xff, 0xff})
		}
	}
	fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", xrefNum,
		Stream(fmt.Sprintf("/Type /XRef /Size %d /W [1 4 2] /Root 1 0 R", xrefNum+1), entries.Bytes()))
	fmt.Fprintf(&b, "startxref\n%d\n%%%%EOF\n", xrefAt)
	return b.Bytes()
}

// EightBombs are eight DOCX zip bombs that inflate to 1.2 GB each: four whose zip headers say
// so (the kind that took 450 MB a file), four whose headers lie (so nothing refuses them before
// reading); of each, two of one endless run of text and two of endless paragraphs. The same
// bytes are answered each time: they take a few seconds to make.
func EightBombs() [][]byte {
	bombsOnce.Do(func() {
		for _, lie := range []bool{false, true} {
			run, paras := ZipBomb(1200<<20, lie), ZipBombParagraphs(1200<<20, lie)
			bombs = append(bombs, run, paras, run, paras)
		}
	})
	return bombs
}

var (
	bombsOnce sync.Once
	bombs     [][]byte
)
