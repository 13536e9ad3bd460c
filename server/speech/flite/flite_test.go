package flite_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/speech"
	"github.com/bettyhq/betty/server/speech/espeak"
	"github.com/bettyhq/betty/server/speech/flite"
	"github.com/bettyhq/betty/server/speech/speechtest"
)

const sentence = "Hello, thanks for calling Acme support. I can book, move or cancel an appointment. What would you like to do today?"

func TestVoicesAreTheCuratedOnesInstalled(t *testing.T) {
	speechtest.Require(t, speechtest.Flite...)
	voices, err := flite.New(flite.Options{}).Voices(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{}
	for _, v := range voices {
		ids = append(ids, v.ID)
		if v.Engine != flite.Name || !strings.HasPrefix(v.ID, "flite-") || v.Name == "" || !strings.HasPrefix(v.Language, "en-") {
			t.Errorf("voice %+v", v)
		}
	}
	// Debian's flite has all four.
	if got := strings.Join(ids, " "); got != "flite-en-us-slt flite-en-us-rms flite-en-gb-awb flite-en-us-kal16" {
		t.Errorf("presets %s", got)
	}
	if voices[0].Name != "Sarah" || voices[0].Gender != speech.Female || voices[1].Gender != speech.Male {
		t.Errorf("first voices %+v", voices[:2])
	}
}

func TestSynthesizeMakesARealMP3(t *testing.T) {
	speechtest.Require(t, speechtest.Flite...)
	e := flite.New(flite.Options{})
	voices, err := e.Voices(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range voices {
		mp3, err := e.Synthesize(context.Background(), sentence, v)
		if err != nil {
			t.Fatalf("%s: %v", v.ID, err)
		}
		d, err := speech.MP3Duration(mp3)
		// 21 words: five to fifteen seconds whoever says them.
		if err != nil || d < 4*time.Second || d > 15*time.Second {
			t.Errorf("%s: duration %s, %v", v.ID, d, err)
		}
	}
}

// flite's MP3 has the format of espeak-ng's (MPEG version, sample rate, channel mode), so a
// recording lays turns of both engines end to end.
func TestSameMP3FormatAsEspeak(t *testing.T) {
	speechtest.Require(t, append(speechtest.Flite, speechtest.Espeak...)...)
	ctx := context.Background()
	tts := speech.Combine(flite.New(flite.Options{}), espeak.New(espeak.Options{}))
	voices, err := tts.Voices(ctx)
	if err != nil {
		t.Fatal(err)
	}
	format := map[string]string{}
	for _, v := range voices {
		if _, seen := format[v.Engine]; seen {
			continue
		}
		mp3, err := tts.Synthesize(ctx, "Hello there.", v)
		if err != nil {
			t.Fatal(err)
		}
		i := bytes.Index(mp3, []byte{0xff})
		if i < 0 || i+4 > len(mp3) {
			t.Fatalf("%s: no frame", v.ID)
		}
		h := mp3[i : i+4]
		format[v.Engine] = fmt.Sprintf("version %d, rate %d, mode %d", h[1]>>3&3, h[2]>>2&3, h[3]>>6)
	}
	if len(format) != 2 || format[flite.Name] != format[espeak.Name] {
		t.Errorf("formats %v", format)
	}
}

// The text reaches flite on stdin: options and shell syntax are spoken, never obeyed.
func TestTextIsPassedSafely(t *testing.T) {
	speechtest.Require(t, speechtest.Flite...)
	marker := filepath.Join(t.TempDir(), "pwned")
	e := flite.New(flite.Options{})
	voices, err := e.Voices(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"-o " + marker, "$(touch " + marker + ")", "--help", "`touch " + marker + "`"} {
		mp3, err := e.Synthesize(context.Background(), text, voices[0])
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if d, err := speech.MP3Duration(mp3); err != nil || d <= 0 {
			t.Errorf("%q: duration %s, %v", text, d, err)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a text ran a command or wrote a file")
	}
}

// A synthesis that takes longer than Timeout is killed and answered 503 speech_unavailable.
func TestTimeoutKillsTheProcess(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "fake-flite")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\nsleep 10\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	e := flite.New(flite.Options{Flite: prog, Encoder: "cat", Timeout: 200 * time.Millisecond})
	start := time.Now()
	_, err := e.Synthesize(context.Background(), "hello", speech.Voice{EngineVoice: "slt"})
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("took %s", took)
	}
	if e, ok := errs.As(err); !ok || e.Code != errs.CodeSpeechUnavailable || !strings.Contains(e.Message, "longer than 200ms") {
		t.Fatalf("err %v", err)
	}
}

func TestMissingProgramsAreNamed(t *testing.T) {
	e := flite.New(flite.Options{Flite: "/nonexistent/flite", Encoder: "cat"})
	_, err := e.Voices(context.Background())
	if e, ok := errs.As(err); !ok || e.Kind != errs.Unavailable || !strings.Contains(e.Message, "/nonexistent/flite is not installed") ||
		!strings.Contains(e.Message, "apt-get install flite") {
		t.Fatalf("voices: %v", err)
	}
}
