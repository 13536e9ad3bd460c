package uploads

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/errs"
)

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func TestParseMetadata(t *testing.T) {
	raw := "filename " + b64(`C:\Users\ada\price list.pdf`) + ",organizationId " + b64("org-1") +
		",purpose " + b64("knowledge-file") + ",filetype " + b64("application/pdf") + ",relativePath,other " + b64("x")
	m, err := ParseMetadata(raw)
	if err != nil {
		t.Fatal(err)
	}
	if m.FileName != "price list.pdf" || m.OrganizationID != "org-1" || m.Purpose != KnowledgeFile || m.FileType != "application/pdf" || m.Raw != raw {
		t.Fatalf("%+v", m)
	}
	unpadded := "filename " + strings.TrimRight(b64("a.mp3"), "=") + ",organizationId " + b64("o") + ",purpose " + b64("agent-audio")
	if m, err := ParseMetadata(unpadded); err != nil || m.FileName != "a.mp3" {
		t.Fatalf("unpadded base64: %+v %v", m, err)
	}

	for name, header := range map[string]string{
		"empty":              "",
		"no filename":        "organizationId " + b64("o") + ",purpose " + b64("agent-audio"),
		"only a directory":   "filename " + b64("dir/") + ",organizationId " + b64("o") + ",purpose " + b64("agent-audio"),
		"no organization":    "filename " + b64("a.mp3") + ",purpose " + b64("agent-audio"),
		"unknown purpose":    "filename " + b64("a.mp3") + ",organizationId " + b64("o") + ",purpose " + b64("selfie"),
		"not base64":         "filename a.mp3!,organizationId " + b64("o") + ",purpose " + b64("agent-audio"),
		"a key twice":        "filename " + b64("a") + ",filename " + b64("b") + ",organizationId " + b64("o") + ",purpose " + b64("agent-audio"),
		"control characters": "filename " + b64("a\x00.mp3") + ",organizationId " + b64("o") + ",purpose " + b64("agent-audio"),
		"a long name":        "filename " + b64(strings.Repeat("a", 256)) + ",organizationId " + b64("o") + ",purpose " + b64("agent-audio"),
		"invalid utf-8":      "filename " + b64("\xff.mp3") + ",organizationId " + b64("o") + ",purpose " + b64("agent-audio"),
		"garbage":            "not/a valid;value",
	} {
		_, err := ParseMetadata(header)
		e, ok := errs.As(err)
		if !ok || e.Kind != errs.Invalid || e.Fields[0].Name != "header.Upload-Metadata" {
			t.Errorf("%s: %v, want invalid header.Upload-Metadata", name, err)
		}
	}
}

func TestFileLinks(t *testing.T) {
	s := signer{key: []byte("secret")}
	now := time.Now()
	tok := s.token("up-1", now.Add(LinkTTL))
	if !s.valid("up-1", tok, now) {
		t.Fatal("a fresh token is not valid")
	}
	for name, ok := range map[string]bool{
		"another upload":   s.valid("up-2", tok, now),
		"after it expires": s.valid("up-1", tok, now.Add(LinkTTL+time.Second)),
		"another key":      signer{key: []byte("other")}.valid("up-1", tok, now),
		"tampered expiry":  s.valid("up-1", "9"+tok, now),
		"no signature":     s.valid("up-1", strings.Split(tok, ".")[0], now),
		"empty":            s.valid("up-1", "", now),
	} {
		if ok {
			t.Errorf("%s: valid", name)
		}
	}

	id, token, ok := fileLink("https://betty.example.com/v1/files/up-1?token=" + tok)
	if !ok || id != "up-1" || token != tok {
		t.Fatalf("fileLink: %q %q %v", id, token, ok)
	}
	for _, bad := range []string{"https://x/v1/uploads/up-1?token=a", "https://x/v1/files/?token=a", "https://x/v1/files/up-1", "::"} {
		if _, _, ok := fileLink(bad); ok {
			t.Errorf("fileLink(%q) ok", bad)
		}
	}
}
