package sphinx_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/bettyhq/betty/server/speech"
	"github.com/bettyhq/betty/server/speech/espeak"
	"github.com/bettyhq/betty/server/speech/flite"
	"github.com/bettyhq/betty/server/speech/speechtest"
	"github.com/bettyhq/betty/server/speech/sphinx"
)

// sentences are what agents and customers say on Betty's calls: greetings, questions, dates
// and yes/no answers, written as words (the recogniser writes numbers as words).
var sentences = []string{
	"Hello, thanks for calling Acme support. How can I help you today?",
	"I would like to book an appointment for next Tuesday morning.",
	"Our office is open from nine in the morning until five in the evening.",
	"Could you tell me the status of my order please?",
	"Your package will be delivered on Friday afternoon.",
	"Yes, that works for me. Thank you very much.",
	"No, please do not call me again.",
	"I am sorry, I do not know the answer. Can I take a message?",
	"Please send the invoice to my email address.",
	"Thank you for your time. Have a great day. Goodbye.",
}

// words are a text's words, lower case, without punctuation.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })
}

// wordErrors is the edit distance between two word sequences: substitutions, deletions and
// insertions.
func wordErrors(ref, hyp []string) int {
	prev := make([]int, len(hyp)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ref); i++ {
		cur := make([]int, len(hyp)+1)
		cur[0] = i
		for j := 1; j <= len(hyp); j++ {
			sub := prev[j-1]
			if ref[i-1] != hyp[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
		}
		prev = cur
	}
	return prev[len(hyp)]
}

func TestWordErrors(t *testing.T) {
	for _, c := range []struct {
		ref, hyp string
		want     int
	}{
		{"a b c", "a b c", 0}, {"a b c", "a x c", 1}, {"a b c", "a c", 1}, {"a b c", "a b c d", 1},
		{"a b c", "", 3}, {"", "a b", 2}, {"thanks for calling", "cents for calling at", 2},
	} {
		if got := wordErrors(words(c.ref), words(c.hyp)); got != c.want {
			t.Errorf("%q vs %q: %d, want %d", c.ref, c.hyp, got, c.want)
		}
	}
}

// werBound is the word error rate each voice must stay under: what was measured
// (docs/speech.md) with a margin.
var werBound = map[string]float64{
	"flite-en-us-slt":   0.25, // measured 16.5%
	"espeak-en-us-adam": 0.70, // measured 53.4%
}

// TestWordErrorRate synthesises the sentences with local voices, transcribes the MP3 offline
// and measures the word error rate per voice (BETTY_WER_ALL=1: every local preset).
func TestWordErrorRate(t *testing.T) {
	speechtest.Require(t, append(append(speechtest.Sphinx, speechtest.Flite...), speechtest.Espeak...)...)
	ctx := context.Background()
	tts := speech.Combine(flite.New(flite.Options{}), espeak.New(espeak.Options{}))
	voices, err := tts.Voices(ctx)
	if err != nil {
		t.Fatal(err)
	}
	stt := sphinx.New(sphinx.Options{Slots: 2})
	all := os.Getenv("BETTY_WER_ALL") != ""
	var mu sync.Mutex
	var wg sync.WaitGroup
	workers := make(chan struct{}, 2) // the engines' own slots refuse a crowd after a wait
	type score struct{ errors, words int }
	scores := map[string]*score{}
	for _, v := range voices {
		if _, ok := werBound[v.ID]; !ok && !all || !strings.HasPrefix(v.Language, "en-") {
			continue
		}
		scores[v.ID] = &score{}
		for _, s := range sentences {
			wg.Go(func() {
				workers <- struct{}{}
				defer func() { <-workers }()
				mp3, err := tts.Synthesize(ctx, s, v)
				if err != nil {
					t.Error(err)
					return
				}
				heard, err := stt.Transcribe(ctx, bytes.NewReader(mp3), "s.mp3")
				if err != nil {
					t.Error(err)
					return
				}
				n := wordErrors(words(s), words(heard))
				mu.Lock()
				scores[v.ID].errors += n
				scores[v.ID].words += len(words(s))
				mu.Unlock()
				t.Logf("%s: %q heard %q (%d errors)", v.ID, s, heard, n)
			})
		}
	}
	wg.Wait()
	for id, s := range scores {
		wer := float64(s.errors) / float64(s.words)
		fmt.Printf("WER %-24s %5.1f%% (%d errors in %d words)\n", id, 100*wer, s.errors, s.words)
		if bound, ok := werBound[id]; ok && wer > bound {
			t.Errorf("%s: word error rate %.1f%%, above the measured bound %.0f%%", id, 100*wer, 100*bound)
		}
	}
}
