package pdf

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/md5"
	"crypto/rc4"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/binary"
	"fmt"
	"io"
)

// The standard security handler (ISO 32000-1, 7.6.3; ISO 32000-2, 7.6.4), for files that
// open without a password: those protected by an owner password only, which every reader
// opens for reading.

// padding is the 32 bytes a password shorter than 32 is padded with.
var padding = []byte("\x28\xbf\x4e\x5e\x4e\x75\x8a\x41\x64\x00\x4e\x56\xff\xfa\x01\x08" +
	"\x2e\x2e\x00\xb6\xd0\x68\x3e\x80\x2f\x0c\xa9\xfe\x64\x53\x69\x7a")

type method uint8

const (
	none method = iota
	rc4m
	aesm
)

type crypt struct {
	key         []byte
	r           int    // the handler's revision
	stm, str    method // how streams and strings are encrypted
	v5          bool   // AES-256: one key for every object
	encMetadata bool
}

// openCrypt reads the trailer's /Encrypt dictionary, if any, and works out the file's key
// with the empty user password.
func (r *Reader) openCrypt() {
	defer func() {
		r.cryptKnown = true
		r.stmsScanned = false
		r.cache = map[int]Object{}
		r.stms, r.stmAge, r.stmBytes = map[int]*objStm{}, nil, 0
	}()
	r.crypt = nil
	enc := r.trailer["Encrypt"]
	if enc == nil {
		return
	}
	if ref, ok := enc.(Ref); ok {
		r.encNum = ref.Num
	}
	d := r.dict(enc)
	if d == nil {
		damaged("an /Encrypt entry that is not a dictionary")
	}
	if f := nameOf(r.resolve(d["Filter"])); f != "Standard" {
		panic(stop{fmt.Errorf("%w: the %q security handler", ErrEncrypted, f)})
	}
	var id []byte
	if ids := r.array(r.trailer["ID"]); len(ids) > 0 {
		s, _ := r.resolve(ids[0]).(string)
		id = []byte(s)
	}
	c, err := standard(r, d, id)
	if err != nil {
		panic(stop{err})
	}
	r.crypt = c
}

func (r *Reader) str(o Object) []byte { s, _ := r.resolve(o).(string); return []byte(s) }

// standard works out the key of the standard security handler's dictionary d.
func standard(r *Reader, d Dict, id []byte) (*crypt, error) {
	v, _ := r.int(d["V"])
	rev, _ := r.int(d["R"])
	o, u := r.str(d["O"]), r.str(d["U"])
	p, _ := r.int(d["P"])
	c := &crypt{r: rev, stm: rc4m, str: rc4m, encMetadata: true}
	if b, ok := r.resolve(d["EncryptMetadata"]).(bool); ok {
		c.encMetadata = b
	}
	unsupported := func(what string) error { return fmt.Errorf("%w: %s", ErrEncrypted, what) }
	length := 40
	switch v {
	case 1:
	case 2:
		if n, ok := r.int(d["Length"]); ok {
			length = n
		}
	case 4:
		length = 128
		c.stm = r.cryptFilter(d, "StmF")
		c.str = r.cryptFilter(d, "StrF")
		if c.stm == 255 || c.str == 255 {
			return nil, unsupported("an unknown crypt filter")
		}
	case 5:
		c.stm = r.cryptFilter(d, "StmF")
		c.str = r.cryptFilter(d, "StrF")
		c.v5 = true
	default:
		return nil, unsupported(fmt.Sprintf("version %d of the standard handler", v))
	}
	if c.v5 {
		if rev != 5 && rev != 6 {
			return nil, unsupported(fmt.Sprintf("revision %d of the standard handler", rev))
		}
		key, ok := aes256Key(rev, u, r.str(d["UE"]))
		if !ok {
			return nil, ErrInvalidPassword
		}
		c.key = key
		return c, nil
	}
	if rev < 2 || rev > 4 || length < 40 || length > 128 || length%8 != 0 || len(o) < 32 || len(u) < 32 {
		return nil, unsupported(fmt.Sprintf("revision %d with a %d-bit key", rev, length))
	}
	// Algorithm 2: the key from the (empty) user password.
	h := md5.New()
	h.Write(padding)
	h.Write(o[:32])
	binary.Write(h, binary.LittleEndian, int32(p))
	h.Write(id)
	if rev >= 4 && !c.encMetadata {
		h.Write([]byte{0xff, 0xff, 0xff, 0xff})
	}
	key := h.Sum(nil)
	n := length / 8
	if rev == 2 {
		n = 5
	}
	if rev >= 3 {
		for range 50 {
			sum := md5.Sum(key[:n])
			key = sum[:]
		}
	}
	key = key[:n]
	// Algorithms 4 and 5: the key is right when it encrypts to /U.
	var check []byte
	if rev == 2 {
		check = make([]byte, 32)
		rc4Cipher(key).XORKeyStream(check, padding)
		if !bytes.Equal(check, u[:32]) {
			return nil, ErrInvalidPassword
		}
	} else {
		sum := md5.Sum(append(append([]byte{}, padding...), id...))
		check = sum[:]
		for i := range 20 {
			k := make([]byte, len(key))
			for j := range key {
				k[j] = key[j] ^ byte(i)
			}
			rc4Cipher(k).XORKeyStream(check, check)
		}
		if !bytes.Equal(check, u[:16]) {
			return nil, ErrInvalidPassword
		}
	}
	c.key = key
	return c, nil
}

// cryptFilter answers the method of the crypt filter that d's entry names (255: unknown).
func (r *Reader) cryptFilter(d Dict, entry Name) method {
	name := nameOf(r.resolve(d[entry]))
	if name == "" || name == "Identity" {
		return none
	}
	cf := r.dict(r.dict(d["CF"])[name])
	switch nameOf(r.resolve(cf["CFM"])) {
	case "V2":
		return rc4m
	case "AESV2", "AESV3":
		return aesm
	case "None":
		return none
	}
	return 255
}

func rc4Cipher(key []byte) *rc4.Cipher {
	c, err := rc4.NewCipher(key)
	if err != nil {
		bad("an RC4 key")
	}
	return c
}

// aes256Key checks the empty user password against /U (revision 5: SHA-256; 6: the hash of
// ISO 32000-2, algorithm 2.B) and decrypts the file key from /UE.
func aes256Key(rev int, u, ue []byte) ([]byte, bool) {
	if len(u) < 48 || len(ue) < 32 {
		return nil, false
	}
	hash := func(salt []byte) []byte {
		if rev == 5 {
			s := sha256.Sum256(salt)
			return s[:]
		}
		return hash2B(nil, salt, nil)
	}
	if !bytes.Equal(hash(u[32:40]), u[:32]) {
		return nil, false
	}
	block, err := aes.NewCipher(hash(u[40:48]))
	if err != nil {
		return nil, false
	}
	key := make([]byte, 32)
	cipher.NewCBCDecrypter(block, make([]byte, 16)).CryptBlocks(key, ue[:32])
	return key, true
}

// hash2B is ISO 32000-2's algorithm 2.B: SHA-256, then rounds of AES-128 and SHA-2 until at
// least 64 rounds are done and the last byte of the round's data allows stopping.
func hash2B(password, salt, udata []byte) []byte {
	k0 := sha256.Sum256(append(append(append([]byte{}, password...), salt...), udata...))
	k := k0[:]
	for round := 0; ; round++ {
		unit := append(append(append([]byte{}, password...), k...), udata...)
		k1 := bytes.Repeat(unit, 64)
		block, _ := aes.NewCipher(k[:16])
		e := make([]byte, len(k1))
		cipher.NewCBCEncrypter(block, k[16:32]).CryptBlocks(e, k1)
		sum := 0
		for _, b := range e[:16] {
			sum += int(b)
		}
		switch sum % 3 {
		case 0:
			s := sha256.Sum256(e)
			k = s[:]
		case 1:
			s := sha512.Sum384(e)
			k = s[:]
		case 2:
			s := sha512.Sum512(e)
			k = s[:]
		}
		if round >= 63 && int(e[len(e)-1]) <= round-32 {
			return k[:32]
		}
	}
}

// objectKey is the key of object n's strings and streams (algorithm 1).
func (c *crypt) objectKey(n, gen int, m method) []byte {
	if c.v5 {
		return c.key
	}
	h := md5.New()
	h.Write(c.key)
	h.Write([]byte{byte(n), byte(n >> 8), byte(n >> 16), byte(gen), byte(gen >> 8)})
	if m == aesm {
		h.Write([]byte("sAlT"))
	}
	return h.Sum(nil)[:min(len(c.key)+5, 16)]
}

func (c *crypt) decrypt(data []byte, n, gen int, m method) []byte {
	switch m {
	case rc4m:
		out := make([]byte, len(data))
		rc4Cipher(c.objectKey(n, gen, m)).XORKeyStream(out, data)
		return out
	case aesm:
		return aesDecrypt(c.objectKey(n, gen, m), data)
	}
	return data
}

// aesDecrypt decrypts AES-CBC data whose first block is the IV, dropping its padding.
func aesDecrypt(key, data []byte) []byte {
	if len(data) < 32 || len(data)%16 != 0 {
		return nil
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil
	}
	out := make([]byte, len(data)-16)
	cipher.NewCBCDecrypter(block, data[:16]).CryptBlocks(out, data[16:])
	if pad := int(out[len(out)-1]); pad >= 1 && pad <= 16 {
		out = out[:len(out)-pad]
	}
	return out
}

// strings decrypts the strings of object n.
func (c *crypt) strings(o Object, n, gen int) Object {
	if c.str == none {
		return o
	}
	switch v := o.(type) {
	case string:
		return string(c.decrypt([]byte(v), n, gen, c.str))
	case Array:
		for i, e := range v {
			v[i] = c.strings(e, n, gen)
		}
	case Dict:
		for k, e := range v {
			v[k] = c.strings(e, n, gen)
		}
	case *Stream:
		c.strings(v.Dict, n, gen)
	}
	return o
}

// stream decrypts a stream's raw data, unless it is not encrypted: a cross-reference stream,
// metadata the dictionary leaves in the clear, or a stream whose own crypt filter is Identity.
func (c *crypt) stream(rd io.Reader, s *Stream, filters []Name, params []Dict) io.Reader {
	if nameOf(s.Dict["Type"]) == "XRef" || (!c.encMetadata && nameOf(s.Dict["Type"]) == "Metadata") {
		return rd
	}
	m := c.stm
	for i, f := range filters {
		if f == "Crypt" {
			if name := nameOf(params[i]["Name"]); name == "" || name == "Identity" {
				return rd
			}
		}
	}
	switch m {
	case rc4m:
		return &cipher.StreamReader{S: rc4Cipher(c.objectKey(s.ref.Num, s.ref.Gen, m)), R: rd}
	case aesm:
		raw, _ := io.ReadAll(io.LimitReader(rd, MaxStream))
		return bytes.NewReader(aesDecrypt(c.objectKey(s.ref.Num, s.ref.Gen, m), raw))
	}
	return rd
}
