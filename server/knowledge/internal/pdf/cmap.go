package pdf

import (
	"slices"
	"strings"
	"unicode/utf16"
)

// cmap is a CMap (ISO 32000-1, 9.7.5 and 9.10.3): how a composite font's strings split into
// codes, and what each code is: a CID (an encoding CMap) or text (a ToUnicode CMap).
type cmap struct {
	spaces []codespace // by length
	// ToUnicode.
	text   map[uint32]string
	ranges []textRange
	// Encoding.
	cids      map[uint32]uint32
	cidRanges []cidRange
	identity  bool // codes are CIDs (Identity-H/V, or a CMap that uses it)
	unicode   int  // a predefined CMap whose codes are Unicode: 2 (UCS-2), 16 (UTF-16)
}

type codespace struct {
	n      int
	lo, hi [4]byte
}

type textRange struct {
	lo, hi uint32
	dst    []uint16 // the text of lo, in UTF-16; its last unit counts up
}

type cidRange struct{ lo, hi, cid uint32 }

// span is a range of codes or CIDs, lo to hi inclusive, kept sorted and apart in a slice.
type span interface{ bounds() (lo, hi uint32) }

func (r textRange) bounds() (uint32, uint32) { return r.lo, r.hi }
func (r cidRange) bounds() (uint32, uint32)  { return r.lo, r.hi }
func (r cidWidth) bounds() (uint32, uint32)  { return r.lo, r.hi }

// within finds the range of sorted, disjoint ranges that holds c.
func within[S span](ranges []S, c uint32) (int, bool) {
	return slices.BinarySearchFunc(ranges, c, func(r S, c uint32) int {
		switch lo, hi := r.bounds(); {
		case hi < c:
			return -1
		case lo > c:
			return 1
		}
		return 0
	})
}

// next splits the first code off s: the shortest length whose codespace range holds it; when
// none does, the length of a range its first byte starts (or one byte), as readers do.
func (m *cmap) next(s []byte) (code uint32, n int) {
	if len(m.spaces) == 0 {
		n = min(2, len(s))
		if m.unicode == 16 && n == 2 && s[0] >= 0xd8 && s[0] <= 0xdb && len(s) >= 4 {
			n = 4
		}
		return bytesCode(s[:n]), n
	}
	for _, sp := range m.spaces {
		if sp.n > len(s) {
			break
		}
		if sp.holds(s) {
			return bytesCode(s[:sp.n]), sp.n
		}
	}
	n = 1
	for _, sp := range m.spaces {
		if s[0] >= sp.lo[0] && s[0] <= sp.hi[0] {
			n = min(sp.n, len(s))
			break
		}
	}
	return bytesCode(s[:n]), n
}

func (sp codespace) holds(s []byte) bool {
	for i := range sp.n {
		if s[i] < sp.lo[i] || s[i] > sp.hi[i] {
			return false
		}
	}
	return true
}

func bytesCode(b []byte) uint32 {
	var c uint32
	for _, x := range b {
		c = c<<8 | uint32(x)
	}
	return c
}

// cid answers the CID of a code.
func (m *cmap) cid(code uint32) uint32 {
	if c, ok := m.cids[code]; ok {
		return c
	}
	i, found := within(m.cidRanges, code)
	if found {
		r := m.cidRanges[i]
		return r.cid + code - r.lo
	}
	if m.identity || m.unicode != 0 {
		return code
	}
	return 0
}

// lookup answers the text of a code in a ToUnicode CMap.
func (m *cmap) lookup(code uint32) (string, bool) {
	if t, ok := m.text[code]; ok {
		return t, true
	}
	i, found := within(m.ranges, code)
	if !found {
		return "", false
	}
	r := m.ranges[i]
	dst := slices.Clone(r.dst)
	dst[len(dst)-1] += uint16(code - r.lo)
	t := clean(string(utf16.Decode(dst)))
	if len(m.text) < maxMapped {
		m.text[code] = t // kept: a glyph is shown many times
	}
	return t, true
}

// utf16Text answers the text of a CMap's destination string: UTF-16BE, or (as some writers
// put) a single byte.
func utf16Text(b []byte) string {
	if len(b) == 1 {
		return clean(string(rune(b[0])))
	}
	return clean(string(utf16.Decode(units(b))))
}

func units(b []byte) []uint16 {
	u := make([]uint16, 0, (len(b)+1)/2)
	for i := 0; i+1 < len(b); i += 2 {
		u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
	}
	if len(b)%2 == 1 {
		u = append(u, uint16(b[len(b)-1]))
	}
	return u
}

// parseCMap reads a CMap stream's data (a PostScript program of which only the operators
// between begin… and end… matter). Every mapping counts against the file's budget.
func (r *Reader) parseCMap(data []byte) *cmap {
	m := &cmap{text: map[uint32]string{}, cids: map[uint32]uint32{}}
	p := &parser{lex: newLexer(r.g, data)}
	var last Object // the operand before an operator: usecmap's name
	for {
		o, ok := p.object()
		if !ok {
			break
		}
		k, isKw := o.(keyword)
		if !isKw {
			last = o
			continue
		}
		switch k {
		case "usecmap":
			if name, ok := last.(Name); ok {
				m.use(predefined(string(name)))
			}
		case "begincodespacerange":
			r.entries(p, "endcodespacerange", 2, func(v []Object) {
				lo, _ := v[0].(string)
				hi, _ := v[1].(string)
				if len(lo) >= 1 && len(lo) <= 4 && len(lo) == len(hi) {
					sp := codespace{n: len(lo)}
					copy(sp.lo[:], lo)
					copy(sp.hi[:], hi)
					m.spaces = append(m.spaces, sp)
				}
			})
		case "beginbfchar":
			r.entries(p, "endbfchar", 2, func(v []Object) {
				src, _ := v[0].(string)
				if dst, ok := v[1].(string); ok && len(src) >= 1 && len(src) <= 4 {
					m.text[bytesCode([]byte(src))] = utf16Text([]byte(dst))
				} else if name, ok := v[1].(Name); ok && len(src) >= 1 && len(src) <= 4 {
					t, _ := glyphText(string(name))
					m.text[bytesCode([]byte(src))] = t
				}
			})
		case "beginbfrange":
			r.entries(p, "endbfrange", 3, func(v []Object) {
				lo, _ := v[0].(string)
				hi, _ := v[1].(string)
				if len(lo) < 1 || len(lo) > 4 || len(lo) != len(hi) {
					return
				}
				from, to := bytesCode([]byte(lo)), bytesCode([]byte(hi))
				if to < from {
					return
				}
				switch dst := v[2].(type) {
				case string:
					if len(dst) >= 1 {
						m.ranges = append(m.ranges, textRange{lo: from, hi: to, dst: units([]byte(dst))})
					}
				case Array:
					r.g.mapping(len(dst))
					for i, d := range dst {
						if s, ok := d.(string); ok && uint64(from)+uint64(i) <= uint64(to) {
							m.text[from+uint32(i)] = utf16Text([]byte(s))
						}
					}
				}
			})
		case "begincidchar":
			r.entries(p, "endcidchar", 2, func(v []Object) {
				src, _ := v[0].(string)
				if cid, ok := v[1].(int); ok && cid >= 0 && len(src) >= 1 && len(src) <= 4 {
					m.cids[bytesCode([]byte(src))] = uint32(cid)
				}
			})
		case "begincidrange":
			r.entries(p, "endcidrange", 3, func(v []Object) {
				lo, _ := v[0].(string)
				hi, _ := v[1].(string)
				cid, ok := v[2].(int)
				if ok && cid >= 0 && len(lo) >= 1 && len(lo) <= 4 && len(lo) == len(hi) {
					from, to := bytesCode([]byte(lo)), bytesCode([]byte(hi))
					if to >= from {
						m.cidRanges = append(m.cidRanges, cidRange{from, to, uint32(cid)})
					}
				}
			})
		}
		last = nil
	}
	m.finish()
	return m
}

// entries reads the groups of n operands up to the keyword end, calling fn with each.
func (r *Reader) entries(p *parser, end keyword, n int, fn func([]Object)) {
	v := make([]Object, 0, n)
	for {
		o, ok := p.object()
		if !ok {
			return
		}
		if k, isKw := o.(keyword); isKw {
			if k == end {
				return
			}
			v = v[:0]
			continue
		}
		if v = append(v, o); len(v) == n {
			r.g.mapping(1)
			fn(v)
			v = v[:0]
		}
	}
}

// use takes what a CMap it uses says, where this one says nothing.
func (m *cmap) use(base *cmap) {
	if base == nil {
		return
	}
	if len(m.spaces) == 0 {
		m.spaces = base.spaces
	}
	m.identity = m.identity || base.identity
	if m.unicode == 0 {
		m.unicode = base.unicode
	}
}

func (m *cmap) finish() {
	slices.SortStableFunc(m.spaces, func(a, b codespace) int { return a.n - b.n })
	byLo := func(a, b uint32) int {
		switch {
		case a < b:
			return -1
		case a > b:
			return 1
		}
		return 0
	}
	slices.SortFunc(m.ranges, func(a, b textRange) int { return byLo(a.lo, b.lo) })
	slices.SortFunc(m.cidRanges, func(a, b cidRange) int { return byLo(a.lo, b.lo) })
	// Ranges that overlap cannot be searched: the later of two is cut to what the earlier
	// leaves.
	for i := 1; i < len(m.ranges); i++ {
		if m.ranges[i].lo <= m.ranges[i-1].hi {
			m.ranges[i-1].hi = m.ranges[i].lo - 1
		}
	}
	m.ranges = slices.DeleteFunc(m.ranges, func(t textRange) bool { return t.hi < t.lo })
	for i := 1; i < len(m.cidRanges); i++ {
		if m.cidRanges[i].lo <= m.cidRanges[i-1].hi {
			m.cidRanges[i-1].hi = m.cidRanges[i].lo - 1
		}
	}
	m.cidRanges = slices.DeleteFunc(m.cidRanges, func(c cidRange) bool { return c.hi < c.lo })
}

// predefined answers what Betty knows of a predefined CMap from its name: how its codes are
// split (the code spaces of the character sets they are named after), and whether they are
// Unicode. The CID of a code in the others is not known (their tables are not included):
// such a font's text comes from its ToUnicode CMap.
func predefined(name string) *cmap {
	m := &cmap{} // -V CMaps split codes as their -H twins do
	sp := func(n int, lo, hi string) {
		s := codespace{n: n}
		copy(s.lo[:], lo)
		copy(s.hi[:], hi)
		m.spaces = append(m.spaces, s)
	}
	switch {
	case name == "Identity-H" || name == "Identity-V":
		m.identity = true
		sp(2, "\x00\x00", "\xff\xff")
	case strings.Contains(name, "UCS2"):
		m.unicode = 2
		sp(2, "\x00\x00", "\xff\xff")
	case strings.Contains(name, "UTF16"):
		m.unicode = 16
		sp(2, "\x00\x00", "\xd7\xff")
		sp(2, "\xe0\x00", "\xff\xff")
		sp(4, "\xd8\x00\xdc\x00", "\xdb\xff\xdf\xff")
	case strings.Contains(name, "RKSJ"): // Shift-JIS
		sp(1, "\x00", "\x80")
		sp(1, "\xa0", "\xdf")
		sp(2, "\x81\x40", "\x9f\xfc")
		sp(2, "\xe0\x40", "\xfc\xfc")
	case strings.Contains(name, "GBK2K"): // GB 18030
		sp(1, "\x00", "\x80")
		sp(2, "\x81\x40", "\xfe\xfe")
		sp(4, "\x81\x30\x81\x30", "\xfe\x39\xfe\x39")
	case strings.Contains(name, "EUC"), strings.Contains(name, "B5"), strings.Contains(name, "UHC"),
		strings.Contains(name, "GBK"):
		sp(1, "\x00", "\x80")
		sp(2, "\x81\x40", "\xfe\xfe")
	default: // the JIS, GB and KSC two-byte sets, and what is not known
		sp(2, "\x00\x00", "\xff\xff")
	}
	m.finish()
	return m
}
