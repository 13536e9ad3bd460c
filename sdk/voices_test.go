package betty_test

import (
	"context"
	"errors"
	"testing"

	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/server/speech/espeak/espeaktest"
	"github.com/bettyhq/betty/server/testserver"
)

// A preset's sample is downloaded as MP3; an unknown preset is ErrNotFound.
func TestVoicePresetSample(t *testing.T) {
	espeaktest.Require(t)
	ctx := context.Background()
	env := testserver.Start(t)
	c, err := betty.New(env.URL)
	if err != nil {
		t.Fatal(err)
	}
	mp3, err := c.VoicePresetSample(ctx, "espeak-en-us-linda")
	if err != nil || len(mp3) < 1000 || !(string(mp3[:3]) == "ID3" || mp3[0] == 0xff) {
		t.Fatalf("%d bytes, %v", len(mp3), err)
	}
	if _, err := c.VoicePresetSample(ctx, "no-such-voice"); !errors.Is(err, betty.ErrNotFound) {
		t.Fatalf("unknown preset: %v", err)
	}
}
