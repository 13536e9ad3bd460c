package uploads

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/uploads/uploadstest"
)

func TestSniff(t *testing.T) {
	for _, tt := range []struct {
		name string
		head []byte
		want *fileType
		text bool
	}{
		{"mp3 with an ID3 tag", uploadstest.MP3(100), mp3, false},
		{"mp3 frame without a tag", []byte{0xFF, 0xFB, 0x90, 0x64, 0, 0}, mp3, false},
		{"adts aac is not mp3", []byte{0xFF, 0xF1, 0x50, 0x80, 0, 0}, nil, false},
		{"wav", uploadstest.WAV(100), wav, false},
		{"m4a", uploadstest.M4A(100), m4a, false},
		{"ogg", uploadstest.Ogg(100), ogg, false},
		{"pdf", uploadstest.PDF(100), pdf, false},
		{"docx (a zip)", uploadstest.DOCX(), docx, false},
		{"csv", uploadstest.CSV(100), nil, true},
		{"utf-8 text", []byte("Prix : 12 €\n"), nil, true},
		{"utf-16", []byte("\xff\xfeh\x00i\x00"), nil, false},
		{"binary", []byte("MZ\x90\x00\x03\x00"), nil, false},
		{"empty", nil, nil, false},
	} {
		got, text := sniff(tt.head)
		if got != tt.want || text != tt.text {
			t.Errorf("%s: %v %v, want %v %v", tt.name, got, text, tt.want, tt.text)
		}
	}
}

func TestCheckReadsTheTypeFromTheBytes(t *testing.T) {
	for _, tt := range []struct {
		name     string
		purpose  Purpose
		fileName string
		head     []byte
		want     *fileType
		refusal  string
	}{
		{"a pdf", KnowledgeFile, "a.pdf", uploadstest.PDF(100), pdf, ""},
		{"a .pdf that is really an mp3", KnowledgeFile, "a.pdf", uploadstest.MP3(100), nil, "The file's content is MP3 audio: knowledge files must be PDF, DOCX, TXT, MD, CSV or HTML."},
		{"an .mp3 that is really a pdf", AgentAudio, "a.mp3", uploadstest.PDF(100), nil, "The file's content is a PDF: teaching audio files must be MP3, WAV, M4A or OGG."},
		{"an .mp3 that is really a wav", VoiceSample, "a.mp3", uploadstest.WAV(100), nil, "The file's content is WAV audio, not MP3 audio as its name says."},
		{"a .pdf that is really text", KnowledgeFile, "a.pdf", []byte("hello"), nil, "The file's content is text, not a PDF as its name says."},
		{"text to an audio purpose", AgentAudio, "voice", []byte("hello"), nil, "The file's content is text: teaching audio files must be MP3, WAV, M4A or OGG."},
		{"unknown bytes", KnowledgeFile, "a", []byte("\x7fELF\x02\x01\x00"), nil, "The file's content is not a type Betty knows: knowledge files must be PDF, DOCX, TXT, MD, CSV or HTML."},
		{"markdown by its name", KnowledgeFile, "notes.md", []byte("# Notes\n"), md, ""},
		{"csv by its name", KnowledgeFile, "list.csv", uploadstest.CSV(100), csv, ""},
		{"html by its content when the name says nothing", KnowledgeFile, "page", []byte("<!DOCTYPE html><html>"), html, ""},
		{"html named .txt stays text", KnowledgeFile, "page.txt", []byte("<html>"), txt, ""},
		{"plain text when the name says nothing", KnowledgeFile, "notes", []byte("hello"), txt, ""},
		{"a contacts list without an extension", ContactsCSV, "contacts", uploadstest.CSV(100), csv, ""},
		{"audio without an extension", AgentAudio, "recording", uploadstest.M4A(100), m4a, ""},
	} {
		r := rules[tt.purpose]
		declared, err := r.declared(tt.fileName, "")
		if err != nil {
			t.Fatalf("%s: declared: %v", tt.name, err)
		}
		got, err := r.check(declared, tt.head)
		if tt.refusal != "" {
			if !errs.Is(err, errs.Unprocessable) || err.(*errs.Error).Message != tt.refusal {
				t.Errorf("%s: %v, want 422 %q", tt.name, err, tt.refusal)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s: %v %v, want %v", tt.name, got, err, tt.want)
		}
	}
}

func TestDeclaredTypes(t *testing.T) {
	for _, tt := range []struct {
		purpose            Purpose
		fileName, fileType string
		want               *fileType
		refused            bool
	}{
		{KnowledgeFile, "Price List.PDF", "", pdf, false},
		{KnowledgeFile, "setup.exe", "", nil, true},
		{AgentAudio, "a.pdf", "", nil, true},
		{ContactsCSV, "list.txt", "", nil, true},
		{ContactsCSV, "list.csv", "application/vnd.ms-excel", csv, false},
		{ContactsCSV, "list", "application/vnd.ms-excel", csv, false},
		{AgentAudio, "recording", "audio/x-m4a", m4a, false},
		{AgentAudio, "recording", "application/x-whatever", nil, false},
		{AgentAudio, "recording", "application/pdf", nil, false},
	} {
		got, err := rules[tt.purpose].declared(tt.fileName, tt.fileType)
		if (err != nil) != tt.refused || got != tt.want {
			t.Errorf("%s %q %q: %v %v", tt.purpose, tt.fileName, tt.fileType, got, err)
		}
	}
}

func TestIsDOCX(t *testing.T) {
	doc, z := uploadstest.DOCX(), uploadstest.Zip()
	if !isDOCX(bytes.NewReader(doc), int64(len(doc))) {
		t.Error("a Word document is not one")
	}
	if isDOCX(bytes.NewReader(z), int64(len(z))) {
		t.Error("a plain zip passes for a Word document")
	}
	if isDOCX(strings.NewReader("PK\x03\x04 truncated"), 14) {
		t.Error("a truncated zip passes for a Word document")
	}
}
