package pdf

import (
	"io"
	"math"
)

// Character classes of PDF's syntax (ISO 32000-1, 7.2.2).
const (
	clSpace = 1 << iota
	clDelim
	clDigit
	clHex
)

var class [256]uint8

func init() {
	for _, c := range []byte("\x00\t\n\f\r ") {
		class[c] |= clSpace
	}
	for _, c := range []byte("()<>[]{}/%") {
		class[c] |= clDelim
	}
	for c := '0'; c <= '9'; c++ {
		class[c] |= clDigit | clHex
	}
	for c := 'a'; c <= 'f'; c++ {
		class[c] |= clHex
		class[c-'a'+'A'] |= clHex
	}
}

func isRegular(c byte) bool { return class[c]&(clSpace|clDelim) == 0 }

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

type tokKind uint8

const (
	tEOF tokKind = iota
	tNum
	tString
	tName
	tKeyword
	tArrOpen
	tArrClose
	tDictOpen
	tDictClose
	tProcOpen
	tProcClose
)

// lexer splits bytes into PDF tokens. Its bytes are buf, refilled from src when it has one:
// a content stream is read a piece at a time, and an object of the file from the file's
// blocks. Absolute positions (at, seek) count from the start of src.
type lexer struct {
	g    *guard
	buf  []byte
	pos  int
	base int64     // absolute position of buf[0]
	src  io.Reader // nil: buf is all there is
	keep int64     // absolute position from which bytes stay in buf (-1: none)

	// The token read.
	kind  tokKind
	num   float64
	isInt bool
	str   []byte // a string's or a name's decoded bytes
	tok   []byte // a keyword's bytes, valid until the next token
}

func newLexer(g *guard, data []byte) *lexer {
	return &lexer{g: g, buf: data, keep: -1}
}

// reset points the lexer at a new source, keeping its buffer's memory.
func (l *lexer) reset(src io.Reader, base int64) {
	l.buf, l.pos, l.base, l.src, l.keep = l.buf[:0], 0, base, src, -1
}

func (l *lexer) at() int64 { return l.base + int64(l.pos) }

// seek goes back to an absolute position still held in buf.
func (l *lexer) seek(abs int64) { l.pos = int(abs - l.base) }

// hold keeps the bytes from abs on in buf, answering the hold it replaces.
func (l *lexer) hold(abs int64) (prev int64) {
	prev = l.keep
	if l.keep < 0 || abs < l.keep {
		l.keep = abs
	}
	return prev
}

// fill reads more bytes into buf, keeping the unread ones and those held; false at the end.
func (l *lexer) fill() bool {
	if l.src == nil {
		return false
	}
	from := l.pos
	if l.keep >= 0 && int(l.keep-l.base) < from {
		from = int(l.keep - l.base)
	}
	if from > 0 {
		n := copy(l.buf[:cap(l.buf)], l.buf[from:])
		l.buf = l.buf[:n]
		l.pos -= from
		l.base += int64(from)
	}
	if len(l.buf) == cap(l.buf) {
		size := max(2*cap(l.buf), 4096)
		if size > maxToken+1<<16 {
			damaged("a token longer than %d bytes", maxToken)
		}
		grown := make([]byte, len(l.buf), size)
		copy(grown, l.buf)
		l.buf = grown
	}
	for range 100 {
		n, err := l.src.Read(l.buf[len(l.buf):cap(l.buf)])
		l.buf = l.buf[:len(l.buf)+n]
		if n > 0 {
			l.g.tick()
			return true
		}
		if err != nil {
			l.src = nil
			return false
		}
	}
	l.src = nil
	return false
}

// peekByte answers the next byte without reading it; ok is false at the end.
func (l *lexer) peekByte() (byte, bool) {
	if l.pos >= len(l.buf) && !l.fill() {
		return 0, false
	}
	return l.buf[l.pos], true
}

// skipSpace skips white space and comments.
func (l *lexer) skipSpace() bool {
	for {
		if l.pos >= len(l.buf) && !l.fill() {
			return false
		}
		c := l.buf[l.pos]
		if class[c]&clSpace != 0 {
			l.pos++
			continue
		}
		if c != '%' {
			return true
		}
		for {
			if l.pos >= len(l.buf) && !l.fill() {
				return false
			}
			c := l.buf[l.pos]
			if c == '\r' || c == '\n' {
				break
			}
			l.pos++
		}
	}
}

// next reads a token.
func (l *lexer) next() tokKind {
	if !l.skipSpace() {
		l.kind = tEOF
		return tEOF
	}
	l.g.tick()
	c := l.buf[l.pos]
	switch c {
	case '(':
		l.pos++
		l.literal()
		l.kind = tString
	case '<':
		l.pos++
		if c, ok := l.peekByte(); ok && c == '<' {
			l.pos++
			l.kind = tDictOpen
		} else {
			l.hexString()
			l.kind = tString
		}
	case '>':
		l.pos++
		if c, ok := l.peekByte(); ok && c == '>' {
			l.pos++
			l.kind = tDictClose
		} else {
			l.tok, l.kind = []byte(">"), tKeyword
		}
	case '[':
		l.pos++
		l.kind = tArrOpen
	case ']':
		l.pos++
		l.kind = tArrClose
	case '{':
		l.pos++
		l.kind = tProcOpen
	case '}':
		l.pos++
		l.kind = tProcClose
	case '/':
		l.pos++
		l.name()
		l.kind = tName
	case ')':
		l.pos++
		l.tok, l.kind = []byte(")"), tKeyword
	default:
		l.regular()
	}
	return l.kind
}

// regular reads a number or a keyword.
func (l *lexer) regular() {
	start := l.at()
	prev := l.hold(start)
	for {
		if l.pos >= len(l.buf) && !l.fill() {
			break
		}
		if !isRegular(l.buf[l.pos]) {
			break
		}
		l.pos++
	}
	l.keep = prev
	tok := l.buf[int(start-l.base):l.pos]
	if len(tok) > maxToken {
		damaged("a token longer than %d bytes", maxToken)
	}
	if c := tok[0]; class[c]&clDigit != 0 || c == '-' || c == '+' || c == '.' {
		if l.number(tok) {
			l.kind = tNum
			return
		}
	}
	l.tok, l.kind = tok, tKeyword
}

var pow10 = func() (p [19]float64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// number reads a number token, leniently: signs repeated, digits after a second point or a
// sign in the middle ignored, as readers do. False when it has no digit.
func (l *lexer) number(tok []byte) bool {
	i, neg := 0, false
	for i < len(tok) && (tok[i] == '-' || tok[i] == '+') {
		neg = neg || tok[i] == '-'
		i++
	}
	var mant uint64
	digits, scale, dot, extra := 0, 0, false, 0
	for ; i < len(tok); i++ {
		c := tok[i]
		switch {
		case class[c]&clDigit != 0:
			if digits < 18 {
				mant = mant*10 + uint64(c-'0')
				if dot {
					scale++
				}
				if mant != 0 {
					digits++
				}
			} else if !dot {
				extra++
			}
		case c == '.' && !dot:
			dot = true
		default:
			i = len(tok)
		}
	}
	if digits == 0 && mant == 0 {
		hasDigit := false
		for _, c := range tok {
			hasDigit = hasDigit || class[c]&clDigit != 0
		}
		if !hasDigit {
			return false
		}
	}
	f := float64(mant)
	if scale > 0 {
		f /= pow10[scale]
	}
	if extra > 0 {
		f *= math.Pow(10, float64(extra))
	}
	if neg {
		f = -f
	}
	l.num, l.isInt = f, !dot && extra == 0
	return true
}

func (l *lexer) addStr(c byte) {
	if len(l.str) >= maxToken {
		damaged("a string longer than %d bytes", maxToken)
	}
	l.str = append(l.str, c)
}

// literal reads a (string) after its parenthesis.
func (l *lexer) literal() {
	l.str = l.str[:0]
	depth := 1
	for {
		if l.pos >= len(l.buf) && !l.fill() {
			return
		}
		c := l.buf[l.pos]
		l.pos++
		switch c {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return
			}
		case '\r':
			// An end of line in a string is a line feed, whatever it was.
			if n, ok := l.peekByte(); ok && n == '\n' {
				l.pos++
			}
			c = '\n'
		case '\\':
			if l.pos >= len(l.buf) && !l.fill() {
				return
			}
			c = l.buf[l.pos]
			l.pos++
			switch c {
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'f':
				c = '\f'
			case '\r':
				if n, ok := l.peekByte(); ok && n == '\n' {
					l.pos++
				}
				continue
			case '\n':
				continue
			default:
				if c >= '0' && c <= '7' {
					v := int(c - '0')
					for range 2 {
						n, ok := l.peekByte()
						if !ok || n < '0' || n > '7' {
							break
						}
						v = v*8 + int(n-'0')
						l.pos++
					}
					c = byte(v)
				}
			}
		}
		l.addStr(c)
		if len(l.str)&4095 == 0 {
			l.g.tick()
		}
	}
}

// hexString reads a <hex string> after its angle bracket.
func (l *lexer) hexString() {
	l.str = l.str[:0]
	var hi byte
	half := false
	for {
		if l.pos >= len(l.buf) && !l.fill() {
			break
		}
		c := l.buf[l.pos]
		l.pos++
		if c == '>' {
			break
		}
		if class[c]&clHex == 0 {
			continue
		}
		if !half {
			hi, half = unhex(c), true
			continue
		}
		l.addStr(hi<<4 | unhex(c))
		half = false
		if len(l.str)&4095 == 0 {
			l.g.tick()
		}
	}
	if half {
		l.addStr(hi << 4)
	}
}

// name reads a /name after its slash, with #xx escapes decoded.
func (l *lexer) name() {
	l.str = l.str[:0]
	for {
		if l.pos >= len(l.buf) && !l.fill() {
			return
		}
		c := l.buf[l.pos]
		if !isRegular(c) {
			return
		}
		l.pos++
		if c == '#' {
			h, ok1 := l.peekByte()
			if ok1 && class[h]&clHex != 0 {
				l.pos++
				if lo, ok2 := l.peekByte(); ok2 && class[lo]&clHex != 0 {
					l.pos++
					c = unhex(h)<<4 | unhex(lo)
				} else {
					l.addStr('#')
					c = h
				}
			}
		}
		l.addStr(c)
	}
}

// skipEOL skips the end of line after the stream keyword: CR LF, LF, or (leniently) CR.
func (l *lexer) skipEOL() {
	c, ok := l.peekByte()
	if !ok {
		return
	}
	switch c {
	case '\n':
		l.pos++
	case '\r':
		l.pos++
		if c, ok := l.peekByte(); ok && c == '\n' {
			l.pos++
		}
	case ' ':
		// A space before the end of line, as some writers put.
		at := l.at()
		prev := l.hold(at)
		l.pos++
		c, ok := l.peekByte()
		l.keep = prev
		if ok && (c == '\r' || c == '\n') {
			l.skipEOL()
		} else {
			l.seek(at)
		}
	}
}
