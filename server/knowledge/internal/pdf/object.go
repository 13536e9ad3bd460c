package pdf

import "math"

// An object of a PDF file is one of: nil (null), bool, int, float64, Name, string (a string
// object's bytes), Array, Dict, Ref or *Stream.
type Object = any

// Name is a /name.
type Name string

// Array is an [array].
type Array []Object

// Dict is a << dictionary >>.
type Dict map[Name]Object

// Ref is an indirect reference, "12 0 R".
type Ref struct {
	Num, Gen int
}

// Stream is a stream object: its dictionary, and where its data lies in the file. Its data is
// read (and decoded) each time it is used.
type Stream struct {
	Dict Dict
	ref  Ref   // the object it is, for decryption
	off  int64 // where its data starts in the file
	len  int64 // how long its data is
}

// keyword is a bare word met where an object was expected: obj, endobj, stream, R, an
// operator, a CMap's begincodespacerange.
type keyword string

// parser reads objects from a lexer's tokens.
type parser struct {
	lex   *lexer
	depth int
	// refs tells whether "1 0 R" is a reference (in the file's objects) or three tokens.
	refs bool
}

// object reads an object, or a keyword met instead; nil and false at the end of the bytes.
func (p *parser) object() (Object, bool) {
	return p.value(p.lex.next())
}

// value reads the object whose first token the lexer has just read.
func (p *parser) value(kind tokKind) (Object, bool) {
	l := p.lex
	switch kind {
	case tEOF:
		return nil, false
	case tNum:
		if !l.isInt {
			return l.num, true
		}
		n := l.num
		if p.refs && n >= 0 && n <= math.MaxInt32 {
			if gen, ok := p.refTail(); ok {
				return Ref{int(n), gen}, true
			}
		}
		return clampInt(n), true
	case tString:
		return string(l.str), true
	case tName:
		return Name(l.str), true
	case tArrOpen:
		return p.array(), true
	case tDictOpen:
		return p.dict(), true
	case tKeyword:
		switch string(l.tok) {
		case "true":
			return true, true
		case "false":
			return false, true
		case "null":
			return nil, true
		}
		return keyword(l.tok), true
	case tArrClose:
		return keyword("]"), true
	case tDictClose:
		return keyword(">>"), true
	case tProcOpen:
		return keyword("{"), true
	case tProcClose:
		return keyword("}"), true
	}
	return nil, false
}

func clampInt(f float64) int {
	switch {
	case f > math.MaxInt32:
		return math.MaxInt32
	case f < math.MinInt32:
		return math.MinInt32
	}
	return int(f)
}

// refTail reads "G R" after an object number, or goes back to where it was.
func (p *parser) refTail() (int, bool) {
	l := p.lex
	at := l.at()
	prev := l.hold(at)
	defer func() { l.keep = prev }()
	if l.next() == tNum && l.isInt && l.num >= 0 && l.num <= 65535 {
		gen := int(l.num)
		if l.next() == tKeyword && len(l.tok) == 1 && l.tok[0] == 'R' {
			return gen, true
		}
	}
	l.seek(at)
	return 0, false
}

func (p *parser) nest() {
	if p.depth++; p.depth > maxDepth {
		damaged("arrays or dictionaries nested more than %d deep", maxDepth)
	}
}

// array reads an array's elements after its bracket.
func (p *parser) array() Array {
	p.nest()
	defer func() { p.depth-- }()
	var a Array
	for {
		o, ok := p.object()
		if !ok {
			bad("an array without its end")
		}
		if k, isKw := o.(keyword); isKw {
			if k == "]" {
				return a
			}
			bad("a keyword in an array")
		}
		if len(a) >= maxElements {
			damaged("an array of more than %d elements", maxElements)
		}
		a = append(a, o)
	}
}

// dict reads a dictionary's entries after its brackets. An entry whose key is not a name is
// skipped; a keyword where a value should be ends it (a writer that forgot its >>).
func (p *parser) dict() Dict {
	p.nest()
	defer func() { p.depth-- }()
	d := Dict{}
	l := p.lex
	for {
		switch l.next() {
		case tDictClose:
			return d
		case tEOF:
			bad("a dictionary without its end")
		case tName:
		default:
			continue
		}
		key := Name(l.str)
		at := l.at()
		prev := l.hold(at)
		kind := l.next()
		l.keep = prev
		switch kind {
		case tEOF:
			bad("a dictionary without its end")
		case tDictClose:
			return d
		case tKeyword:
			if s := string(l.tok); s != "true" && s != "false" && s != "null" {
				l.seek(at)
				return d
			}
		}
		v, _ := p.value(kind)
		if _, isKw := v.(keyword); isKw {
			continue
		}
		if len(d) >= maxElements {
			damaged("a dictionary of more than %d entries", maxElements)
		}
		if v != nil {
			d[key] = v
		}
	}
}

// Accessors that answer the zero value for an object of another type.

func dictOf(o Object) Dict {
	d, _ := o.(Dict)
	if d == nil {
		if s, ok := o.(*Stream); ok {
			return s.Dict
		}
	}
	return d
}

func arrayOf(o Object) Array { a, _ := o.(Array); return a }

func nameOf(o Object) Name { n, _ := o.(Name); return n }

func numOf(o Object) (float64, bool) {
	switch v := o.(type) {
	case int:
		return float64(v), true
	case float64:
		return v, true
	}
	return 0, false
}

func intOf(o Object) (int, bool) {
	switch v := o.(type) {
	case int:
		return v, true
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < math.MaxInt32 {
			return int(v), true
		}
	}
	return 0, false
}
