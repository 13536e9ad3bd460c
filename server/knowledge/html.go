package knowledge

import (
	"html"
	"strings"
)

// htmlBlocks reads the visible text of an HTML page: headings (h1–h6) and the blocks between
// block-level tags; scripts, styles and comments are skipped and entities decoded. It is
// lenient on purpose: pages in the wild are rarely well formed.
func htmlBlocks(src string) []Block {
	var out []Block
	var cur strings.Builder
	heading := false
	flush := func() {
		text := strings.Join(strings.Fields(html.UnescapeString(cur.String())), " ")
		cur.Reset()
		if text != "" {
			out = append(out, Block{Heading: heading, Text: text})
		}
	}
	for i := 0; i < len(src); {
		if src[i] != '<' {
			j := strings.IndexByte(src[i:], '<')
			if j < 0 {
				j = len(src) - i
			}
			cur.WriteString(src[i : i+j])
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
		name := strings.ToLower(strings.TrimLeft(tag, "/!?"))
		if k := strings.IndexAny(name, " \t\r\n/"); k >= 0 {
			name = name[:k]
		}
		switch {
		case !closing && (name == "script" || name == "style" || name == "noscript" || name == "template" || name == "svg" || name == "head"):
			// Skip to the matching close tag (a <head> holds no visible text but the title).
			closeAt := strings.Index(strings.ToLower(src[i:]), "</"+name)
			if closeAt < 0 {
				return out
			}
			i += closeAt
		case len(name) == 2 && name[0] == 'h' && name[1] >= '1' && name[1] <= '6':
			flush()
			heading = !closing
		case blockTags[name]:
			flush()
		}
	}
	flush()
	return out
}

var blockTags = map[string]bool{
	"p": true, "div": true, "br": true, "li": true, "ul": true, "ol": true, "tr": true, "table": true, "section": true,
	"article": true, "header": true, "footer": true, "main": true, "nav": true, "aside": true, "pre": true,
	"blockquote": true, "dt": true, "dd": true, "dl": true, "hr": true, "title": true, "body": true, "form": true,
	"figure": true, "figcaption": true, "address": true,
}
