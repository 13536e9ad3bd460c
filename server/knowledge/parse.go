package knowledge

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
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

// MaxTextChars bounds the text one file may hold: beyond it the file is refused with a
// message (a knowledge base is for answers, not for archives).
const MaxTextChars = 5_000_000

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

// Parse reads the text of a file of a format. A file that cannot be read is a *ParseError;
// it never panics, whatever the bytes.
func Parse(r io.ReaderAt, size int64, f Format) (doc Document, err error) {
	defer func() {
		if p := recover(); p != nil {
			doc, err = Document{}, unreadable("%s", damaged(f))
		}
	}()
	switch f {
	case PDF:
		doc, err = parsePDF(r, size)
	case DOCX:
		doc, err = parseDOCX(r, size)
	case Text, Markdown, CSV, HTML:
		raw, rerr := io.ReadAll(io.NewSectionReader(r, 0, size))
		if rerr != nil {
			return Document{}, rerr
		}
		text := toUTF8(raw)
		switch f {
		case Text:
			doc = Document{Blocks: paragraphs(text, 0)}
		case Markdown:
			doc = Document{Blocks: markdownBlocks(text)}
		case CSV:
			doc, err = parseCSV(text)
		case HTML:
			doc = Document{Blocks: htmlBlocks(text)}
		}
	default:
		return Document{}, unreadable("Betty cannot read this type of file; upload a PDF, DOCX, TXT, Markdown, CSV or HTML file.")
	}
	if err != nil {
		return Document{}, err
	}
	chars := 0
	for _, b := range doc.Blocks {
		chars += utf8.RuneCountInString(b.Text)
	}
	switch {
	case chars == 0 && f == PDF:
		return Document{}, unreadable("This PDF has no text layer (it looks scanned); upload a PDF with selectable text, or a DOCX.")
	case chars == 0:
		return Document{}, unreadable("This file has no text to learn from.")
	case chars > MaxTextChars:
		return Document{}, unreadable("This file holds more text than a knowledge file may (%d characters; at most %d). Split it into smaller files.",
			chars, MaxTextChars)
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

// toUTF8 answers text as UTF-8: UTF-8 as is (without a byte-order mark), anything else read as
// Latin-1, the usual other encoding of text files.
func toUTF8(raw []byte) string {
	raw = bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))
	if utf8.Valid(raw) {
		return strings.ReplaceAll(string(raw), "\x00", "")
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

// paragraphs splits text into paragraphs at blank lines; lines within one are joined.
func paragraphs(text string, page int) []Block {
	var out []Block
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			out = append(out, Block{Page: page, Text: strings.Join(cur, "\n")})
			cur = nil
		}
	}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 64<<10), MaxTextChars*4)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			flush()
			continue
		}
		cur = append(cur, line)
	}
	flush()
	return out
}

// markdownBlocks reads Markdown as paragraphs and headings (# lines), keeping the text of
// the rest as written.
func markdownBlocks(text string) []Block {
	var out []Block
	var body strings.Builder
	flush := func() {
		out = append(out, paragraphs(body.String(), 0)...)
		body.Reset()
	}
	inFence := false
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			inFence = !inFence
		}
		if !inFence && strings.HasPrefix(trimmed, "#") {
			if h := strings.TrimSpace(strings.TrimLeft(trimmed, "#")); h != "" {
				flush()
				out = append(out, Block{Heading: true, Text: h})
				continue
			}
		}
		body.WriteString(line)
		body.WriteByte('\n')
	}
	flush()
	return out
}

// parseCSV reads each row as "column: value" pairs named by the header row, so a passage says
// what each value is.
func parseCSV(text string) (Document, error) {
	r := csv.NewReader(strings.NewReader(text))
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	r.ReuseRecord = false
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return Document{}, nil
	}
	if err != nil {
		return Document{}, unreadable("This CSV file could not be read (%s). Check it is comma-separated text.", csvProblem(err))
	}
	var out []Block
	for {
		row, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Document{}, unreadable("This CSV file could not be read (%s). Check it is comma-separated text.", csvProblem(err))
		}
		var parts []string
		for i, v := range row {
			if v = strings.TrimSpace(v); v == "" {
				continue
			}
			if i < len(header) && strings.TrimSpace(header[i]) != "" {
				v = strings.TrimSpace(header[i]) + ": " + v
			}
			parts = append(parts, v)
		}
		if len(parts) > 0 {
			out = append(out, Block{Text: strings.Join(parts, "; ")})
		}
	}
	if len(out) == 0 { // a single line: the header is the content
		out = append(out, Block{Text: strings.Join(header, "; ")})
	}
	return Document{Blocks: out}, nil
}

func csvProblem(err error) string {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Sprintf("line %d: %v", pe.Line, pe.Err)
	}
	return err.Error()
}
