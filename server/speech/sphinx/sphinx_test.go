package sphinx_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/speech/flite"
	"github.com/bettyhq/betty/server/speech/speechtest"
	"github.com/bettyhq/betty/server/speech/sphinx"
)

// spoken is a sentence spoken by flite's first voice, as MP3.
func spoken(t *testing.T, text string) []byte {
	t.Helper()
	speechtest.Require(t, append(speechtest.Sphinx, speechtest.Flite...)...)
	e := flite.New(flite.Options{})
	voices, err := e.Voices(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	mp3, err := e.Synthesize(context.Background(), text, voices[0])
	if err != nil {
		t.Fatal(err)
	}
	return mp3
}

// silentWAV is seconds of silence at 8 kHz, 16-bit mono.
func silentWAV(seconds int) []byte {
	data := make([]byte, 8000*2*seconds)
	var b bytes.Buffer
	b.WriteString("RIFF")
	_ = binary.Write(&b, binary.LittleEndian, uint32(36+len(data)))
	b.WriteString("WAVEfmt ")
	for _, v := range []any{uint32(16), uint16(1), uint16(1), uint32(8000), uint32(16000), uint16(2), uint16(16)} {
		_ = binary.Write(&b, binary.LittleEndian, v)
	}
	b.WriteString("data")
	_ = binary.Write(&b, binary.LittleEndian, uint32(len(data)))
	b.Write(data)
	return b.Bytes()
}

func TestTranscribeHearsWordsAndSilence(t *testing.T) {
	mp3 := spoken(t, "Please send the invoice to my email address.")
	e := sphinx.New(sphinx.Options{})
	got, err := e.Transcribe(context.Background(), bytes.NewReader(mp3), "invoice.mp3")
	if err != nil || !strings.Contains(got, "invoice") || !strings.Contains(got, "email") {
		t.Fatalf("heard %q, %v", got, err)
	}
	// The format is told by the bytes, not the name.
	if again, err := e.Transcribe(context.Background(), bytes.NewReader(mp3), "recording"); err != nil || again != got {
		t.Errorf("without an extension: %q %v", again, err)
	}
	if got, err := e.Transcribe(context.Background(), bytes.NewReader(silentWAV(2)), "quiet.wav"); err != nil || got != "" {
		t.Errorf("silence heard as %q, %v", got, err)
	}
}

// Past its bounds a recording is refused with a 422 that says which, never cut silently.
func TestTranscribeIsBounded(t *testing.T) {
	speechtest.Require(t, speechtest.Sphinx...)
	long := silentWAV(3)
	short := sphinx.New(sphinx.Options{MaxDuration: time.Second})
	if _, err := short.Transcribe(context.Background(), bytes.NewReader(long), "long.wav"); !errs.Is(err, errs.Unprocessable) ||
		!strings.Contains(err.Error(), "longer than 1s") {
		t.Errorf("too long: %v", err)
	}
	small := sphinx.New(sphinx.Options{MaxBytes: 10_000})
	if _, err := small.Transcribe(context.Background(), bytes.NewReader(long), "big.wav"); !errs.Is(err, errs.Unprocessable) ||
		!strings.Contains(err.Error(), "larger than") {
		t.Errorf("too large: %v", err)
	}
	e := sphinx.New(sphinx.Options{})
	if _, err := e.Transcribe(context.Background(), strings.NewReader("just some text"), "notes.txt"); !errs.Is(err, errs.Unprocessable) {
		t.Errorf("not audio: %v", err)
	}
	damaged := append([]byte("RIFF\x00\x00\x00\x00WAVE"), bytes.Repeat([]byte{0x42}, 500)...)
	if _, err := e.Transcribe(context.Background(), bytes.NewReader(damaged), "bad.wav"); !errs.Is(err, errs.Unprocessable) ||
		!strings.Contains(err.Error(), "could not be read as WAV") {
		t.Errorf("damaged: %v", err)
	}
}

// A transcription that takes longer than Timeout is killed and answered 503.
func TestTimeoutKillsTheProcesses(t *testing.T) {
	speechtest.Require(t, speechtest.Sphinx...)
	dir := t.TempDir()
	slow := filepath.Join(dir, "slow-pocketsphinx")
	if err := os.WriteFile(slow, []byte("#!/bin/sh\nsleep 10\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	e := sphinx.New(sphinx.Options{Program: slow, Timeout: 300 * time.Millisecond})
	start := time.Now()
	_, err := e.Transcribe(context.Background(), bytes.NewReader(silentWAV(1)), "a.wav")
	if took := time.Since(start); took > 4*time.Second {
		t.Errorf("took %s", took)
	}
	if e, ok := errs.As(err); !ok || e.Code != errs.CodeSpeechUnavailable || !strings.Contains(e.Message, "longer than 300ms") {
		t.Fatalf("err %v", err)
	}
}

// A recogniser that dies is a 503, at once: the converters feeding it are stopped.
func TestARecogniserThatDiesStopsAll(t *testing.T) {
	speechtest.Require(t, speechtest.Sphinx...)
	dead := filepath.Join(t.TempDir(), "dead-pocketsphinx")
	if err := os.WriteFile(dead, []byte("#!/bin/sh\necho 'model broken' >&2\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	e := sphinx.New(sphinx.Options{Program: dead, Timeout: time.Minute})
	start := time.Now()
	_, err := e.Transcribe(context.Background(), bytes.NewReader(silentWAV(60)), "long.wav")
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("took %s", took)
	}
	if e, ok := errs.As(err); !ok || e.Code != errs.CodeSpeechUnavailable || !strings.Contains(err.Error(), "model broken") {
		t.Fatalf("err %v", err)
	}
}

// Without the programs or the model, the engine says what to install.
func TestMissingPiecesAreNamed(t *testing.T) {
	for _, o := range []sphinx.Options{{Program: "/nonexistent/pocketsphinx_continuous"}, {Model: t.TempDir()}} {
		err := sphinx.New(o).Check()
		if e, ok := errs.As(err); !ok || e.Kind != errs.Unavailable || !strings.Contains(e.Message, sphinx.Install) || !strings.Contains(e.Message, "--stt-url") {
			t.Errorf("%+v: %v", o, err)
		}
		if _, err := sphinx.New(o).Transcribe(context.Background(), bytes.NewReader(silentWAV(1)), "a.wav"); !errs.Is(err, errs.Unavailable) {
			t.Errorf("%+v transcribe: %v", o, err)
		}
	}
}
