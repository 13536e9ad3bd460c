package knowledge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// Format is a kind of file a knowledge base reads, named as the contract's KnowledgeFileType.
type Format string

const (
	PDF      Format = "pdf"
	DOCX     Format = "docx"
	Text     Format = "txt"
	Markdown Format = "md"
	CSV      Format = "csv"
	HTML     Format = "html"
)

// FormatOf answers the format of an upload's MIME type (as the uploads feature read it from
// the bytes), and whether Betty reads it.
func FormatOf(mimeType string) (Format, bool) {
	switch mimeType {
	case "application/pdf":
		return PDF, true
	case "application/vnd.openxmlformats-officedocument.wordprocessingml.document":
		return DOCX, true
	case "text/plain":
		return Text, true
	case "text/markdown":
		return Markdown, true
	case "text/csv":
		return CSV, true
	case "text/html":
		return HTML, true
	}
	return "", false
}

// MaxTextChars bounds the text one file may hold: past it the file is refused with a message
// (a knowledge base is for answers, not for archives). Parsers stop reading as soon as the
// text kept passes it, so it also bounds the memory a file's text takes.
const MaxTextChars = 5_000_000

// maxTextFile bounds a text file read whole (uploads stop at 50 MiB).
const maxTextFile = 64 << 20

// MaxBlocks bounds the paragraphs, headings and rows one file may hold (each costs memory
// beyond its text: two million one-letter paragraphs would take more than their letters).
const MaxBlocks = 500_000

// Block is a heading or a paragraph of a document, with the page it is on (0: no pages).
type Block struct {
	Page    int
	Heading bool
	Text    string
}

// Document is the text read from a file: its blocks in reading order, and its page count
// (0 for formats without pages).
type Document struct {
	Pages  int
	Blocks []Block
}

// ParseError is a file that cannot be read, with a message for people. Trying again does not
// help.
type ParseError struct{ Message string }

func (e *ParseError) Error() string { return e.Message }

func unreadable(format string, args ...any) error {
	return &ParseError{Message: fmt.Sprintf(format, args...)}
}

var errTooMuchText = unreadable("This file holds more text than a knowledge file may (more than %d characters, or more than %d paragraphs). Split it into smaller files.",
	MaxTextChars, MaxBlocks)

// Parse reads the text of a file of a format. It stops once ctx ends, answering
// context.Cause(ctx). A file that cannot be read is a *ParseError; it never panics, whatever
// the bytes, and no file makes it loop, recurse or allocate without bound (see
// README.md, Security).
func Parse(ctx context.Context, r io.ReaderAt, size int64, f Format) (doc Document, err error) {
	defer func() {
		if p := recover(); p != nil {
			doc, err = Document{}, unreadable("%s", damaged(f))
		}
		if ctx.Err() != nil {
			doc, err = Document{}, context.Cause(ctx)
		}
	}()
	t := &text{ctx: ctx}
	switch f {
	case PDF:
		doc.Pages, err = parsePDF(ctx, r, size, t)
	case DOCX:
		doc.Pages, err = parseDOCX(r, size, t)
	case Text, Markdown, CSV, HTML:
		if size > maxTextFile {
			return Document{}, errTooMuchText
		}
		raw := make([]byte, size)
		if _, rerr := io.ReadFull(io.NewSectionReader(r, 0, size), raw); rerr != nil {
			return Document{}, rerr
		}
		src := toUTF8(raw)
		raw = nil
		switch f {
		case Text:
			err = paragraphs(src, t)
		case Markdown:
			err = markdownBlocks(src, t)
		case CSV:
			err = parseCSV(src, t)
		case HTML:
			err = htmlBlocks(src, t)
		}
	default:
		return Document{}, unreadable("Betty cannot read this type of file; upload a PDF, DOCX, TXT, Markdown, CSV or HTML file.")
	}
	if err != nil {
		return Document{}, err
	}
	doc.Blocks = t.blocks
	switch {
	case t.kept == 0 && f == PDF:
		return Document{}, unreadable("This PDF has no text layer (it looks scanned); upload a PDF with selectable text, or a DOCX.")
	case t.kept == 0:
		return Document{}, unreadable("This file has no text to learn from.")
	}
	return doc, nil
}

func damaged(f Format) string {
	switch f {
	case PDF:
		return "This PDF could not be read: the file looks damaged. Open it and save it again as PDF, or upload a DOCX."
	case DOCX:
		return "This Word document could not be read: the file looks damaged. Save it again as DOCX, or upload a PDF."
	}
	return "This file could not be read: it looks damaged."
}

// text is what a parser keeps of a document: the blocks read, counted against MaxTextChars
// and MaxBlocks, and the paragraph being read, counted too, so that a parser stops at the
// cap even inside one endless paragraph. It also checks the context every so often: every
// parser's loops call it.
type text struct {
	ctx    context.Context
	ticks  uint
	blocks []Block
	kept   int // characters in blocks
	cur    strings.Builder
	runes  int // characters in cur
}

// tick answers the context's cause once it has ended.
func (t *text) tick() error {
	t.ticks++
	if t.ticks&1023 == 0 && t.ctx.Err() != nil {
		return context.Cause(t.ctx)
	}
	return nil
}

// write adds s to the paragraph being read.
func (t *text) write(s string) error {
	t.runes += utf8.RuneCountInString(s)
	if t.kept+t.runes > MaxTextChars {
		return errTooMuchText
	}
	t.cur.WriteString(s)
	return t.tick()
}

// writeSpaced adds s to the paragraph with every run of white space as one space.
func (t *text) writeSpaced(s string) error {
	for len(s) > 0 {
		i := strings.IndexFunc(s, unicode.IsSpace)
		if i < 0 {
			return t.write(s)
		}
		if i > 0 {
			if err := t.write(s[:i]); err != nil {
				return err
			}
		}
		if t.cur.Len() > 0 && !strings.HasSuffix(t.cur.String(), " ") {
			if err := t.write(" "); err != nil {
				return err
			}
		}
		s = strings.TrimLeftFunc(s[i:], unicode.IsSpace)
	}
	return nil
}

// end closes the paragraph being read as a block (none when it is only white space).
func (t *text) end(page int, heading bool) error {
	s := strings.TrimSpace(t.cur.String())
	t.cur.Reset()
	t.runes = 0
	return t.add(Block{Page: page, Heading: heading, Text: s})
}

// add keeps a block (none when it is empty).
func (t *text) add(b Block) error {
	if b.Text == "" {
		return t.tick()
	}
	t.kept += utf8.RuneCountInString(b.Text)
	if t.kept > MaxTextChars || len(t.blocks) >= MaxBlocks {
		return errTooMuchText
	}
	t.blocks = append(t.blocks, b)
	return t.tick()
}

// toUTF8 answers text as UTF-8: UTF-8 as is (without a byte-order mark), anything else read as
// Latin-1, the usual other encoding of text files.
func toUTF8(raw []byte) string {
	raw = bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))
	if utf8.Valid(raw) {
		if len(raw) == 0 {
			return ""
		}
		// The bytes are never written again: sharing them instead of copying halves what a
		// text file of 50 MiB takes while it is read.
		return strings.ReplaceAll(unsafe.String(unsafe.SliceData(raw), len(raw)), "\x00", "")
	}
	var b strings.Builder
	b.Grow(len(raw))
	for _, c := range raw {
		if c != 0 {
			b.WriteRune(rune(c))
		}
	}
	return b.String()
}

// lines calls fn with each line of s, without its line break.
func lines(s string, fn func(line string) error) error {
	for len(s) > 0 {
		line := s
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		if err := fn(strings.TrimSuffix(line, "\r")); err != nil {
			return err
		}
	}
	return nil
}

// paragraphs reads text as paragraphs split at blank lines; lines within one are joined.
func paragraphs(src string, t *text) error {
	if err := lines(src, func(line string) error { return paragraphLine(line, 0, t) }); err != nil {
		return err
	}
	return t.end(0, false)
}

// paragraphLine adds a line to the paragraph being read, or ends it at a blank line.
func paragraphLine(line string, page int, t *text) error {
	line = strings.TrimSpace(line)
	if line == "" {
		return t.end(page, false)
	}
	if t.cur.Len() > 0 {
		if err := t.write("\n"); err != nil {
			return err
		}
	}
	return t.write(line)
}

// markdownBlocks reads Markdown as paragraphs and headings (# lines), keeping the text of
// the rest as written.
func markdownBlocks(src string, t *text) error {
	inFence := false
	err := lines(src, func(line string) error {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			inFence = !inFence
		}
		if !inFence && strings.HasPrefix(trimmed, "#") {
			if h := strings.TrimSpace(strings.TrimLeft(trimmed, "#")); h != "" {
				if err := t.end(0, false); err != nil {
					return err
				}
				return t.add(Block{Heading: true, Text: h})
			}
		}
		return paragraphLine(line, 0, t)
	})
	if err != nil {
		return err
	}
	return t.end(0, false)
}

// isParseError tells a file's fault from the reader's.
func isParseError(err error) bool {
	var pe *ParseError
	return errors.As(err, &pe)
}
