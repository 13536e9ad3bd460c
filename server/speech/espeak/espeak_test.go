package espeak_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/speech"
	"github.com/bettyhq/betty/server/speech/espeak"
	"github.com/bettyhq/betty/server/speech/espeak/espeaktest"
)

// sentence is 115 characters, a typical greeting.
const sentence = "Hello, thanks for calling Acme support. I can book, move or cancel an appointment. What would you like to do today?"

func TestVoicesAreTheCuratedOnesInstalled(t *testing.T) {
	espeaktest.Require(t)
	voices, err := espeak.New(espeak.Options{}).Voices(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(voices) < 9 {
		t.Fatalf("%d voices, want at least a page of 9: %+v", len(voices), voices)
	}
	first := voices[0]
	if first.ID != "espeak-en-us-linda" || first.Name != "Linda" || first.Gender != speech.Female || first.Language != "en-US" ||
		first.EngineVoice != "en-us+linda" || !strings.Contains(first.Description, "English (America)") {
		t.Errorf("first voice %+v", first)
	}
	seen := map[string]bool{}
	genders := map[speech.Gender]int{}
	for _, v := range voices {
		if seen[v.ID] {
			t.Errorf("id %s twice", v.ID)
		}
		seen[v.ID] = true
		genders[v.Gender]++
	}
	if genders[speech.Female] == 0 || genders[speech.Male] == 0 {
		t.Errorf("genders %v", genders)
	}
}

func TestSynthesizeMakesARealMP3(t *testing.T) {
	espeaktest.Require(t)
	e := espeak.New(espeak.Options{})
	voices, err := e.Voices(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	mp3, err := e.Synthesize(context.Background(), sentence, voices[0])
	if err != nil {
		t.Fatal(err)
	}
	if !(string(mp3[:3]) == "ID3" || mp3[0] == 0xff && mp3[1]&0xe0 == 0xe0) {
		t.Fatalf("not an MP3 frame or ID3 tag: % x", mp3[:4])
	}
	d, err := speech.MP3Duration(mp3)
	if err != nil {
		t.Fatal(err)
	}
	// 19 words at 165 words a minute: about seven seconds.
	if d < 3*time.Second || d > 20*time.Second {
		t.Errorf("duration %s for %d characters", d, len(sentence))
	}
}

// The text reaches espeak-ng as text on stdin: shell syntax, options and markup are spoken,
// never run or obeyed.
func TestTextIsPassedSafely(t *testing.T) {
	espeaktest.Require(t)
	dir := t.TempDir()
	marker := filepath.Join(dir, "pwned")
	e := espeak.New(espeak.Options{})
	voices, err := e.Voices(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{
		"--help", "-w " + marker, "$(touch " + marker + ")", "`touch " + marker + "`; touch " + marker,
		`<speak><audio src="file:///etc/passwd"/></speak>`, "\"quoted\" 'text' | & > " + marker,
	} {
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

// fakeEspeak writes a program that stands for espeak-ng: it records how many copies run at
// once in dir, sleeps, and writes a few bytes; and one that stands for lame and copies them.
func fakeEspeak(t *testing.T, sleep string) (prog, encoder, dir string) {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	dir = t.TempDir()
	prog = filepath.Join(dir, "fake-espeak")
	script := fmt.Sprintf("#!/bin/sh\ncat >/dev/null\nmkdir -p %[1]s/running\ntouch %[1]s/running/$$\nls %[1]s/running | wc -l >> %[1]s/counts\nsleep %[2]s\nrm %[1]s/running/$$\nprintf 'RIFF'\n", dir, sleep)
	if err := os.WriteFile(prog, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	encoder = filepath.Join(dir, "fake-lame")
	if err := os.WriteFile(encoder, []byte("#!/bin/sh\ncat\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return prog, encoder, dir
}

// A storm of requests runs at most Slots processes at once; those that wait longer than
// MaxWait are refused with a 503 that says when to retry.
func TestConcurrencyIsBounded(t *testing.T) {
	prog, encoder, dir := fakeEspeak(t, "0.3")
	e := espeak.New(espeak.Options{Espeak: prog, Encoder: encoder, Slots: 2, MaxWait: 100 * time.Millisecond})
	var wg sync.WaitGroup
	results := make(chan error, 12)
	for range 12 {
		wg.Go(func() {
			_, err := e.Synthesize(context.Background(), "hello", speech.Voice{EngineVoice: "en-us"})
			results <- err
		})
	}
	wg.Wait()
	close(results)
	ok, busy := 0, 0
	for err := range results {
		switch {
		case err == nil:
			ok++
		case errors.Is(err, espeak.ErrBusy):
			busy++
			if e, _ := errs.As(err); e.Kind != errs.Unavailable || e.RetryAfter <= 0 {
				t.Errorf("busy answer %+v", e)
			}
		default:
			t.Errorf("unexpected error: %v", err)
		}
	}
	if ok != 2 || busy != 10 {
		t.Errorf("%d spoke and %d were refused, want 2 and 10", ok, busy)
	}
	counts, err := os.ReadFile(filepath.Join(dir, "counts"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range strings.Fields(string(counts)) {
		if c != "1" && c != "2" {
			t.Errorf("%s processes ran at once, want at most 2 (%q)", c, counts)
		}
	}
}

// A synthesis that takes longer than Timeout is killed and answered 503 speech_unavailable.
func TestTimeoutKillsTheProcesses(t *testing.T) {
	prog, encoder, _ := fakeEspeak(t, "10")
	e := espeak.New(espeak.Options{Espeak: prog, Encoder: encoder, Timeout: 200 * time.Millisecond})
	start := time.Now()
	_, err := e.Synthesize(context.Background(), "hello", speech.Voice{EngineVoice: "en-us"})
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("took %s", took)
	}
	if e, ok := errs.As(err); !ok || e.Code != errs.CodeSpeechUnavailable || !strings.Contains(e.Message, "longer than 200ms") {
		t.Fatalf("err %v", err)
	}
}

// Without the programs the engine says which is missing and what to do.
func TestMissingProgramsAreNamed(t *testing.T) {
	e := espeak.New(espeak.Options{Espeak: "/nonexistent/espeak-ng", Encoder: "cat"})
	_, err := e.Voices(context.Background())
	if e, ok := errs.As(err); !ok || e.Kind != errs.Unavailable || !strings.Contains(e.Message, "/nonexistent/espeak-ng is not installed") ||
		!strings.Contains(e.Message, "--tts-url") {
		t.Fatalf("voices: %v", err)
	}
	if _, err := e.Synthesize(context.Background(), "hi", speech.Voice{EngineVoice: "en-us"}); !errs.Is(err, errs.Unavailable) {
		t.Fatalf("synthesize: %v", err)
	}
}

// BenchmarkSynthesize speaks a 115-character sentence with the first preset: espeak-ng and
// lame as processes, end to end.
func BenchmarkSynthesize(b *testing.B) {
	espeaktest.Require(b)
	e := espeak.New(espeak.Options{})
	voices, err := e.Voices(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	var mp3 []byte
	for b.Loop() {
		if mp3, err = e.Synthesize(context.Background(), sentence, voices[0]); err != nil {
			b.Fatal(err)
		}
	}
	d, err := speech.MP3Duration(mp3)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(d.Seconds(), "audio-s/op")
	b.ReportMetric(float64(len(mp3)), "mp3-bytes/op")
}
