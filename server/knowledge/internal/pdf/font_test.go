package pdf

import (
	"strconv"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/knowledge/knowledgetest"
)

// The base encodings put each character at its code.
func TestBaseEncodings(t *testing.T) {
	for _, c := range []struct {
		name string
		enc  *[256]rune
		code int
		want rune
	}{
		{"WinAnsi", &winAnsiEnc, 0x80, '€'}, {"WinAnsi", &winAnsiEnc, 0x93, '“'}, {"WinAnsi", &winAnsiEnc, 0xe9, 'é'},
		{"WinAnsi", &winAnsiEnc, 0x27, '\''}, {"WinAnsi", &winAnsiEnc, 0x9f, 'Ÿ'},
		{"Standard", &standardEnc, 0x27, '’'}, {"Standard", &standardEnc, 0x60, '‘'}, {"Standard", &standardEnc, 0xae, 'ﬁ'},
		{"Standard", &standardEnc, 0xd0, '—'}, {"Standard", &standardEnc, 0xe1, 'Æ'}, {"Standard", &standardEnc, 0xfb, 'ß'},
		{"Standard", &standardEnc, 0xf5, 'ı'}, {"Standard", &standardEnc, 0xcf, 'ˇ'},
		{"MacRoman", &macRomanEnc, 0x80, 'Ä'}, {"MacRoman", &macRomanEnc, 0x8e, 'é'}, {"MacRoman", &macRomanEnc, 0xa5, '•'},
		{"MacRoman", &macRomanEnc, 0xd0, '–'}, {"MacRoman", &macRomanEnc, 0xe5, 'Â'}, {"MacRoman", &macRomanEnc, 0xff, 'ˇ'},
		{"PDFDoc", &pdfDocEnc, 0x84, '—'}, {"PDFDoc", &pdfDocEnc, 0xa0, '€'}, {"PDFDoc", &pdfDocEnc, 0x9e, 'ž'},
		{"PDFDoc", &pdfDocEnc, 0xe9, 'é'}, {"PDFDoc", &pdfDocEnc, 0x18, '˘'},
		{"Symbol", &symbolEnc, 0x61, 'α'}, {"Symbol", &symbolEnc, 0x57, 'Ω'}, {"Symbol", &symbolEnc, 0xb7, '•'},
		{"Symbol", &symbolEnc, 0xe5, '∑'}, {"Symbol", &symbolEnc, 0xf1, '〉'}, {"Symbol", &symbolEnc, 0xf5, '⌡'},
		{"Dingbats", &zapfEnc, 0x6c, '●'}, {"Dingbats", &zapfEnc, 0x33, '✓'}, {"Dingbats", &zapfEnc, 0xac, '①'},
	} {
		if got := c.enc[c.code]; got != c.want {
			t.Errorf("%s %#x: %q, want %q", c.name, c.code, got, c.want)
		}
	}
}

func TestGlyphNames(t *testing.T) {
	for name, want := range map[string]string{
		"A": "A", "eacute": "é", "Scaron": "Š", "quotedblleft": "“", "fi": "fi", "f_f_i": "ffi", "ffl": "ffl",
		"uni20AC": "€", "uni00410042": "AB", "u1F600": "😀", "u20AC": "€", "a.sc": "a", "one.oldstyle": "1",
		"Lcommaaccent": "Ļ", "zcaron": "ž", "germandbls": "ß", "Euro": "€", "uniE000": "", "alpha": "α",
	} {
		got, ok := glyphText(name)
		if !ok || got != want {
			t.Errorf("%s: %q %v, want %q", name, got, ok, want)
		}
	}
	for _, name := range []string{"g123", "cid42", "uniXYZW", ".notdef", "u12"} {
		if got, ok := glyphText(name); ok {
			t.Errorf("%s: %q", name, got)
		}
	}
}

func page(t *testing.T, content, font string) string {
	t.Helper()
	return textOf(t, onePage(content, font, "").Write(knowledgetest.Options{}))
}

func TestSimpleFontEncodings(t *testing.T) {
	bt := func(s string) string { return "BT /F1 12 Tf 72 700 Td " + s + " ET" }
	cases := []struct {
		name, font, content, want string
	}{
		{"WinAnsi", "<< /Type /Font /Subtype /TrueType /BaseFont /Arial /Encoding /WinAnsiEncoding >>",
			bt(`(Caf\351 \223quoted\224 \200 5) Tj`), "Café “quoted” € 5"},
		{"MacRoman", "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding /MacRomanEncoding >>",
			bt(`(na\225ve \245 \212) Tj`), "naïve • ä"},
		{"Standard by default", "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman >>",
			bt(`(it\047s \256nd) Tj`), "it’s find"},
		{"Differences", "<< /Type /Font /Subtype /Type1 /BaseFont /X /Encoding << /BaseEncoding /WinAnsiEncoding " +
			"/Differences [65 /Aring /uni0142 /u1F600 /g17 97 /f_f /space] >> >>",
			bt(`(ABCDab) Tj`), "Åł😀Dff "},
		{"ToUnicode first", "<< /Type /Font /Subtype /Type1 /BaseFont /X /Encoding /WinAnsiEncoding /ToUnicode 6 0 R >>",
			bt(`(ABC) Tj`), "XYZ"},
		{"Symbol", "<< /Type /Font /Subtype /Type1 /BaseFont /Symbol >>", bt(`(a\272b \245) Tj`), "α≡β ∞"},
		{"ZapfDingbats", "<< /Type /Font /Subtype /Type1 /BaseFont /ZapfDingbats >>", bt(`(l) Tj`), "●"},
		{"Wingdings drop", "<< /Type /Font /Subtype /TrueType /BaseFont /Wingdings-Regular /FontDescriptor << /Flags 4 >> >>",
			bt(`(l) Tj /F2 12 Tf (text) Tj`), "text"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := onePage(c.content, c.font, "")
			w.Set(3, "<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 5 0 R /F2 7 0 R >> >> /Contents 4 0 R >>")
			w.AddStream("", []byte("begincmap 1 begincodespacerange <00> <ff> endcodespacerange 1 beginbfrange <41> <43> <0058> endbfrange endcmap"))
			w.Set(7, helvetica)
			got := textOf(t, w.Write(knowledgetest.Options{}))
			if got != c.want {
				t.Fatalf("%q, want %q", got, c.want)
			}
		})
	}
}

// A Type 1 font program's own encoding, read from its clear-text part, is a font's encoding
// when its dictionary names none (TeX's fonts, as pdfTeX embeds them).
func TestType1BuiltinEncoding(t *testing.T) {
	program := "%!PS-AdobeFont-1.0: CMR10 003.002\n/FontName /CMR10 def\n/Encoding 256 array\n0 1 255 {1 index exch /.notdef put} for\n" +
		"dup 11 /ff put\ndup 12 /fi put\ndup 65 /A put\ndup 97 /a put\ndup 100 /d put\ndup 110 /n put\ndup 123 /endash put\nreadonly def\ncurrentdict end\ncurrentfile eexec\n"
	w := onePage("BT /F1 10 Tf 72 700 Td (\\014nd \\013A a\\173) Tj ET",
		"<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+CMR10 /FirstChar 0 /LastChar 255 /Widths 7 0 R /FontDescriptor 6 0 R >>", "")
	w.Add("<< /Type /FontDescriptor /FontName /ABCDEF+CMR10 /Flags 4 /FontFile 8 0 R >>")
	w.Add("[" + strings.Repeat("500 ", 256) + "]")
	w.AddStream("/Length1 "+strconv.Itoa(len(program))+" /Length2 0 /Length3 0", []byte(program+"binary part"))
	if got := textOf(t, w.Write(knowledgetest.Options{})); got != "find ffA a–" {
		t.Fatalf("%q", got)
	}
}

// Composite fonts: two-byte codes through Identity-H and a ToUnicode CMap of every form
// (bfchar, bfrange with a string and with an array, a ligature), widths from /W.
func TestType0ToUnicode(t *testing.T) {
	cmap := `/CIDInit /ProcSet findresource begin 12 dict begin begincmap
/CMapName /Adobe-Identity-UCS def /CMapType 2 def
1 begincodespacerange <0000> <FFFF> endcodespacerange
2 beginbfchar <0003> <0020> <0010> <00660069> endbfchar
2 beginbfrange <0020> <0025> <0041>
<0030> <0032> [<00E9> <D83DDE00> <0041030A>] endbfrange
endcmap CMapName currentdict /CMap defineresource pop end end`
	font := "<< /Type /Font /Subtype /Type0 /BaseFont /ABCDEF+Noto /Encoding /Identity-H /DescendantFonts [7 0 R] /ToUnicode 6 0 R >>"
	w := onePage("BT /F1 10 Tf 72 700 Td <00200021000300100003003000310032> Tj ET", font, "")
	w.AddStream("", []byte(cmap))
	w.Add("<< /Type /Font /Subtype /CIDFontType2 /BaseFont /ABCDEF+Noto /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> " +
		"/DW 1000 /W [3 [250] 16 [600] 32 37 500] >>")
	data := w.Write(knowledgetest.Options{})
	gs, err := readGlyphs(t, data)
	if err != nil {
		t.Fatal(err)
	}
	if got := join(gs); got != "AB fi é😀A\u030a" {
		t.Fatalf("%q", got)
	}
	// Widths from /W: A and B 500 thousandths of 10, the space 250, fi 600.
	if gs[0].W != 5 || gs[2].W != 2.5 || gs[3].W != 6 || gs[1].X-gs[0].X != 5 {
		t.Fatalf("widths %+v", gs[:4])
	}
}

// A predefined Unicode CMap needs no ToUnicode; Shift-JIS's code lengths are derived.
func TestPredefinedCMaps(t *testing.T) {
	w := onePage("BT /F1 10 Tf 72 700 Td <65E5672C8A9E> Tj ET",
		"<< /Type /Font /Subtype /Type0 /BaseFont /HeiseiMin-W3 /Encoding /UniJIS-UCS2-H /DescendantFonts [6 0 R] >>", "")
	w.Add("<< /Type /Font /Subtype /CIDFontType0 /BaseFont /HeiseiMin-W3 /CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 2 >> >>")
	if got := textOf(t, w.Write(knowledgetest.Options{})); got != "日本語" {
		t.Fatalf("%q", got)
	}
	m := predefined("90ms-RKSJ-H")
	var lens []int
	for s := []byte("A\x93\xfa\xb1B"); len(s) > 0; {
		_, n := m.next(s)
		lens = append(lens, n)
		s = s[n:]
	}
	if len(lens) != 4 || lens[1] != 2 || lens[2] != 1 {
		t.Fatalf("Shift-JIS code lengths %v", lens)
	}
}

// An embedded encoding CMap: codes of one and two bytes, CIDs by range.
func TestEmbeddedCMap(t *testing.T) {
	r := testReader()
	m := r.parseCMap([]byte("/Identity-H usecmap 2 begincodespacerange <00> <7f> <8000> <ffff> endcodespacerange " +
		"1 begincidrange <8000> <80ff> 100 endcidrange 1 begincidchar <41> 7 endcidchar"))
	code, n := m.next([]byte("\x80\x05A"))
	if n != 2 || m.cid(code) != 105 {
		t.Fatalf("two-byte code %x %d → %d", code, n, m.cid(code))
	}
	if code, n := m.next([]byte("A")); n != 1 || m.cid(code) != 7 {
		t.Fatalf("one-byte code %x %d", code, n)
	}
}
