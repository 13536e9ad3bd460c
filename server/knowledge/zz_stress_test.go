package knowledge_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/knowledge"
	"github.com/bettyhq/betty/server/knowledge/knowledgetest"
)

func TestZZStress(t *testing.T) {
	if os.Getenv("STRESS") == "" {
		t.Skip()
	}
	var seeds [][]byte
	for _, g := range []string{"../../testdata/knowledge/real/*.pdf", "../../testdata/knowledge/encrypted/*.pdf", "../../testdata/knowledge/*.pdf"} {
		fs, _ := filepath.Glob(g)
		for _, f := range fs {
			d, _ := os.ReadFile(f)
			seeds = append(seeds, d)
		}
	}
	seeds = append(seeds, knowledgetest.OwnerProtectedPDF("aes-128", "hello there"))
	w := knowledgetest.NewWriter()
	w.Add("<< /Type /Catalog /Pages 2 0 R >>")
	w.Add("<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
	w.Add("<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 5 0 R >> /XObject << /X 6 0 R >> >> /Contents 4 0 R >>")
	w.AddStream("/Filter /FlateDecode", knowledgetest.Flate([]byte("BT /F1 12 Tf 72 700 Td [(Hello) -300 (world)] TJ ET /X Do")))
	w.Add(knowledgetest.Font)
	w.AddStream("/Subtype /Form", []byte("BT /F1 9 Tf (form) Tj ET"))
	seeds = append(seeds, w.Write(knowledgetest.Options{XrefStream: true, Packed: []int{1, 2, 3, 5}}))
	rng := rand.New(rand.NewSource(int64(os.Getpid())))
	n := 100000
	slowest := time.Duration(0)
	for i := 0; i < n; i++ {
		d := append([]byte{}, seeds[rng.Intn(len(seeds))]...)
		for j := 0; j < 1+rng.Intn(6); j++ {
			if len(d) < 2 {
				break
			}
			p := rng.Intn(len(d))
			switch rng.Intn(7) {
			case 0:
				d[p] = byte(rng.Intn(256))
			case 1:
				d = append(d[:p], d[min(len(d), p+rng.Intn(200)):]...)
			case 2:
				d = append(d[:p], append([]byte(" 0 R ["), d[p:]...)...)
			case 3:
				d = append(d[:p], append([]byte(fmt.Sprint(rng.Int63n(1<<40))), d[p:]...)...)
			case 4:
				q := rng.Intn(len(d))
				d = append(d[:p], append(append([]byte{}, d[q:min(len(d), q+300)]...), d[p:]...)...)
			case 5:
				d = append(d[:p], append([]byte(" 7 0 R "), d[p:]...)...)
			case 6:
				d = append(d[:p], append([]byte("<<"), d[p:]...)...)
			}
		}
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		knowledge.Parse(ctx, bytes.NewReader(d), int64(len(d)), knowledge.PDF)
		cancel()
		if el := time.Since(start); el > slowest {
			slowest = el
			if el > 300*time.Millisecond {
				os.WriteFile(fmt.Sprintf("/tmp/slow-%d.pdf", i), d, 0o644)
				fmt.Println("slow", i, el)
			}
		}
	}
	fmt.Println("slowest", slowest)
}
