// Copyright 2014 The Go Authors.  All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package pdf

import (
	"fmt"
	"io"
	"strings"
)

// A Page is a page of a PDF file, found by Pages.
type Page struct {
	r *Reader
	// ref is the page's object; a page written in its parent's /Kids as a dictionary,
	// not a reference, is direct instead.
	ref    objptr
	direct Value
	// res are the resources the page inherits from the page tree.
	res Value
}

// Pages walks the page tree once, in order, and answers its pages. The tree must be one:
// a node met twice (a cycle, or a page listed twice) makes the file damaged, as do more
// than max pages and a tree more than maxTreeDepth deep. The /Count the tree declares is
// not believed.
func (r *Reader) Pages(max int) (pages []Page, err error) {
	defer stopped(&err)
	root := r.Trailer().Key("Root").Key("Pages")
	if root.Kind() != Dict {
		return nil, fmt.Errorf("%w: no page tree", ErrDamaged)
	}
	seen := map[objptr]bool{}
	var walk func(node Value, res Value, depth int)
	walk = func(node Value, res Value, depth int) {
		if depth > maxTreeDepth {
			damaged("a page tree more than %d deep", maxTreeDepth)
		}
		if own := node.Key("Resources"); own.Kind() == Dict {
			res = own
		}
		kids := node.data.(dict)["Kids"]
		if ref, isRef := kids.(objptr); isRef {
			kids = r.resolve(node.ptr, ref).data
		}
		list, _ := kids.(array)
		for _, kid := range list {
			r.g.tick()
			ref, isRef := kid.(objptr)
			if isRef {
				if seen[ref] {
					damaged("a page tree that is not a tree (object %d is met twice)", ref.id)
				}
				seen[ref] = true
			}
			v := r.resolve(node.ptr, kid)
			if v.Kind() != Dict {
				continue
			}
			switch typ := v.Key("Type").Name(); {
			case typ == "Pages" || typ == "" && v.Key("Kids").Kind() == Array:
				walk(v, res, depth+1)
			case typ == "Page" || typ == "":
				if len(pages) >= max {
					damaged("more than %d pages", max)
				}
				p := Page{r: r, ref: ref, res: res}
				if !isRef {
					p.direct = v
				}
				pages = append(pages, p)
			}
		}
	}
	if catalog, ok := r.Trailer().Key("Root").data.(dict); ok {
		if ref, ok := catalog["Pages"].(objptr); ok {
			seen[ref] = true
		}
	}
	walk(root, Value{}, 0)
	return pages, nil
}

// value reads the page's dictionary.
func (p Page) value() Value {
	if p.direct.Kind() == Dict {
		return p.direct
	}
	return p.r.resolve(objptr{}, p.ref)
}

// A Text represents a single piece of text drawn on a page.
type Text struct {
	Font     string  // the font used
	FontSize float64 // the font size, in points (1/72 of an inch)
	X        float64 // the X coordinate, in points, increasing left to right
	Y        float64 // the Y coordinate, in points, increasing bottom to top
	W        float64 // the width of the text, in points
	S        string  // the actual UTF-8 text
}

// Walk interprets the page's content and hands each character drawn to fn, in the order
// drawn; an error from fn ends the walk with it.
func (p Page) Walk(fn func(Text) error) (err error) {
	defer stopped(&err)
	v := p.value()
	if v.Kind() != Dict {
		return nil
	}
	res := v.Key("Resources")
	if res.Kind() != Dict {
		res = p.res
	}
	contents := v.Key("Contents")
	var rd io.Reader
	switch contents.Kind() {
	case Stream:
		rd = contents.Reader()
	case Array:
		rd = &streams{list: contents}
	default:
		return nil
	}
	p.content(rd, res, func(t Text) {
		if err := fn(t); err != nil {
			panic(stop{err})
		}
	})
	return nil
}

// streams reads the streams of an array one after another, opening each when it is reached
// (a page drawing one stream 100,000 times holds one inflater at a time).
type streams struct {
	list Value
	i    int
	cur  io.Reader
}

func (s *streams) Read(p []byte) (int, error) {
	for {
		if s.cur == nil {
			if s.i >= s.list.Len() {
				return 0, io.EOF
			}
			s.cur = s.list.Index(s.i).Reader()
			s.i++
		}
		n, err := s.cur.Read(p)
		if err == io.EOF {
			s.cur = nil
			if n > 0 {
				return n, nil
			}
			// Content streams are joined as if separated by white space.
			if len(p) > 0 {
				p[0] = '\n'
				return 1, nil
			}
			continue
		}
		return n, err
	}
}

// font is what showing text in a font needs, read once per page and font.
type font struct {
	name   string // BaseFont, without a subset prefix
	first  int
	widths []float64
	enc    TextEncoding
}

func (f *font) width(code int) float64 {
	if i := code - f.first; i >= 0 && i < len(f.widths) {
		return f.widths[i]
	}
	return 0
}

// font reads the font named fontName in a resources' font dictionary, or answers it read
// already: an indirect font once per file, whatever names it goes by.
func (r *Reader) font(fonts Value, fontName string) *font {
	key := fontKey{fonts.ptr, fontName}
	if d, ok := fonts.data.(dict); ok {
		if ref, ok := d[name(fontName)].(objptr); ok {
			key = fontKey{in: ref}
		}
	}
	if f, ok := r.fonts[key]; ok {
		return f
	}
	f := r.readFont(fonts.Key(fontName))
	if len(r.fonts) < maxFonts {
		r.fonts[key] = f
	}
	return f
}

// maxWidths is the widths of a simple font that matter: its codes are bytes.
const maxWidths = 256

func (r *Reader) readFont(v Value) *font {
	f := &font{name: v.Key("BaseFont").Name(), first: int(v.Key("FirstChar").Int64())}
	if i := strings.Index(f.name, "+"); i >= 0 {
		f.name = f.name[i+1:]
	}
	w := v.Key("Widths")
	f.widths = make([]float64, min(w.Len(), maxWidths))
	for i := range f.widths {
		f.widths[i] = w.Index(i).Float64()
	}
	f.enc = r.encoder(v)
	return f
}

type matrix [3][3]float64

var ident = matrix{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}

func (x matrix) mul(y matrix) matrix {
	var z matrix
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				z[i][j] += x[i][k] * y[k][j]
			}
		}
	}
	return z
}

type gstate struct {
	Tc    float64
	Tw    float64
	Th    float64
	Tl    float64
	Tf    *font
	Tfs   float64
	Tmode int
	Trise float64
	Tm    matrix
	Tlm   matrix
	Trm   matrix
	CTM   matrix
}

// maxGstates bounds the graphics states saved (q) and not restored; maxPageFonts, the fonts
// one page uses.
const maxGstates, maxPageFonts = 1024, 64

// popArgs pops every value currently on the stack and returns them with the
// bottom of the stack at args[0], matching the operand order expected by PDF
// content-stream operators.
func popArgs(stk *Stack) []Value {
	n := stk.Len()
	args := make([]Value, n)
	for i := n - 1; i >= 0; i-- {
		args[i] = stk.Pop()
	}
	return args
}

// content interprets a page's content stream, showing each character drawn.
func (p Page) content(rd io.Reader, res Value, show func(Text)) {
	g := gstate{Th: 1, CTM: ident, Tf: &font{enc: &nopEncoder{}}}
	fonts := map[string]*font{}
	showText := func(s string) {
		n := 0
		for _, ch := range g.Tf.enc.Decode(s) {
			p.r.g.tick()
			var w0 float64
			if n < len(s) {
				w0 = g.Tf.width(int(s[n]))
			}
			n++
			Trm := matrix{{g.Tfs * g.Th, 0, 0}, {0, g.Tfs, 0}, {0, g.Trise, 1}}.mul(g.Tm).mul(g.CTM)
			show(Text{g.Tf.name, Trm[0][0], Trm[2][0], Trm[2][1], w0 / 1000 * Trm[0][0], string(ch)})
			tx := w0/1000*g.Tfs + g.Tc
			tx *= g.Th
			g.Tm = matrix{{1, 0, 0}, {0, 1, 0}, {tx, 0, 1}}.mul(g.Tm)
		}
	}

	var gstack []gstate
	interpret(rd, p.r.g, func(stk *Stack, op string) {
		args := popArgs(stk)
		switch op {
		default:
			return

		case "cm": // update g.CTM
			if len(args) != 6 {
				panic("bad g.Tm")
			}
			var m matrix
			for i := 0; i < 6; i++ {
				m[i/2][i%2] = args[i].Float64()
			}
			m[2][2] = 1
			g.CTM = m.mul(g.CTM)

		case "q": // save graphics state
			if len(gstack) >= maxGstates {
				panic("graphics states saved too deep")
			}
			gstack = append(gstack, g)

		case "Q": // restore graphics state
			if n := len(gstack) - 1; n >= 0 {
				g = gstack[n]
				gstack = gstack[:n]
			}

		case "BT": // begin text (reset text matrix and line matrix)
			g.Tm = ident
			g.Tlm = g.Tm

		case "T*": // move to start of next line
			x := matrix{{1, 0, 0}, {0, 1, 0}, {0, -g.Tl, 1}}
			g.Tlm = x.mul(g.Tlm)
			g.Tm = g.Tlm

		case "Tc": // set character spacing
			if len(args) != 1 {
				panic("bad g.Tc")
			}
			g.Tc = args[0].Float64()

		case "TD": // move text position and set leading
			if len(args) != 2 {
				panic("bad Td")
			}
			g.Tl = -args[1].Float64()
			fallthrough
		case "Td": // move text position
			if len(args) != 2 {
				panic("bad Td")
			}
			tx := args[0].Float64()
			ty := args[1].Float64()
			x := matrix{{1, 0, 0}, {0, 1, 0}, {tx, ty, 1}}
			g.Tlm = x.mul(g.Tlm)
			g.Tm = g.Tlm

		case "Tf": // set text font and size
			if len(args) != 2 {
				panic("bad TL")
			}
			name := args[0].Name()
			f, ok := fonts[name]
			switch {
			case ok:
			case len(fonts) >= maxPageFonts:
				f = &font{enc: &nopEncoder{}} // no page uses that many: read the codes as they are
			default:
				f = p.r.font(res.Key("Font"), name)
				fonts[name] = f
			}
			g.Tf = f
			g.Tfs = args[1].Float64()

		case "\"": // set spacing, move to next line, and show text
			if len(args) != 3 {
				panic("bad \" operator")
			}
			g.Tw = args[0].Float64()
			g.Tc = args[1].Float64()
			args = args[2:]
			fallthrough
		case "'": // move to next line and show text
			if len(args) != 1 {
				panic("bad ' operator")
			}
			x := matrix{{1, 0, 0}, {0, 1, 0}, {0, -g.Tl, 1}}
			g.Tlm = x.mul(g.Tlm)
			g.Tm = g.Tlm
			fallthrough
		case "Tj": // show text
			if len(args) != 1 {
				panic("bad Tj operator")
			}
			showText(args[0].RawString())

		case "TJ": // show text, allowing individual glyph positioning
			if len(args) != 1 {
				panic("bad TJ operator")
			}
			v := args[0]
			for i := 0; i < v.Len(); i++ {
				x := v.Index(i)
				if x.Kind() == String {
					showText(x.RawString())
				} else {
					tx := -x.Float64() / 1000 * g.Tfs * g.Th
					g.Tm = matrix{{1, 0, 0}, {0, 1, 0}, {tx, 0, 1}}.mul(g.Tm)
				}
			}
			showText("\n")

		case "TL": // set text leading
			if len(args) != 1 {
				panic("bad TL")
			}
			g.Tl = args[0].Float64()

		case "Tm": // set text matrix and line matrix
			if len(args) != 6 {
				panic("bad g.Tm")
			}
			var m matrix
			for i := 0; i < 6; i++ {
				m[i/2][i%2] = args[i].Float64()
			}
			m[2][2] = 1
			g.Tm = m
			g.Tlm = m

		case "Tr": // set text rendering mode
			if len(args) != 1 {
				panic("bad Tr")
			}
			g.Tmode = int(args[0].Int64())

		case "Ts": // set text rise
			if len(args) != 1 {
				panic("bad Ts")
			}
			g.Trise = args[0].Float64()

		case "Tw": // set word spacing
			if len(args) != 1 {
				panic("bad g.Tw")
			}
			g.Tw = args[0].Float64()

		case "Tz": // set horizontal text scaling
			if len(args) != 1 {
				panic("bad Tz")
			}
			g.Th = args[0].Float64() / 100
		}
	})
}

// A TextEncoding represents a mapping between
// font code points and UTF-8 text.
type TextEncoding interface {
	// Decode returns the UTF-8 text corresponding to
	// the sequence of code points in raw.
	Decode(raw string) (text string)
}

// encoder answers the encoding between a font's code points and UTF-8.
func (r *Reader) encoder(f Value) TextEncoding {
	enc := f.Key("Encoding")
	switch enc.Kind() {
	case Name:
		switch enc.Name() {
		case "WinAnsiEncoding":
			return &byteEncoder{&winAnsiEncoding}
		case "MacRomanEncoding":
			return &byteEncoder{&macRomanEncoding}
		case "Identity-H":
			return r.charmapEncoding(f)
		case "UniGB-UCS2-H":
			return &ucs2Encoder{}
		default:
			return &nopEncoder{}
		}
	case Dict:
		return differences(enc.Key("Differences"))
	case Null:
		return r.charmapEncoding(f)
	default:
		return &nopEncoder{}
	}
}

func (r *Reader) charmapEncoding(f Value) TextEncoding {
	toUnicode := f.Key("ToUnicode")
	if toUnicode.Kind() != Stream {
		return &byteEncoder{&pdfDocEncoding}
	}
	// A CMap is read once per file, however many fonts share it.
	if m, ok := r.cmaps[toUnicode.ptr]; ok {
		return m
	}
	var enc TextEncoding = &nopEncoder{}
	if m := readCmap(toUnicode); m != nil {
		enc = m
	}
	if len(r.cmaps) < maxFonts {
		r.cmaps[toUnicode.ptr] = enc
	}
	return enc
}

// differences reads an encoding's /Differences into a table, once, rather than per
// character shown: codes are given by a number followed by the names of it and the codes
// after it.
func differences(v Value) TextEncoding {
	var table [256]rune
	for i := range table {
		table[i] = rune(i)
	}
	n := -1
	for j := 0; j < v.Len(); j++ {
		x := v.Index(j)
		switch x.Kind() {
		case Integer:
			n = int(x.Int64())
		case Name:
			if n >= 0 && n < 256 {
				if r := nameToRune[x.Name()]; r != 0 {
					table[n] = r
				}
			}
			n++
		}
	}
	return &byteEncoder{&table}
}

type nopEncoder struct {
}

func (e *nopEncoder) Decode(raw string) (text string) {
	return raw
}

type ucs2Encoder struct{}

func (e *ucs2Encoder) Decode(raw string) (text string) {
	return utf16Decode(raw)
}

type byteEncoder struct {
	table *[256]rune
}

func (e *byteEncoder) Decode(raw string) (text string) {
	r := make([]rune, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		r = append(r, e.table[raw[i]])
	}
	return string(r)
}

type byteRange struct {
	low  string
	high string
}

type bfrange struct {
	lo  string
	hi  string
	dst Value
}

type cmap struct {
	g       *guard
	space   [4][]byteRange // codespace range
	bfrange []bfrange
	bfchar  map[string]string
}

func (m *cmap) Decode(raw string) (text string) {
	var r []rune
Parse:
	for len(raw) > 0 {
		m.g.tick()
		for n := 1; n <= 4 && n <= len(raw); n++ { // number of digits in character replacement (1-4 possible)
			for _, space := range m.space[n-1] { // find matching codespace Ranges for number of digits
				if space.low <= raw[:n] && raw[:n] <= space.high { // see if value is in range
					text := raw[:n]
					raw = raw[n:]
					if repl, ok := m.bfchar[text]; ok {
						r = append(r, []rune(utf16Decode(repl))...)
						continue Parse
					}
					for _, bfrange := range m.bfrange { // check for matching bfrange
						if len(bfrange.lo) == n && bfrange.lo <= text && text <= bfrange.hi {
							if bfrange.dst.Kind() == String {
								s := bfrange.dst.RawString()
								if bfrange.lo != text && s != "" { // value isn't at the beginning of the range so scale result
									b := []byte(s)
									b[len(b)-1] += text[len(text)-1] - bfrange.lo[len(bfrange.lo)-1] // increment last byte by difference
									s = string(b)
								}
								r = append(r, []rune(utf16Decode(s))...)
								continue Parse
							}
							if bfrange.dst.Kind() == Array {
								n := text[len(text)-1] - bfrange.lo[len(bfrange.lo)-1]
								v := bfrange.dst.Index(int(n))
								if v.Kind() == String {
									s := v.RawString()
									r = append(r, []rune(utf16Decode(s))...)
									continue Parse
								}
							}
							r = append(r, noRune)
							continue Parse
						}
					}
					r = append(r, noRune)
					continue Parse
				}
			}
		}
		r = append(r, noRune)
		raw = raw[1:]
	}
	return string(r)
}

// readCmap reads a ToUnicode CMap. A count an operator names is bounded by the operands
// there are: "beginbfchar" with 2,000,000,000 entries does not loop that often.
func readCmap(toUnicode Value) *cmap {
	n := -1
	m := cmap{g: toUnicode.r.g, bfchar: map[string]string{}}
	ok := true
	count := func(stk *Stack, per int) int {
		return max(0, min(n, stk.Len()/per))
	}
	interpret(toUnicode.Reader(), toUnicode.r.g, func(stk *Stack, op string) {
		if !ok {
			return
		}
		switch op {
		case "findresource":
			stk.Pop() // category
			stk.Pop() // key
			stk.Push(newDict())
		case "begincmap":
			stk.Push(newDict())
		case "endcmap":
			stk.Pop()
		case "begincodespacerange":
			n = int(stk.Pop().Int64())
		case "endcodespacerange":
			if n < 0 {
				ok = false
				return
			}
			for i, c := 0, count(stk, 2); i < c; i++ {
				hi, lo := stk.Pop().RawString(), stk.Pop().RawString()
				if len(lo) == 0 || len(lo) > 4 || len(lo) != len(hi) {
					ok = false
					return
				}
				m.space[len(lo)-1] = append(m.space[len(lo)-1], byteRange{lo, hi})
			}
			n = -1
		case "beginbfchar":
			n = int(stk.Pop().Int64())
		case "endbfchar":
			if n < 0 {
				panic("missing beginbfchar")
			}
			for i, c := 0, count(stk, 2); i < c; i++ {
				repl, orig := stk.Pop().RawString(), stk.Pop().RawString()
				if _, dup := m.bfchar[orig]; !dup {
					m.g.mapped(1)
					m.bfchar[orig] = repl
				}
			}
		case "beginbfrange":
			n = int(stk.Pop().Int64())
		case "endbfrange":
			if n < 0 {
				panic("missing beginbfrange")
			}
			for i, c := 0, count(stk, 3); i < c; i++ {
				dst, srcHi, srcLo := stk.Pop(), stk.Pop().RawString(), stk.Pop().RawString()
				if srcLo == "" || len(srcLo) != len(srcHi) {
					continue
				}
				m.g.mapped(1)
				m.bfrange = append(m.bfrange, bfrange{srcLo, srcHi, dst})
			}
		case "defineresource":
			stk.Pop().Name() // category
			value := stk.Pop()
			stk.Pop().Name() // key
			stk.Push(value)
		}
	})
	if !ok {
		return nil
	}
	return &m
}
