package conversation

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bettyhq/betty/server/conversation/timing"
	"github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/speech"

	"github.com/bettyhq/betty/internal/plural"
)

// Recorder renders a simulated call's recording (phones.Recorder): both sides spoken by a
// text-to-speech engine (the local espeak-ng one offline) in two different voices, into one
// MP3, in turn order. Each turn starts where the timing model puts it (turn i+1 at
// timing.Next of turn i), the same offsets the engine gives the transcript and phones/sim the
// call's events, so the transcript's offsets point into the audio. A turn whose speech is
// shorter than its slot is followed by silence; one that runs longer pushes the rest later
// (the model is generous for espeak-ng, so this does not happen with the local engine).
//
// The MP3 is the engine's own frames laid end to end with silent frames of the same format
// between them: no re-encoding. Every turn must come out in the same MPEG version, sample
// rate and channel mode (espeak-ng through lame always does).
type Recorder struct {
	tts   speech.TextToSpeech
	agent string
}

var _ phones.Recorder = (*Recorder)(nil)

// NewRecorder returns the recorder. defaultAgentVoice speaks agent turns without a voice (or
// with one the engine does not have, such as a custom voice); the customer speaks with the
// engine's first voice that is neither, preferring another gender.
func NewRecorder(tts speech.TextToSpeech, defaultAgentVoice string) *Recorder {
	return &Recorder{tts: tts, agent: defaultAgentVoice}
}

// Render speaks every turn and answers the MP3.
func (r *Recorder) Render(ctx context.Context, turns []phones.SpokenTurn) ([]byte, error) {
	voices, err := r.tts.Voices(ctx)
	if err != nil {
		return nil, err
	}
	if len(voices) < 2 {
		return nil, fmt.Errorf("conversation: the speech engine has %s; a recording needs two", plural.Count(len(voices), "voice", "voices"))
	}
	byID := map[string]speech.Voice{}
	for _, v := range voices {
		byID[v.ID] = v
	}
	agentDefault, ok := byID[r.agent]
	if !ok {
		agentDefault = voices[0]
	}
	var out []byte
	var format []byte        // the header of the first frame: silent frames copy it
	at := time.Duration(0)   // where the audio written so far ends
	slot := time.Duration(0) // where the next turn should start
	for _, t := range turns {
		if t.Text == "" {
			continue
		}
		v := agentDefault
		if t.Agent {
			if x, ok := byID[t.Voice]; ok {
				v = x
			}
		} else {
			v = customerVoice(voices, agentVoices(turns, byID, agentDefault))
		}
		audio, err := r.tts.Synthesize(ctx, t.Text, v)
		if err != nil {
			return nil, err
		}
		frames, dur, hdr, err := mp3Frames(audio)
		if err != nil {
			return nil, err
		}
		if format == nil {
			format = hdr
		} else if !sameFormat(format, hdr) {
			return nil, errors.New("conversation: the speech engine answered turns in different MP3 formats")
		}
		if slot > at {
			sil, d := silence(format, slot-at)
			out = append(out, sil...)
			at += d
		}
		out = append(out, frames...)
		at += dur
		slot = timing.Next(slot, t.Text)
	}
	if len(out) == 0 {
		return nil, errors.New("conversation: nothing was said on the call: no recording")
	}
	return out, nil
}

// agentVoices are the voices the agent speaks with on the call.
func agentVoices(turns []phones.SpokenTurn, byID map[string]speech.Voice, def speech.Voice) map[string]speech.Voice {
	used := map[string]speech.Voice{def.ID: def}
	for _, t := range turns {
		if v, ok := byID[t.Voice]; t.Agent && ok {
			used[v.ID] = v
		}
	}
	return used
}

// customerVoice is the first voice the agent does not use, preferring another gender and
// the same language as the agent's.
func customerVoice(voices []speech.Voice, agent map[string]speech.Voice) speech.Voice {
	var ref speech.Voice
	for _, v := range agent {
		ref = v
		break
	}
	best, score := speech.Voice{}, -1
	for _, v := range voices {
		if _, used := agent[v.ID]; used {
			continue
		}
		s := 0
		if v.Gender != ref.Gender {
			s += 2
		}
		if v.Language == ref.Language {
			s++
		}
		if s > score {
			best, score = v, s
		}
	}
	return best
}

// mp3Frames answers the MPEG layer III frames of an MP3 (ID3 tags and anything else left
// out), how long they play, and the first frame's header.
func mp3Frames(b []byte) (frames []byte, d time.Duration, header []byte, err error) {
	i := 0
	if len(b) >= 10 && string(b[:3]) == "ID3" {
		i = 10 + (int(b[6]&0x7f)<<21 | int(b[7]&0x7f)<<14 | int(b[8]&0x7f)<<7 | int(b[9]&0x7f))
	}
	samples, rate := 0, 0
	for i+4 <= len(b) {
		n, s, r, ok := frameInfo(b[i : i+4])
		if !ok || i+n > len(b) {
			if len(frames) > 0 {
				break
			}
			i++
			continue
		}
		if header == nil {
			header = append([]byte(nil), b[i:i+4]...)
		}
		frames = append(frames, b[i:i+n]...)
		samples += s
		rate = r
		i += n
	}
	if len(frames) == 0 {
		return nil, 0, nil, speech.ErrNotMP3
	}
	return frames, time.Duration(samples) * time.Second / time.Duration(rate), header, nil
}

var (
	bitrates    = [2][16]int{{0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 0}, {0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160, 0}}
	sampleRates = map[byte][3]int{0: {11025, 12000, 8000}, 2: {22050, 24000, 16000}, 3: {44100, 48000, 32000}}
)

// frameInfo reads a layer III frame header: its length, samples and sample rate.
func frameInfo(h []byte) (length, samples, rate int, ok bool) {
	if h[0] != 0xff || h[1]&0xe0 != 0xe0 {
		return 0, 0, 0, false
	}
	version, layer, br, sr, pad := (h[1]>>3)&3, (h[1]>>1)&3, h[2]>>4, (h[2]>>2)&3, int((h[2]>>1)&1)
	rates, known := sampleRates[version]
	if !known || layer != 1 || br == 0 || br == 15 || sr == 3 {
		return 0, 0, 0, false
	}
	rate = rates[sr]
	if version == 3 {
		return 144*bitrates[0][br]*1000/rate + pad, 1152, rate, true
	}
	return 72*bitrates[1][br]*1000/rate + pad, 576, rate, true
}

// sameFormat: the same MPEG version, layer, sample rate and channel mode.
func sameFormat(a, b []byte) bool {
	return a[1]&0xfe == b[1]&0xfe && a[2]&0x0c == b[2]&0x0c && a[3]&0xc0 == b[3]&0xc0
}

// silence answers silent frames of the header's format lasting at least d: each frame is
// the header without padding or CRC and zeros, which a decoder reads as no sound (no
// scale factors, no Huffman data, main data starting in the frame itself).
func silence(header []byte, d time.Duration) ([]byte, time.Duration) {
	h := []byte{header[0], header[1] | 1, header[2] &^ 0x02, header[3]}
	n, s, rate, _ := frameInfo(h)
	per := time.Duration(s) * time.Second / time.Duration(rate)
	count := int((d + per - 1) / per)
	frame := make([]byte, n)
	copy(frame, h)
	out := make([]byte, 0, n*count)
	for range count {
		out = append(out, frame...)
	}
	return out, time.Duration(count*s) * time.Second / time.Duration(rate)
}
