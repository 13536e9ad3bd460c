package pdf

import (
	"bytes"
	"compress/flate"
	"context"
	a85 "encoding/ascii85"
	"encoding/hex"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/knowledge/knowledgetest"
)

func testReader() *Reader {
	return &Reader{g: &guard{ctx: context.Background()}, cache: map[int]Object{}, loading: map[int]bool{}}
}

// decode runs data through a filter with parameters.
func decode(t *testing.T, data []byte, filter Name, params Dict) []byte {
	t.Helper()
	r := testReader()
	rd, err := r.decoder(bytes.NewReader(data), filter, params)
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(&counted{r: rd, g: r.g})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var sample = []byte(strings.Repeat("BT /F1 12 Tf 72 700 Td (The quick brown fox jumps over the lazy dog) Tj ET\n", 40))

func TestFlate(t *testing.T) {
	if got := decode(t, knowledgetest.Flate(sample), "FlateDecode", nil); !bytes.Equal(got, sample) {
		t.Fatalf("zlib: %q", got)
	}
	// Raw deflate, without zlib's header, as some writers write it.
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestSpeed)
	w.Write(sample)
	w.Close()
	if got := decode(t, b.Bytes(), "Fl", nil); !bytes.Equal(got, sample) {
		t.Fatalf("raw deflate: %q", got)
	}
	// Truncated: what it holds is kept.
	z := knowledgetest.Flate(sample)
	if got := decode(t, z[:len(z)/2], "FlateDecode", nil); len(got) == 0 || !bytes.HasPrefix(sample, got) {
		t.Fatalf("truncated: %d bytes", len(got))
	}
}

// pngEncode applies a PNG filter type to rows of width bytes (bpp bytes a pixel).
func pngEncode(data []byte, width, bpp int, kind byte) []byte {
	var out []byte
	prev := make([]byte, width)
	for i := 0; i < len(data); i += width {
		row := data[i : i+width]
		out = append(out, kind)
		for j, c := range row {
			var left, up, ul int
			if j >= bpp {
				left, ul = int(row[j-bpp]), int(prev[j-bpp])
			}
			up = int(prev[j])
			var p byte
			switch kind {
			case 1:
				p = byte(left)
			case 2:
				p = byte(up)
			case 3:
				p = byte((left + up) / 2)
			case 4:
				p = paeth(left, up, ul)
			}
			out = append(out, c-p)
		}
		prev = row
	}
	return out
}

func TestPNGPredictors(t *testing.T) {
	data := make([]byte, 6*50)
	for i := range data {
		data[i] = byte(i*7 + i/6*13)
	}
	for kind := byte(0); kind <= 4; kind++ {
		enc := knowledgetest.Flate(pngEncode(data, 6, 3, kind))
		got := decode(t, enc, "FlateDecode", Dict{"Predictor": 10 + int(kind), "Columns": 2, "Colors": 3})
		if !bytes.Equal(got, data) {
			t.Fatalf("PNG type %d: %v", kind, got[:12])
		}
	}
	// Rows of mixed types, as encoders choose per row (Predictor 15).
	var mixed []byte
	for i := 0; i < len(data); i += 6 {
		kind := byte(i / 6 % 5)
		// Each row is encoded against the one before it.
		prevStart := max(i-6, 0)
		block := pngEncode(data[prevStart:i+6], 6, 3, kind)
		mixed = append(mixed, block[len(block)-7:]...)
		if i == 0 {
			mixed = append(mixed[:0], pngEncode(data[:6], 6, 3, kind)...)
		}
	}
	if got := decode(t, knowledgetest.Flate(mixed), "FlateDecode", Dict{"Predictor": 15, "Columns": 2, "Colors": 3}); !bytes.Equal(got, data) {
		t.Fatal("mixed PNG rows")
	}
}

func TestTIFFPredictor(t *testing.T) {
	data := []byte{10, 20, 30, 15, 25, 35, 20, 30, 40, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	var enc []byte
	for row := 0; row < len(data); row += 9 {
		for i := range 9 {
			if i < 3 {
				enc = append(enc, data[row+i])
			} else {
				enc = append(enc, data[row+i]-data[row+i-3])
			}
		}
	}
	got := decode(t, knowledgetest.Flate(enc), "FlateDecode", Dict{"Predictor": 2, "Columns": 3, "Colors": 3})
	if !bytes.Equal(got, data) {
		t.Fatalf("TIFF 8 bits: %v", got)
	}
	// Four bits a sample, one colour: each nibble the difference from the one before.
	samples := []int{1, 3, 6, 10, 15, 2}
	var packed []byte
	prev := 0
	for i, s := range samples {
		d := (s - prev) & 15
		if i%2 == 0 {
			packed = append(packed, byte(d<<4))
		} else {
			packed[len(packed)-1] |= byte(d)
		}
		prev = s
	}
	got = decode(t, knowledgetest.Flate(packed), "FlateDecode", Dict{"Predictor": 2, "Columns": 6, "BitsPerComponent": 4})
	want := []byte{0x13, 0x6a, 0xf2}
	if !bytes.Equal(got, want) {
		t.Fatalf("TIFF 4 bits: %x, want %x", got, want)
	}
}

// lzwEncode encodes data as LZWDecode does, with or without early change.
func lzwEncode(data []byte, early bool) []byte {
	var out []byte
	var acc uint64
	var nacc uint
	width := uint(9)
	emit := func(code int) {
		acc = acc<<width | uint64(code)
		nacc += width
		for nacc >= 8 {
			out = append(out, byte(acc>>(nacc-8)))
			nacc -= 8
		}
	}
	table := map[string]int{}
	next := 258
	// The decoder's table is one entry behind the encoder's when it reads a code: the width
	// follows the decoder's count.
	grow := func() {
		limit := next - 1
		if early {
			limit++
		}
		switch {
		case limit >= 2048:
			width = 12
		case limit >= 1024:
			width = 11
		case limit >= 512:
			width = 10
		}
	}
	emit(256)
	w := ""
	for _, c := range data {
		wc := w + string(c)
		if _, ok := table[wc]; ok || len(wc) == 1 {
			w = wc
			continue
		}
		if len(w) == 1 {
			emit(int(w[0]))
		} else {
			emit(table[w])
		}
		if next < 4096-1 {
			table[wc] = next
			next++
			grow()
		}
		w = string(c)
	}
	if len(w) == 1 {
		emit(int(w[0]))
	} else if w != "" {
		emit(table[w])
	}
	emit(257)
	if nacc > 0 {
		out = append(out, byte(acc<<(8-nacc)))
	}
	return out
}

// Text varied enough for the codes to grow to 12 bits. (lzwEncode's output, both ways, was
// checked against poppler's pdftotext.)
func TestLZW(t *testing.T) {
	var b strings.Builder
	for i := range 120 {
		b.WriteString(knowledgetest.Lorem(i, 90) + "\n")
	}
	data := []byte(b.String())
	for _, early := range []bool{true, false} {
		enc := lzwEncode(data, early)
		params := Dict{}
		if !early {
			params["EarlyChange"] = 0
		}
		if got := decode(t, enc, "LZWDecode", params); !bytes.Equal(got, data) {
			t.Fatalf("early change %v: %q", early, got[:min(len(got), 80)])
		}
	}
}

func TestASCII85(t *testing.T) {
	data := append([]byte{0, 0, 0, 0}, sample[:101]...)
	enc := make([]byte, a85.MaxEncodedLen(len(data)))
	enc = enc[:a85.Encode(enc, data)]
	// Lines broken, and the end marker.
	var b bytes.Buffer
	for i := 0; i < len(enc); i += 30 {
		b.Write(enc[i:min(i+30, len(enc))])
		b.WriteString("\r\n")
	}
	b.WriteString("~>garbage")
	if got := decode(t, b.Bytes(), "ASCII85Decode", nil); !bytes.Equal(got, data) {
		t.Fatalf("%q", got)
	}
	if !bytes.HasPrefix(enc, []byte("z")) {
		t.Fatal("the sample should start with z")
	}
}

func TestASCIIHex(t *testing.T) {
	data := sample[:33]
	enc := hex.EncodeToString(data)
	spaced := strings.ToUpper(enc[:10]) + " \n " + enc[10:]
	if got := decode(t, []byte(spaced+">ignored"), "ASCIIHexDecode", nil); !bytes.Equal(got, data) {
		t.Fatalf("%q", got)
	}
	// An odd number of digits: the last is followed by 0.
	if got := decode(t, []byte("414>"), "AHx", nil); !bytes.Equal(got, []byte{0x41, 0x40}) {
		t.Fatalf("odd: %x", got)
	}
}

func TestRunLength(t *testing.T) {
	enc := []byte{2, 'a', 'b', 'c', 256 - 4, 'x', 0, 'y', 128, 'z'}
	if got := decode(t, enc, "RunLengthDecode", nil); string(got) != "abcxxxxxy" {
		t.Fatalf("%q", got)
	}
}

// A page whose content is encoded by a chain of filters reads through all of them.
func TestFilterChain(t *testing.T) {
	content := "BT /F1 12 Tf 72 700 Td (Chained filters) Tj ET"
	z := knowledgetest.Flate([]byte(content))
	enc := make([]byte, a85.MaxEncodedLen(len(z)))
	enc = append(enc[:a85.Encode(enc, z)], "~>"...)
	w := onePage("", "", "")
	w.SetStream(4, "/Filter [/ASCII85Decode /FlateDecode]", enc)
	if got := textOf(t, w.Write(knowledgetest.Options{})); got != "Chained filters" {
		t.Fatalf("%q", got)
	}
	// An image filter's data is not text; a filter nobody knows gives nothing.
	r := testReader()
	if _, err := r.decoder(bytes.NewReader(nil), "DCTDecode", nil); !errors.Is(err, errImage) {
		t.Fatal(err)
	}
	w.SetStream(4, "/Filter /NoSuchDecode", []byte(content))
	if got := textOf(t, w.Write(knowledgetest.Options{})); got != "" {
		t.Fatalf("unknown filter: %q", got)
	}
}
