package llm_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/llm"
)

func TestSentences(t *testing.T) {
	cases := []struct {
		text string
		want []string
	}{
		{"Sure. We open at nine. See you!", []string{"Sure.", "We open at nine.", "See you!"}},
		{"Dr. Patel sees you at 3.5 hours past noon. Fine?", []string{"Dr. Patel sees you at 3.5 hours past noon.", "Fine?"}},
		{"Bring papers, e.g. your ID. Thanks.", []string{"Bring papers, e.g. your ID.", "Thanks."}},
		{"We open at 9 a.m. on weekdays. Call us.", []string{"We open at 9 a.m. on weekdays.", "Call us."}},
		{"We open at 9 a.m. Call us then.", []string{"We open at 9 a.m.", "Call us then."}},
		{"Ask for J. Smith. She knows.", []string{"Ask for J. Smith.", "She knows."}},
		{`He said "Yes." Then he left.`, []string{`He said "Yes."`, "Then he left."}},
		{"Really?! Wow... That is great.", []string{"Really?!", "Wow...", "That is great."}},
		{"It costs $4.99 per month. No. 5 is sold out.", []string{"It costs $4.99 per month.", "No. 5 is sold out."}},
		{"no stop at the end", []string{"no stop at the end"}},
	}
	for _, c := range cases {
		// Streamed word by word and letter by letter: the cut never depends on the pieces.
		for _, pieces := range [][]string{strings.SplitAfter(c.text, " "), strings.Split(c.text, ""), {c.text}} {
			var s llm.Sentences
			var got []string
			for _, p := range pieces {
				got = append(got, s.Add(p)...)
			}
			if rest := s.Flush(); rest != "" {
				got = append(got, rest)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("%q in %d pieces: %q, want %q", c.text, len(pieces), got, c.want)
			}
		}
	}
}

// The first sentence comes out as soon as the word after its stop begins, before the rest.
func TestSentencesEarly(t *testing.T) {
	var s llm.Sentences
	if got := s.Add("Sure thing."); len(got) != 0 {
		t.Fatalf("a stop at the end of what came waits: %q", got)
	}
	if got := s.Add(" We"); !reflect.DeepEqual(got, []string{"Sure thing."}) {
		t.Fatalf("got %q", got)
	}
	if got := s.Add(" open"); len(got) != 0 || s.Flush() != "We open" {
		t.Fatal("the rest stays until flushed")
	}
}
