package workflow_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/workflow"
)

func TestCompilePrompt(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "graphs", "024-cycle-through-customer.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v vector
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	g, err := workflow.Parse(v.Input)
	if err != nil {
		t.Fatal(err)
	}
	got := workflow.CompilePrompt(g, workflow.Script{Name: "Renewals", Type: workflow.Outbound, Agent: "Ava"})
	want := `Call flow "Renewals" (outbound)
Ava calls each contact of the list and follows the steps below.

Step 1. Start
  The call starts.
  Then go to step 2.

Step 2. Agent
  Ava: Ask the question.
  Then go to step 3.

Step 3. Conditional path
  Listen to the customer and take the path that matches:
  - Yes: go to step 4.
  - Repeat please: go to step 5.

Step 4. Customer response
  When the customer says: Yes
  Then go to step 6.

Step 5. Customer response
  When the customer says: Repeat please
  Then go to step 2.

Step 6. End call
  End the call politely.
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if again := workflow.CompilePrompt(g, workflow.Script{Name: "Renewals", Type: workflow.Outbound, Agent: "Ava"}); again != got {
		t.Error("CompilePrompt is not deterministic")
	}
}

func TestCompilePromptKeepsHeaderValuesOut(t *testing.T) {
	g := workflow.Graph{Nodes: []workflow.Node{
		{ID: "s", Type: workflow.Start, Data: workflow.Data{}},
		{ID: "w", Type: workflow.Webhook, Data: workflow.Data{"webhookUrl": "https://x.example/h", "webhookMethod": "POST",
			"webhookData": map[string]any{"headers": map[string]any{"Authorization": "Bearer s3cret"}}}},
	}, Edges: []workflow.Edge{{ID: "e", Source: "s", Target: "w"}}}
	p := workflow.CompilePrompt(g, workflow.Script{})
	if strings.Contains(p, "s3cret") || !strings.Contains(p, "headers: Authorization") {
		t.Errorf("prompt:\n%s", p)
	}
	if !strings.Contains(p, "Not connected") && strings.Contains(p, "Step 3") {
		t.Errorf("prompt:\n%s", p)
	}
}

func TestParseKind(t *testing.T) {
	for in, want := range map[string]workflow.Kind{"Start": workflow.Start, "end_call": workflow.EndCall, "endCall": workflow.EndCall,
		"End Call": workflow.EndCall, "conditional-path": workflow.ConditionalPath, "HubSpot lifecycle stage": workflow.LifecycleStage} {
		if got, ok := workflow.ParseKind(in); !ok || got != want {
			t.Errorf("ParseKind(%q) = %q, %v", in, got, ok)
		}
	}
	if _, ok := workflow.ParseKind("teleport"); ok {
		t.Error("teleport is not a kind")
	}
}

func TestValidE164(t *testing.T) {
	for s, want := range map[string]bool{"+14155550123": true, "+19995550123": false, "+447911123456": true, "+33612345678": true,
		"+1415555": false, "14155550123": false, "+0123456789": false, "+4479111234567890": false} {
		if got := workflow.ValidE164(s); got != want {
			t.Errorf("ValidE164(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestCompilePromptCarriesSpokenLines(t *testing.T) {
	g := workflow.Graph{Nodes: []workflow.Node{
		{ID: "s", Type: workflow.Start, Data: workflow.Data{}},
		{ID: "a", Type: workflow.Agent, Data: workflow.Data{"instruction": "Ask if they can come.", "say": "Can you still make it, {{firstName}}?"}},
		{ID: "e", Type: workflow.EndCall, Data: workflow.Data{"say": "Goodbye."}},
	}, Edges: []workflow.Edge{{ID: "e1", Source: "s", Target: "a"}, {ID: "e2", Source: "a", Target: "e"}}}
	p := workflow.CompilePrompt(g, workflow.Script{Agent: "Ava"})
	for _, want := range []string{"  Ava: Ask if they can come.\n  Spoken line (said as written without a language model): \"Can you still make it, {{firstName}}?\"\n",
		"  End the call politely.\n  Spoken line (said as written without a language model): \"Goodbye.\"\n"} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt lacks %q:\n%s", want, p)
		}
	}
}
