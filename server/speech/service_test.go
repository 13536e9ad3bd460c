package speech_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/speech"
	"github.com/bettyhq/betty/server/speech/openai/openaitest"
)

// engine is a TextToSpeech that counts its calls.
type engine struct {
	voices []speech.Voice
	calls  atomic.Int32
	fail   error
	texts  sync.Map
}

func (e *engine) Engine() string                                 { return "test" }
func (e *engine) Voices(context.Context) ([]speech.Voice, error) { return e.voices, nil }
func (e *engine) Synthesize(_ context.Context, text string, v speech.Voice) ([]byte, error) {
	e.calls.Add(1)
	e.texts.Store(v.ID, text)
	if e.fail != nil {
		return nil, e.fail
	}
	return openaitest.SilentMP3(3), nil
}

var testVoices = []speech.Voice{
	{ID: "a", Name: "Ann", Gender: speech.Female, Language: "en-US"},
	{ID: "b", Name: "Bob", Gender: speech.Male, Language: "en-US"},
	{ID: "c", Name: "Cat", Gender: speech.Female, Language: "en-GB"},
	{ID: "d", Name: "Dan", Gender: speech.Male, Language: "de-DE"},
	{ID: "e", Name: "Eva", Gender: speech.Female, Language: "es-419"},
}

func TestNearest(t *testing.T) {
	s := speech.New(&engine{voices: testVoices}, nil)
	for _, c := range []struct {
		gender speech.Gender
		lang   string
		want   string
	}{
		{speech.Female, "en-US", "a"}, {speech.Male, "en-US", "b"}, {speech.Female, "en-GB", "c"},
		{speech.Male, "en-GB", "c"},   // the region beats the gender
		{speech.Male, "en-AU", "b"},   // the language, then the gender
		{speech.Female, "de-AT", "d"}, // only German voice
		{speech.Female, "es-MX", "e"},
		{speech.Neutral, "en-US", "a"}, // no neutral voice: the first of the language
		{speech.Male, "ja-JP", "b"},    // no Japanese: the first male voice
	} {
		v, ok, err := s.Nearest(context.Background(), c.gender, c.lang)
		if err != nil || !ok || v.ID != c.want {
			t.Errorf("%s %s: %s %v %v, want %s", c.gender, c.lang, v.ID, ok, err, c.want)
		}
	}
	if _, ok, err := speech.New(&engine{}, nil).Nearest(context.Background(), speech.Female, "en-US"); ok || err != nil {
		t.Errorf("no voices: %v %v", ok, err)
	}
}

func TestSynthesizeBoundsTheText(t *testing.T) {
	e := &engine{voices: testVoices}
	s := speech.New(e, nil)
	for _, text := range []string{"", "   \n", strings.Repeat("a", speech.MaxTextLength+1), "a\x00b"} {
		if _, err := s.Synthesize(context.Background(), text, testVoices[0]); !errs.Is(err, errs.Invalid) {
			t.Errorf("%.20q: %v", text, err)
		}
	}
	if _, err := s.Synthesize(context.Background(), strings.Repeat("é", speech.MaxTextLength), testVoices[0]); err != nil {
		t.Error(err)
	}
	if e.calls.Load() != 1 {
		t.Errorf("%d calls reached the engine", e.calls.Load())
	}
}

// A sample is made once, even when many ask at once, and says a greeting in the voice's
// language; a failed one is tried again.
func TestSamplesAreMadeOnce(t *testing.T) {
	e := &engine{voices: testVoices}
	s := speech.New(e, nil)
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if mp3, err := s.Sample(context.Background(), "d"); err != nil || len(mp3) == 0 {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if e.calls.Load() != 1 {
		t.Errorf("%d syntheses", e.calls.Load())
	}
	if text, _ := e.texts.Load("d"); text != "Hallo, hier ist Dan. Danke für Ihren Anruf. Wie kann ich Ihnen heute helfen?" {
		t.Errorf("sample text %q", text)
	}
	if _, err := s.Sample(context.Background(), "nope"); !errs.Is(err, errs.NotFound) {
		t.Errorf("unknown preset: %v", err)
	}

	e2 := &engine{voices: testVoices}
	s2 := speech.New(e2, nil)
	e2.fail = errors.New("engine down")
	if _, err := s2.Sample(context.Background(), "a"); err == nil {
		t.Fatal("want the engine's error")
	}
	e2.fail = nil
	if _, err := s2.Sample(context.Background(), "a"); err != nil || e2.calls.Load() != 2 {
		t.Fatalf("after the engine recovered: %v (%d calls)", err, e2.calls.Load())
	}
}

// english transcribes English only.
type english struct{}

func (english) Transcribe(context.Context, io.Reader, string) (string, error) { return "hello", nil }
func (english) Understands(language string) bool                              { return strings.HasPrefix(language, "en") }

func TestCheckTranscribes(t *testing.T) {
	if err := speech.New(&engine{}, nil).CheckTranscribes("en-US"); !errors.Is(err, speech.ErrSpeechToTextNotConfigured) {
		t.Errorf("no transcriber: %v", err)
	}
	s := speech.New(&engine{}, english{})
	if err := s.CheckTranscribes("en-GB"); err != nil {
		t.Errorf("English: %v", err)
	}
	if err := s.CheckTranscribes("fr-FR"); !errs.Is(err, errs.Unprocessable) || !strings.Contains(err.Error(), "not fr-FR") {
		t.Errorf("French: %v", err)
	}
	// A transcriber that does not say which languages it understands is trusted with all.
	if err := speech.New(&engine{}, struct{ speech.SpeechToText }{english{}}).CheckTranscribes("fr-FR"); err != nil {
		t.Errorf("any language: %v", err)
	}
}

// named is an engine with a name whose voices carry it.
type named struct {
	engine
	name string
	down error
}

func (n *named) Engine() string { return n.name }
func (n *named) Voices(context.Context) ([]speech.Voice, error) {
	if n.down != nil {
		return nil, n.down
	}
	out := []speech.Voice{}
	for _, v := range n.voices {
		v.Engine = n.name
		out = append(out, v)
	}
	return out, nil
}

// Combined lists the voices of every engine in order, speaks each with its own engine, and
// leaves out an engine that is not installed unless none is.
func TestCombinedEngines(t *testing.T) {
	a := &named{engine: engine{voices: testVoices[:2]}, name: "one"}
	b := &named{engine: engine{voices: testVoices[2:3]}, name: "two"}
	c := speech.Combine(a, b)
	vs, err := c.Voices(context.Background())
	if err != nil || len(vs) != 3 || vs[0].Engine != "one" || vs[2].Engine != "two" || c.Engine() != "one + two" {
		t.Fatalf("voices %+v %v (%s)", vs, err, c.Engine())
	}
	if _, err := c.Synthesize(context.Background(), "hi", vs[2]); err != nil || b.calls.Load() != 1 || a.calls.Load() != 0 {
		t.Fatalf("spoke with the wrong engine: %v, %d, %d", err, a.calls.Load(), b.calls.Load())
	}
	if _, err := c.Synthesize(context.Background(), "hi", speech.Voice{ID: "x", Engine: "three"}); !errs.Is(err, errs.Unavailable) {
		t.Errorf("unknown engine: %v", err)
	}

	missing := speech.Unavailable("one is not installed", nil)
	a.down = missing
	if vs, err := c.Voices(context.Background()); err != nil || len(vs) != 1 || vs[0].Engine != "two" {
		t.Errorf("one engine down: %+v %v", vs, err)
	}
	b.down = speech.Unavailable("two is not installed", nil)
	if _, err := c.Voices(context.Background()); !errs.Is(err, errs.Unavailable) || !strings.Contains(err.Error(), "one is not installed two is not installed") {
		t.Errorf("both down: %v, want both engines' messages", err)
	}
}
