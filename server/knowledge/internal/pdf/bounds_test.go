package pdf

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/knowledge/knowledgetest"
)

// Every graph the reader follows may loop, and every budget may be spent: each ends in
// ErrDamaged, fast.
func TestCyclesAndBudgets(t *testing.T) {
	pageTree := func(kids string) []byte {
		w := onePage(hello, "", "")
		w.Set(2, "<< /Type /Pages /Kids ["+kids+"] /Count 1 >>")
		return w.Write(knowledgetest.Options{})
	}
	deepTree := func() []byte {
		w := onePage(hello, "", "")
		w.Set(2, "<< /Type /Pages /Kids [6 0 R] /Count 1 >>")
		for i := range 80 {
			w.Set(6+i, fmt.Sprintf("<< /Type /Pages /Kids [%d 0 R] /Count 1 >>", 7+i))
		}
		w.Set(86, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
		return w.Write(knowledgetest.Options{})
	}
	form := func(content string, nested int) []byte {
		w := onePage("/Fm0 Do", "", "/XObject << /Fm0 6 0 R >>")
		for i := range nested {
			w.SetStream(6+i, fmt.Sprintf("/Subtype /Form /Resources << /XObject << /Fm0 %d 0 R >> >>", 7+i), []byte("/Fm0 Do"))
		}
		w.SetStream(6+nested, "/Subtype /Form /Resources << /XObject << /Fm0 6 0 R >> >>", []byte(content))
		return w.Write(knowledgetest.Options{})
	}
	flateSpaces := func(n int) []byte {
		return knowledgetest.Inflating([]byte("BT /F1 12 Tf (x) Tj ET"), bytes.Repeat([]byte(" "), 1<<16), n/(1<<16), nil)
	}
	bomb := func() []byte {
		w := onePage("", "", "")
		z := append([]byte{0x78, 0x9c}, flateSpaces(100<<20)...)
		w.SetStream(4, "/Filter /FlateDecode", z)
		return w.Write(knowledgetest.Options{})
	}
	innerBomb := func() []byte {
		w := onePage("", "", "")
		z := append([]byte{0x78, 0x9c}, flateSpaces(100<<20)...)
		w.SetStream(4, "/Filter [/FlateDecode /ASCIIHexDecode]", z)
		return w.Write(knowledgetest.Options{})
	}
	redrawn := func() []byte {
		w := onePage("", "", "")
		z := append([]byte{0x78, 0x9c}, flateSpaces(4<<20)...)
		w.SetStream(4, "/Filter /FlateDecode", z)
		w.Set(3, "<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 5 0 R >> >> /Contents ["+strings.Repeat("4 0 R ", 100)+"] >>")
		return w.Write(knowledgetest.Options{})
	}
	manyFonts := func() []byte {
		var names, shows strings.Builder
		w := onePage("", "", "")
		for i := range maxFonts + 1 {
			fmt.Fprintf(&names, "/F%d %d 0 R ", i, 6+i)
			fmt.Fprintf(&shows, "/F%d 12 Tf (a) Tj ", i)
			w.Set(6+i, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
		}
		w.Set(3, "<< /Type /Page /Parent 2 0 R /Resources << /Font << "+names.String()+">> >> /Contents 4 0 R >>")
		w.SetStream(4, "", []byte("BT "+shows.String()+"ET"))
		return w.Write(knowledgetest.Options{})
	}
	bigCMap := func() []byte {
		var b strings.Builder
		b.WriteString("begincmap 1 begincodespacerange <0000> <ffff> endcodespacerange\n")
		for i := 0; i < maxMapped+100; i += 100 {
			b.WriteString("100 beginbfchar\n")
			for j := i; j < i+100; j++ {
				fmt.Fprintf(&b, "<%04x> <%04x>\n", j%65536, j%65536)
			}
			b.WriteString("endbfchar\n")
		}
		w := onePage(hello, "<< /Type /Font /Subtype /Type0 /BaseFont /X /Encoding /Identity-H /ToUnicode 6 0 R >>", "")
		w.AddStream("", []byte(b.String()))
		return w.Write(knowledgetest.Options{})
	}
	for name, data := range map[string][]byte{
		"page tree cycle":                    pageTree("3 0 R 2 0 R"),
		"page listed twice":                  pageTree("3 0 R 3 0 R"),
		"page tree too deep":                 deepTree(),
		"form drawn inside itself":           form("/Fm0 Do", 0),
		"forms nested too deep":              form("BT /F1 12 Tf (deep) Tj ET", maxFormDepth+1),
		"a form inside a form inside itself": form("/Fm0 Do", 3),
		"arrays nested deep in an object": onePage(hello, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /X "+
			strings.Repeat("[", maxDepth+1)+" >>", "").Write(knowledgetest.Options{}),
		"dictionaries nested deep in the content":  onePage("BT "+strings.Repeat("<< /A ", maxDepth+1)+"ET", "", "").Write(knowledgetest.Options{}),
		"a stream decoding past its budget":        bomb(),
		"a bomb under a filter that keeps nothing": innerBomb(),
		"streams decoding past the file's budget":  redrawn(),
		"a string of 2 MiB":                        onePage("BT /F1 12 Tf ("+strings.Repeat("a", 2<<20)+") Tj ET", "", "").Write(knowledgetest.Options{}),
		"a name of 2 MiB":                          onePage("BT /"+strings.Repeat("a", 2<<20)+" 12 Tf ET", "", "").Write(knowledgetest.Options{}),
		"an array past its entries": onePage(hello, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Widths ["+
			strings.Repeat("1 ", maxElements+1)+"] >>", "").Write(knowledgetest.Options{}),
		"operands past the stack":  onePage("BT "+strings.Repeat("1 ", maxStack+1)+"Tj ET", "", "").Write(knowledgetest.Options{}),
		"fonts past a page's":      manyFonts(),
		"CMaps past their mapping": bigCMap(),
	} {
		t.Run(name, func(t *testing.T) { mustFail(t, data, ErrDamaged) })
	}
}

// Pages answers at most max pages: more is a damaged file.
func TestPageLimit(t *testing.T) {
	data := knowledgetest.ManyPages(30)
	r, err := NewReader(context.Background(), bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Pages(29); !errors.Is(err, ErrDamaged) {
		t.Fatal(err)
	}
	if pages, err := r.Pages(30); err != nil || len(pages) != 30 {
		t.Fatal(len(pages), err)
	}
}

// Reading stops once its context ends, answering the context's cause.
func TestContextStops(t *testing.T) {
	data := onePage("BT /F1 12 Tf "+strings.Repeat("(x) Tj ", 200_000)+"ET", "", "").Write(knowledgetest.Options{})
	cause := errors.New("the server stops")
	ctx, cancel := context.WithCancelCause(context.Background())
	r, err := NewReader(ctx, bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	pages, err := r.Pages(10)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	start := time.Now()
	err = pages[0].Walk(func(Text) error {
		if n++; n == 10 {
			cancel(cause)
		}
		return nil
	})
	if !errors.Is(err, cause) || n > 20_000 || time.Since(start) > time.Second {
		t.Fatalf("%v after %d glyphs", err, n)
	}
	if _, err := NewReader(ctx, bytes.NewReader(data), int64(len(data))); !errors.Is(err, cause) {
		t.Fatal(err)
	}
	// The callback's own error comes back as it is.
	mine := errors.New("enough")
	r, _ = NewReader(context.Background(), bytes.NewReader(data), int64(len(data)))
	pages, _ = r.Pages(10)
	if err := pages[0].Walk(func(Text) error { return mine }); err != mine {
		t.Fatal(err)
	}
}

// A panic never leaves the package: it is a damaged file.
func TestPanicIsDamage(t *testing.T) {
	g := &guard{ctx: context.Background()}
	err := func() (err error) {
		defer func() { recovered(g, recover(), &err) }()
		var a []int
		_ = a[len(a)+3]
		return nil
	}()
	if !errors.Is(err, ErrDamaged) {
		t.Fatal(err)
	}
}

// Object numbers: a table may not name more objects than a quarter of the file's bytes.
func TestObjectLimit(t *testing.T) {
	if objectLimit(1000) != 250 || objectLimit(1<<40) != maxObjects || objectLimit(10) != 16 {
		t.Fatal(objectLimit(1000), objectLimit(1<<40))
	}
	// A reference past the limit is to null, not an error.
	w := onePage(hello, "", "")
	w.Set(3, "<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R /Annots 99999999 0 R >>")
	if got := textOf(t, w.Write(knowledgetest.Options{})); got != "Hello world" {
		t.Fatal(got)
	}
}
