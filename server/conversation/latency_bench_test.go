package conversation_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/llm"
	"github.com/bettyhq/betty/server/llm/openaitest"
)

// firstSentence is how long the fake model takes to complete its first sentence.
const firstSentence = 20 * time.Millisecond

// BenchmarkTurnLatency measures Betty's own part of the wait after the customer's last word:
// from Heard (the call.heard event reaching the engine) to the first Say handed to SpeakNow
// (the first speak command), with a language model (the fake server, over HTTP and SSE) whose
// first sentence is complete firstSentence after it is asked. Betty's overhead is that time
// less firstSentence: building the prompt (profile, FAQ, knowledge passages, the call so far),
// the request, reading the stream, cutting the sentence. It reports the overhead at p50 and
// p95 over 100 turns an iteration; the target is under 50 ms at p95. `make bench` prints it.
func BenchmarkTurnLatency(b *testing.B) {
	f := openaitest.New()
	defer f.Close()
	f.Reply(func(openaitest.Request) string {
		return "Sure, Ann. We are open from nine to five on weekdays, and from ten to four on Sundays. Is there anything else I can help with?"
	})
	k := &knowledge{passages: []string{"Opening hours: weekdays 9 to 5, Sundays 10 to 4.", "The premium plan costs 20 dollars a month."}}
	e := engine(conversation.Deps{Knowledge: k, Model: llm.NewOpenAI(llm.OpenAIConfig{BaseURL: f.BaseURL(), Model: "m"})})
	s := setup(question())
	ctx := context.Background()
	st, _, err := e.Start(ctx, s)
	if err != nil {
		b.Fatal(err)
	}
	f.Delay(firstSentence) // the whole first sentence comes in the first chunks after it
	var overhead []time.Duration
	var start time.Time
	first := time.Duration(-1)
	s.SpeakNow = func(conversation.Action) {
		if first < 0 {
			first = time.Since(start)
		}
	}
	for b.Loop() {
		for range 100 {
			k.asked = k.asked[:0]
			first, start = -1, time.Now()
			if _, _, err := e.Heard(ctx, s, st, "When are you open on Sunday?", 5*time.Second); err != nil {
				b.Fatal(err)
			}
			if first < 0 {
				b.Fatal("nothing was spoken")
			}
			overhead = append(overhead, first-firstSentence)
		}
	}
	slices.Sort(overhead)
	at := func(p float64) float64 {
		return float64(overhead[int(p*float64(len(overhead)-1))]) / float64(time.Millisecond)
	}
	b.ReportMetric(at(0.50), "overhead-p50-ms")
	b.ReportMetric(at(0.95), "overhead-p95-ms")
	b.ReportMetric(float64(firstSentence.Milliseconds()), "model-first-sentence-ms")
}
