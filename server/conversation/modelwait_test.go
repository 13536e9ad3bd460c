package conversation

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/llm"
	"github.com/bettyhq/betty/server/llm/openaitest"
	"github.com/bettyhq/betty/server/workflow"
)

// A model that keeps the customer waiting longer than modelWait for its first sentence, or
// for a branch choice, is replaced by the local wording and the lexical choice; one whose
// first sentence comes in time says the rest of its reply, however long it takes.
func TestModelWait(t *testing.T) {
	defer func(d time.Duration) { modelWait = d }(modelWait)
	modelWait = 300 * time.Millisecond
	f := openaitest.New()
	defer f.Close()
	f.Reply(func(openaitest.Request) string { return "Sure. We open at ten on Sundays." })
	e := New(Deps{Model: llm.NewOpenAI(llm.OpenAIConfig{BaseURL: f.BaseURL(), Model: "m", Timeout: 10 * time.Second})})
	ask := workflow.Node{ID: "ask", Type: workflow.Agent, Data: workflow.Data{"instruction": "Answer the question."}}
	yes := workflow.Node{ID: "yes", Type: workflow.CustomerResponse, Data: workflow.Data{"description": "Yes, wants to renew"}}
	no := workflow.Node{ID: "no", Type: workflow.CustomerResponse, Data: workflow.Data{"description": "No, not interested"}}
	newWalk := func() *walk {
		g := index(workflow.Graph{Nodes: []workflow.Node{ask, yes, no}})
		return &walk{e: e, g: g, st: &state{V: stateVersion, Turns: []turn{}, LastHeard: "When do you open?"}, prof: Profile{Name: "Linda"}}
	}

	f.Delay(2 * time.Second)
	w := newWalk()
	start := time.Now()
	w.agent(context.Background(), ask)
	if len(w.actions) != 1 || strings.Contains(w.actions[0].Text, "Sundays") || time.Since(start) > time.Second ||
		len(w.st.Steps) != 1 || !strings.Contains(w.st.Steps[0].Detail, "local wording") {
		t.Fatalf("a silent model: %+v %+v after %v", w.actions, w.st.Steps, time.Since(start))
	}
	w.st.Branches, w.st.Pending = []string{"yes", "no"}, "no thanks"
	start = time.Now()
	w.choose(context.Background())
	if w.st.Node != "no" || time.Since(start) > time.Second || !strings.Contains(w.st.Steps[1].Detail, "lexical similarity") {
		t.Fatalf("a silent choice: %q %+v after %v", w.st.Node, w.st.Steps, time.Since(start))
	}

	// "Sure. " after 100 ms, "We " after 200 ms (the first sentence is said), the rest until
	// 700 ms: past modelWait, all of it said.
	f.Delay(0)
	f.TokenDelay(100 * time.Millisecond)
	w = newWalk()
	w.agent(context.Background(), ask)
	if len(w.actions) != 2 || w.actions[0].Text != "Sure." || w.actions[1].Text != "We open at ten on Sundays." || len(w.st.Steps) != 0 {
		t.Fatalf("a slow model that began in time: %+v %+v", w.actions, w.st.Steps)
	}
}
