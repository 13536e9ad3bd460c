package pdf

import (
	"bufio"
	"compress/flate"
	"errors"
	"io"
)

// errImage is a stream whose data is an image (JPEG, JPEG 2000, fax, JBIG2): not text.
var errImage = errors.New("pdf: image data")

// openStream answers a reader of a stream's decoded data, counted against the budgets of one
// stream and of the file; errImage for image data, and an empty reader for a filter it does
// not know.
func (r *Reader) openStream(s *Stream) (io.Reader, error) {
	var rd io.Reader = &section{f: r.f, off: s.off, end: s.off + s.len}
	filters, params := r.filters(s.Dict)
	if r.crypt != nil {
		rd = r.crypt.stream(rd, s, filters, params)
	}
	for i, f := range filters {
		var err error
		if rd, err = r.decoder(rd, f, params[i]); err != nil {
			return nil, err
		}
		if i < len(filters)-1 {
			// A filter's output feeding another is bounded too: a bomb under a filter that
			// keeps nothing of it must not inflate unseen.
			rd = &counted{r: rd, g: r.g, inner: true}
		}
	}
	return &counted{r: rd, g: r.g}, nil
}

// filters answers a stream's filter names and their parameters (a nil Dict for none).
func (r *Reader) filters(d Dict) ([]Name, []Dict) {
	var names []Name
	var params []Dict
	switch f := r.resolve(d["Filter"]).(type) {
	case Name:
		names = []Name{f}
	case Array:
		if len(f) > maxFilters {
			bad("too many filters")
		}
		for _, n := range f {
			names = append(names, nameOf(r.resolve(n)))
		}
	}
	ps := r.resolve(d["DecodeParms"])
	if ps == nil {
		ps = r.resolve(d["DP"])
	}
	for i := range names {
		var p Dict
		switch v := ps.(type) {
		case Dict:
			if i == 0 {
				p = v
			}
		case Array:
			if i < len(v) {
				p = r.dict(v[i])
			}
		}
		params = append(params, p)
	}
	return names, params
}

// decoder wraps rd in the decoder of filter f.
func (r *Reader) decoder(rd io.Reader, f Name, p Dict) (io.Reader, error) {
	switch f {
	case "FlateDecode", "Fl":
		return r.predictor(newInflater(rd), p), nil
	case "LZWDecode", "LZW":
		early := 1
		if v, ok := r.int(p["EarlyChange"]); ok {
			early = v
		}
		return r.predictor(newLZW(rd, early != 0), p), nil
	case "ASCII85Decode", "A85":
		return newASCII85(rd), nil
	case "ASCIIHexDecode", "AHx":
		return newASCIIHex(rd), nil
	case "RunLengthDecode", "RL":
		return newRunLength(rd), nil
	case "Crypt":
		return rd, nil // the crypt filter was applied with the stream's decryption
	case "DCTDecode", "DCT", "JPXDecode", "CCITTFaxDecode", "CCF", "JBIG2Decode":
		return nil, errImage
	}
	return eofReader{}, nil
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// readStream answers all of a stream's decoded data (nil for image data).
func (r *Reader) readStream(s *Stream) []byte {
	rd, err := r.openStream(s)
	if err != nil {
		return nil
	}
	var b []byte
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := rd.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			return b
		}
	}
}

// counted counts what a stream decodes to: past MaxStream, or past the file's MaxInflated,
// the file is damaged. A decoder's error ends the stream: the data before it is kept, as
// readers keep what a truncated stream holds.
type counted struct {
	r     io.Reader
	g     *guard
	n     int64
	inner bool // the output of a filter that another decodes: counted against MaxStream only
}

func (c *counted) Read(p []byte) (int, error) {
	if c.r == nil {
		return 0, io.EOF
	}
	n, err := c.r.Read(p)
	if c.n += int64(n); c.n > MaxStream {
		damaged("a stream decoding to more than %d MiB", MaxStream>>20)
	}
	if c.inner {
		c.g.tickN(n >> 10)
	} else {
		c.g.inflate(n)
	}
	if err != nil {
		c.r = nil
		if n == 0 {
			return 0, io.EOF
		}
	}
	return n, nil
}

// inflater reads zlib data (FlateDecode), or raw deflate data when the zlib header is
// missing, as some writers leave it out. The checksum is not checked: a truncated stream
// gives what it holds.
type inflater struct {
	src  *bufio.Reader
	fl   io.Reader
	init bool
}

func newInflater(rd io.Reader) io.Reader { return &inflater{src: bufio.NewReaderSize(rd, 4096)} }

func (z *inflater) Read(p []byte) (int, error) {
	if !z.init {
		z.init = true
		if h, err := z.src.Peek(2); err == nil && h[0]&0x0f == 8 && (uint(h[0])<<8|uint(h[1]))%31 == 0 {
			z.src.Discard(2)
			if h[1]&0x20 != 0 {
				z.src.Discard(4) // a preset dictionary's id: PDF has none to give
			}
		}
		z.fl = flate.NewReader(z.src)
	}
	return z.fl.Read(p)
}

// predictor undoes a PNG or TIFF predictor (Predictor 2, 10–15) named by a filter's
// parameters.
func (r *Reader) predictor(rd io.Reader, p Dict) io.Reader {
	pred, _ := r.int(p["Predictor"])
	if pred < 2 {
		return rd
	}
	colors, bpc, columns := 1, 8, 1
	if v, ok := r.int(p["Colors"]); ok && v >= 1 && v <= 32 {
		colors = v
	}
	if v, ok := r.int(p["BitsPerComponent"]); ok && (v == 1 || v == 2 || v == 4 || v == 8 || v == 16) {
		bpc = v
	}
	if v, ok := r.int(p["Columns"]); ok && v >= 1 && v <= 1<<20 {
		columns = v
	}
	bpp := max(1, colors*bpc/8)
	row := (colors*bpc*columns + 7) / 8
	return &unpredict{src: rd, tiff: pred == 2, bpp: bpp, bpc: bpc, colors: colors,
		prev: make([]byte, row), cur: make([]byte, row+1)}
}

type unpredict struct {
	src         io.Reader
	tiff        bool
	bpp         int
	bpc, colors int
	prev, cur   []byte
	out         []byte // decoded bytes not yet read
	err         error
}

func (u *unpredict) Read(p []byte) (int, error) {
	for len(u.out) == 0 {
		if u.err != nil {
			return 0, u.err
		}
		u.row()
	}
	n := copy(p, u.out)
	u.out = u.out[n:]
	return n, nil
}

// row decodes one row of samples.
func (u *unpredict) row() {
	in := u.cur
	if u.tiff {
		in = u.cur[1:]
	}
	n, err := io.ReadFull(u.src, in)
	if err != nil {
		u.err = io.EOF
		if n == 0 || (!u.tiff && n == 1) {
			return
		}
		clear(in[n:])
	}
	if u.tiff {
		u.tiffRow(in)
		u.out = in
		return
	}
	kind, row := in[0], in[1:]
	bpp := u.bpp
	switch kind {
	case 1: // Sub
		for i := bpp; i < len(row); i++ {
			row[i] += row[i-bpp]
		}
	case 2: // Up
		for i := range row {
			row[i] += u.prev[i]
		}
	case 3: // Average
		for i := range row {
			left := 0
			if i >= bpp {
				left = int(row[i-bpp])
			}
			row[i] += byte((left + int(u.prev[i])) / 2)
		}
	case 4: // Paeth
		for i := range row {
			var a, c int
			if i >= bpp {
				a, c = int(row[i-bpp]), int(u.prev[i-bpp])
			}
			row[i] += paeth(a, int(u.prev[i]), c)
		}
	}
	copy(u.prev, row)
	u.out = row
}

func paeth(a, b, c int) byte {
	p := a + b - c
	pa, pb, pc := abs(p-a), abs(p-b), abs(p-c)
	switch {
	case pa <= pb && pa <= pc:
		return byte(a)
	case pb <= pc:
		return byte(b)
	}
	return byte(c)
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// tiffRow undoes TIFF predictor 2: each sample is the difference from the one before it
// of the same colour.
func (u *unpredict) tiffRow(row []byte) {
	switch u.bpc {
	case 8:
		for i := u.colors; i < len(row); i++ {
			row[i] += row[i-u.colors]
		}
	case 16:
		step := 2 * u.colors
		for i := step; i+1 < len(row); i += 2 {
			v := (uint16(row[i])<<8 | uint16(row[i+1])) + (uint16(row[i-step])<<8 | uint16(row[i-step+1]))
			row[i], row[i+1] = byte(v>>8), byte(v)
		}
	default: // 1, 2 or 4 bits a sample
		bits := u.bpc
		mask := 1<<bits - 1
		samples := len(row) * 8 / bits
		get := func(k int) int { return int(row[k*bits/8]>>(8-bits-(k*bits%8))) & mask }
		set := func(k, v int) {
			shift := 8 - bits - (k * bits % 8)
			row[k*bits/8] = row[k*bits/8]&^byte(mask<<shift) | byte((v&mask)<<shift)
		}
		for k := u.colors; k < samples; k++ {
			set(k, get(k)+get(k-u.colors))
		}
	}
}

// lzw decodes LZWDecode data: codes of 9 to 12 bits, most significant bit first, 256 clears
// the table and 257 ends the data; with early change (the default) the code width grows one
// code sooner than the table needs.
type lzw struct {
	src   *bufio.Reader
	early bool
	bits  uint32 // bits read, not yet used
	nbits uint
	width uint
	table [][]byte // entries from 258 on
	prev  []byte
	out   []byte
	done  bool
}

func newLZW(rd io.Reader, early bool) io.Reader {
	return &lzw{src: bufio.NewReaderSize(rd, 4096), early: early, width: 9}
}

func (z *lzw) code() (int, bool) {
	for z.nbits < z.width {
		c, err := z.src.ReadByte()
		if err != nil {
			return 0, false
		}
		z.bits = z.bits<<8 | uint32(c)
		z.nbits += 8
	}
	z.nbits -= z.width
	return int(z.bits>>z.nbits) & (1<<z.width - 1), true
}

func (z *lzw) Read(p []byte) (int, error) {
	for len(z.out) == 0 {
		if z.done {
			return 0, io.EOF
		}
		z.step()
	}
	n := copy(p, z.out)
	z.out = z.out[n:]
	return n, nil
}

func (z *lzw) step() {
	c, ok := z.code()
	if !ok || c == 257 {
		z.done = true
		return
	}
	if c == 256 {
		z.table, z.prev, z.width = z.table[:0], nil, 9
		return
	}
	var entry []byte
	switch {
	case c < 256:
		entry = []byte{byte(c)}
	case c-258 < len(z.table):
		entry = z.table[c-258]
	case c-258 == len(z.table) && z.prev != nil:
		entry = append(append([]byte{}, z.prev...), z.prev[0])
	default:
		z.done = true // a code the table does not hold yet: the data is broken
		return
	}
	if z.prev != nil && len(z.table) < 4096-258 {
		z.table = append(z.table, append(append(make([]byte, 0, len(z.prev)+1), z.prev...), entry[0]))
	}
	z.prev = entry
	next := len(z.table) + 258
	if z.early {
		next++
	}
	switch {
	case next >= 2048:
		z.width = 12
	case next >= 1024:
		z.width = 11
	case next >= 512:
		z.width = 10
	}
	z.out = entry
}

// ascii85 decodes ASCII85Decode data, up to its ~> end.
type ascii85 struct {
	src  *bufio.Reader
	out  [4]byte
	buf  []byte
	done bool
}

func newASCII85(rd io.Reader) io.Reader { return &ascii85{src: bufio.NewReaderSize(rd, 4096)} }

func (a *ascii85) Read(p []byte) (int, error) {
	for len(a.buf) == 0 {
		if a.done {
			return 0, io.EOF
		}
		a.group()
	}
	n := copy(p, a.buf)
	a.buf = a.buf[n:]
	return n, nil
}

// group decodes the next group of five characters (or z) into up to four bytes.
func (a *ascii85) group() {
	var v uint32
	n := 0
	for n < 5 {
		c, err := a.src.ReadByte()
		if err != nil || c == '~' {
			a.done = true
			break
		}
		switch {
		case c == 'z' && n == 0:
			a.out = [4]byte{}
			a.buf = a.out[:]
			return
		case c >= '!' && c <= 'u':
			v = v*85 + uint32(c-'!')
			n++
		}
	}
	if n == 0 {
		return
	}
	got := n - 1
	for k := n; k < 5; k++ {
		v = v*85 + 84 // pad with u
	}
	a.out = [4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}
	if n == 5 {
		got = 4
	}
	a.buf = a.out[:got]
}

// asciiHex decodes ASCIIHexDecode data, up to its > end.
type asciiHex struct {
	src  *bufio.Reader
	done bool
}

func newASCIIHex(rd io.Reader) io.Reader { return &asciiHex{src: bufio.NewReaderSize(rd, 4096)} }

func (h *asciiHex) Read(p []byte) (int, error) {
	n := 0
	var hi byte
	half := false
	for n < len(p) && !h.done {
		c, err := h.src.ReadByte()
		if err != nil || c == '>' {
			h.done = true
			break
		}
		if class[c]&clHex == 0 {
			continue
		}
		if !half {
			hi, half = unhex(c), true
			continue
		}
		p[n] = hi<<4 | unhex(c)
		n++
		half = false
	}
	if half {
		// An odd last digit is followed by 0; mid-read, the digit waits for its pair.
		if h.done {
			p[n] = hi << 4
			n++
		} else {
			h.src.UnreadByte()
		}
	}
	if n == 0 && h.done {
		return 0, io.EOF
	}
	return n, nil
}

// runLength decodes RunLengthDecode data: a length byte 0–127 copies that many plus one bytes,
// 129–255 repeats the next byte 257 minus it times, 128 ends.
type runLength struct {
	src  *bufio.Reader
	buf  [128]byte
	out  []byte
	done bool
}

func newRunLength(rd io.Reader) io.Reader { return &runLength{src: bufio.NewReaderSize(rd, 4096)} }

func (r *runLength) Read(p []byte) (int, error) {
	for len(r.out) == 0 {
		if r.done {
			return 0, io.EOF
		}
		n, err := r.src.ReadByte()
		switch {
		case err != nil || n == 128:
			r.done = true
		case n < 128:
			k, _ := io.ReadFull(r.src, r.buf[:int(n)+1])
			r.out = r.buf[:k]
			if k < int(n)+1 {
				r.done = true
			}
		default:
			c, err := r.src.ReadByte()
			if err != nil {
				r.done = true
				break
			}
			k := 257 - int(n)
			for i := range k {
				r.buf[i] = c
			}
			r.out = r.buf[:k]
		}
	}
	n := copy(p, r.out)
	r.out = r.out[n:]
	return n, nil
}
