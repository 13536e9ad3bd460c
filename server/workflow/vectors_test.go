package workflow_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/workflow"
)

var update = flag.Bool("update", false, "rewrite the expected part of testdata/graphs/*.json")

// vector is one case of testdata/graphs (the format is in testdata/graphs/README.md).
type vector struct {
	Description  string          `json:"description"`
	WorkflowType workflow.Type   `json:"workflowType"`
	DeleteNode   string          `json:"deleteNode,omitempty"`
	Input        json.RawMessage `json:"input"`
	Expected     expected        `json:"expected"`
}

type expected struct {
	Errors     []finding         `json:"errors"`
	Normalized *workflow.Graph   `json:"normalized,omitempty"`
	Changes    []workflow.Change `json:"changes,omitempty"`
	Violations []finding         `json:"violations,omitempty"`
}

type finding struct {
	Field string `json:"field"`
	Rule  string `json:"rule"`
}

func findings(vs []workflow.Violation) []finding {
	out := []finding{}
	for _, v := range vs {
		out = append(out, finding{Field: v.Field, Rule: v.Rule})
	}
	return out
}

func run(t *testing.T, v vector) expected {
	t.Helper()
	g, err := workflow.Parse(v.Input)
	if err != nil {
		t.Fatalf("input: %v", err)
	}
	if v.DeleteNode != "" {
		g = workflow.DeleteNode(g, v.DeleteNode)
	}
	norm, changes, errs := workflow.Prepare(g, v.WorkflowType)
	if len(errs) > 0 {
		return expected{Errors: findings(errs)}
	}
	return expected{Errors: []finding{}, Normalized: &norm, Changes: changes,
		Violations: findings(workflow.Validate(norm, v.WorkflowType))}
}

func TestVectors(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "graphs")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	if len(files) < 30 {
		t.Fatalf("%d vectors in %s, want at least 30", len(files), dir)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".json"), func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var v vector
			if err := json.Unmarshal(raw, &v); err != nil {
				t.Fatalf("vector: %v", err)
			}
			got := run(t, v)
			if *update {
				v.Expected = got
				var buf bytes.Buffer
				enc := json.NewEncoder(&buf)
				enc.SetIndent("", "  ")
				enc.SetEscapeHTML(false)
				if err := enc.Encode(v); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(f, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, _ := json.MarshalIndent(v.Expected, "", "  ")
			have, _ := json.MarshalIndent(got, "", "  ")
			if !bytes.Equal(want, have) {
				t.Errorf("%s\nwant %s\ngot  %s", v.Description, want, have)
			}
		})
	}
}
