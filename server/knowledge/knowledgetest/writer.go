package knowledgetest

import (
	"bytes"
	"compress/zlib"
	"crypto/aes"
	"crypto/cipher"
	"crypto/md5"
	"crypto/rc4"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
)

// Writer builds a PDF object by object, for the tests of the PDF reader: classic or stream
// cross-references, object streams, incremental updates, and encryption with an owner
// password only.
type Writer struct {
	objs map[int]wobj
	next int
}

type wobj struct {
	dict   string // a stream's dictionary entries, or the object's body
	data   []byte
	stream bool
}

// NewWriter starts a PDF whose objects are numbered from 1.
func NewWriter() *Writer { return &Writer{objs: map[int]wobj{}, next: 1} }

// Add adds an object of the given body, answering its number.
func (w *Writer) Add(body string) int {
	n := w.next
	w.Set(n, body)
	return n
}

// Set sets object n's body.
func (w *Writer) Set(n int, body string) {
	w.objs[n] = wobj{dict: body}
	w.next = max(w.next, n+1)
}

// AddStream adds a stream object with the given dictionary entries (its /Length is added)
// and data as it is (already encoded by the filters the entries name).
func (w *Writer) AddStream(dict string, data []byte) int {
	n := w.next
	w.SetStream(n, dict, data)
	return n
}

// SetStream sets object n to a stream.
func (w *Writer) SetStream(n int, dict string, data []byte) {
	w.objs[n] = wobj{dict: dict, data: data, stream: true}
	w.next = max(w.next, n+1)
}

// Flate compresses data with zlib, as FlateDecode reads it.
func Flate(data []byte) []byte {
	var b bytes.Buffer
	z := zlib.NewWriter(&b)
	_, _ = z.Write(data)
	_ = z.Close()
	return b.Bytes()
}

// Options say how Write lays out a PDF.
type Options struct {
	// Root is the catalog's object number (1 when 0).
	Root int
	// XrefStream writes a cross-reference stream instead of a table.
	XrefStream bool
	// Packed are the objects put in one object stream (with XrefStream).
	Packed []int
	// Trailer is more trailer entries.
	Trailer string
	// Encrypt encrypts the file with the empty user password and an owner password:
	// "rc4-40", "rc4-128", "aes-128" or "aes-256".
	Encrypt string
	// Version is the header's version (1.7 when empty).
	Version string
}

// Write lays out the PDF.
func (w *Writer) Write(o Options) []byte {
	if o.Root == 0 {
		o.Root = 1
	}
	var enc *encrypter
	nums := make([]int, 0, len(w.objs))
	for n := range w.objs {
		nums = append(nums, n)
	}
	slices.Sort(nums)
	size := w.next
	encNum := 0
	if o.Encrypt != "" {
		enc = newEncrypter(o.Encrypt)
		encNum = size
		size++
	}
	version := o.Version
	if version == "" {
		version = "1.7"
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%%PDF-%s\n%%\xe2\xe3\xcf\xd3\n", version)
	offsets := map[int]int{}
	packed := map[int]bool{}
	for _, n := range o.Packed {
		packed[n] = true
	}
	body := func(n int, ob wobj) string {
		if !ob.stream {
			return ob.dict
		}
		data := ob.data
		if enc != nil {
			data = enc.encrypt(n, data)
		}
		return fmt.Sprintf("<< %s /Length %d >>\nstream\n%s\nendstream", ob.dict, len(data), data)
	}
	for _, n := range nums {
		if packed[n] {
			continue
		}
		offsets[n] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", n, body(n, w.objs[n]))
	}
	if enc != nil {
		offsets[encNum] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", encNum, enc.dict)
	}
	trailer := fmt.Sprintf("/Root %d 0 R %s", o.Root, o.Trailer)
	if enc != nil {
		trailer += fmt.Sprintf(" /Encrypt %d 0 R /ID [<%x> <%x>]", encNum, enc.id, enc.id)
	}
	if !o.XrefStream {
		xref := b.Len()
		fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", size)
		for n := 1; n < size; n++ {
			if off, ok := offsets[n]; ok {
				fmt.Fprintf(&b, "%010d 00000 n \n", off)
			} else {
				b.WriteString("0000000000 65535 f \n")
			}
		}
		fmt.Fprintf(&b, "trailer\n<< /Size %d %s >>\nstartxref\n%d\n%%%%EOF\n", size, trailer, xref)
		return b.Bytes()
	}
	// An object stream of the packed objects, then the cross-reference stream.
	stm := 0
	index := map[int]int{}
	if len(o.Packed) > 0 {
		stm = size
		size++
		var head, objs strings.Builder
		for i, n := range o.Packed {
			fmt.Fprintf(&head, "%d %d ", n, objs.Len())
			objs.WriteString(w.objs[n].dict + "\n")
			index[n] = i
		}
		data := Flate([]byte(head.String() + objs.String()))
		offsets[stm] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", stm, body(stm, wobj{
			dict: fmt.Sprintf("/Type /ObjStm /N %d /First %d /Filter /FlateDecode", len(o.Packed), head.Len()), data: data, stream: true}))
	}
	xrefNum := size
	size++
	offsets[xrefNum] = b.Len()
	var rows bytes.Buffer
	for n := range size {
		switch {
		case packed[n]:
			rows.Write([]byte{2, 0, 0, byte(stm >> 8), byte(stm), byte(index[n])})
		case offsets[n] != 0:
			rows.WriteByte(1)
			rows.Write(binary.BigEndian.AppendUint32(nil, uint32(offsets[n])))
			rows.WriteByte(0)
		default:
			rows.Write([]byte{0, 0, 0, 0, 0, 0})
		}
	}
	// A PNG Up predictor, as writers use on these tables.
	raw := rows.Bytes()
	var pred bytes.Buffer
	prev := make([]byte, 6)
	for i := 0; i < len(raw); i += 6 {
		pred.WriteByte(2)
		for j := range 6 {
			pred.WriteByte(raw[i+j] - prev[j])
		}
		copy(prev, raw[i:i+6])
	}
	data := Flate(pred.Bytes())
	fmt.Fprintf(&b, "%d 0 obj\n<< /Type /XRef /Size %d /W [1 4 1] /Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 6 >> %s /Length %d >>\nstream\n%s\nendstream\nendobj\n",
		xrefNum, size, trailer, len(data), data)
	fmt.Fprintf(&b, "startxref\n%d\n%%%%EOF\n", offsets[xrefNum])
	return b.Bytes()
}

// Update appends an incremental update to a PDF written with a classic table: the objects
// given replace or join the file's, in a section whose /Prev is the file's last one.
func Update(pdf []byte, root int, objects map[int]string) []byte {
	at := bytes.LastIndex(pdf, []byte("startxref"))
	var prev int
	fmt.Sscanf(string(pdf[at+len("startxref"):]), "%d", &prev)
	b := bytes.NewBuffer(slices.Clone(pdf))
	nums := make([]int, 0, len(objects))
	for n := range objects {
		nums = append(nums, n)
	}
	slices.Sort(nums)
	offsets := map[int]int{}
	size := 0
	for _, n := range nums {
		offsets[n] = b.Len()
		fmt.Fprintf(b, "%d 0 obj\n%s\nendobj\n", n, objects[n])
		size = max(size, n+1)
	}
	xref := b.Len()
	b.WriteString("xref\n")
	for _, n := range nums {
		fmt.Fprintf(b, "%d 1\n%010d 00000 n \n", n, offsets[n])
	}
	fmt.Fprintf(b, "trailer\n<< /Size %d /Root %d 0 R /Prev %d >>\nstartxref\n%d\n%%%%EOF\n", size, root, prev, xref)
	return b.Bytes()
}

// encrypter encrypts a file's streams by the standard security handler, with the empty user
// password (ISO 32000-1, 7.6.3; ISO 32000-2, 7.6.4.3.3 for AES-256).
type encrypter struct {
	key  []byte
	aes  bool
	v5   bool
	id   []byte
	dict string
}

var pad = []byte("\x28\xbf\x4e\x5e\x4e\x75\x8a\x41\x64\x00\x4e\x56\xff\xfa\x01\x08\x2e\x2e\x00\xb6\xd0\x68\x3e\x80\x2f\x0c\xa9\xfe\x64\x53\x69\x7a")

func newEncrypter(kind string) *encrypter {
	e := &encrypter{id: []byte("betty-test-id-01")}
	const p = -3904
	if kind == "aes-256" {
		e.v5, e.aes = true, true
		e.key = bytes.Repeat([]byte{0x5a}, 32)
		vsalt, ksalt := []byte("vsalt-01"), []byte("ksalt-01")
		u := append(append(sha2B(vsalt), vsalt...), ksalt...)
		block, _ := aes.NewCipher(sha2B(ksalt))
		ue := make([]byte, 32)
		cipher.NewCBCEncrypter(block, make([]byte, 16)).CryptBlocks(ue, e.key)
		o := bytes.Repeat([]byte{0x33}, 48) // the owner's entries: the reader needs none
		e.dict = fmt.Sprintf("<< /Filter /Standard /V 5 /R 6 /Length 256 /P %d /O <%x> /U <%x> /OE <%x> /UE <%x> /Perms <%x> "+
			"/CF << /StdCF << /CFM /AESV3 /AuthEvent /DocOpen /Length 32 >> >> /StmF /StdCF /StrF /StdCF >>",
			p, o, u, o[:32], ue, o[:16])
		return e
	}
	rev, n := 3, 16
	switch kind {
	case "rc4-40":
		rev, n = 2, 5
	case "aes-128":
		rev, e.aes = 4, true
	}
	// The owner entry: the user's padded (empty) password encrypted with the owner's key.
	ok := md5.Sum([]byte("owner-secret" + string(pad[:20])))
	okey := ok[:]
	if rev >= 3 {
		for range 50 {
			s := md5.Sum(okey[:n])
			okey = s[:]
		}
	}
	o := slices.Clone(pad)
	for i := range 20 {
		if i > 0 && rev < 3 {
			break
		}
		k := slices.Clone(okey[:n])
		for j := range k {
			k[j] ^= byte(i)
		}
		c, _ := rc4.NewCipher(k)
		c.XORKeyStream(o, o)
	}
	// The file key, from the empty user password.
	h := md5.New()
	h.Write(pad)
	h.Write(o)
	_ = binary.Write(h, binary.LittleEndian, int32(p))
	h.Write(e.id)
	key := h.Sum(nil)
	if rev >= 3 {
		for range 50 {
			s := md5.Sum(key[:n])
			key = s[:]
		}
	}
	e.key = key[:n]
	var u []byte
	if rev == 2 {
		u = make([]byte, 32)
		c, _ := rc4.NewCipher(e.key)
		c.XORKeyStream(u, pad)
	} else {
		s := md5.Sum(append(slices.Clone(pad), e.id...))
		u = s[:]
		for i := range 20 {
			k := slices.Clone(e.key)
			for j := range k {
				k[j] ^= byte(i)
			}
			c, _ := rc4.NewCipher(k)
			c.XORKeyStream(u, u)
		}
		u = append(u, bytes.Repeat([]byte{0}, 16)...)
	}
	switch kind {
	case "rc4-40":
		e.dict = fmt.Sprintf("<< /Filter /Standard /V 1 /R 2 /P %d /O <%x> /U <%x> >>", p, o, u)
	case "rc4-128":
		e.dict = fmt.Sprintf("<< /Filter /Standard /V 2 /R 3 /Length 128 /P %d /O <%x> /U <%x> >>", p, o, u)
	default:
		e.dict = fmt.Sprintf("<< /Filter /Standard /V 4 /R 4 /Length 128 /P %d /O <%x> /U <%x> "+
			"/CF << /StdCF << /CFM /AESV2 /AuthEvent /DocOpen /Length 16 >> >> /StmF /StdCF /StrF /StdCF >>", p, o, u)
	}
	return e
}

// sha2B is ISO 32000-2's hash (algorithm 2.B) of the empty password with a salt.
func sha2B(salt []byte) []byte {
	s := sha256.Sum256(salt)
	k := s[:]
	for i := 0; ; i++ {
		k1 := bytes.Repeat(k, 64)
		block, _ := aes.NewCipher(k[:16])
		e := make([]byte, len(k1))
		cipher.NewCBCEncrypter(block, k[16:32]).CryptBlocks(e, k1)
		var sum int
		for _, c := range e[:16] {
			sum += int(c)
		}
		switch sum % 3 {
		case 0:
			h := sha256.Sum256(e)
			k = h[:]
		case 1:
			h := sha512.Sum384(e)
			k = h[:]
		default:
			h := sha512.Sum512(e)
			k = h[:]
		}
		if i >= 63 && int(e[len(e)-1]) <= i-32 {
			return k[:32]
		}
	}
}

// encrypt encrypts object n's stream data.
func (e *encrypter) encrypt(n int, data []byte) []byte {
	key := e.key
	if !e.v5 {
		h := md5.New()
		h.Write(e.key)
		h.Write([]byte{byte(n), byte(n >> 8), byte(n >> 16), 0, 0})
		if e.aes {
			h.Write([]byte("sAlT"))
		}
		key = h.Sum(nil)[:min(len(e.key)+5, 16)]
	}
	if !e.aes {
		out := make([]byte, len(data))
		c, _ := rc4.NewCipher(key)
		c.XORKeyStream(out, data)
		return out
	}
	padded := slices.Clone(data)
	k := 16 - len(padded)%16
	padded = append(padded, bytes.Repeat([]byte{byte(k)}, k)...)
	iv := []byte("0123456789abcdef")
	block, _ := aes.NewCipher(key)
	out := make([]byte, len(padded))
	cipher.NewCBCEncrypter(block, iv).CryptBlocks(out, padded)
	return append(slices.Clone(iv), out...)
}

// OwnerProtectedPDF is a one-page PDF showing text, encrypted (kind as Options.Encrypt) with
// an owner password only: every reader opens it without a password.
func OwnerProtectedPDF(kind, text string) []byte {
	w := NewWriter()
	w.Add("<< /Type /Catalog /Pages 2 0 R >>")
	w.Add("<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
	w.Add("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>")
	w.AddStream("/Filter /FlateDecode", Flate([]byte(fmt.Sprintf("BT /F1 12 Tf 72 700 Td (%s) Tj ET", escape(text)))))
	w.Add(Font)
	return w.Write(Options{Encrypt: kind})
}
