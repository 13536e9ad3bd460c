package pdf

import (
	"io"
	"math"
)

// matrix is a transformation [a b c d e f]: a point (x, y) goes to (ax+cy+e, bx+dy+f).
type matrix [6]float64

var identity = matrix{1, 0, 0, 1, 0, 0}

// mul answers m then n: a point transformed by m, then by n.
func (m matrix) mul(n matrix) matrix {
	return matrix{
		m[0]*n[0] + m[1]*n[2], m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2], m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4], m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

// gstate is the part of the graphics state text needs (ISO 32000-1, 8.4 and 9.3).
type gstate struct {
	ctm                  matrix
	font                 *font
	size, tc, tw, th, tl float64
}

type opKind uint8

const (
	opNum opKind = iota
	opString
	opName
	opArray // [
	opArrayEnd
	opOther // dictionaries' brackets, true, false, null
)

type operand struct {
	kind opKind
	num  float64
	b    []byte // a string's or a name's bytes, in the interpreter's arena
}

// maxSaved bounds the graphics states q saves; past it q and Q are counted, not kept.
const maxSaved = 1024

// interp runs content streams for their text.
type interp struct {
	r     *Reader
	fn    func(Text) error
	gs    gstate
	saved []gstate
	over  int // q past maxSaved, not yet restored
	tm    matrix
	tlm   matrix
	ops   []operand
	arena []byte
	res   Dict
	fonts map[string]*font // the fonts of res by name
	used  map[*font]bool   // the distinct fonts of the page
	forms []*Stream        // the forms being drawn, innermost last
	held  Text             // the glyph drawn last, not yet handed on (S "": none)
}

// emit hands a glyph on, one glyph late: a spacing accent drawn over a letter (as TeX draws
// ï, é, č…), before or after it, is handed on with the letter as the accented letter.
func (in *interp) emit(t Text) {
	if h := in.held; h.S != "" {
		if c, ok := accented(h, t); ok {
			in.held = c
			return
		}
		in.pass(h)
	}
	in.held = t
}

func (in *interp) pass(t Text) {
	if err := in.fn(t); err != nil {
		panic(stop{err})
	}
}

// flush hands on the glyph held.
func (in *interp) flush() {
	if h := in.held; h.S != "" {
		in.held = Text{}
		in.pass(h)
	}
}

// accents are the spacing accents, by the glyph-name suffix of the letters they make.
var accents = map[string]string{"¨": "dieresis", "´": "acute", "`": "grave", "ˆ": "circumflex", "˜": "tilde",
	"¸": "cedilla", "ˇ": "caron", "˚": "ring", "¯": "macron", "˘": "breve", "˙": "dotaccent", "˝": "hungarumlaut",
	"˛": "ogonek"}

// accented answers the accented letter that two glyphs make when one is an accent whose
// middle is over the other, a letter.
func accented(a, b Text) (Text, bool) {
	accent, letter := a, b
	name, ok := accents[a.S]
	if !ok {
		accent, letter = b, a
		if name, ok = accents[b.S]; !ok {
			return Text{}, false
		}
	}
	mid := accent.X + accent.W/2
	if letter.W <= 0 || mid < letter.X || mid > letter.X+letter.W || math.Abs(accent.Y-letter.Y) > letter.FontSize {
		return Text{}, false
	}
	base := letter.S
	switch base {
	case "ı":
		base = "i"
	case "ȷ":
		base = "j"
	}
	r, ok := glyphs[base+name]
	if !ok || len(base) != 1 {
		return Text{}, false
	}
	letter.S = runeText(r)
	return letter, true
}

func newInterp(r *Reader, fn func(Text) error) *interp {
	return &interp{r: r, fn: fn, gs: gstate{ctm: identity, th: 1}, tm: identity, tlm: identity,
		used: map[*font]bool{}}
}

// contentStreams answers the page's content, its streams one after the other.
func (r *Reader) contentStreams(o Object) io.Reader {
	switch v := r.resolve(o).(type) {
	case *Stream:
		return &streams{r: r, list: Array{v}}
	case Array:
		return &streams{r: r, list: v}
	}
	return eofReader{}
}

// streams reads streams one after the other, with a line break between two: a page's
// content may be cut into pieces anywhere between tokens.
type streams struct {
	r    *Reader
	list Array
	i    int
	cur  io.Reader
}

func (s *streams) Read(p []byte) (int, error) {
	for {
		if s.cur == nil {
			if s.i >= len(s.list) || len(p) == 0 {
				return 0, io.EOF
			}
			s.r.g.tick()
			st, ok := s.r.resolve(s.list[s.i]).(*Stream)
			s.i++
			if !ok {
				continue
			}
			rd, err := s.r.openStream(st)
			if err != nil {
				continue
			}
			s.cur = rd
			if s.i > 1 {
				p[0] = '\n'
				return 1, nil
			}
		}
		n, err := s.cur.Read(p)
		if err != nil {
			s.cur = nil
		}
		if n > 0 {
			return n, nil
		}
	}
}

func (in *interp) push(o operand) {
	if len(in.ops) >= maxStack {
		damaged("more than %d operands", maxStack)
	}
	in.ops = append(in.ops, o)
}

func (in *interp) keep(b []byte) []byte {
	start := len(in.arena)
	in.arena = append(in.arena, b...)
	return in.arena[start:len(in.arena):len(in.arena)]
}

// run interprets a content stream with its resources.
func (in *interp) run(rd io.Reader, res Dict) {
	l := &lexer{g: in.r.g, keep: -1}
	l.reset(rd, 0)
	prevRes, prevFonts := in.res, in.fonts
	in.res, in.fonts = res, map[string]*font{}
	defer func() { in.res, in.fonts = prevRes, prevFonts }()
	depth := 0
	for {
		switch l.next() {
		case tEOF:
			return
		case tNum:
			in.push(operand{kind: opNum, num: l.num})
		case tString:
			in.push(operand{kind: opString, b: in.keep(l.str)})
		case tName:
			in.push(operand{kind: opName, b: in.keep(l.str)})
		case tArrOpen:
			if depth++; depth > maxDepth {
				damaged("arrays nested more than %d deep", maxDepth)
			}
			in.push(operand{kind: opArray})
		case tArrClose:
			depth = max(depth-1, 0)
			in.push(operand{kind: opArrayEnd})
		case tDictOpen:
			if depth++; depth > maxDepth {
				damaged("dictionaries nested more than %d deep", maxDepth)
			}
			in.push(operand{kind: opOther})
		case tDictClose:
			depth = max(depth-1, 0)
			in.push(operand{kind: opOther})
		case tProcOpen, tProcClose:
			in.push(operand{kind: opOther})
		case tKeyword:
			if depth > 0 {
				in.push(operand{kind: opOther})
				continue
			}
			in.op(l)
			in.ops, in.arena = in.ops[:0], in.arena[:0]
		}
	}
}

// nums answers the last n operands as numbers; false unless there are n numbers.
func (in *interp) nums(n int) (a [6]float64, ok bool) {
	if len(in.ops) < n {
		return a, false
	}
	for i, o := range in.ops[len(in.ops)-n:] {
		if o.kind != opNum {
			return a, false
		}
		a[i] = o.num
	}
	return a, true
}

func (in *interp) last(kind opKind) ([]byte, bool) {
	if k := len(in.ops); k > 0 && in.ops[k-1].kind == kind {
		return in.ops[k-1].b, true
	}
	return nil, false
}

// op runs the operator the lexer has just read.
func (in *interp) op(l *lexer) {
	gs := &in.gs
	switch string(l.tok) {
	case "q":
		if len(in.saved) >= maxSaved {
			in.over++
			return
		}
		in.saved = append(in.saved, *gs)
	case "Q":
		if in.over > 0 {
			in.over--
			return
		}
		if k := len(in.saved); k > 0 {
			*gs = in.saved[k-1]
			in.saved = in.saved[:k-1]
		}
	case "cm":
		if a, ok := in.nums(6); ok {
			gs.ctm = matrix(a).mul(gs.ctm)
		}
	case "BT":
		in.tm, in.tlm = identity, identity
	case "Tc":
		if a, ok := in.nums(1); ok {
			gs.tc = a[0]
		}
	case "Tw":
		if a, ok := in.nums(1); ok {
			gs.tw = a[0]
		}
	case "Tz":
		if a, ok := in.nums(1); ok {
			gs.th = a[0] / 100
		}
	case "TL":
		if a, ok := in.nums(1); ok {
			gs.tl = a[0]
		}
	case "Tf":
		if a, ok := in.nums(1); ok && len(in.ops) >= 2 && in.ops[len(in.ops)-2].kind == opName {
			gs.font = in.font(in.ops[len(in.ops)-2].b)
			gs.size = a[0]
		}
	case "Td":
		if a, ok := in.nums(2); ok {
			in.move(a[0], a[1])
		}
	case "TD":
		if a, ok := in.nums(2); ok {
			gs.tl = -a[1]
			in.move(a[0], a[1])
		}
	case "Tm":
		if a, ok := in.nums(6); ok {
			in.tm, in.tlm = matrix(a), matrix(a)
		}
	case "T*":
		in.move(0, -gs.tl)
	case "Tj":
		if s, ok := in.last(opString); ok {
			in.show(s)
		}
	case "'":
		if s, ok := in.last(opString); ok {
			in.move(0, -gs.tl)
			in.show(s)
		}
	case "\"":
		if k := len(in.ops); k >= 3 && in.ops[k-1].kind == opString {
			if in.ops[k-3].kind == opNum && in.ops[k-2].kind == opNum {
				gs.tw, gs.tc = in.ops[k-3].num, in.ops[k-2].num
			}
			in.move(0, -gs.tl)
			in.show(in.ops[k-1].b)
		}
	case "TJ":
		in.showArray()
	case "Do":
		if name, ok := in.last(opName); ok {
			in.do(name)
		}
	case "gs":
		if name, ok := in.last(opName); ok {
			in.extGState(name)
		}
	case "BI":
		in.inlineImage(l)
	}
}

// move starts a new line at (tx, ty) from the start of the current one.
func (in *interp) move(tx, ty float64) {
	in.tlm = matrix{1, 0, 0, 1, tx, ty}.mul(in.tlm)
	in.tm = in.tlm
}

// showArray runs TJ: strings shown, numbers moving the next glyph back by thousandths of
// the size (forward when negative: the gap between two words, often).
func (in *interp) showArray() {
	k := len(in.ops)
	if k == 0 || in.ops[k-1].kind != opArrayEnd {
		return
	}
	start := k - 1
	for start > 0 && in.ops[start].kind != opArray {
		start--
	}
	for _, o := range in.ops[start+1 : k-1] {
		switch o.kind {
		case opString:
			in.show(o.b)
		case opNum:
			tx := -o.num / 1000 * in.gs.size * in.gs.th
			in.tm[4] += tx * in.tm[0]
			in.tm[5] += tx * in.tm[1]
		}
	}
}

// show draws a string: each glyph is handed to fn, and moves the text position by its width.
func (in *interp) show(s []byte) {
	gs := &in.gs
	f := gs.font
	if f == nil {
		f = defaultFont()
	}
	ctm := gs.ctm
	// Text space to the page's space.
	m := in.tm.mul(ctm)
	size := math.Abs(gs.size) * f.scale * math.Hypot(m[2], m[3])
	along := math.Hypot(m[0], m[1])
	emit := func(text string, w float64, space bool) {
		width := w * gs.size * gs.th
		tx := width + gs.tc*gs.th
		if space {
			tx += gs.tw * gs.th
		}
		if text != "" {
			t := Text{S: text, FontSize: size, W: width * along,
				X: in.tm[4]*ctm[0] + in.tm[5]*ctm[2] + ctm[4],
				Y: in.tm[4]*ctm[1] + in.tm[5]*ctm[3] + ctm[5]}
			in.emit(t)
		}
		in.tm[4] += tx * in.tm[0]
		in.tm[5] += tx * in.tm[1]
	}
	if f.simple {
		for _, c := range s {
			emit(f.text[c], f.width[c], c == ' ')
		}
		return
	}
	for len(s) > 0 {
		code, n := f.codes.next(s)
		if n == 0 {
			break
		}
		emit(f.codeText(code, s[:n]), f.cidWidth(f.codes.cid(code)), n == 1 && code == ' ')
		s = s[n:]
	}
}

// font answers the font the resources name.
func (in *interp) font(name []byte) *font {
	if f, ok := in.fonts[string(name)]; ok {
		return f
	}
	o := in.r.dict(in.res["Font"])[Name(name)]
	var f *font
	if o == nil {
		f = defaultFont()
	} else {
		f = in.r.loadFont(o)
	}
	if !in.used[f] {
		if len(in.used) >= maxFonts {
			damaged("more than %d fonts on a page", maxFonts)
		}
		in.used[f] = true
	}
	in.fonts[string(name)] = f
	return f
}

// extGState applies a graphics state parameter dictionary's font, the one entry of it that
// text needs.
func (in *interp) extGState(name []byte) {
	d := in.r.dict(in.r.dict(in.res["ExtGState"])[Name(name)])
	if fa := in.r.array(d["Font"]); len(fa) == 2 {
		if size, ok := in.r.num(fa[1]); ok {
			f := in.r.loadFont(fa[0])
			if !in.used[f] {
				if len(in.used) >= maxFonts {
					damaged("more than %d fonts on a page", maxFonts)
				}
				in.used[f] = true
			}
			in.gs.font, in.gs.size = f, size
		}
	}
}

// do draws an XObject: a form's content is run with its own matrix and resources; images
// are not text. A form drawn inside itself is a damaged file.
func (in *interp) do(name []byte) {
	s, ok := in.r.resolve(in.r.dict(in.res["XObject"])[Name(name)]).(*Stream)
	if !ok || nameOf(in.r.resolve(s.Dict["Subtype"])) != "Form" {
		return
	}
	for _, f := range in.forms {
		if f == s {
			damaged("a form drawn inside itself")
		}
	}
	if len(in.forms) >= maxFormDepth {
		damaged("forms nested more than %d deep", maxFormDepth)
	}
	rd, err := in.r.openStream(s)
	if err != nil {
		return
	}
	res := in.r.dict(s.Dict["Resources"])
	if res == nil {
		res = in.res
	}
	saved, tm, tlm := in.gs, in.tm, in.tlm
	ops, arena := in.ops, in.arena
	in.ops, in.arena = nil, nil
	if a := in.r.array(s.Dict["Matrix"]); len(a) == 6 {
		var m matrix
		for i := range m {
			m[i], _ = in.r.num(a[i])
		}
		in.gs.ctm = m.mul(in.gs.ctm)
	}
	in.forms = append(in.forms, s)
	in.run(rd, res)
	in.forms = in.forms[:len(in.forms)-1]
	in.gs, in.tm, in.tlm = saved, tm, tlm
	in.ops, in.arena = ops, arena
}

// inlineImage skips an inline image, BI … ID data EI: its data's length is known when it is
// not compressed (or given, in PDF 2.0); else it ends at the first EI between white space.
func (in *interp) inlineImage(l *lexer) {
	p := &parser{lex: l}
	d := Dict{}
	for {
		o, ok := p.object()
		if !ok {
			return
		}
		if k, isKw := o.(keyword); isKw {
			if k == "ID" {
				break
			}
			continue
		}
		key, isName := o.(Name)
		if !isName {
			continue
		}
		v, ok := p.object()
		if !ok {
			return
		}
		if len(d) < 64 {
			d[key] = v
		}
	}
	if c, ok := l.peekByte(); ok && class[c]&clSpace != 0 {
		l.pos++
	}
	length := -1
	if n, ok := intOf(d["L"]); ok {
		length = n
	} else if n, ok := intOf(d["Length"]); ok {
		length = n
	} else if d["F"] == nil && d["Filter"] == nil {
		w, _ := intOf(first(d, "W", "Width"))
		h, _ := intOf(first(d, "H", "Height"))
		bpc, _ := intOf(first(d, "BPC", "BitsPerComponent"))
		if b, ok := first(d, "IM", "ImageMask").(bool); ok && b {
			bpc = 1
		}
		colors := 1
		switch in.colorSpace(first(d, "CS", "ColorSpace")) {
		case "RGB", "DeviceRGB", "CalRGB", "Lab":
			colors = 3
		case "CMYK", "DeviceCMYK":
			colors = 4
		}
		if w > 0 && h > 0 && bpc > 0 && w <= 1<<16 && h <= 1<<16 && bpc <= 16 {
			length = h * ((w*colors*bpc + 7) / 8)
		}
	}
	if length > 0 {
		l.skip(length)
	}
	l.skipToEI()
}

func first(d Dict, keys ...Name) Object {
	for _, k := range keys {
		if v, ok := d[k]; ok {
			return v
		}
	}
	return nil
}

// colorSpace answers an inline image's colour space's name, through the page's resources.
func (in *interp) colorSpace(o Object) Name {
	n := nameOf(o)
	switch n {
	case "G", "DeviceGray", "RGB", "DeviceRGB", "CMYK", "DeviceCMYK", "I", "Indexed", "":
		return n
	}
	cs := in.r.resolve(in.r.dict(in.res["ColorSpace"])[n])
	if a, ok := cs.(Array); ok && len(a) > 0 {
		return nameOf(in.r.resolve(a[0]))
	}
	return nameOf(cs)
}

// skip skips n bytes.
func (l *lexer) skip(n int) {
	for n > 0 {
		if l.pos >= len(l.buf) && !l.fill() {
			return
		}
		k := min(n, len(l.buf)-l.pos)
		l.pos += k
		n -= k
	}
}

// skipToEI skips up to and past the next EI that white space (or the end) surrounds.
func (l *lexer) skipToEI() {
	prev := byte(' ')
	for {
		if l.pos >= len(l.buf) && !l.fill() {
			return
		}
		c := l.buf[l.pos]
		l.pos++
		if c == 'E' && class[prev]&clSpace != 0 {
			at := l.at()
			held := l.hold(at)
			i, ok := l.peekByte()
			if ok && i == 'I' {
				l.pos++
				n, ok := l.peekByte()
				if !ok || class[n]&clSpace != 0 {
					l.keep = held
					return
				}
			}
			l.keep = held
			l.seek(at)
		}
		prev = c
	}
}
