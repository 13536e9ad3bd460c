// Package proc is what the local speech engines share to run programs safely: a bounded number
// of runs at once, bounded output, the head of an error message, and the MP3 encoder.
package proc

import (
	"context"
	"errors"
	"io"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/bettyhq/betty/server/errs"
)

// Defaults fills an engine's shared settings left at zero: the MP3 encoder (Encoder), one run
// at once per processor, a 10-second wait for a slot and a 30-second bound on a run.
func Defaults(encoder *string, slots *int, maxWait, timeout *time.Duration) {
	if *encoder == "" {
		*encoder = Encoder()
	}
	if *slots <= 0 {
		*slots = runtime.GOMAXPROCS(0)
	}
	if *maxWait <= 0 {
		*maxWait = 10 * time.Second
	}
	if *timeout <= 0 {
		*timeout = 30 * time.Second
	}
}

// ErrBusy: every slot stayed taken for the longest wait.
var ErrBusy = errors.New("speech: the local speech engine is busy")

// Slots bound how many runs of an engine go at once.
type Slots struct {
	c       chan struct{}
	maxWait time.Duration
}

// NewSlots allows n runs at once; a run waits at most maxWait for its turn.
func NewSlots(n int, maxWait time.Duration) *Slots {
	return &Slots{c: make(chan struct{}, n), maxWait: maxWait}
}

// Acquire takes a slot, or answers 503 with Retry-After (wrapping ErrBusy) after maxWait.
func (s *Slots) Acquire(ctx context.Context) error {
	select {
	case s.c <- struct{}{}:
		return nil
	default:
	}
	t := time.NewTimer(s.maxWait)
	defer t.Stop()
	select {
	case s.c <- struct{}{}:
		return nil
	case <-t.C:
		err := errs.Retry(errs.Unavailable, "The speech engine is busy; try again in a few seconds.", s.maxWait)
		err.Err = ErrBusy
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Release gives the slot back.
func (s *Slots) Release() { <-s.c }

// ErrTooMuchOutput is the error of a LimitedWriter past its limit.
var ErrTooMuchOutput = errors.New("speech: output too large")

// LimitedWriter keeps at most Left bytes and fails past them, which stops the process
// writing.
type LimitedWriter struct {
	W    io.Writer
	Left int
}

func (l *LimitedWriter) Write(p []byte) (int, error) {
	if len(p) > l.Left {
		return 0, ErrTooMuchOutput
	}
	l.Left -= len(p)
	return l.W.Write(p)
}

// HeadWriter keeps the first Left bytes (of an error message) and drops the rest.
type HeadWriter struct {
	W    io.Writer
	Left int
}

func (h *HeadWriter) Write(p []byte) (int, error) {
	keep := min(len(p), h.Left)
	h.Left -= keep
	_, _ = h.W.Write(p[:keep])
	return len(p), nil
}

// Encoder is the program that encodes MP3 on this machine: lame, else ffmpeg, else "lame"
// (which then says it is missing).
func Encoder() string {
	if _, err := exec.LookPath("lame"); err != nil {
		if _, err := exec.LookPath("ffmpeg"); err == nil {
			return "ffmpeg"
		}
	}
	return "lame"
}

// EncodeMP3 is the encoder's command that reads WAV on stdin and writes a mono 48 kb/s MP3 at
// 22.05 kHz on stdout (a phone line carries no more). Every local engine's speech comes out in
// this one format, whatever rate the engine speaks at (espeak-ng 22.05 kHz, flite 16 kHz), so
// a recording can lay turns of different engines end to end.
func EncodeMP3(ctx context.Context, encoder string) *exec.Cmd {
	if strings.Contains(encoder, "ffmpeg") {
		return exec.CommandContext(ctx, encoder, "-hide_banner", "-loglevel", "error", "-f", "wav", "-i", "pipe:0",
			"-ac", "1", "-ar", "22050", "-b:a", "48k", "-f", "mp3", "pipe:1")
	}
	return exec.CommandContext(ctx, encoder, "--quiet", "-m", "m", "-b", "48", "--resample", "22.05", "-", "-")
}
