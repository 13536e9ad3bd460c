package store_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/store"
)

// Searching one knowledge base of 10,000 passages while another team holds 10,000 more, on
// each database (benchreport times the whole domain call; this isolates the query).
func BenchmarkSearchPassages(b *testing.B) {
	for _, d := range testdb.Dialects() {
		b.Run(string(d), func(b *testing.B) {
			ctx := context.Background()
			db := testdb.Open(b, d, true)
			vocab := make([]string, 5000)
			for i := range vocab {
				vocab[i] = fmt.Sprintf("w%dx%d", i%97, i/97)
			}
			// Words as in natural text (Zipf, s = 1.07); questions use words past the 100 most
			// common, as the domain leaves common words out of a question.
			zipf := rand.NewZipf(rand.New(rand.NewPCG(1, 2)), 1.07, 1, uint64(len(vocab)-1))
			word := func() string { return vocab[zipf.Uint64()] }
			ask := func() string { return vocab[100+zipf.Uint64()%uint64(len(vocab)-100)] }
			var kbs []store.KnowledgeBase
			for team := range 2 {
				_, org := teamFixture(b, db, fmt.Sprintf("bench%d@example.com", team))
				kb := store.KnowledgeBase{OrganizationID: org.ID, Name: "Bench"}
				if err := db.CreateKnowledgeBase(ctx, &kb); err != nil {
					b.Fatal(err)
				}
				kbs = append(kbs, kb)
				for file := range 10 {
					f := store.KnowledgeFile{OrganizationID: org.ID, KnowledgeBaseID: kb.ID, Type: "txt", Status: store.KnowledgeSuccess, Name: fmt.Sprint(file)}
					if err := db.CreateKnowledgeFile(ctx, &f); err != nil {
						b.Fatal(err)
					}
					ps := make([]store.Passage, 1000)
					for i := range ps {
						var s strings.Builder
						for s.Len() < 700 {
							s.WriteString(word())
							s.WriteByte(' ')
						}
						ps[i] = store.Passage{Content: s.String()}
					}
					if err := db.ReplacePassages(ctx, org.ID, kb.ID, f.ID, ps); err != nil {
						b.Fatal(err)
					}
				}
			}
			kb := kbs[0]
			b.ResetTimer()
			for b.Loop() {
				if _, err := db.SearchPassages(ctx, kb.OrganizationID, store.SearchScope{KnowledgeBaseID: kb.ID}, []string{ask(), ask(), ask()}, 5); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
