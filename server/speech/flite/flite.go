// Package flite is Betty's second local text-to-speech engine: flite (CMU's Festival Lite)
// speaks, lame (or ffmpeg) encodes the MP3. Its voices are clearer than espeak-ng's and
// English only. It works offline with Debian's packages (apt-get install flite lame).
//
// Each synthesis runs flite with the text on stdin (never in its arguments, never through a
// shell) writing a WAV into a private temporary directory, then the encoder reading it: flite
// cannot write a complete WAV header to a pipe. At most Options.Slots syntheses run at once;
// others wait up to Options.MaxWait and are then refused (503 with Retry-After). Each
// synthesis is killed after Options.Timeout.
package flite

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/bettyhq/betty/server/speech"
	"github.com/bettyhq/betty/server/speech/internal/proc"
)

// Name is the engine's name.
const Name = "flite"

// Options configure the engine; zero values take the defaults.
type Options struct {
	// Flite is the flite program (default: flite on PATH).
	Flite string
	// Encoder is lame or ffmpeg (default: lame on PATH, else ffmpeg).
	Encoder string
	// Slots is how many syntheses run at once (default: one per core).
	Slots int
	// MaxWait is how long a synthesis may wait for a slot (default 10 s).
	MaxWait time.Duration
	// Timeout bounds one synthesis (default 30 s).
	Timeout time.Duration
}

// Engine is the flite text-to-speech engine.
type Engine struct {
	o     Options
	slots *proc.Slots

	mu     sync.Mutex
	voices []speech.Voice
}

var _ speech.TextToSpeech = (*Engine)(nil)

// New returns the engine. It does not check the programs: Check does, and every call says
// what is missing.
func New(o Options) *Engine {
	if o.Flite == "" {
		o.Flite = "flite"
	}
	proc.Defaults(&o.Encoder, &o.Slots, &o.MaxWait, &o.Timeout)
	return &Engine{o: o, slots: proc.NewSlots(o.Slots, o.MaxWait)}
}

// Engine names the engine.
func (e *Engine) Engine() string { return Name }

// Check says whether the programs are installed, naming what is missing.
func (e *Engine) Check() error {
	for _, p := range []string{e.o.Flite, e.o.Encoder} {
		if _, err := exec.LookPath(p); err != nil {
			return speech.Unavailable(fmt.Sprintf("Text to speech with flite is not available: %s is not installed on the server. "+
				"An operator must install flite and lame (apt-get install flite lame) or set --tts-url.", p), err)
		}
	}
	return nil
}

// Voices are the curated presets flite has, read from it once.
func (e *Engine) Voices(ctx context.Context) ([]speech.Voice, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.voices != nil {
		return e.voices, nil
	}
	if err := e.Check(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, e.o.Timeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, e.o.Flite, "-lv").Output()
	if err != nil {
		return nil, speech.Unavailable("Text to speech with flite is not available: flite could not list its voices.", err)
	}
	e.voices = curate(parseVoices(string(out)))
	return e.voices, nil
}

// maxOutput bounds the WAV and the MP3 of one synthesis; MaxTextLength characters make about
// 10 MB of WAV.
const maxOutput = 64 << 20

// Synthesize speaks text with v: flite reads the text on stdin and writes a WAV file, which
// the encoder turns into MP3.
func (e *Engine) Synthesize(ctx context.Context, text string, v speech.Voice) ([]byte, error) {
	if err := e.Check(); err != nil {
		return nil, err
	}
	if err := e.slots.Acquire(ctx); err != nil {
		return nil, err
	}
	defer e.slots.Release()
	ctx, cancel := context.WithTimeout(ctx, e.o.Timeout)
	defer cancel()

	dir, err := os.MkdirTemp("", "betty-flite-")
	if err != nil {
		return nil, speech.Unavailable("The speech engine could not make a temporary file.", err)
	}
	defer os.RemoveAll(dir)
	wavPath := filepath.Join(dir, "speech.wav")

	var speakErr bytes.Buffer
	speak := exec.CommandContext(ctx, e.o.Flite, "-voice", v.EngineVoice, "-o", wavPath)
	speak.Stdin = strings.NewReader(text)
	speak.Stderr = &proc.HeadWriter{W: &speakErr, Left: 4 << 10}
	speak.Stdout = &proc.HeadWriter{W: &speakErr, Left: 4 << 10}
	speak.WaitDelay = time.Second
	if err := speak.Run(); err != nil {
		return nil, e.failed(ctx, "The speech engine failed to speak the text.",
			fmt.Errorf("flite -voice %s: %w: %s", v.EngineVoice, err, strings.TrimSpace(speakErr.String())))
	}
	wav, err := os.Open(wavPath)
	if err != nil {
		return nil, speech.Unavailable("The speech engine produced no audio.", err)
	}
	defer wav.Close()
	if st, err := wav.Stat(); err != nil || st.Size() > maxOutput || st.Size() <= 44 {
		return nil, speech.Unavailable("The speech engine produced no audio.", fmt.Errorf("flite -voice %s: wav %v %v", v.EngineVoice, st, err))
	}

	var mp3, encodeErr bytes.Buffer
	encode := proc.EncodeMP3(ctx, e.o.Encoder)
	encode.Stdin = wav
	encode.Stdout = &proc.LimitedWriter{W: &mp3, Left: maxOutput}
	encode.Stderr = &proc.HeadWriter{W: &encodeErr, Left: 4 << 10}
	encode.WaitDelay = time.Second
	if err := encode.Run(); err != nil {
		return nil, e.failed(ctx, "The speech engine failed to encode the audio.",
			fmt.Errorf("%s: %w: %s", e.o.Encoder, err, strings.TrimSpace(encodeErr.String())))
	}
	if mp3.Len() == 0 {
		return nil, speech.Unavailable("The speech engine produced no audio.", fmt.Errorf("%s: empty output", e.o.Encoder))
	}
	return mp3.Bytes(), nil
}

// failed is the error of a process that failed: the timeout, the caller's cancellation, or
// the process's own failure.
func (e *Engine) failed(ctx context.Context, message string, cause error) error {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return speech.Unavailable(fmt.Sprintf("Speaking the text took longer than %s; try a shorter text.", e.o.Timeout), ctx.Err())
	case ctx.Err() != nil:
		return ctx.Err()
	}
	return speech.Unavailable(message, cause)
}
