package knowledge

import (
	"archive/zip"
	"encoding/xml"
	"errors"
	"io"
	"strings"
)

// maxDOCXXML bounds the uncompressed document part read (a zip bomb stops there).
const maxDOCXXML = 200 << 20

// parseDOCX reads word/document.xml: paragraphs (w:p) of text runs (w:t, tabs, breaks),
// headings by their style (Title, Heading1…), and pages from the breaks Word recorded
// (explicit page breaks and the breaks of its last layout).
func parseDOCX(r io.ReaderAt, size int64) (Document, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return Document{}, unreadable("%s", damaged(DOCX))
	}
	var part *zip.File
	for _, f := range zr.File {
		if f.Name == "word/document.xml" {
			part = f
		}
		if f.Name == "EncryptedPackage" {
			return Document{}, unreadable("This Word document is password-protected; upload it without a password.")
		}
	}
	if part == nil {
		return Document{}, unreadable("%s", damaged(DOCX))
	}
	rc, err := part.Open()
	if err != nil {
		return Document{}, unreadable("%s", damaged(DOCX))
	}
	defer rc.Close()
	dec := xml.NewDecoder(io.LimitReader(rc, maxDOCXXML))
	dec.Strict = false
	doc := Document{Pages: 1}
	var text strings.Builder
	heading, inText, broke := false, false, false
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Document{}, unreadable("%s", damaged(DOCX))
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "p":
				text.Reset()
				heading = false
			case "pStyle":
				v := strings.ToLower(attr(t, "val"))
				heading = strings.HasPrefix(v, "heading") || v == "title" || v == "subtitle"
			case "t":
				inText = true
			case "tab":
				text.WriteByte('\t')
			case "br", "cr":
				if attr(t, "type") == "page" {
					doc.Pages, broke = doc.Pages+1, true
				} else {
					text.WriteByte('\n')
				}
			case "lastRenderedPageBreak":
				// Word writes one where its last layout began a page; after an explicit
				// break it marks the same page.
				if !broke {
					doc.Pages++
				}
				broke = false
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "t":
				inText = false
			case "p":
				if s := strings.TrimSpace(text.String()); s != "" {
					doc.Blocks = append(doc.Blocks, Block{Page: doc.Pages, Heading: heading, Text: s})
					broke = false
				}
				text.Reset()
			}
		case xml.CharData:
			if inText {
				text.Write(t)
			}
		}
	}
	return doc, nil
}

func attr(e xml.StartElement, local string) string {
	for _, a := range e.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}
