package knowledge

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Bounds of a Word document (a zip): its entries, the inflated size of its document part,
// and how much that part may inflate compared with its compressed size (a zip bomb inflates
// a thousand times; Word's XML, about ten).
const (
	MaxDOCXEntries = 10_000
	MaxDOCXXML     = 64 << 20
	MaxDOCXRatio   = 100
)

var errDOCXTooLarge = unreadable("This Word document is too large to read (its text part inflates to more than %d MiB). Split it into smaller files.",
	MaxDOCXXML>>20)

// parseDOCX reads word/document.xml: paragraphs (w:p) of text runs (w:t, tabs, breaks),
// headings by their style (Title, Heading1…), and pages from the breaks Word recorded
// (explicit page breaks and the breaks of its last layout). The XML is read as a stream
// (wordXML), never whole; the zip's own numbers are checked before anything is inflated, and
// the bytes inflated are counted too, since those numbers can lie.
func parseDOCX(r io.ReaderAt, size int64, t *text) (int, error) {
	if n, ok := zipEntries(r, size); !ok || n > MaxDOCXEntries {
		return 0, unreadable("%s", damaged(DOCX))
	}
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return 0, unreadable("%s", damaged(DOCX))
	}
	var part *zip.File
	for _, f := range zr.File {
		if f.Name == "word/document.xml" {
			part = f
		}
		if f.Name == "EncryptedPackage" {
			return 0, unreadable("This Word document is password-protected; upload it without a password.")
		}
	}
	switch {
	case part == nil:
		return 0, unreadable("%s", damaged(DOCX))
	case part.UncompressedSize64 > 8<<20 && part.UncompressedSize64 > MaxDOCXRatio*part.CompressedSize64:
		return 0, unreadable("%s", damaged(DOCX))
	case part.UncompressedSize64 > MaxDOCXXML:
		return 0, errDOCXTooLarge
	}
	rc, err := part.Open()
	if err != nil {
		return 0, unreadable("%s", damaged(DOCX))
	}
	defer rc.Close()
	x := &wordXML{t: t, pages: 1}
	err = x.read(bufio.NewReaderSize(&inflateCap{r: rc, left: MaxDOCXXML}, 64<<10))
	switch {
	case errors.Is(err, errInflatedPastCap):
		return 0, errDOCXTooLarge
	case err != nil && !isParseError(err) && t.ctx.Err() == nil:
		return 0, unreadable("%s", damaged(DOCX))
	case err != nil:
		return 0, err
	}
	return x.pages, nil
}

var errInflatedPastCap = errors.New("inflated past the cap")

// inflateCap counts the bytes inflated and fails past left.
type inflateCap struct {
	r    io.Reader
	left int64
}

func (c *inflateCap) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if c.left -= int64(n); c.left < 0 {
		return 0, errInflatedPastCap
	}
	return n, err
}

// zipEntries reads how many entries a zip declares from its end-of-central-directory record
// (zip64's when the classic one is full), before archive/zip reads a header for each.
func zipEntries(r io.ReaderAt, size int64) (int64, bool) {
	const eocdLen, maxComment = 22, 65535
	tail := make([]byte, min(size, eocdLen+maxComment+20))
	at := size - int64(len(tail))
	if _, err := r.ReadAt(tail, at); err != nil && !errors.Is(err, io.EOF) {
		return 0, false
	}
	i := bytes.LastIndex(tail, []byte("PK\x05\x06"))
	if i < 0 || len(tail)-i < eocdLen {
		return 0, false
	}
	n := int64(binary.LittleEndian.Uint16(tail[i+10:]))
	if n != 0xffff {
		return n, true
	}
	// zip64: a locator of 20 bytes before the record names where the zip64 record is.
	if i < 20 || !bytes.Equal(tail[i-20:i-16], []byte("PK\x06\x07")) {
		return 0, false
	}
	rec := make([]byte, 40)
	off := int64(binary.LittleEndian.Uint64(tail[i-12:]))
	if off < 0 || off > size-int64(len(rec)) {
		return 0, false
	}
	if _, err := r.ReadAt(rec, off); err != nil || !bytes.Equal(rec[:4], []byte("PK\x06\x06")) {
		return 0, false
	}
	v := binary.LittleEndian.Uint64(rec[32:])
	return int64(min(v, 1<<62)), true
}

// wordXML reads WordprocessingML as a stream of tags and text. It is not a general XML
// parser: it keeps no element stack (nesting a million deep costs nothing), keeps of a tag
// only its local name and the two attributes it reads (a million attributes cost nothing),
// expands no entity but XML's own and character references (no DOCTYPE trick), and writes
// the text of w:t straight into the paragraph being read, whose length text bounds.
type wordXML struct {
	t       *text
	pages   int
	heading bool
	inText  bool
	broke   bool
}

func (x *wordXML) read(r *bufio.Reader) error {
	for {
		if err := x.t.tick(); err != nil {
			return err
		}
		chunk, err := r.ReadSlice('<')
		if len(chunk) > 0 && chunk[len(chunk)-1] == '<' {
			chunk = chunk[:len(chunk)-1]
		}
		if x.inText && len(chunk) > 0 {
			if err := x.chars(chunk, r, errors.Is(err, bufio.ErrBufferFull)); err != nil {
				return err
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			return nil
		case err != nil:
			return err
		}
		if err := x.tag(r); err != nil {
			return err
		}
	}
}

// chars adds character data to the paragraph, decoding references. A chunk cut short (the
// reader's buffer was full) may end inside a character or a reference: it is completed from r.
func (x *wordXML) chars(b []byte, r *bufio.Reader, cut bool) error {
	if cut {
		// b is the reader's buffer, which peeking at what follows overwrites.
		b = completeRune(append([]byte(nil), b...), r)
	}
	for len(b) > 0 {
		amp := bytes.IndexByte(b, '&')
		if amp < 0 {
			return x.t.write(strings.ToValidUTF8(string(b), "\uFFFD"))
		}
		if err := x.t.write(strings.ToValidUTF8(string(b[:amp]), "\uFFFD")); err != nil {
			return err
		}
		b = b[amp+1:]
		semi := bytes.IndexByte(b, ';')
		var ref []byte
		switch {
		case semi >= 0 && semi <= 12:
			ref, b = b[:semi], b[semi+1:]
		case semi < 0 && len(b) <= 12 && cut: // the reference goes on past the chunk
			more, _ := r.Peek(13 - len(b))
			if k := bytes.IndexByte(more, ';'); k >= 0 && bytes.IndexByte(more[:k], '<') < 0 {
				ref = append(append([]byte{}, b...), more[:k]...)
				_, _ = r.Discard(k + 1)
				b = nil
				break
			}
			fallthrough
		default: // not a reference: the ampersand as written
			if err := x.t.write("&"); err != nil {
				return err
			}
			continue
		}
		if err := x.t.write(entity(string(ref))); err != nil {
			return err
		}
	}
	return nil
}

// entity is the text of an XML entity or character reference (without & and ;): XML's five
// and numbers; anything else as written.
func entity(ref string) string {
	switch ref {
	case "amp":
		return "&"
	case "lt":
		return "<"
	case "gt":
		return ">"
	case "quot":
		return `"`
	case "apos":
		return "'"
	}
	if num, ok := strings.CutPrefix(ref, "#"); ok {
		base := 10
		if hex, ok := strings.CutPrefix(num, "x"); ok {
			num, base = hex, 16
		}
		if n, err := strconv.ParseUint(num, base, 32); err == nil && n != 0 && utf8.ValidRune(rune(n)) {
			return string(rune(n))
		}
		return "\uFFFD"
	}
	return "&" + ref + ";"
}

// maxName bounds the bytes of a tag or attribute name kept (the rest is skipped).
const maxName = 64

// tag reads one tag after its '<': a start or end tag, or a comment, processing
// instruction, CDATA section or declaration, which are skipped (CDATA is text).
func (x *wordXML) tag(r *bufio.Reader) error {
	c, err := r.ReadByte()
	if err != nil {
		return nil
	}
	switch c {
	case '?':
		return skipPast(r, "?>")
	case '!':
		head, _ := r.Peek(7)
		switch {
		case bytes.HasPrefix(head, []byte("--")):
			return skipPast(r, "-->")
		case bytes.HasPrefix(head, []byte("[CDATA[")):
			_, _ = r.Discard(7)
			return x.cdata(r)
		}
		return skipDeclaration(r)
	case '/':
		name, stop, err := readName(r)
		if err != nil {
			return err
		}
		if stop != '>' {
			if err := skipPast(r, ">"); err != nil {
				return err
			}
		}
		return x.end(name)
	}
	_ = r.UnreadByte()
	name, stop, err := readName(r)
	if err != nil {
		return err
	}
	attrs, empty, err := readAttrs(r, stop)
	if err != nil {
		return err
	}
	if err := x.start(name, attrs); err != nil {
		return err
	}
	if empty {
		return x.end(name)
	}
	return nil
}

func (x *wordXML) start(name string, a wordAttrs) error {
	switch name {
	case "p":
		x.t.cur.Reset()
		x.t.runes = 0
		x.heading = false
	case "pStyle":
		v := strings.ToLower(a.val)
		x.heading = strings.HasPrefix(v, "heading") || v == "title" || v == "subtitle"
	case "t":
		x.inText = true
	case "tab":
		return x.t.write("\t")
	case "br", "cr":
		if a.typ == "page" {
			x.pages, x.broke = x.pages+1, true
			return nil
		}
		return x.t.write("\n")
	case "lastRenderedPageBreak":
		// Word writes one where its last layout began a page; after an explicit break it
		// marks the same page.
		if !x.broke {
			x.pages++
		}
		x.broke = false
	}
	return nil
}

func (x *wordXML) end(name string) error {
	switch name {
	case "t":
		x.inText = false
	case "p":
		if strings.TrimSpace(x.t.cur.String()) != "" {
			x.broke = false
		}
		return x.t.end(x.pages, x.heading)
	}
	return nil
}

// cdata reads a CDATA section after its "<![CDATA[": text where it is in w:t.
func (x *wordXML) cdata(r *bufio.Reader) error {
	var tail []byte // the last bytes read, to find "]]>" across chunks
	for {
		if err := x.t.tick(); err != nil {
			return err
		}
		chunk, err := r.ReadSlice('>')
		data := chunk
		done := false
		if len(chunk) > 0 && chunk[len(chunk)-1] == '>' {
			joined := append(tail, chunk...)
			if bytes.HasSuffix(joined, []byte("]]>")) {
				done = true
				data = chunk[:max(0, len(chunk)-3)]
			}
		}
		if x.inText && len(data) > 0 {
			if err := x.t.write(strings.ToValidUTF8(string(data), "\uFFFD")); err != nil {
				return err
			}
		}
		if done || (err != nil && !errors.Is(err, bufio.ErrBufferFull)) {
			return nil
		}
		tail = append(tail[:0], chunk[max(0, len(chunk)-2):]...)
	}
}

// readName reads a name, keeping its local part (after any prefix) up to maxName bytes, and
// answers the byte that ended it.
func readName(r *bufio.Reader) (string, byte, error) {
	var b []byte
	for {
		c, err := r.ReadByte()
		if err != nil {
			return string(b), '>', nil
		}
		switch c {
		case ' ', '\t', '\r', '\n', '>', '/', '=':
			return string(b), c, nil
		case ':':
			b = b[:0]
			continue
		}
		if len(b) < maxName {
			b = append(b, c)
		}
	}
}

// wordAttrs are the attributes of a tag this reader reads: w:val and w:type.
type wordAttrs struct{ val, typ string }

// readAttrs reads a tag's attributes up to its '>', keeping only val and type (64 bytes of
// each at most), and answers whether the tag was empty ("/>").
func readAttrs(r *bufio.Reader, stop byte) (wordAttrs, bool, error) {
	var a wordAttrs
	slash := stop == '/'
	if stop == '>' {
		return a, false, nil
	}
	for {
		c, err := r.ReadByte()
		if err != nil {
			return a, false, nil
		}
		switch c {
		case '>':
			return a, slash, nil
		case '/':
			slash = true
			continue
		case ' ', '\t', '\r', '\n':
			continue
		}
		slash = false
		_ = r.UnreadByte()
		name, end, err := readName(r)
		if err != nil {
			return a, false, err
		}
		if end == '>' {
			return a, false, nil
		}
		if end != '=' {
			// Skip white space to an '=' (or the next attribute, if the document has none).
			for {
				c, err := r.ReadByte()
				if err != nil {
					return a, false, nil
				}
				if c == '=' {
					break
				}
				if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
					_ = r.UnreadByte()
					break
				}
			}
		}
		v, err := readValue(r)
		if err != nil {
			return a, false, err
		}
		switch name {
		case "val":
			a.val = v
		case "type":
			a.typ = v
		}
	}
}

// readValue reads a quoted attribute value, keeping its first maxName bytes.
func readValue(r *bufio.Reader) (string, error) {
	var q byte
	for {
		c, err := r.ReadByte()
		if err != nil {
			return "", nil
		}
		if c == '"' || c == '\'' {
			q = c
			break
		}
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			_ = r.UnreadByte()
			return "", nil
		}
	}
	var b []byte
	for {
		chunk, err := r.ReadSlice(q)
		if len(b) < maxName {
			b = append(b, chunk[:min(len(chunk), maxName-len(b))]...)
		}
		if err == nil {
			return strings.TrimSuffix(string(b), string(q)), nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return "", nil
		}
	}
}

// skipPast reads past the next end (2 or 3 bytes), across chunks.
func skipPast(r *bufio.Reader, end string) error {
	last := end[len(end)-1]
	var tail []byte
	for {
		chunk, err := r.ReadSlice(last)
		if err == nil && bytes.HasSuffix(append(tail, chunk...), []byte(end)) {
			return nil
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return nil
		}
		tail = append(tail[:0], chunk[max(0, len(chunk)-len(end)):]...)
	}
}

// skipDeclaration skips a <!DOCTYPE …> with its internal subset in brackets.
func skipDeclaration(r *bufio.Reader) error {
	depth := 0
	var q byte
	for {
		c, err := r.ReadByte()
		if err != nil {
			return nil
		}
		switch {
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '"' || c == '\'':
			q = c
		case c == '[':
			depth++
		case c == ']':
			depth--
		case c == '>' && depth <= 0:
			return nil
		}
	}
}

// completeRune answers b (a copy of its own) with the rest of a character its end cuts, read
// from r.
func completeRune(b []byte, r *bufio.Reader) []byte {
	for k := 1; k <= min(3, len(b)); k++ {
		c := b[len(b)-k]
		if !utf8.RuneStart(c) {
			continue
		}
		need := 0
		switch {
		case c >= 0xf0:
			need = 4
		case c >= 0xe0:
			need = 3
		case c >= 0xc0:
			need = 2
		}
		if need <= k {
			return b
		}
		more, _ := r.Peek(need - k)
		b = append(b, more...)
		_, _ = r.Discard(len(more))
		return b
	}
	return b
}
