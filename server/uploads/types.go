package uploads

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"mime"
	"path"
	"strings"

	"github.com/bettyhq/betty/server/errs"
)

// Purpose is what an upload is for; it decides the types and the size accepted.
type Purpose string

const (
	KnowledgeFile Purpose = "knowledge-file"
	AgentFile     Purpose = "agent-file"
	AgentAudio    Purpose = "agent-audio"
	VoiceSample   Purpose = "voice-sample"
	ContactsCSV   Purpose = "contacts-csv"
)

// MaxSize is the largest file any purpose accepts (Tus-Max-Size): 50 MiB.
const MaxSize = 50 << 20

// sniffLen is how many bytes the type is read from: it is checked once that many have arrived
// (or the whole file, when smaller).
const sniffLen = 8 << 10

// fileType is a kind of file Betty accepts.
type fileType struct {
	name string // for people: "a PDF"
	mime string
	exts []string
	// aliases are other MIME types clients send for it (browsers disagree).
	aliases []string
	text    bool
}

var (
	mp3  = &fileType{"MP3 audio", "audio/mpeg", []string{".mp3"}, []string{"audio/mp3", "audio/mpeg3", "audio/x-mpeg-3", "audio/x-mp3"}, false}
	wav  = &fileType{"WAV audio", "audio/wav", []string{".wav"}, []string{"audio/wave", "audio/x-wav", "audio/vnd.wave"}, false}
	m4a  = &fileType{"M4A audio", "audio/mp4", []string{".m4a"}, []string{"audio/x-m4a", "audio/m4a"}, false}
	ogg  = &fileType{"Ogg audio", "audio/ogg", []string{".ogg", ".oga", ".opus"}, []string{"application/ogg", "audio/opus"}, false}
	pdf  = &fileType{"a PDF", "application/pdf", []string{".pdf"}, nil, false}
	docx = &fileType{"a Word document (DOCX)", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", []string{".docx"}, nil, false}
	txt  = &fileType{"text", "text/plain", []string{".txt"}, nil, true}
	md   = &fileType{"Markdown", "text/markdown", []string{".md", ".markdown"}, []string{"text/x-markdown"}, true}
	csv  = &fileType{"CSV", "text/csv", []string{".csv"}, []string{"application/csv", "text/x-csv", "application/vnd.ms-excel"}, true}
	html = &fileType{"HTML", "text/html", []string{".html", ".htm"}, nil, true}

	audio     = []*fileType{mp3, wav, m4a, ogg}
	documents = []*fileType{pdf, docx, txt, md, csv, html}
	allTypes  = append(append([]*fileType{}, audio...), documents...)
)

// rule is what a purpose accepts.
type rule struct {
	label   string // "knowledge files"
	types   []*fileType
	maxSize int64
	// plain is the type of text whose name does not say which.
	plain *fileType
}

// Purposes are the purposes of the contract, in its order.
var Purposes = []Purpose{KnowledgeFile, AgentFile, AgentAudio, VoiceSample, ContactsCSV}

var rules = map[Purpose]rule{
	KnowledgeFile: {"knowledge files", documents, MaxSize, txt},
	AgentFile:     {"agent files", documents, MaxSize, txt},
	AgentAudio:    {"teaching audio files", audio, MaxSize, nil},
	VoiceSample:   {"voice samples", audio, MaxSize, nil},
	ContactsCSV:   {"contacts lists", []*fileType{csv}, MaxSize, csv},
}

// Valid says whether p is a purpose of the contract.
func (p Purpose) Valid() bool {
	_, ok := rules[p]
	return ok
}

func (r rule) accepts(t *fileType) bool {
	for _, a := range r.types {
		if a == t {
			return true
		}
	}
	return false
}

// expected lists the types accepted, for messages: "PDF, DOCX, TXT, MD, CSV or HTML".
func (r rule) expected() string {
	names := make([]string, len(r.types))
	for i, t := range r.types {
		names[i] = strings.ToUpper(strings.TrimPrefix(t.exts[0], "."))
	}
	return orList(names)
}

// orList joins names as people do: "a", "a or b", "a, b or c".
func orList(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

func typeByExt(name string) *fileType {
	ext := strings.ToLower(path.Ext(name))
	for _, t := range allTypes {
		for _, e := range t.exts {
			if e == ext {
				return t
			}
		}
	}
	return nil
}

func typeByMIME(v string) *fileType {
	m, _, err := mime.ParseMediaType(v)
	if err != nil {
		return nil
	}
	for _, t := range allTypes {
		if t.mime == m {
			return t
		}
		for _, a := range t.aliases {
			if a == m {
				return t
			}
		}
	}
	return nil
}

// declared is the type a new upload says it has: its name's extension, else its filetype,
// else none (the bytes will tell). A name whose extension the purpose does not accept is
// refused at once.
func (r rule) declared(name, filetype string) (*fileType, error) {
	if ext := path.Ext(name); ext != "" {
		t := typeByExt(name)
		if t == nil || !r.accepts(t) {
			return nil, errs.UnprocessableErr(fmt.Sprintf("%s cannot be a %s file: %s must be %s.",
				name, strings.ToUpper(strings.TrimPrefix(ext, ".")), r.label, r.expected()))
		}
		return t, nil
	}
	if t := typeByMIME(filetype); t != nil && r.accepts(t) {
		return t, nil
	}
	return nil, nil
}

// check reads the type of a file from its first bytes (all of them when the file is shorter
// than sniffLen) and answers it when the purpose accepts it and it is the one declared, or a
// 422 saying what is wrong. Text is told apart by its name: txt, md, csv or html.
func (r rule) check(declared *fileType, head []byte) (*fileType, error) {
	found, text := sniff(head)
	if text {
		switch {
		case declared != nil && declared.text:
			found = declared
		case declared != nil || r.plain == nil:
			found = txt
		case r.accepts(html) && looksLikeHTML(head):
			found = html
		default:
			found = r.plain
		}
	}
	switch {
	case found == nil:
		return nil, errs.UnprocessableErr(fmt.Sprintf("The file's content is not a type Betty knows: %s must be %s.", r.label, r.expected()))
	case !r.accepts(found):
		return nil, errs.UnprocessableErr(fmt.Sprintf("The file's content is %s: %s must be %s.", found.name, r.label, r.expected()))
	case declared != nil && found != declared:
		return nil, errs.UnprocessableErr(fmt.Sprintf("The file's content is %s, not %s as its name says.", found.name, declared.name))
	}
	return found, nil
}

// sniff reads a type from magic numbers; text is content without NUL bytes that matches none.
func sniff(b []byte) (t *fileType, text bool) {
	switch {
	case len(b) == 0, bytes.HasPrefix(b, []byte{0xFE, 0xFF}), bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		return nil, false // nothing, or UTF-16 (whose byte order mark looks like an MPEG frame)
	case bytes.Contains(b[:min(len(b), 1024)], []byte("%PDF-")):
		return pdf, false
	case bytes.HasPrefix(b, []byte("PK\x03\x04")):
		return docx, false // a zip; isDOCX checks its directory once the file is complete
	case bytes.HasPrefix(b, []byte("ID3")), isMPEGAudioFrame(b):
		return mp3, false
	case len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WAVE":
		return wav, false
	case len(b) >= 12 && string(b[4:8]) == "ftyp" && isM4ABrand(string(b[8:12])):
		return m4a, false
	case bytes.HasPrefix(b, []byte("OggS")):
		return ogg, false
	case bytes.IndexByte(b, 0) >= 0:
		return nil, false // binary
	}
	return nil, true
}

// isMPEGAudioFrame recognises an MPEG audio frame header (an MP3 without an ID3 tag): the
// frame sync, a layer, and a valid bitrate and sample rate.
func isMPEGAudioFrame(b []byte) bool {
	if len(b) < 4 || b[0] != 0xFF || b[1]&0xE0 != 0xE0 {
		return false
	}
	version, layer := (b[1]>>3)&3, (b[1]>>1)&3
	bitrate, rate := b[2]>>4, (b[2]>>2)&3
	return version != 1 && layer != 0 && bitrate != 0xF && rate != 3
}

func isM4ABrand(brand string) bool {
	switch brand {
	case "M4A ", "M4B ", "M4P ", "mp41", "mp42", "isom", "iso2", "dash", "3gp4", "3gp5", "3gp6":
		return true
	}
	return false
}

func looksLikeHTML(b []byte) bool {
	s := strings.ToLower(strings.TrimLeft(string(b[:min(len(b), 512)]), " \t\r\n\ufeff"))
	for _, p := range []string{"<!doctype html", "<html", "<head", "<body"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// isDOCX says whether a zip is a Word document: it holds word/document.xml.
func isDOCX(r io.ReaderAt, size int64) bool {
	z, err := zip.NewReader(r, size)
	if err != nil {
		return false
	}
	for _, f := range z.File {
		if f.Name == "word/document.xml" {
			return true
		}
	}
	return false
}

// TypedName is the file's name ending in an extension of its type: the name the client gave,
// with one added when it has none that fits (for services that read the type from the name).
func (f File) TypedName() string {
	t := typeByMIME(f.Type)
	if t == nil || typeByExt(f.Name) == t {
		return f.Name
	}
	return f.Name + t.exts[0]
}
