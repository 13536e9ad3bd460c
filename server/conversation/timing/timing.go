// Package timing is the one model of how long speech takes on a simulated call, shared by the
// conversation engine (the offsets of the agent's turns), the simulated carrier (phones/sim:
// when each event happens on the call's clock) and the recorder (where each turn starts in the
// MP3). Because all three use it, a turn's offset in the transcript is where it starts in the
// recording.
//
// Speaking(text) is generous for the local speech engine (espeak-ng at 165 words a minute
// speaks about 60 ms a character plus half a second of breath): the recorder pads each turn
// with silence up to its slot, so a voice that speaks faster leaves a pause, not a drift.
package timing

import (
	"time"
	"unicode/utf8"
)

const (
	// PerChar is the time allowed per character of text.
	PerChar = 75 * time.Millisecond
	// Base is the time allowed for any utterance, however short.
	Base = 700 * time.Millisecond
	// Gap is the pause between the end of one turn's slot and the start of the next.
	Gap = 500 * time.Millisecond
)

// Speaking is the slot a text takes when spoken; 0 for no text.
func Speaking(text string) time.Duration {
	n := utf8.RuneCountInString(text)
	if n == 0 {
		return 0
	}
	return Base + time.Duration(n)*PerChar
}

// Next is the offset of the turn that follows a turn said at offset with text.
func Next(offset time.Duration, text string) time.Duration {
	if text == "" {
		return offset
	}
	return offset + Speaking(text) + Gap
}
