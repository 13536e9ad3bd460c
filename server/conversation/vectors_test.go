package conversation_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/workflow"
)

// TestEveryRunnableVectorRunsOffline holds a call, with simulated customers of several
// personas, on every graph of testdata/graphs that Validate finds runnable: each call ends
// (End Call, Forward Call, or the flow running out) with the local back-end.
func TestEveryRunnableVectorRunsOffline(t *testing.T) {
	files, err := filepath.Glob("../../testdata/graphs/*.json")
	if err != nil || len(files) < 30 {
		t.Fatalf("vectors: %d, %v", len(files), err)
	}
	e := engine(conversation.Deps{HTTP: refuseAll{}})
	c := conversation.NewCustomer(conversation.CustomerOptions{Seed: 3})
	runnable := 0
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var v struct {
			WorkflowType workflow.Type   `json:"workflowType"`
			Input        json.RawMessage `json:"input"`
		}
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		g, err := workflow.Parse(v.Input)
		if err != nil {
			continue
		}
		g, _ = workflow.Normalize(g)
		if len(workflow.Validate(g, v.WorkflowType)) > 0 {
			continue
		}
		runnable++
		for _, persona := range []string{"Happy and interested", "Not interested", "Wants a human", "Contact 7"} {
			r, hungUp := talk(t, e, c, setup(g), persona)
			if !r.Ended && !hungUp {
				t.Errorf("%s (%s): the call did not end: %s", filepath.Base(f), persona, mustJSON(r.Turns))
			}
		}
	}
	if runnable < 8 {
		t.Fatalf("only %d runnable vectors", runnable)
	}
}
