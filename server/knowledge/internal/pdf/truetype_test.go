package pdf

import (
	"encoding/binary"
	"testing"

	"github.com/bettyhq/betty/server/knowledge/knowledgetest"
)

// sfntOf builds a TrueType program of two tables, maxp and cmap, whose cmap has the given
// subtable for platform 3 (encoding 1 for format 4, 10 for format 12).
func sfntOf(sub []byte) []byte {
	be := binary.BigEndian
	maxp := be.AppendUint16(be.AppendUint32(nil, 0x00005000), 10)
	enc := uint16(1)
	if be.Uint16(sub) == 12 {
		enc = 10
	}
	cmap := be.AppendUint16(be.AppendUint16(nil, 0), 1)
	cmap = be.AppendUint32(be.AppendUint16(be.AppendUint16(cmap, 3), enc), 12)
	cmap = append(cmap, sub...)
	head := be.AppendUint16(be.AppendUint32(nil, 0x00010000), 2)
	head = append(head, 0, 0, 0, 0, 0, 0)
	off := uint32(12 + 2*16)
	for _, t := range []struct {
		tag  string
		data []byte
	}{{"cmap", cmap}, {"maxp", maxp}} {
		head = append(head, t.tag...)
		head = be.AppendUint32(be.AppendUint32(be.AppendUint32(head, 0), off), uint32(len(t.data)))
		off += uint32(len(t.data))
	}
	return append(append(head, cmap...), maxp...)
}

// format4 maps A–C to glyphs 1–3 by a delta, € to glyph 4 through the glyph array.
func format4() []byte {
	be := binary.BigEndian
	u := func(b []byte, vs ...uint16) []byte {
		for _, v := range vs {
			b = be.AppendUint16(b, v)
		}
		return b
	}
	segs := uint16(3)
	b := u(nil, 4, 0, 0, segs*2, 0, 0, 0)
	b = u(b, 0x43, 0x20ac, 0xffff) // ends
	b = u(b, 0)                    // pad
	b = u(b, 0x41, 0x20ac, 0xffff) // starts
	b = u(b, 0x10000+1-0x41, 0, 1) // deltas (mod 65536)
	b = u(b, 0, 4, 0)              // range offsets: the € segment's points 4 bytes on, at the glyph array
	b = u(b, 4)                    // the glyph array
	be.PutUint16(b[2:], uint16(len(b)))
	return b
}

// Composite fonts whose text comes from their embedded TrueType program, without ToUnicode:
// the program's cmap read backwards, through the CIDToGIDMap.
func TestTrueTypeFallback(t *testing.T) {
	be := binary.BigEndian
	f12 := be.AppendUint32(be.AppendUint32(be.AppendUint32(nil, 0x000c0000), 28), 0)
	f12 = be.AppendUint32(f12, 1)
	f12 = be.AppendUint32(be.AppendUint32(be.AppendUint32(f12, 0x1f600), 0x1f601), 5)
	for name, c := range map[string]struct {
		program  []byte
		content  string
		cidToGID string
		want     string
	}{
		"format 4":           {sfntOf(format4()), "<0001000200030004>", "/Identity", "ABC€"},
		"format 12":          {sfntOf(f12), "<00050006>", "/Identity", "😀😁"},
		"a CID-to-glyph map": {sfntOf(format4()), "<00010002>", "8 0 R", "CA"},
	} {
		t.Run(name, func(t *testing.T) {
			w := onePage("BT /F1 10 Tf 72 700 Td "+c.content+" Tj ET",
				"<< /Type /Font /Subtype /Type0 /BaseFont /X /Encoding /Identity-H /DescendantFonts [6 0 R] >>", "")
			w.Add("<< /Type /Font /Subtype /CIDFontType2 /BaseFont /X /FontDescriptor 7 0 R /CIDToGIDMap " + c.cidToGID + " >>")
			w.Add("<< /Type /FontDescriptor /FontName /X /Flags 4 /FontFile2 9 0 R >>")
			w.AddStream("", []byte{0, 0, 0, 3, 0, 1}) // CID 1 → glyph 3, CID 2 → glyph 1
			w.AddStream("/Filter /FlateDecode", knowledgetest.Flate(c.program))
			if got := textOf(t, w.Write(knowledgetest.Options{})); got != c.want {
				t.Fatalf("%q, want %q", got, c.want)
			}
		})
	}
}
