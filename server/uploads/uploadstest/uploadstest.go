// Package uploadstest makes files for tests of uploads: the first bytes of each type Betty
// accepts, padded to a size with random bytes (or text), so a file's type is read from its
// bytes as a real one's would be.
package uploadstest

import (
	"archive/zip"
	"bytes"
	"math/rand/v2"
	"strings"
)

// MP3 is MPEG audio of n bytes starting with an ID3 tag.
func MP3(n int) []byte { return padded([]byte("ID3\x04\x00\x00\x00\x00\x00\x00\xff\xfb\x90\x64"), n) }

// WAV is n bytes of RIFF/WAVE.
func WAV(n int) []byte { return padded([]byte("RIFF\x24\x08\x00\x00WAVEfmt \x10\x00\x00\x00"), n) }

// M4A is n bytes of an MPEG-4 audio file.
func M4A(n int) []byte {
	return padded([]byte("\x00\x00\x00\x20ftypM4A \x00\x00\x00\x00M4A mp42isom"), n)
}

// Ogg is n bytes of an Ogg stream.
func Ogg(n int) []byte { return padded([]byte("OggS\x00\x02\x00\x00\x00\x00"), n) }

// PDF is n bytes of a PDF.
func PDF(n int) []byte { return padded([]byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"), n) }

// CSV is a contacts list of about n bytes (text, whole lines).
func CSV(n int) []byte {
	var b strings.Builder
	b.WriteString("name,phone\n")
	for i := 0; b.Len() < n; i++ {
		b.WriteString("Ada Lovelace,+15550100\n")
	}
	return []byte(b.String())
}

// DOCX is a minimal Word document (a zip holding word/document.xml).
func DOCX() []byte {
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	for name, body := range map[string]string{
		"[Content_Types].xml": `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`,
		"word/document.xml":   `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>`,
	} {
		w, _ := z.Create(name)
		_, _ = w.Write([]byte(body))
	}
	_ = z.Close()
	return buf.Bytes()
}

// Zip is a zip archive that is not a Word document.
func Zip() []byte {
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	w, _ := z.Create("notes.txt")
	_, _ = w.Write([]byte("hello"))
	_ = z.Close()
	return buf.Bytes()
}

// padded is head followed by random bytes, n in all.
func padded(head []byte, n int) []byte {
	b := make([]byte, max(n, len(head)))
	copy(b, head)
	r := rand.New(rand.NewPCG(uint64(n), 7))
	for i := len(head); i < len(b); i++ {
		b[i] = byte(r.Uint32())
	}
	return b[:n]
}
