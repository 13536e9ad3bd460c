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

// helvetica is a font with WinAnsi codes and widths of 500 (a space 250).
const helvetica = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /FirstChar 32 /LastChar 126 /Widths [250 " +
	"500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 " +
	"500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 " +
	"500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500] >>"

// onePage is a writer of a one-page document: the catalog (1), pages (2), page (3), its
// content (4) and the font /F1 (5, Helvetica unless font is given); res adds to the
// page's resources.
func onePage(content, font, res string) *knowledgetest.Writer {
	if font == "" {
		font = helvetica
	}
	w := knowledgetest.NewWriter()
	w.Add("<< /Type /Catalog /Pages 2 0 R >>")
	w.Add("<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
	w.Add("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> " + res + " >> /Contents 4 0 R >>")
	w.AddStream("", []byte(content))
	w.Add(font)
	return w
}

// glyphs reads every glyph of a file's pages.
func readGlyphs(t *testing.T, data []byte) ([]Text, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, err := NewReader(ctx, bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	pages, err := r.Pages(1000)
	if err != nil {
		return nil, err
	}
	var all []Text
	for _, p := range pages {
		if err := p.Walk(func(g Text) error { all = append(all, g); return nil }); err != nil {
			return all, err
		}
	}
	return all, nil
}

// textOf reads a file's text: glyphs joined, a space where a gap is wider than a fifth of
// the size, a line break where the baseline moves.
func textOf(t *testing.T, data []byte) string {
	t.Helper()
	gs, err := readGlyphs(t, data)
	if err != nil {
		t.Fatalf("reading: %v", err)
	}
	return join(gs)
}

func join(gs []Text) string {
	var b strings.Builder
	for i, g := range gs {
		if i > 0 {
			p := gs[i-1]
			switch {
			case abs64(g.Y-p.Y) > g.FontSize/2:
				b.WriteByte('\n')
			case g.X-(p.X+p.W) > g.FontSize/5 && g.S != " " && p.S != " ":
				b.WriteByte(' ')
			}
		}
		b.WriteString(g.S)
	}
	return b.String()
}

func abs64(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// mustFail checks that reading a file ends in ErrDamaged, quickly.
func mustFail(t *testing.T, data []byte, want error) {
	t.Helper()
	start := time.Now()
	_, err := readGlyphs(t, data)
	if !errors.Is(err, want) {
		t.Fatalf("got %v, want %v", err, want)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("took %v", d)
	}
	t.Log(err)
}

func show(s string) string { return fmt.Sprintf("(%s) Tj", s) }
