// Package espeak is Betty's local text-to-speech engine: espeak-ng speaks, lame (or ffmpeg)
// encodes the MP3. It works offline with Debian's packages (apt-get install espeak-ng lame).
//
// Each synthesis runs two processes, never through a shell: the text goes to espeak-ng on
// stdin, its WAV to the encoder through a pipe. At most Options.Slots syntheses run at once;
// others wait up to Options.MaxWait and are then refused (503 with Retry-After), so a storm of
// requests cannot fork hundreds of processes. Each synthesis is killed after
// Options.Timeout.
//
// The presets are a curated list of the installed languages and voice variants (see
// catalogue.go): only those espeak-ng actually has are offered.
package espeak

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/bettyhq/betty/server/speech"
	"github.com/bettyhq/betty/server/speech/internal/proc"
)

// Options configure the engine; zero values take the defaults.
type Options struct {
	// Espeak is the espeak-ng program (default: espeak-ng on PATH).
	Espeak string
	// Encoder is lame or ffmpeg (default: lame on PATH, else ffmpeg).
	Encoder string
	// Slots is how many syntheses run at once (default: one per core).
	Slots int
	// MaxWait is how long a synthesis may wait for a slot (default 10 s).
	MaxWait time.Duration
	// Timeout bounds one synthesis (default 30 s).
	Timeout time.Duration
	// WordsPerMinute is the speaking rate (default 165: a little slower than espeak's 175,
	// easier to follow on a phone line).
	WordsPerMinute int
}

// Engine is the local text-to-speech engine.
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
	if o.Espeak == "" {
		o.Espeak = "espeak-ng"
	}
	proc.Defaults(&o.Encoder, &o.Slots, &o.MaxWait, &o.Timeout)
	if o.WordsPerMinute <= 0 {
		o.WordsPerMinute = 165
	}
	return &Engine{o: o, slots: proc.NewSlots(o.Slots, o.MaxWait)}
}

// Engine names the engine.
func (e *Engine) Engine() string { return Name }

// Name is the engine's name.
const Name = "espeak-ng"

// Encoder names the program that encodes the MP3 (lame or ffmpeg).
func (e *Engine) Encoder() string { return e.o.Encoder }

// Check says whether the programs are installed, naming what is missing.
func (e *Engine) Check() error {
	for _, p := range []string{e.o.Espeak, e.o.Encoder} {
		if _, err := exec.LookPath(p); err != nil {
			return speech.Unavailable(fmt.Sprintf("Text to speech is not available: %s is not installed on the server. "+
				"An operator must install espeak-ng and lame (apt-get install espeak-ng lame) or set --tts-url.", p), err)
		}
	}
	return nil
}

// Voices are the curated presets espeak-ng has, read from it once.
func (e *Engine) Voices(ctx context.Context) ([]speech.Voice, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.voices != nil {
		return e.voices, nil
	}
	if err := e.Check(); err != nil {
		return nil, err
	}
	langs, err := e.list(ctx, "--voices")
	if err != nil {
		return nil, err
	}
	variants, err := e.list(ctx, "--voices=variant")
	if err != nil {
		return nil, err
	}
	e.voices = curate(parseVoices(langs), parseVoices(variants))
	return e.voices, nil
}

func (e *Engine) list(ctx context.Context, arg string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, e.o.Timeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, e.o.Espeak, arg).Output()
	if err != nil {
		return "", speech.Unavailable("Text to speech is not available: espeak-ng could not list its voices.", err)
	}
	return string(out), nil
}

// ErrBusy: every slot stayed taken for MaxWait.
var ErrBusy = proc.ErrBusy

// maxOutput bounds the MP3 of one synthesis; MaxTextLength characters make about 2 MB.
const maxOutput = 32 << 20

// Synthesize speaks text with v: espeak-ng reads the text on stdin and writes WAV to the
// encoder, which writes MP3.
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

	// -b 1: the input is UTF-8; --stdin: all of it at once; no -m, so markup is read as text.
	speak := exec.CommandContext(ctx, e.o.Espeak, "-v", v.EngineVoice, "-s", fmt.Sprint(e.o.WordsPerMinute), "-b", "1", "--stdin", "--stdout")
	speak.Stdin = strings.NewReader(text)
	encode := proc.EncodeMP3(ctx, e.o.Encoder)
	wav, err := speak.StdoutPipe()
	if err != nil {
		return nil, err
	}
	encode.Stdin = wav
	var mp3, speakErr, encodeErr bytes.Buffer
	encode.Stdout = &proc.LimitedWriter{W: &mp3, Left: maxOutput}
	speak.Stderr = &proc.HeadWriter{W: &speakErr, Left: 4 << 10}
	encode.Stderr = &proc.HeadWriter{W: &encodeErr, Left: 4 << 10}
	for _, c := range []*exec.Cmd{speak, encode} {
		c.WaitDelay = time.Second
	}
	if err := speak.Start(); err != nil {
		return nil, speech.Unavailable("Text to speech is not available: espeak-ng could not start.", err)
	}
	if err := encode.Start(); err != nil {
		_ = speak.Process.Kill()
		_ = speak.Wait()
		return nil, speech.Unavailable(fmt.Sprintf("Text to speech is not available: %s could not start.", e.o.Encoder), err)
	}
	errSpeak := speak.Wait()
	errEncode := encode.Wait()
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return nil, speech.Unavailable(fmt.Sprintf("Speaking the text took longer than %s; try a shorter text.", e.o.Timeout), ctx.Err())
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errSpeak != nil:
		return nil, speech.Unavailable("The speech engine failed to speak the text.",
			fmt.Errorf("espeak-ng -v %s: %w: %s", v.EngineVoice, errSpeak, strings.TrimSpace(speakErr.String())))
	case errEncode != nil:
		return nil, speech.Unavailable("The speech engine failed to encode the audio.",
			fmt.Errorf("%s: %w: %s", e.o.Encoder, errEncode, strings.TrimSpace(encodeErr.String())))
	case mp3.Len() == 0:
		return nil, speech.Unavailable("The speech engine produced no audio.", fmt.Errorf("espeak-ng -v %s: empty output", v.EngineVoice))
	}
	return mp3.Bytes(), nil
}
