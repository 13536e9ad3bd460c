package knowledge

import (
	"strings"
	"unicode/utf8"

	"github.com/bettyhq/betty/server/store"
)

// Passage sizes, in characters: a passage closes once it holds MinPassage and the next block
// would take it past MaxPassage; a block longer than MaxPassage is cut at sentence (or word)
// boundaries.
const (
	MinPassage = 500
	MaxPassage = 1000
)

// Split cuts a document into passages for the index: a heading starts a new passage, and
// paragraphs are gathered until the passage is 500–1,000 characters. A passage never spans
// pages, so the page it cites holds all of it (nil without pages): two short pages are two
// passages, however little each holds. A passage continuing a section after a cut or on a new
// page starts with the section's heading, so it can be found by it.
func Split(doc Document) []store.Passage {
	var out []store.Passage
	var cur strings.Builder
	curLen, curPage, onlyHeading := 0, 0, false
	section := ""
	flush := func() {
		if text := strings.TrimSpace(cur.String()); text != "" && !onlyHeading {
			p := store.Passage{Content: text}
			if curPage > 0 {
				page := curPage
				p.Page = &page
			}
			out = append(out, p)
		}
		cur.Reset()
		curLen, onlyHeading = 0, false
	}
	add := func(text string, page int) {
		n := utf8.RuneCountInString(text)
		if curLen == 0 {
			curPage = page
			if section != "" && text != section {
				cur.WriteString(section)
				cur.WriteByte('\n')
				curLen = utf8.RuneCountInString(section) + 1
			}
		} else {
			cur.WriteString("\n\n")
			curLen += 2
		}
		cur.WriteString(text)
		curLen += n
	}
	for _, b := range doc.Blocks {
		text := strings.TrimSpace(b.Text)
		if text == "" {
			continue
		}
		if curLen > 0 && b.Page != curPage {
			flush() // a heading alone at the foot of a page is no passage: the next page's starts with it
		}
		if b.Heading {
			if !onlyHeading {
				flush()
			}
			if utf8.RuneCountInString(text) > 200 {
				text = string([]rune(text)[:200])
			}
			section = text
			add(text, b.Page) // a run of headings stays together
			onlyHeading = true
			continue
		}
		for _, piece := range cut(text, MaxPassage) {
			n := utf8.RuneCountInString(piece)
			if curLen > 0 && !onlyHeading && curLen+2+n > MaxPassage {
				flush()
			}
			add(piece, b.Page)
			onlyHeading = false
			if curLen >= MinPassage {
				flush()
			}
		}
	}
	flush()
	return out
}

// cut splits text into pieces of at most max characters, at sentence ends where it can,
// otherwise at spaces, otherwise anywhere.
func cut(text string, max int) []string {
	if utf8.RuneCountInString(text) <= max {
		return []string{text}
	}
	var out []string
	runes := []rune(text)
	for len(runes) > max {
		at := -1
		for i := max - 1; i >= max/2; i-- {
			if (runes[i] == '.' || runes[i] == '?' || runes[i] == '!' || runes[i] == '\n') && i+1 < len(runes) &&
				(runes[i+1] == ' ' || runes[i+1] == '\n') {
				at = i + 1
				break
			}
		}
		if at < 0 {
			for i := max - 1; i >= max/2; i-- {
				if runes[i] == ' ' || runes[i] == '\n' {
					at = i
					break
				}
			}
		}
		if at < 0 {
			at = max
		}
		if piece := strings.TrimSpace(string(runes[:at])); piece != "" {
			out = append(out, piece)
		}
		runes = runes[at:]
		for len(runes) > 0 && (runes[0] == ' ' || runes[0] == '\n') {
			runes = runes[1:]
		}
	}
	if piece := strings.TrimSpace(string(runes)); piece != "" {
		out = append(out, piece)
	}
	return out
}
