package speech

import (
	"errors"
	"time"
)

// ErrNotMP3 is the answer of MP3Duration for bytes that are not MPEG audio layer III.
var ErrNotMP3 = errors.New("speech: not an MP3 (no MPEG layer III frames)")

// MP3Duration walks the frames of an MP3 (after an ID3v2 tag, if any) and answers how long
// it plays. It checks what an engine answered really is MP3, and tests use it to check
// that audio is not empty.
func MP3Duration(b []byte) (time.Duration, error) {
	i := 0
	if len(b) >= 10 && string(b[:3]) == "ID3" {
		size := int(b[6]&0x7f)<<21 | int(b[7]&0x7f)<<14 | int(b[8]&0x7f)<<7 | int(b[9]&0x7f)
		i = 10 + size
		if b[5]&0x10 != 0 { // footer present
			i += 10
		}
	}
	frames, samples, rate := 0, 0, 0
	for i+4 <= len(b) {
		n, s, r, ok := frameHeader(b[i : i+4])
		if !ok {
			if frames > 0 {
				break // trailing data such as an ID3v1 tag
			}
			i++ // skip garbage before the first frame
			continue
		}
		frames++
		samples += s
		rate = r
		i += n
	}
	if frames == 0 || rate == 0 {
		return 0, ErrNotMP3
	}
	return time.Duration(samples) * time.Second / time.Duration(rate), nil
}

var (
	// bitratesKbps of layer III by MPEG-1 (index 0) and MPEG-2/2.5 (index 1).
	bitratesKbps = [2][16]int{
		{0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 0},
		{0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160, 0},
	}
	// sampleRates by version bits (0 MPEG-2.5, 2 MPEG-2, 3 MPEG-1).
	sampleRates = map[byte][3]int{0: {11025, 12000, 8000}, 2: {22050, 24000, 16000}, 3: {44100, 48000, 32000}}
)

// frameHeader reads a layer III frame header: the frame's length in bytes, its samples and
// sample rate.
func frameHeader(h []byte) (length, samples, rate int, ok bool) {
	if h[0] != 0xff || h[1]&0xe0 != 0xe0 {
		return 0, 0, 0, false
	}
	version := (h[1] >> 3) & 0x3
	layer := (h[1] >> 1) & 0x3
	bitrateIdx := h[2] >> 4
	rateIdx := (h[2] >> 2) & 0x3
	padding := int((h[2] >> 1) & 0x1)
	rates, known := sampleRates[version]
	if !known || layer != 1 || bitrateIdx == 0 || bitrateIdx == 15 || rateIdx == 3 {
		return 0, 0, 0, false
	}
	rate = rates[rateIdx]
	if version == 3 {
		return 144*bitratesKbps[0][bitrateIdx]*1000/rate + padding, 1152, rate, true
	}
	return 72*bitratesKbps[1][bitrateIdx]*1000/rate + padding, 576, rate, true
}
