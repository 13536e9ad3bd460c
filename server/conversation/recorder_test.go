package conversation

import (
	"context"
	"encoding/binary"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/conversation/timing"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/speech"
	"github.com/bettyhq/betty/server/speech/espeak"
	"github.com/bettyhq/betty/server/speech/espeak/espeaktest"
)

// countingTTS records which voice spoke each text.
type countingTTS struct {
	speech.TextToSpeech
	voices map[string]string
}

func (c *countingTTS) Synthesize(ctx context.Context, text string, v speech.Voice) ([]byte, error) {
	c.voices[text] = v.ID
	return c.TextToSpeech.Synthesize(ctx, text, v)
}

func TestRecorderRendersOneMP3(t *testing.T) {
	espeaktest.Require(t)
	tts := &countingTTS{TextToSpeech: espeak.New(espeak.Options{}), voices: map[string]string{}}
	rec := NewRecorder(tts, "espeak-en-us-linda")
	turns := []phones.SpokenTurn{
		{Agent: true, Text: "Hi Ann, this is Linda from Acme. Do you want to renew your subscription?", Voice: "espeak-en-us-linda"},
		{Text: "Yes please, that sounds good."},
		{Agent: true, Text: "Wonderful. Your subscription is renewed.", Voice: "espeak-en-us-linda"},
		{Agent: true, Text: "Goodbye.", Voice: "espeak-en-us-linda"},
		{Text: "Bye."},
	}
	mp3, err := rec.Render(context.Background(), turns)
	if err != nil {
		t.Fatal(err)
	}
	dur, err := speech.MP3Duration(mp3)
	if err != nil {
		t.Fatal(err)
	}
	var offsets []time.Duration
	at := time.Duration(0)
	for _, tn := range turns {
		offsets = append(offsets, at)
		at = timing.Next(at, tn.Text)
	}
	last := offsets[len(offsets)-1]
	if dur < last+300*time.Millisecond || dur > last+timing.Speaking("Bye.")+time.Second {
		t.Fatalf("duration %s, last turn at %s", dur, last)
	}
	if tts.voices[turns[0].Text] != "espeak-en-us-linda" || tts.voices[turns[1].Text] == "espeak-en-us-linda" || tts.voices[turns[1].Text] == "" ||
		tts.voices[turns[1].Text] != tts.voices[turns[4].Text] {
		t.Fatalf("voices %v", tts.voices)
	}

	// Decode it: each turn's speech starts at its offset, after silence.
	dir := t.TempDir()
	in, out := filepath.Join(dir, "call.mp3"), filepath.Join(dir, "call.wav")
	if err := os.WriteFile(in, mp3, 0o600); err != nil {
		t.Fatal(err)
	}
	if msg, err := exec.Command("lame", "--quiet", "--decode", in, out).CombinedOutput(); err != nil {
		t.Fatalf("lame --decode: %v %s", err, msg)
	}
	wav, err := os.ReadFile(out)
	if err != nil || len(wav) < 44 {
		t.Fatal(err)
	}
	rate := int(binary.LittleEndian.Uint32(wav[24:28]))
	pcm := wav[44:]
	rms := func(from, to time.Duration) float64 {
		a, b := int(from.Seconds()*float64(rate))*2, int(to.Seconds()*float64(rate))*2
		b = min(b, len(pcm)-1)
		sum, n := 0.0, 0
		for i := a; i+1 < b; i += 2 {
			s := float64(int16(binary.LittleEndian.Uint16(pcm[i:])))
			sum += s * s
			n++
		}
		if n == 0 {
			return 0
		}
		return math.Sqrt(sum / float64(n))
	}
	decoded := time.Duration(len(pcm)/2) * time.Second / time.Duration(rate)
	if d := decoded - dur; d < -200*time.Millisecond || d > 200*time.Millisecond {
		t.Fatalf("decoded %s, frames say %s", decoded, dur)
	}
	for i, o := range offsets {
		speaking := rms(o+50*time.Millisecond, o+700*time.Millisecond)
		if speaking < 300 {
			t.Errorf("turn %d at %s: no speech (rms %.0f)", i, o, speaking)
		}
		if i > 0 {
			if quiet := rms(o-400*time.Millisecond, o-60*time.Millisecond); quiet > 50 {
				t.Errorf("turn %d at %s: not silent before it (rms %.0f)", i, o, quiet)
			}
		}
	}
	if _, err := rec.Render(context.Background(), nil); err == nil {
		t.Fatal("an empty call rendered")
	}
}

func TestSilenceFrames(t *testing.T) {
	hdr := []byte{0xff, 0xf3, 0x60, 0xc4} // MPEG-2 layer III, 48 kb/s, 22.05 kHz, mono
	b, d := silence(hdr, time.Second)
	frames, d2, _, err := mp3Frames(b)
	if err != nil || len(frames) != len(b) || d2 != d || d < time.Second || d > time.Second+30*time.Millisecond {
		t.Fatalf("silence: %d bytes, %s / %s, %v", len(b), d, d2, err)
	}
}
