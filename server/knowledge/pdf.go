package knowledge

import (
	"context"
	"errors"
	"io"
	"math"
	"strings"

	"github.com/bettyhq/betty/server/knowledge/internal/pdf"
)

// The PDF reader is internal/pdf, Betty's own (pure Go, so `betty` stays one static binary):
// it gives each page's glyphs with their text, position, width and size, opens files
// protected by an owner password only, and is bounded so that no file makes it loop,
// recurse or allocate without end (its package doc says how, and what it does not read).

// maxPDFPages bounds the pages read: a page tree with more is a damaged file's.
const maxPDFPages = 20_000

// maxPDFLines bounds the lines one page draws (a dense page has a few hundred).
const maxPDFLines = 20_000

func parsePDF(ctx context.Context, r io.ReaderAt, size int64, t *text) (int, error) {
	rd, err := pdf.NewReader(ctx, r, size)
	switch {
	case ctx.Err() != nil:
		return 0, context.Cause(ctx)
	case errors.Is(err, pdf.ErrInvalidPassword):
		return 0, unreadable("This PDF is password-protected; upload it without a password.")
	case errors.Is(err, pdf.ErrEncrypted):
		return 0, unreadable("This PDF is encrypted in a way Betty cannot read; save a copy without protection (or as DOCX) and upload that.")
	case err != nil:
		return 0, unreadable("%s", damaged(PDF))
	}
	pages, err := rd.Pages(maxPDFPages)
	switch {
	case ctx.Err() != nil:
		return 0, context.Cause(ctx)
	case err != nil || len(pages) == 0:
		return 0, unreadable("%s", damaged(PDF))
	}
	for i, p := range pages {
		if err := pdfPage(p, i+1, t); err != nil {
			return 0, err
		}
	}
	return len(pages), nil
}

// errPDFLines stops a page drawing more lines than any page holds.
var errPDFLines = errors.New("too many lines on one page")

// pdfPage lays out one page's glyphs as lines, and lines as blocks: a vertical gap wider than
// a line starts a paragraph, and a line in a font clearly larger than the page's body text is
// a heading. A page that cannot be read gives the text read before the trouble (the others
// still count); a damaged file, the text cap and the context end the whole file.
func pdfPage(p pdf.Page, num int, t *text) error {
	type line struct {
		text       strings.Builder
		y, size    float64
		prevX, end float64
	}
	var lines []*line
	var cur *line
	chars := 0
	err := p.Walk(func(g pdf.Text) error {
		if g.S == "" {
			return nil
		}
		if chars++; t.kept+chars > MaxTextChars {
			return errTooMuchText
		}
		if err := t.tick(); err != nil {
			return err
		}
		fs := math.Max(g.FontSize, 1)
		// Half the larger size of the two: a superscript or a footnote mark, raised by less,
		// stays on its line.
		newLine := cur == nil || math.Abs(g.Y-cur.y) > math.Max(fs, cur.size)*0.5 || g.X < cur.prevX-fs*2
		if newLine {
			if len(lines) >= maxPDFLines {
				return errPDFLines
			}
			cur = &line{y: g.Y, size: fs}
			cur.text.Grow(96) // a line's text, mostly, at once
			lines = append(lines, cur)
		} else if g.X-cur.end > fs*0.15 && !strings.HasSuffix(cur.text.String(), " ") && g.S != " " {
			cur.text.WriteByte(' ')
		}
		cur.text.WriteString(g.S)
		cur.prevX, cur.end = g.X, g.X+g.W
		cur.size = math.Max(cur.size, fs)
		return nil
	})
	switch {
	case err == nil:
	case isParseError(err) || t.ctx.Err() != nil:
		return err
	case errors.Is(err, pdf.ErrDamaged), errors.Is(err, errPDFLines):
		return unreadable("%s", damaged(PDF))
	}
	// The body text's size is the one most characters are set in.
	count := map[float64]int{}
	body := 0.0
	for _, l := range lines {
		count[l.size] += l.text.Len()
		if count[l.size] > count[body] {
			body = l.size
		}
	}
	var para []string
	flush := func() error {
		if len(para) == 0 {
			return nil
		}
		s := strings.Join(para, "\n")
		para = nil
		return t.add(Block{Page: num, Text: s})
	}
	for i, l := range lines {
		text := strings.Join(strings.Fields(l.text.String()), " ")
		if text == "" {
			continue
		}
		if l.size >= body*1.25 && len(text) < 200 {
			if err := flush(); err != nil {
				return err
			}
			if err := t.add(Block{Page: num, Heading: true, Text: text}); err != nil {
				return err
			}
			continue
		}
		if i > 0 && math.Abs(lines[i-1].y-l.y) > l.size*1.8 {
			if err := flush(); err != nil {
				return err
			}
		}
		para = append(para, text)
	}
	return flush()
}
