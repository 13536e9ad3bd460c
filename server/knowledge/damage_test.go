package knowledge_test

import (
	"bytes"
	"context"
	"math/rand"
	"runtime"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/knowledge"
	"github.com/bettyhq/betty/server/knowledge/knowledgetest"
)

// Thousands of damaged PDFs and DOCX files (bytes changed, cut, repeated; forged huge object
// numbers) each end in an answer within seconds: no panic, no hang, no memory blow-up.
func TestParseSurvivesDamage(t *testing.T) {
	seeds := [][]byte{knowledgetest.PDF(knowledgetest.Page{Heading: "A", Paragraphs: []string{"b c"}}), knowledgetest.DOCX(knowledgetest.Para{Text: "x"})}
	fm := []knowledge.Format{knowledge.PDF, knowledge.DOCX}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 3000; i++ {
		k := rng.Intn(2)
		d := append([]byte{}, seeds[k]...)
		for j := 0; j < 1+rng.Intn(4); j++ {
			switch rng.Intn(5) {
			case 0:
				d[rng.Intn(len(d))] = byte(rng.Intn(256))
			case 1:
				p := rng.Intn(len(d))
				d = append(d[:p], d[min(len(d), p+rng.Intn(20)):]...)
			case 2:
				p := rng.Intn(len(d))
				d = append(d[:p], append([]byte("0 R ["), d[p:]...)...)
			case 3:
				p := rng.Intn(len(d))
				d = append(d[:p], append([]byte("99999999"), d[p:]...)...)
			case 4:
				p := rng.Intn(len(d))
				q := rng.Intn(len(d))
				d = append(d[:p], append(append([]byte{}, d[q:min(len(d), q+30)]...), d[p:]...)...)
			}
		}
		done := make(chan struct{})
		go func() { knowledge.Parse(context.Background(), bytes.NewReader(d), int64(len(d)), fm[k]); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			buf := make([]byte, 1<<20)
			t.Fatalf("no answer within 5s for damaged %s %d (%q…):\n%s", fm[k], i, d[:min(len(d), 200)], buf[:runtime.Stack(buf, true)])
		}
	}
}
