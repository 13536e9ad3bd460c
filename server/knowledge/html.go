package knowledge

import (
	"html"
	"strings"
	"unicode"
)

// htmlBlocks reads the visible text of an HTML page: headings (h1–h6) and the blocks between
// block-level tags; scripts, styles and comments are skipped and entities decoded. It is
// lenient on purpose: pages in the wild are rarely well formed. Every step moves forward
// through the page, so it reads any page in one pass.
func htmlBlocks(src string, t *text) error {
	heading := false
	for i := 0; i < len(src); {
		if err := t.tick(); err != nil {
			return err
		}
		if src[i] != '<' {
			j := strings.IndexByte(src[i:], '<')
			if j < 0 {
				j = len(src) - i
			}
			if err := htmlText(src[i:i+j], t); err != nil {
				return err
			}
			i += j
			continue
		}
		if strings.HasPrefix(src[i:], "<!--") {
			end := strings.Index(src[i+4:], "-->")
			if end < 0 {
				break
			}
			i += 4 + end + 3
			continue
		}
		end := strings.IndexByte(src[i:], '>')
		if end < 0 {
			break
		}
		tag := src[i+1 : i+end]
		i += end + 1
		closing := strings.HasPrefix(tag, "/")
		name := strings.TrimLeft(tag, "/!?")
		if k := strings.IndexAny(name, " \t\r\n/"); k >= 0 {
			name = name[:k]
		}
		if len(name) > 10 {
			continue // no tag this reader knows is that long
		}
		name = strings.ToLower(name)
		switch {
		case !closing && (name == "script" || name == "style" || name == "noscript" || name == "template" || name == "svg" || name == "head"):
			// Skip to the matching close tag (a <head> holds no visible text but the title).
			closeAt := indexFold(src[i:], "</"+name)
			if closeAt < 0 {
				return t.end(0, heading)
			}
			i += closeAt
		case len(name) == 2 && name[0] == 'h' && name[1] >= '1' && name[1] <= '6':
			if err := t.end(0, heading); err != nil {
				return err
			}
			heading = !closing
		case blockTags[name]:
			if err := t.end(0, heading); err != nil {
				return err
			}
		}
	}
	return t.end(0, heading)
}

// htmlText adds text between tags to the block being read, entities decoded and white space
// collapsed, a piece at a time (cut at white space, which no entity holds, or else before an
// ampersand) so that a page of one 40 MB paragraph is never copied whole.
func htmlText(s string, t *text) error {
	const piece = 64 << 10
	for len(s) > 0 {
		n := len(s)
		if n > piece {
			n = piece
			if k := strings.IndexFunc(s[n:min(len(s), 2*piece)], unicode.IsSpace); k >= 0 {
				n += k
			} else if amp := strings.LastIndexByte(s[n-40:n], '&'); amp >= 0 {
				n -= 40 - amp // no white space to cut at: at least not inside an entity
			}
		}
		if err := t.writeSpaced(html.UnescapeString(s[:n])); err != nil {
			return err
		}
		s = s[n:]
	}
	return nil
}

// indexFold is strings.Index of an ASCII needle ignoring case, without lowering a copy of s
// (lowering the rest of the page at every <script> made reading quadratic).
func indexFold(s, needle string) int {
	for at := 0; ; {
		i := strings.Index(s[at:], needle[:2])
		if i < 0 {
			return -1
		}
		at += i
		if len(s)-at >= len(needle) && strings.EqualFold(s[at:at+len(needle)], needle) {
			return at
		}
		at += 2
	}
}

var blockTags = map[string]bool{
	"p": true, "div": true, "br": true, "li": true, "ul": true, "ol": true, "tr": true, "table": true, "section": true,
	"article": true, "header": true, "footer": true, "main": true, "nav": true, "aside": true, "pre": true,
	"blockquote": true, "dt": true, "dd": true, "dl": true, "hr": true, "title": true, "body": true, "form": true,
	"figure": true, "figcaption": true, "address": true,
}
