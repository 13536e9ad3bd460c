// Package sphinx is Betty's offline speech to text: CMU PocketSphinx with its US English model
// (Debian's pocketsphinx and pocketsphinx-en-us), sox to resample, lame to decode MP3 (ffmpeg
// for M4A when installed). Accuracy is modest (docs/speech.md has the measure); an
// OpenAI-compatible endpoint (--stt-url) transcribes far better and is used when set.
//
// A transcription streams the audio through programs, never a shell: the recording goes to
// the decoder on stdin, 16 kHz mono 16-bit PCM comes out of sox, passes through Betty (which
// counts it) into pocketsphinx_continuous, which prints one line per utterance. It is bounded
// like every parser: at most Options.MaxBytes of input, at most Options.MaxDuration of audio,
// Options.Timeout in all (the processes are killed with the context), and Options.Slots
// transcriptions at once. Nothing is written to disk.
package sphinx

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/speech"
	"github.com/bettyhq/betty/server/speech/internal/proc"
)

// Name names the engine for people.
const Name = "pocketsphinx"

// DefaultModel is where Debian's pocketsphinx-en-us puts the US English model.
const DefaultModel = "/usr/share/pocketsphinx/model/en-us"

// Options configure the engine; zero values take the defaults.
type Options struct {
	// Program is pocketsphinx_continuous (default: on PATH).
	Program string
	// Model is the directory holding en-us/ (the acoustic model), en-us.lm.bin and
	// cmudict-en-us.dict (default DefaultModel).
	Model string
	// Sox, Lame and FFmpeg are the converters (default: on PATH; FFmpeg only for M4A).
	Sox, Lame, FFmpeg string
	// Slots is how many transcriptions run at once (default 1: one keeps a core busy).
	Slots int
	// MaxWait is how long a transcription may wait for a slot (default 2 min: transcriptions
	// run in background jobs).
	MaxWait time.Duration
	// Timeout bounds one transcription (default 8 min).
	Timeout time.Duration
	// MaxBytes bounds the recording read (default 50 MiB, the uploads' limit).
	MaxBytes int64
	// MaxDuration bounds the audio transcribed (default 15 min).
	MaxDuration time.Duration
}

// Engine transcribes offline.
type Engine struct {
	o     Options
	slots *proc.Slots
}

var _ speech.SpeechToText = (*Engine)(nil)

// New returns the engine; Check says whether it can run here.
func New(o Options) *Engine {
	if o.Program == "" {
		o.Program = "pocketsphinx_continuous"
	}
	if o.Model == "" {
		o.Model = DefaultModel
	}
	if o.Sox == "" {
		o.Sox = "sox"
	}
	if o.Lame == "" {
		o.Lame = "lame"
	}
	if o.FFmpeg == "" {
		o.FFmpeg = "ffmpeg"
	}
	if o.Slots <= 0 {
		o.Slots = 1
	}
	if o.MaxWait <= 0 {
		o.MaxWait = 2 * time.Minute
	}
	if o.Timeout <= 0 {
		o.Timeout = 8 * time.Minute
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = 50 << 20
	}
	if o.MaxDuration <= 0 {
		o.MaxDuration = 15 * time.Minute
	}
	return &Engine{o: o, slots: proc.NewSlots(o.Slots, o.MaxWait)}
}

// Install is what an operator installs for this engine.
const Install = "apt-get install pocketsphinx pocketsphinx-en-us sox lame"

// Check says whether the programs and the model are installed, naming what is missing.
func (e *Engine) Check() error {
	for _, p := range []string{e.o.Program, e.o.Sox, e.o.Lame} {
		if _, err := exec.LookPath(p); err != nil {
			return speech.Unavailable(fmt.Sprintf("Offline speech to text is not available: %s is not installed on the server (%s), and --stt-url is not set.", p, Install), err)
		}
	}
	for _, f := range e.modelFiles() {
		if _, err := os.Stat(f); err != nil {
			return speech.Unavailable(fmt.Sprintf("Offline speech to text is not available: the PocketSphinx model %s is missing (%s), and --stt-url is not set.", f, Install), err)
		}
	}
	return nil
}

func (e *Engine) modelFiles() []string {
	return []string{filepath.Join(e.o.Model, "en-us"), filepath.Join(e.o.Model, "en-us.lm.bin"), filepath.Join(e.o.Model, "cmudict-en-us.dict")}
}

// Understands says whether speech in language is transcribed: the model is US English, and
// other English is close enough to be useful.
func (e *Engine) Understands(language string) bool {
	p, _, _ := strings.Cut(language, "-")
	return strings.EqualFold(p, "en")
}

// format is a recording's container, told by its first bytes (its name's extension when they
// say nothing).
type format string

const (
	mp3  format = "MP3"
	wav  format = "WAV"
	ogg  format = "Ogg"
	flac format = "FLAC"
	m4a  format = "M4A"
)

func sniff(head []byte, fileName string) (format, bool) {
	switch {
	case bytes.HasPrefix(head, []byte("ID3")) || len(head) >= 2 && head[0] == 0xff && head[1]&0xe0 == 0xe0:
		return mp3, true
	case len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WAVE":
		return wav, true
	case bytes.HasPrefix(head, []byte("OggS")):
		return ogg, true
	case bytes.HasPrefix(head, []byte("fLaC")):
		return flac, true
	case len(head) >= 8 && string(head[4:8]) == "ftyp":
		return m4a, true
	}
	switch strings.ToLower(filepath.Ext(fileName)) {
	case ".mp3":
		return mp3, true
	case ".wav":
		return wav, true
	case ".ogg", ".oga", ".opus":
		return ogg, true
	case ".flac":
		return flac, true
	case ".m4a", ".mp4":
		return m4a, true
	}
	return "", false
}

// pcmRate is the audio PocketSphinx's model takes: 16 kHz, mono, 16-bit little-endian.
const pcmRate = 16000 * 2

// maxTranscript bounds what pocketsphinx prints (a quarter hour of speech is ~15 kB).
const maxTranscript = 1 << 20

var (
	errTooBig   = errors.New("sphinx: recording too large")
	errTooLong  = errors.New("sphinx: recording too long")
	errDeafened = errors.New("sphinx: pocketsphinx stopped reading")
)

// Transcribe answers the words heard in the recording, lower case and without punctuation
// (PocketSphinx writes none); "" when no speech was heard.
func (e *Engine) Transcribe(ctx context.Context, audio io.Reader, fileName string) (string, error) {
	if err := e.Check(); err != nil {
		return "", err
	}
	limited := &capped{r: audio, left: e.o.MaxBytes}
	in := bufio.NewReaderSize(limited, 4096)
	head, _ := in.Peek(12)
	f, ok := sniff(head, fileName)
	if !ok {
		return "", errs.UnprocessableErr("The recording is not MP3, WAV, Ogg, FLAC or M4A audio, so it cannot be transcribed.")
	}
	if f == m4a {
		if _, err := exec.LookPath(e.o.FFmpeg); err != nil {
			return "", errs.UnprocessableErr("Offline transcription reads MP3, WAV, Ogg and FLAC; M4A needs ffmpeg on the server " +
				"(apt-get install ffmpeg) or --stt-url. Convert the recording to MP3 or WAV, or ask an operator.")
		}
	}
	if err := e.slots.Acquire(ctx); err != nil {
		return "", err
	}
	defer e.slots.Release()
	ctx, cancel := context.WithTimeout(ctx, e.o.Timeout)
	defer cancel()
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)

	decoders := e.decoders(ctx, f)
	decoders[0].Stdin = in
	var stderr bytes.Buffer
	for i, c := range decoders {
		c.Stderr = &proc.HeadWriter{W: &stderr, Left: 4 << 10}
		c.WaitDelay = time.Second
		if i > 0 {
			pipe, err := decoders[i-1].StdoutPipe()
			if err != nil {
				return "", err
			}
			c.Stdin = pipe
		}
	}
	pcm, err := decoders[len(decoders)-1].StdoutPipe()
	if err != nil {
		return "", err
	}
	m := e.o.Model
	recognise := exec.CommandContext(ctx, e.o.Program, "-hmm", filepath.Join(m, "en-us"), "-lm", filepath.Join(m, "en-us.lm.bin"),
		"-dict", filepath.Join(m, "cmudict-en-us.dict"), "-infile", "/dev/stdin", "-logfn", "/dev/null")
	recognise.WaitDelay = time.Second
	pcmIn, err := recognise.StdinPipe()
	if err != nil {
		return "", err
	}
	var text, recogniseErr bytes.Buffer
	recognise.Stdout = &proc.LimitedWriter{W: &text, Left: maxTranscript}
	recognise.Stderr = &proc.HeadWriter{W: &recogniseErr, Left: 4 << 10}

	for i, c := range append(decoders, recognise) {
		if err := c.Start(); err != nil {
			stop(err) // kills those started
			for _, s := range decoders[:i] {
				_ = s.Wait()
			}
			return "", speech.Unavailable(fmt.Sprintf("Offline speech to text could not start %s.", filepath.Base(c.Path)), err)
		}
	}

	// Betty counts the audio between the converter and the recogniser: past MaxDuration the
	// processes are stopped.
	copied := make(chan error, 1)
	go func() {
		limit := int64(e.o.MaxDuration/time.Second) * pcmRate
		n, err := io.Copy(pcmIn, io.LimitReader(pcm, limit+1))
		switch {
		case n > limit:
			err = errTooLong
			stop(errTooLong)
		case err != nil:
			// The recogniser is gone: stop the converters, which would wait to write.
			stop(errDeafened)
		}
		_ = pcmIn.Close()
		copied <- err
	}()
	copyErr := <-copied
	var decodeErr error
	for _, c := range decoders {
		if err := c.Wait(); err != nil && decodeErr == nil {
			decodeErr = err
		}
	}
	recogniseWait := recognise.Wait()

	switch cause := context.Cause(ctx); {
	case errors.Is(copyErr, errTooLong) || errors.Is(cause, errTooLong):
		return "", errs.UnprocessableErr(fmt.Sprintf("The recording is longer than %s, the most offline transcription takes. "+
			"Split it, or ask an operator to set --stt-url.", spoken(e.o.MaxDuration)))
	case limited.bad != nil:
		return "", errs.UnprocessableErr(fmt.Sprintf("The recording is larger than %d MiB, the most offline transcription reads.", e.o.MaxBytes>>20))
	case errors.Is(cause, errDeafened):
		return "", speech.Unavailable("Offline speech to text failed.",
			fmt.Errorf("pocketsphinx: %v: %s", recogniseWait, strings.TrimSpace(recogniseErr.String())))
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return "", speech.Unavailable(fmt.Sprintf("Transcribing the recording took longer than %s.", e.o.Timeout), ctx.Err())
	case ctx.Err() != nil:
		return "", ctx.Err()
	case decodeErr != nil:
		bad := errs.UnprocessableErr(fmt.Sprintf("The recording could not be read as %s audio; it may be damaged.", f))
		bad.Err = fmt.Errorf("sphinx: decoding %s: %w: %s", f, decodeErr, strings.TrimSpace(stderr.String()))
		return "", bad
	case recogniseWait != nil:
		return "", speech.Unavailable("Offline speech to text failed.",
			fmt.Errorf("pocketsphinx: %w: %s", recogniseWait, strings.TrimSpace(recogniseErr.String())))
	}
	return strings.Join(strings.Fields(text.String()), " "), nil
}

// spoken is a duration as people say it: "15 minutes", else Go's "1.5s".
func spoken(d time.Duration) string {
	if d%time.Minute == 0 {
		return fmt.Sprintf("%d minutes", d/time.Minute)
	}
	return d.String()
}

// decoders turn the recording into raw 16 kHz mono PCM on the last one's stdout.
func (e *Engine) decoders(ctx context.Context, f format) []*exec.Cmd {
	raw := []string{"-t", "raw", "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", "-L", "-"}
	sox := func(kind string) *exec.Cmd {
		return exec.CommandContext(ctx, e.o.Sox, append([]string{"-V1", "-t", kind, "-"}, raw...)...)
	}
	switch f {
	case mp3:
		return []*exec.Cmd{exec.CommandContext(ctx, e.o.Lame, "--decode", "--quiet", "--mp3input", "-", "-"), sox("wav")}
	case m4a:
		return []*exec.Cmd{exec.CommandContext(ctx, e.o.FFmpeg, "-hide_banner", "-loglevel", "error", "-i", "pipe:0",
			"-ac", "1", "-ar", "16000", "-f", "s16le", "pipe:1")}
	case ogg:
		return []*exec.Cmd{sox("ogg")}
	case flac:
		return []*exec.Cmd{sox("flac")}
	}
	return []*exec.Cmd{sox("wav")}
}

// capped reads at most left bytes and fails with errTooBig past them.
type capped struct {
	r    io.Reader
	left int64
	bad  error
}

func (c *capped) Read(p []byte) (int, error) {
	if c.left < 0 {
		c.bad = errTooBig
		return 0, errTooBig
	}
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if c.left < 0 {
		c.bad = errTooBig
		return n, errTooBig
	}
	return n, err
}
