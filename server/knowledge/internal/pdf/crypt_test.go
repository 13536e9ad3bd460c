package pdf

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/knowledge/knowledgetest"
)

// Files protected by an owner password only open for everyone, whatever the cipher: those
// this package's test writer encrypts, with the page tree in an encrypted object stream
// too, and those qpdf encrypted (testdata/knowledge/encrypted).
func TestOwnerPasswordOnly(t *testing.T) {
	const want = "Read without a password"
	w := onePage("BT /F1 12 Tf 72 700 Td ("+want+") Tj ET", "", "")
	for _, kind := range []string{"rc4-40", "rc4-128", "aes-128", "aes-256"} {
		t.Run(kind, func(t *testing.T) {
			if got := textOf(t, w.Write(knowledgetest.Options{Encrypt: kind})); got != want {
				t.Fatalf("%q", got)
			}
			packed := w.Write(knowledgetest.Options{Encrypt: kind, XrefStream: true, Packed: []int{2, 3, 5}})
			if got := textOf(t, packed); got != want {
				t.Fatalf("object stream: %q", got)
			}
		})
	}
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "..", "testdata", "knowledge", "encrypted", "qpdf-*.pdf"))
	if len(files) < 6 {
		t.Fatalf("%d files", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(f, "user-password") {
				mustFail(t, data, ErrInvalidPassword)
				return
			}
			if got := textOf(t, data); got != want {
				t.Fatalf("%q", got)
			}
		})
	}
}

// A file that needs its user password, or another security handler, is not read.
func TestEncryptionNotRead(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "testdata", "knowledge", "protected.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	mustFail(t, data, ErrInvalidPassword)
	w := onePage(hello, "", "")
	w.Add("<< /Filter /Adobe.PubSec /V 4 /R 4 /SubFilter /adbe.pkcs7.s5 >>")
	_, err = readGlyphs(t, w.Write(knowledgetest.Options{Trailer: "/Encrypt 6 0 R /ID [<00> <00>]"}))
	if !errors.Is(err, ErrEncrypted) || !strings.Contains(err.Error(), "encrypt") {
		t.Fatalf("public-key handler: %v", err)
	}
	w.Set(6, "<< /Filter /Standard /V 3 /R 3 /O <00> /U <00> /P -4 >>")
	_, err = readGlyphs(t, w.Write(knowledgetest.Options{Trailer: "/Encrypt 6 0 R /ID [<00> <00>]"}))
	if !errors.Is(err, ErrEncrypted) {
		t.Fatalf("unpublished algorithm: %v", err)
	}
}
