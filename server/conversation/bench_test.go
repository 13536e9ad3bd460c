package conversation_test

import (
	"context"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/conversation"
)

// BenchmarkConversation measures the engine through the local back-end on the renewal flow
// (a conditional path of four branches, a lifecycle stage, a forward, a loop back): each
// iteration is a whole call of four customer turns, its State going through JSON at every
// step as it does between carrier events. It reports the turns (agent and customer) a second
// one core holds; `make bench` prints it (benchreport's "conversation turns" row).
func BenchmarkConversation(b *testing.B) {
	k := &knowledge{passages: []string{"The premium plan costs 20 dollars a month.", "Renewals are due every year in March."}}
	e := engine(conversation.Deps{Knowledge: k, CRM: &crm{}})
	s := setup(renewal())
	ctx := context.Background()
	replies := []string{"Sorry, what was that about?", "How much does the renewal cost?", "Hmm, I'm not sure", "Yes please, renew it"}
	turns := 0
	b.ReportAllocs()
	start := time.Now()
	for b.Loop() {
		k.asked = k.asked[:0]
		st, _, err := e.Start(ctx, s)
		if err != nil {
			b.Fatal(err)
		}
		at := time.Duration(0)
		for _, r := range replies {
			at += 8 * time.Second
			if st, _, err = e.Heard(ctx, s, st, r, at); err != nil {
				b.Fatal(err)
			}
		}
		res, _ := e.Result(st)
		if !res.Ended {
			b.Fatal("the call did not end")
		}
		turns += len(res.Turns)
	}
	b.ReportMetric(float64(turns)/time.Since(start).Seconds(), "turns/s")
}
