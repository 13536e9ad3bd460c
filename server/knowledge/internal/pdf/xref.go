package pdf

import (
	"bytes"
	"strconv"
)

// readXref reads the cross-reference sections from the one "startxref" names, following
// /Prev to older ones: an object's newest entry wins, and so do the newest trailer's keys.
// A section that does not parse is malformed (the caller repairs the file); a chain that
// loops or an object number past the file's limit is damage.
func (r *Reader) readXref() {
	off := r.startxref()
	seen := map[int64]bool{}
	for first := true; ; first = false {
		if seen[off] {
			damaged("cross-reference sections that loop")
		}
		if len(seen) >= maxSections {
			damaged("more than %d cross-reference sections", maxSections)
		}
		seen[off] = true
		var trailer Dict
		ok := catch(func() { trailer = r.section(off, seen) })
		if !ok {
			if first {
				bad("the cross-reference section")
			}
			// An older section that does not parse: the newer ones stand, and lookups that
			// miss scan the file.
			return
		}
		for k, v := range trailer {
			if _, has := r.trailer[k]; !has {
				if r.trailer == nil {
					r.trailer = Dict{}
				}
				r.trailer[k] = v
			}
		}
		prev, isInt := intOf(trailer["Prev"])
		if !isInt || prev < 0 || int64(prev) >= r.f.size {
			return
		}
		off = int64(prev)
	}
}

// startxref finds the offset the file's last "startxref" names.
func (r *Reader) startxref() int64 {
	size := r.f.size
	tail := make([]byte, min(size, 64<<10))
	tail = tail[:r.f.readAt(tail, size-int64(len(tail)))]
	i := bytes.LastIndex(tail, []byte("startxref"))
	if i < 0 {
		bad("no startxref")
	}
	rest := bytes.TrimLeft(tail[i+len("startxref"):], "\r\n\t\f\x00 ")
	j := 0
	for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
		j++
	}
	off, err := strconv.ParseInt(string(rest[:j]), 10, 64)
	if err != nil || off <= 0 || off >= size {
		bad("a startxref offset outside the file")
	}
	return off
}

// section reads the cross-reference section at off, a table or a stream, and answers its
// trailer (the stream's dictionary).
func (r *Reader) section(off int64, seen map[int64]bool) Dict {
	l := r.lexerAt(off)
	defer r.release(l)
	p := &parser{lex: l, refs: true}
	if l.next() == tKeyword && string(l.tok) == "xref" {
		trailer := r.table(p)
		// A hybrid file: its objects in object streams are listed in a stream beside.
		if at, ok := intOf(trailer["XRefStm"]); ok && at > 0 && int64(at) < r.f.size && !seen[int64(at)] {
			seen[int64(at)] = true
			catch(func() { r.xrefStream(int64(at)) })
		}
		return trailer
	}
	return r.xrefStream(off)
}

// add records an entry unless a newer section had one for the object.
func (r *Reader) add(n int, e entry) {
	if n < 0 || n >= r.limit {
		damaged("object number %d, more than a file of %d bytes holds", n, r.f.size)
	}
	if n >= len(r.xref) {
		if n >= cap(r.xref) {
			grown := make([]entry, n+1, max(2*cap(r.xref), n+1, 64))
			copy(grown, r.xref)
			r.xref = grown
		}
		r.xref = r.xref[:n+1]
	}
	if r.xref[n].kind == 0 {
		r.xref[n] = e
	}
}

// table reads a classic table after its "xref" keyword: subsections of "first count", then
// count lines "offset generation n|f"; then the trailer.
func (r *Reader) table(p *parser) Dict {
	l := p.lex
	for {
		kind := l.next()
		if kind == tKeyword && string(l.tok) == "trailer" {
			if l.next() != tDictOpen {
				bad("a trailer that is not a dictionary")
			}
			return p.dict()
		}
		if kind != tNum {
			bad("a cross-reference table")
		}
		first := l.num
		if l.next() != tNum {
			bad("a cross-reference subsection")
		}
		count := l.num
		if first < 0 || count < 0 || first+count > float64(r.limit) {
			damaged("cross-reference entries past object %d", r.limit)
		}
		for i := range int(count) {
			if l.next() != tNum {
				bad("a cross-reference entry")
			}
			off := int64(l.num)
			if l.next() != tNum {
				bad("a cross-reference entry")
			}
			gen := l.num
			if l.next() != tKeyword || len(l.tok) != 1 {
				bad("a cross-reference entry")
			}
			// Free entries are left out: an older section's entry for the object is as good
			// as none (nothing refers to a freed object), and a hybrid file's objects in
			// object streams are free in its table.
			if l.tok[0] == 'n' && off > 0 {
				r.add(int(first)+i, entry{kind: 1, gen: uint16(gen), off: off})
			}
		}
	}
}

// xrefStream reads a cross-reference stream (PDF 1.5) at off, and answers its dictionary.
func (r *Reader) xrefStream(off int64) Dict {
	l := r.lexerAt(off)
	defer r.release(l)
	if l.next() != tNum {
		bad("a cross-reference stream")
	}
	n := int(l.num)
	if n <= 0 || n >= r.limit {
		bad("a cross-reference stream") // an offset that points elsewhere
	}
	v, found := r.readObject(off, n)
	s, ok := v.(*Stream)
	if !found || !ok {
		bad("a cross-reference stream")
	}
	d := s.Dict
	w := arrayOf(d["W"])
	if len(w) != 3 {
		bad("a cross-reference stream's /W")
	}
	var widths [3]int
	width := 0
	for i := range widths {
		v, ok := intOf(w[i])
		if !ok || v < 0 || v > 8 {
			bad("a cross-reference stream's /W")
		}
		widths[i] = v
		width += v
	}
	if width == 0 {
		bad("a cross-reference stream's /W")
	}
	index := arrayOf(d["Index"])
	if index == nil {
		size, _ := intOf(d["Size"])
		index = Array{0, size}
	}
	data := r.readStream(s)
	for i := 0; i+1 < len(index); i += 2 {
		first, ok1 := intOf(index[i])
		count, ok2 := intOf(index[i+1])
		if !ok1 || !ok2 || first < 0 || count < 0 {
			bad("a cross-reference stream's /Index")
		}
		for j := range count {
			if len(data) < width {
				return d
			}
			r.g.tick()
			var f [3]int64
			for k, wk := range widths {
				for _, c := range data[:wk] {
					f[k] = f[k]<<8 | int64(c)
				}
				data = data[wk:]
			}
			if widths[0] == 0 {
				f[0] = 1
			}
			switch f[0] {
			case 1:
				if f[1] > 0 {
					r.add(first+j, entry{kind: 1, gen: uint16(f[2]), off: f[1]})
				}
			case 2:
				r.add(first+j, entry{kind: 2, off: f[1], idx: int(f[2])})
			}
		}
	}
	return d
}

// repair rebuilds what the cross-reference table would have said from the objects the file
// holds, when its table is missing or does not parse: readers do the same.
func (r *Reader) repair() {
	r.xref = append(r.xref[:0], r.scanTable()...)
	r.cache = map[int]Object{}
	r.stms, r.stmAge, r.stmBytes = map[int]*objStm{}, nil, 0
	if r.trailer["Root"] != nil && r.catalog() != nil {
		return
	}
	r.trailer = r.scanTrailer()
}

// scanTable finds every "n g obj" in the file (the last of each number wins, as updates are
// appended). Done once; the objects in the object streams found are added by scanStreams.
func (r *Reader) scanTable() []entry {
	if r.scanned {
		r.scanStreams()
		return r.scan
	}
	r.scanned = true
	size := r.f.size
	head := make([]byte, 256)
	for at := int64(0); at < size; {
		pos, _ := r.f.index(at, size, "obj")
		if pos < 0 {
			break
		}
		at = pos + 3
		r.g.tick()
		head = head[:r.f.readAt(head[:cap(head)], at)]
		if len(head) > 0 && isRegular(head[0]) {
			continue // endobj, objects
		}
		start, n, gen, ok := r.objHeader(pos)
		if !ok || n <= 0 || n >= r.limit {
			continue
		}
		r.setScan(n, entry{kind: 1, gen: uint16(gen), off: start}, true)
		switch {
		case bytes.Contains(head, []byte("/ObjStm")):
			r.scanStms = append(r.scanStms, n)
		case bytes.Contains(head, []byte("/Catalog")), bytes.Contains(head, []byte("/XRef")):
			r.scanRoots = append(r.scanRoots, n)
		}
	}
	return r.scan
}

func (r *Reader) setScan(n int, e entry, replace bool) {
	for n >= len(r.scan) {
		r.scan = append(r.scan, entry{})
	}
	if replace || r.scan[n].kind == 0 {
		r.scan[n] = e
	}
}

// scanStreams adds to the scanned table the objects held by the object streams found, where
// no object of their number stands on its own. It waits for the file's decryption to be
// known (object streams are encrypted), and is done once.
func (r *Reader) scanStreams() {
	if r.stmsScanned || !r.cryptKnown {
		return
	}
	r.stmsScanned = true
	for _, num := range r.scanStms {
		catch(func() {
			s := r.objStm(num)
			for i, n := range s.nums {
				if n > 0 && n < r.limit {
					r.setScan(n, entry{kind: 2, off: int64(num), idx: i}, false)
				}
			}
		})
	}
}

// objHeader reads back from an "obj" at pos to the "n g" before it.
func (r *Reader) objHeader(pos int64) (start int64, n, gen int, ok bool) {
	from := max(0, pos-24)
	b := make([]byte, pos-from)
	b = b[:r.f.readAt(b, from)]
	i := len(b)
	skip := func(want func(byte) bool) int {
		j := i
		for i > 0 && want(b[i-1]) {
			i--
		}
		return j - i
	}
	isDigit := func(c byte) bool { return c >= '0' && c <= '9' }
	isSpace := func(c byte) bool { return class[c]&clSpace != 0 }
	if skip(isSpace) == 0 {
		return 0, 0, 0, false
	}
	g := i
	if skip(isDigit) == 0 {
		return 0, 0, 0, false
	}
	gen, _ = strconv.Atoi(string(b[i:g]))
	if skip(isSpace) == 0 {
		return 0, 0, 0, false
	}
	e := i
	if skip(isDigit) == 0 || e-i > 7 {
		return 0, 0, 0, false
	}
	n, _ = strconv.Atoi(string(b[i:e]))
	if (i > 0 && isRegular(b[i-1])) || (i == 0 && from > 0) {
		return 0, 0, 0, false
	}
	return from + int64(i), n, gen, true
}

// scanTrailer finds the document's trailer when its table was lost: the last trailer
// dictionary (or cross-reference stream's) naming a catalog, else the last catalog object.
func (r *Reader) scanTrailer() Dict {
	var found Dict
	size := r.f.size
	for at := int64(0); at < size; {
		pos, _ := r.f.index(at, size, "trailer")
		if pos < 0 {
			break
		}
		at = pos + 7
		catch(func() {
			l := r.lexerAt(at)
			defer r.release(l)
			if l.next() == tDictOpen {
				if d := (&parser{lex: l, refs: true}).dict(); d["Root"] != nil {
					found = d
				}
			}
		})
	}
	var fromStream Dict
	catalog := 0
	for _, n := range r.scanRoots {
		catch(func() {
			switch d := dictOf(r.load(Ref{n, 0})); nameOf(d["Type"]) {
			case "XRef":
				if d["Root"] != nil {
					fromStream = d
				}
			case "Catalog":
				catalog = n
			}
		})
	}
	switch {
	case found != nil:
	case fromStream != nil:
		found = fromStream
	case catalog > 0:
		found = Dict{"Root": Ref{catalog, 0}}
	default:
		found = Dict{}
	}
	return found
}
