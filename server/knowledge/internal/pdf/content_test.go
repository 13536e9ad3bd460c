package pdf

import (
	"math"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/knowledge/knowledgetest"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

// TJ's numbers move the next glyph: a wide negative one is a gap between words (a space to
// the layout), a small one kerning.
func TestTJSpacing(t *testing.T) {
	data := onePage("BT /F1 10 Tf 100 700 Td [(Hel) 20 (lo) -600 (world) -50 (s)] TJ ET", "", "").Write(knowledgetest.Options{})
	gs, err := readGlyphs(t, data)
	if err != nil {
		t.Fatal(err)
	}
	if got := join(gs); got != "Hello worlds" {
		t.Fatalf("%q", got)
	}
	// Each glyph is 5 wide (500 thousandths of 10); 20 moves the next back by 0.2, -600
	// forward by 6.
	if !near(gs[0].X, 100) || !near(gs[3].X, 100+15-0.2) || !near(gs[5].X, 100+25-0.2+6) || !near(gs[10].X, 100+50-0.2+6+0.5) {
		t.Fatalf("positions %v %v %v %v", gs[0].X, gs[3].X, gs[5].X, gs[10].X)
	}
}

// The text state: character and word spacing, horizontal scaling, leading, rise, and the
// operators that move to the next line.
func TestTextState(t *testing.T) {
	content := "BT /F1 10 Tf 14 TL 1 Tc 72 700 Td (ab) Tj T* 2 Tw (c d) Tj 0 -20 TD 0 Tw 0 Tc 50 Tz (ef) Tj " +
		"(g) ' 3 1 (h i) \" 5 Ts (sup) Tj ET"
	gs, err := readGlyphs(t, onePage(content, "", "").Write(knowledgetest.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	byText := map[string]Text{}
	for _, g := range gs {
		if _, ok := byText[g.S]; !ok {
			byText[g.S] = g
		}
	}
	check := func(s string, x, y, w float64) {
		t.Helper()
		g := byText[s]
		if !near(g.X, x) || !near(g.Y, y) || !near(g.W, w) {
			t.Errorf("%s at (%v, %v) width %v, want (%v, %v) %v", s, g.X, g.Y, g.W, x, y, w)
		}
	}
	check("a", 72, 700, 5)            // moves the next by 5 + Tc 1
	check("b", 78, 700, 5)            //
	check("c", 72, 686, 5)            // T*: down the leading
	check(" ", 78, 686, 2.5)          // a space moves the next by Tw more
	check("d", 83.5, 686, 5)          //
	check("e", 72, 666, 2.5)          // TD moves 20 down and sets the leading to 20; Tz 50 halves
	check("f", 74.5, 666, 2.5)        //
	check("g", 72, 646, 2.5)          // ' moves down the leading
	check("h", 72, 626, 2.5)          // " sets Tw 3 and Tc 1, then moves: h moves the next by 3
	check("s", 72+3+3.25+3, 626, 2.5) // the rise leaves the baseline as it is
}

// The CTM and the text matrix scale, and the page's /Rotate turns, what glyphs report.
func TestMatrices(t *testing.T) {
	gs, err := readGlyphs(t, onePage("q 2 0 0 2 10 20 cm BT /F1 10 Tf 1 0 0 1.5 5 5 Tm (A) Tj ET Q", "", "").Write(knowledgetest.Options{}))
	if err != nil || len(gs) != 1 {
		t.Fatal(err, gs)
	}
	if g := gs[0]; !near(g.X, 20) || !near(g.Y, 30) || !near(g.FontSize, 30) || !near(g.W, 10) {
		t.Fatalf("%+v", g)
	}
	// Text drawn upwards on a page shown turned by 90° reads left to right.
	w := onePage("BT /F1 10 Tf 0 1 -1 0 300 100 Tm (Up) Tj ET", "", "")
	w.Set(3, "<< /Type /Page /Parent 2 0 R /Rotate 90 /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>")
	gs, err = readGlyphs(t, w.Write(knowledgetest.Options{}))
	if err != nil || len(gs) != 2 {
		t.Fatal(err, gs)
	}
	// Shown turned, the page is 792 wide and 612 high; the text starts 100 from its left,
	// 612-300 from its bottom.
	if !near(gs[0].X, 100) || !near(gs[0].Y, 312) || !near(gs[1].Y, gs[0].Y) || !near(gs[1].X-gs[0].X, 5) {
		t.Fatalf("rotated: %+v", gs)
	}
}

// Form XObjects are drawn with their matrix and resources, nested; q and Q around them
// keep the state.
func TestFormXObjects(t *testing.T) {
	w := onePage("BT /F1 10 Tf 72 700 Td (Page) Tj ET q 1 0 0 1 0 -100 cm /Fm1 Do Q BT /F1 10 Tf 72 500 Td (After) Tj ET", "",
		"/XObject << /Fm1 6 0 R >>")
	w.AddStream("/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Matrix [1 0 0 1 0 -50] /Resources << /Font << /F9 5 0 R >> /XObject << /Inner 7 0 R >> >>",
		[]byte("BT /F9 10 Tf 72 700 Td (Form) Tj ET /Inner Do"))
	w.AddStream("/Type /XObject /Subtype /Form /BBox [0 0 612 792]", []byte("BT /F9 10 Tf 72 600 Td (Inner) Tj ET"))
	gs, err := readGlyphs(t, w.Write(knowledgetest.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	if got := join(gs); got != "Page\nForm\nInner\nAfter" {
		t.Fatalf("%q", got)
	}
	for _, g := range gs {
		if g.S == "F" && !near(g.Y, 550) || g.S == "I" && !near(g.Y, 450) || g.S == "A" && !near(g.Y, 500) {
			t.Fatalf("%s at %v", g.S, g.Y)
		}
	}
}

// Inline images are skipped whatever their data holds: known lengths exactly, compressed
// data up to its EI.
func TestInlineImages(t *testing.T) {
	raw := "(Tj) ET BT EI" + strings.Repeat("\x00", 3)
	content := "BT /F1 10 Tf 72 700 Td (Before) Tj ET\nBI /W 4 /H 4 /BPC 8 /CS /G ID " + raw + "\nEI\n" +
		"BI /W 100 /H 100 /F /DCT ID \xff\xd8(Tj)ET\xff\xd9 EI\nBT /F1 10 Tf 72 680 Td (After) Tj ET"
	if got := textOf(t, onePage(content, "", "").Write(knowledgetest.Options{})); got != "Before\nAfter" {
		t.Fatalf("%q", got)
	}
}

// Marked content and unknown operators are passed over; text shown in a font the page
// does not have reads as WinAnsi.
func TestMarkedContentAndMissingFonts(t *testing.T) {
	content := "/Span << /ActualText (x) /MCID 3 >> BDC BT /F1 10 Tf 72 700 Td (Shown) Tj ET EMC " +
		"BX 1 2 3 frobnicate EX BT /Missing 10 Tf 72 680 Td (Caf\\351) Tj ET"
	if got := textOf(t, onePage(content, "", "").Write(knowledgetest.Options{})); got != "Shown\nCafé" {
		t.Fatalf("%q", got)
	}
}

// A page's content may be an array of streams, cut anywhere between tokens.
func TestContentArrays(t *testing.T) {
	w := onePage("BT /F1 10 Tf 72 700 Td (Hello", "", "")
	w.Set(3, "<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 5 0 R >> >> /Contents [4 0 R 6 0 R] >>")
	w.AddStream("", []byte(") Tj ET"))
	// The string is cut: the streams are one content, so it reads whole.
	if got := textOf(t, w.Write(knowledgetest.Options{})); got != "Hello\n" && got != "Hello" {
		t.Fatalf("%q", got)
	}
}

// A spacing accent drawn over a letter, before or after it, reads as the accented letter
// (TeX's \"{\i}, \v{c}); one beside a letter stays itself.
func TestAccentsOverLetters(t *testing.T) {
	// Accent (5 wide) moved back over the next letter by a kern, then after a letter.
	content := "BT /F1 10 Tf 72 700 Td [(Na) (\\250) 500 (\\220ve) ( c) 500 (\\237) ( \\250 x)] TJ ET"
	font := "<< /Type /Font /Subtype /Type1 /BaseFont /CMR10 /Encoding << /Differences [144 /dotlessi 159 /caron 168 /dieresis] >> " +
		"/FirstChar 32 /LastChar 255 /Widths [" + strings.Repeat("500 ", 224) + "] >>"
	if got := textOf(t, onePage(content, font, "").Write(knowledgetest.Options{})); got != "Naïve č ¨ x" {
		t.Fatalf("%q", got)
	}
}
