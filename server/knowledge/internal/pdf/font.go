package pdf

import (
	"math"
	"slices"
	"strings"
)

// font is what the text of a page needs of a font: the text of each code and its advance
// width (in text space, for a size of 1).
type font struct {
	simple bool
	// A simple font's, by its one-byte code.
	text  [256]string
	width [256]float64
	// A composite (Type0) font's.
	codes *cmap // how strings split into codes, and their CIDs
	uni   *cmap // ToUnicode
	// Without ToUnicode, an embedded TrueType program's characters by glyph, and the
	// glyphs of CIDs (two bytes each; nil: the same numbers).
	glyphChars []rune
	cidToGID   []byte
	dw         float64
	w          map[uint32]float64 // by CID
	wRanges    []cidWidth
	// scale is what the font's size is multiplied by to be the size of its glyphs: 1 but for
	// a Type 3 font whose matrix is not the usual thousandth.
	scale float64
}

type cidWidth struct {
	lo, hi uint32
	w      float64
}

// loadFont answers the font a resource dictionary names (nil when it is not a font). A
// font used by many pages, by reference, is read once.
func (r *Reader) loadFont(o Object) *font {
	ref, isRef := o.(Ref)
	if isRef {
		if f, ok := r.fonts[ref]; ok {
			return f
		}
	}
	var f *font
	d := r.dict(o)
	catch(func() {
		switch nameOf(r.resolve(d["Subtype"])) {
		case "Type0":
			f = r.type0(d)
		default:
			f = r.simpleFont(d)
		}
	})
	if f == nil {
		f = defaultFont()
	}
	if isRef {
		r.fonts[ref] = f
	}
	return f
}

// baseFont answers a font's /BaseFont without the tag of a subset ("ABCDEF+Helvetica").
func baseFont(n Name) string {
	s := string(n)
	if len(s) > 7 && s[6] == '+' && strings.ToUpper(s[:6]) == s[:6] {
		s = s[7:]
	}
	return s
}

func namedEncoding(n Name) *[256]rune {
	switch n {
	case "WinAnsiEncoding":
		return &winAnsiEnc
	case "MacRomanEncoding":
		return &macRomanEnc
	case "StandardEncoding", "MacExpertEncoding":
		// MacExpert's glyphs (small capitals, old-style figures) are named as in Standard's
		// spirit; their /Differences say what they are.
		return &standardEnc
	case "PDFDocEncoding":
		return &pdfDocEnc
	}
	return nil
}

func (r *Reader) simpleFont(d Dict) *font {
	f := &font{simple: true, scale: 1}
	subtype := nameOf(r.resolve(d["Subtype"]))
	base := baseFont(nameOf(r.resolve(d["BaseFont"])))
	desc := r.dict(d["FontDescriptor"])
	flags, _ := r.int(desc["Flags"])
	var enc *[256]rune
	var diffs Array
	switch e := r.resolve(d["Encoding"]).(type) {
	case Name:
		enc = namedEncoding(e)
	case Dict:
		enc = namedEncoding(nameOf(r.resolve(e["BaseEncoding"])))
		diffs = r.array(e["Differences"])
	}
	if enc == nil {
		enc = r.builtinEncoding(subtype, base, desc, flags&4 != 0)
	}
	for c, ch := range enc {
		if ch != 0 {
			f.text[c] = runeText(ch)
		}
	}
	code := -1
	for _, o := range diffs {
		r.g.tick()
		switch v := r.resolve(o).(type) {
		case int:
			code = v
		case Name:
			if code >= 0 && code < 256 {
				if t, ok := glyphText(string(v)); ok {
					f.text[code] = t
				}
				// A name not known keeps the base encoding's character: the best guess.
			}
			code++
		}
	}
	if tu, ok := r.resolve(d["ToUnicode"]).(*Stream); ok {
		if m := r.parseCMap(r.readStream(tu)); m != nil {
			for c := range 256 {
				if t, ok := m.lookup(uint32(c)); ok {
					f.text[c] = t
				}
			}
		}
	}
	if strings.Contains(base, "Symbol") {
		// Some writers map a symbol font's codes into the private use area: read them
		// through the Symbol encoding instead of dropping them.
		for c := range 256 {
			if f.text[c] == "" && symbolEnc[c] != 0 {
				f.text[c] = runeText(symbolEnc[c])
			}
		}
	}
	// Widths, in glyph space: thousandths of the size, or by a Type 3 font's own matrix.
	scale := 0.001
	if subtype == "Type3" {
		if m := r.array(d["FontMatrix"]); len(m) == 6 {
			a, _ := r.num(m[0])
			c, _ := r.num(m[2])
			dd, _ := r.num(m[3])
			if a != 0 && !math.IsInf(a, 0) && !math.IsNaN(a) {
				scale = math.Abs(a)
			}
			if s := math.Hypot(c, dd) * 1000; s > 0 && s < 1e6 {
				f.scale = s
			}
		}
	}
	first, _ := r.int(d["FirstChar"])
	widths := r.array(d["Widths"])
	missing, _ := r.num(desc["MissingWidth"])
	avg, space, known := standardWidths(base)
	if widths == nil && !known {
		avg, space = 500, 250
		if a, ok := r.num(desc["AvgWidth"]); ok && a > 0 {
			avg = a
		}
	}
	for c := range 256 {
		w := missing
		if i := c - first; widths != nil && i >= 0 && i < len(widths) {
			w, _ = r.num(widths[i])
		} else if widths == nil {
			w = avg
			if c == 32 {
				w = space
			}
		}
		f.width[c] = w * scale
	}
	return f
}

// builtinEncoding answers the encoding a font has when its dictionary names none: a Type 1
// font program's own, the Symbol and ZapfDingbats fonts' own, and otherwise Standard (for
// Type 1) or WinAnsi (for TrueType: a symbolic TrueType font's codes are usually those).
func (r *Reader) builtinEncoding(subtype Name, base string, desc Dict, symbolic bool) *[256]rune {
	switch {
	case strings.HasPrefix(base, "Symbol"):
		return &symbolEnc
	case strings.HasPrefix(base, "ZapfDingbats") || strings.HasPrefix(base, "Dingbats"):
		return &zapfEnc
	case strings.Contains(base, "Wingdings") || strings.Contains(base, "Webdings"):
		return &[256]rune{} // pictures, not text
	}
	if subtype == "Type1" || subtype == "MMType1" {
		if ff, ok := r.resolve(desc["FontFile"]).(*Stream); ok {
			var enc *[256]rune
			catch(func() { enc = r.type1Encoding(ff) })
			if enc != nil {
				return enc
			}
		}
	}
	if subtype == "TrueType" {
		return &winAnsiEnc
	}
	return &standardEnc
}

// type1Encoding reads the built-in encoding of a Type 1 font program from its clear-text
// part: "/Encoding StandardEncoding def", or an array filled by "dup code /name put".
func (r *Reader) type1Encoding(s *Stream) *[256]rune {
	data := r.readStream(s)
	if n, ok := r.int(s.Dict["Length1"]); ok && n > 0 && n < len(data) {
		data = data[:n]
	}
	i := strings.Index(string(data), "/Encoding")
	if i < 0 {
		return nil
	}
	l := newLexer(r.g, data[i+len("/Encoding"):])
	if l.next() == tKeyword && string(l.tok) == "StandardEncoding" {
		return &standardEnc
	}
	enc := &[256]rune{}
	found := false
	for code := -1; ; {
		switch l.next() {
		case tEOF:
			if !found {
				return nil
			}
			return enc
		case tNum:
			code = int(l.num)
		case tName:
			if code >= 0 && code < 256 {
				if r := nameRune(string(l.str)); r != 0 {
					enc[code] = r
					found = true
				}
			}
			code = -1
		case tKeyword:
			switch string(l.tok) {
			case "readonly", "def":
				if found {
					return enc
				}
			case "dup", "put":
			default:
				code = -1
			}
		}
	}
}

// nameRune answers the one character a glyph name stands for (a ligature's own character,
// which runeText spells out), or 0.
func nameRune(name string) rune {
	switch name {
	case "ff":
		return 'ﬀ'
	case "fi":
		return 'ﬁ'
	case "fl":
		return 'ﬂ'
	case "ffi":
		return 'ﬃ'
	case "ffl":
		return 'ﬄ'
	}
	if t, ok := glyphText(name); ok {
		if rs := []rune(t); len(rs) == 1 {
			return rs[0]
		}
	}
	return 0
}

// standardWidths answers approximate widths (thousandths of the size) of the standard 14
// fonts, which files may use without widths: the average width of a letter in running text,
// and the width of a space, of the font's family. These are estimates, not the fonts'
// metrics: they place glyphs near enough for spaces between words to be seen.
func standardWidths(base string) (avg, space float64, ok bool) {
	bold := strings.Contains(base, "Bold")
	switch {
	case strings.HasPrefix(base, "Courier"):
		return 600, 600, true
	case strings.HasPrefix(base, "Helvetica") || strings.HasPrefix(base, "Arial"):
		if bold {
			return 560, 278, true
		}
		return 520, 278, true
	case strings.HasPrefix(base, "Times"):
		if bold {
			return 490, 250, true
		}
		return 450, 250, true
	case strings.HasPrefix(base, "Symbol"):
		return 560, 250, true
	case strings.HasPrefix(base, "ZapfDingbats"):
		return 780, 278, true
	}
	return 0, 0, false
}

// defaultFont is the font of text shown in a font the page does not have: its characters
// are read as WinAnsi, as readers do. (Made once the encodings are, in init.)
func defaultFont() *font { return fallbackFont }

var fallbackFont *font

func makeFallbackFont() *font {
	f := &font{simple: true, scale: 1}
	for c, ch := range winAnsiEnc {
		if ch != 0 {
			f.text[c] = runeText(ch)
		}
		f.width[c] = 0.5
	}
	f.width[32] = 0.25
	return f
}

// type0 reads a composite font: its CMap, its descendant CIDFont's widths, its ToUnicode.
func (r *Reader) type0(d Dict) *font {
	f := &font{scale: 1, dw: 1000, w: map[uint32]float64{}}
	switch e := r.resolve(d["Encoding"]).(type) {
	case Name:
		f.codes = predefined(string(e))
	case *Stream:
		m := r.parseCMap(r.readStream(e))
		if use, ok := r.resolve(e.Dict["UseCMap"]).(Name); ok {
			m.use(predefined(string(use)))
		}
		if len(m.spaces) == 0 {
			m.use(predefined("Identity-H"))
		}
		f.codes = m
	default:
		f.codes = predefined("Identity-H")
	}
	var cid Dict
	if ds := r.array(d["DescendantFonts"]); len(ds) > 0 {
		cid = r.dict(ds[0])
	}
	if dw, ok := r.num(cid["DW"]); ok {
		f.dw = dw
	}
	w := r.array(cid["W"])
	for i := 0; i < len(w); {
		r.g.tick()
		first, ok := r.int(w[i])
		if !ok || first < 0 || i+1 >= len(w) {
			break
		}
		if ws, isArr := r.resolve(w[i+1]).(Array); isArr {
			for j, o := range ws {
				r.g.tick()
				if v, ok := r.num(o); ok {
					f.w[uint32(first+j)] = v
				}
			}
			i += 2
			continue
		}
		last, ok1 := r.int(w[i+1])
		if i+2 >= len(w) {
			break
		}
		v, ok2 := r.num(w[i+2])
		if ok1 && ok2 && last >= first {
			f.wRanges = append(f.wRanges, cidWidth{uint32(first), uint32(last), v})
		}
		i += 3
	}
	slices.SortStableFunc(f.wRanges, func(a, b cidWidth) int {
		switch {
		case a.lo < b.lo:
			return -1
		case a.lo > b.lo:
			return 1
		}
		return 0
	})
	if tu, ok := r.resolve(d["ToUnicode"]).(*Stream); ok {
		f.uni = r.parseCMap(r.readStream(tu))
	} else if f.codes.unicode == 0 {
		if ff, ok := r.resolve(r.dict(cid["FontDescriptor"])["FontFile2"]).(*Stream); ok {
			f.glyphChars = r.glyphChars(ff)
			f.cidToGID = r.cidGlyphs(cid["CIDToGIDMap"])
		}
	}
	return f
}

// cidWidth answers the width of a CID, in text space for a size of 1.
func (f *font) cidWidth(cid uint32) float64 {
	if w, ok := f.w[cid]; ok {
		return w / 1000
	}
	i, found := within(f.wRanges, cid)
	if found {
		return f.wRanges[i].w / 1000
	}
	return f.dw / 1000
}

// codeText answers the text of a composite font's code (raw, its bytes).
func (f *font) codeText(code uint32, raw []byte) string {
	if f.uni != nil {
		if t, ok := f.uni.lookup(code); ok {
			return t
		}
	}
	switch f.codes.unicode {
	case 2:
		if code < 0xd800 || code >= 0xe000 {
			return runeText(rune(code))
		}
	case 16:
		return utf16Text(raw)
	}
	if f.glyphChars != nil {
		gid := int(f.codes.cid(code))
		if f.cidToGID != nil {
			if 2*gid+1 >= len(f.cidToGID) {
				return ""
			}
			gid = int(f.cidToGID[2*gid])<<8 | int(f.cidToGID[2*gid+1])
		}
		if gid < len(f.glyphChars) && f.glyphChars[gid] != 0 {
			return runeText(f.glyphChars[gid])
		}
	}
	return ""
}
