package pdf

import (
	"bytes"
	"context"
	"io"
)

// Reader reads a PDF file's objects, as they are needed: the cross-reference table says
// where each one is, and each is parsed once and kept.
type Reader struct {
	g        *guard
	f        *file
	limit    int     // the highest object number the file may use, plus one
	xref     []entry // by object number
	trailer  Dict
	cache    map[int]Object
	loading  map[int]bool // objects being read: one needed to read itself is a cycle
	stms     map[int]*objStm
	stmAge   []int
	stmBytes int
	// The objects found by scanning the file, once a lookup needed it: where each is, the
	// object streams and the catalogs or cross-reference streams among them.
	scan                 []entry
	scanStms, scanRoots  []int
	scanned, stmsScanned bool
	cryptKnown           bool
	crypt                *crypt
	encNum               int // the object number of the /Encrypt dictionary, never decrypted
	fonts                map[Ref]*font
	lexers               []*lexer // spare lexers for the file's objects
	// Searches for the end of a stream found none from these positions on.
	noEndstream, noEndobj int64
}

// entry is where the cross-reference table says an object is.
type entry struct {
	kind uint8 // 0: nowhere; 1: at off; 2: in object stream off, at index idx
	gen  uint16
	off  int64
	idx  int
}

// NewReader opens a PDF file of size bytes. It reads the file's cross-reference table (or
// rebuilds it when it is missing or wrong) and, for an encrypted file, checks that it opens
// without a password. Reading stops when ctx ends, answering context.Cause(ctx).
func NewReader(ctx context.Context, ra io.ReaderAt, size int64) (r *Reader, err error) {
	g := &guard{ctx: ctx}
	defer func() {
		recovered(g, recover(), &err)
		if err != nil {
			r = nil
		}
	}()
	g.check()
	r = &Reader{g: g, f: newFile(g, ra, size), limit: objectLimit(size), cache: map[int]Object{},
		loading: map[int]bool{}, stms: map[int]*objStm{}, fonts: map[Ref]*font{},
		noEndstream: size, noEndobj: size}
	r.header()
	if !catch(r.readXref) || r.trailer["Root"] == nil {
		r.repair()
	}
	r.openCrypt()
	if r.catalog() == nil && !r.scanned {
		r.repair()
		r.openCrypt()
	}
	if r.catalog() == nil {
		damaged("no document catalog")
	}
	return r, nil
}

// header checks that the file starts as a PDF (within its first KiB, as readers allow).
func (r *Reader) header() {
	head := make([]byte, min(1024, r.f.size))
	head = head[:r.f.readAt(head, 0)]
	if !bytes.Contains(head, []byte("%PDF-")) {
		damaged("no PDF header")
	}
}

func (r *Reader) catalog() Dict {
	var d Dict
	catch(func() { d = dictOf(r.resolve(r.trailer["Root"])) })
	return d
}

// resolve answers the object a reference is to, and any other object as it is.
func (r *Reader) resolve(o Object) Object {
	ref, isRef := o.(Ref)
	for hops := 0; isRef; hops++ {
		if hops == 32 {
			damaged("references that lead to one another")
		}
		o = r.load(ref)
		ref, isRef = o.(Ref)
	}
	return o
}

// dict resolves o and answers it as a dictionary (a stream's), or nil.
func (r *Reader) dict(o Object) Dict { return dictOf(r.resolve(o)) }

func (r *Reader) array(o Object) Array { return arrayOf(r.resolve(o)) }

func (r *Reader) num(o Object) (float64, bool) { return numOf(r.resolve(o)) }

func (r *Reader) int(o Object) (int, bool) { return intOf(r.resolve(o)) }

// load answers object n of the file: nil when the file has none (a reference to a missing
// object is to null).
func (r *Reader) load(ref Ref) Object {
	n := ref.Num
	if n <= 0 || n >= r.limit {
		return nil
	}
	if v, ok := r.cache[n]; ok {
		return v
	}
	if r.loading[n] {
		damaged("object %d is needed to read itself", n)
	}
	r.loading[n] = true
	defer delete(r.loading, n)
	r.g.tick()
	var v Object
	found := false
	if n < len(r.xref) {
		v, found = r.loadEntry(r.xref[n], n)
	}
	if !found {
		if scan := r.scanTable(); n < len(scan) && (n >= len(r.xref) || scan[n] != r.xref[n]) {
			v, _ = r.loadEntry(scan[n], n)
		}
	}
	r.cache[n] = v
	return v
}

func (r *Reader) loadEntry(e entry, n int) (v Object, found bool) {
	catch(func() {
		switch e.kind {
		case 1:
			v, found = r.readObject(e.off, n)
		case 2:
			v, found = r.fromStream(int(e.off), e.idx, n)
		}
	})
	return v, found
}

func (r *Reader) lexerAt(off int64) *lexer {
	var l *lexer
	if k := len(r.lexers); k > 0 {
		l, r.lexers = r.lexers[k-1], r.lexers[:k-1]
	} else {
		l = &lexer{g: r.g, keep: -1}
	}
	l.reset(&section{f: r.f, off: off, end: r.f.size}, off)
	return l
}

func (r *Reader) release(l *lexer) {
	if cap(l.buf) <= 64<<10 && len(r.lexers) < 8 {
		r.lexers = append(r.lexers, l)
	}
}

// readObject reads "n g obj … endobj" at off; found is false when another object is there.
func (r *Reader) readObject(off int64, n int) (Object, bool) {
	l := r.lexerAt(off)
	defer r.release(l)
	p := &parser{lex: l, refs: true}
	if l.next() != tNum || int(l.num) != n || l.next() != tNum {
		return nil, false
	}
	gen := int(l.num)
	if l.next() != tKeyword || string(l.tok) != "obj" {
		return nil, false
	}
	v, _ := p.object()
	if _, isKw := v.(keyword); isKw {
		return nil, true
	}
	at := l.at()
	if d, isDict := v.(Dict); isDict && l.next() == tKeyword && string(l.tok) == "stream" {
		l.skipEOL()
		s := &Stream{Dict: d, ref: Ref{n, gen}, off: l.at()}
		s.len = r.streamLength(s)
		v = s
	} else {
		l.seek(at)
	}
	if r.crypt != nil && n != r.encNum {
		v = r.crypt.strings(v, n, gen)
	}
	return v, true
}

// streamLength answers how long a stream's data is: its /Length when "endstream" follows
// it, else up to the next "endstream" (or "endobj", or the end of the file), as readers do
// for files whose lengths are wrong.
func (r *Reader) streamLength(s *Stream) int64 {
	size := r.f.size
	if n, ok := r.int(s.Dict["Length"]); ok && n >= 0 && s.off+int64(n) <= size {
		tail := make([]byte, 32)
		tail = tail[:r.f.readAt(tail, s.off+int64(n))]
		if bytes.HasPrefix(bytes.TrimLeft(tail, "\r\n\t\f\x00 "), []byte("endstream")) {
			return int64(n)
		}
	}
	end := int64(-1)
	if s.off < r.noEndstream {
		if end, _ = r.f.index(s.off, size, "endstream"); end < 0 {
			r.noEndstream = s.off
		}
	}
	if end < 0 && s.off < r.noEndobj {
		if end, _ = r.f.index(s.off, size, "endobj"); end < 0 {
			r.noEndobj = s.off
		}
	}
	if end < 0 {
		return size - s.off
	}
	// The end of line before the keyword is not data.
	tail := make([]byte, 2)
	if end-s.off >= 2 {
		r.f.readAt(tail, end-2)
		switch {
		case tail[0] == '\r' && tail[1] == '\n':
			end -= 2
		case tail[1] == '\n' || tail[1] == '\r':
			end--
		}
	}
	return max(end-s.off, 0)
}

// objStm is a decoded object stream: the objects it holds, by number and offset.
type objStm struct {
	data  []byte
	first int
	nums  []int
	offs  []int
}

// maxStmCache bounds the bytes of the decoded object streams kept (writers make them small:
// a few hundred objects each); the newest is kept whatever its size.
const maxStmCache = 16 << 20

func (r *Reader) objStm(num int) *objStm {
	if s, ok := r.stms[num]; ok {
		return s
	}
	s, ok := r.load(Ref{num, 0}).(*Stream)
	if !ok {
		bad("an object stream that is not a stream")
	}
	// A chain of object streams that extend one another must end.
	seen := map[int]bool{num: true}
	for ext := s.Dict["Extends"]; ext != nil; {
		ref, isRef := ext.(Ref)
		if !isRef {
			break
		}
		if seen[ref.Num] || len(seen) > maxSections {
			damaged("object streams that extend one another in a loop")
		}
		seen[ref.Num] = true
		ext = r.dict(ref)["Extends"]
	}
	n, _ := r.int(s.Dict["N"])
	first, _ := r.int(s.Dict["First"])
	data := r.readStream(s)
	if n < 0 || n > maxElements || first < 0 || first > len(data) {
		bad("an object stream's header")
	}
	st := &objStm{data: data, first: first}
	l := newLexer(r.g, data[:first])
	for range n {
		if l.next() != tNum {
			break
		}
		num := int(l.num)
		if l.next() != tNum {
			break
		}
		st.nums = append(st.nums, num)
		st.offs = append(st.offs, int(l.num))
	}
	for len(r.stmAge) > 0 && r.stmBytes+len(data) > maxStmCache {
		r.stmBytes -= len(r.stms[r.stmAge[0]].data)
		delete(r.stms, r.stmAge[0])
		r.stmAge = r.stmAge[1:]
	}
	r.stmBytes += len(data)
	r.stms[num] = st
	r.stmAge = append(r.stmAge, num)
	return st
}

// fromStream reads object n, at index idx of object stream stm.
func (r *Reader) fromStream(stm, idx, n int) (Object, bool) {
	if stm <= 0 || stm >= r.limit {
		return nil, false
	}
	s := r.objStm(stm)
	i := -1
	if idx >= 0 && idx < len(s.nums) && s.nums[idx] == n {
		i = idx
	} else {
		for j, num := range s.nums {
			if num == n {
				i = j
			}
		}
	}
	if i < 0 {
		return nil, false
	}
	off := s.first + s.offs[i]
	if off < s.first || off > len(s.data) {
		return nil, false
	}
	p := &parser{lex: newLexer(r.g, s.data[off:]), refs: true}
	v, _ := p.object()
	if _, isKw := v.(keyword); isKw {
		v = nil
	}
	return v, true
}
