package store_test

import (
	"context"
	"testing"

	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/workflow"
)

// The shipped templates read top to bottom, as the canvas lays flows out (issue 23): every step
// sits below the step it follows, so a workflow made from one opens as stored.
func TestTemplatesReadTopToBottom(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		rows, _, err := db.ListWorkflowTemplates(context.Background(), "", 100, 0)
		if err != nil || len(rows) == 0 {
			t.Fatalf("templates: %d %v", len(rows), err)
		}
		for _, r := range rows {
			checkTopToBottom(t, r)
		}
	})
}

func checkTopToBottom(t *testing.T, r store.WorkflowTemplate) {
	t.Helper()
	g, err := workflow.Parse([]byte(r.Graph))
	if err != nil {
		t.Fatal(err)
	}
	y := map[string]float64{}
	for _, n := range g.Nodes {
		y[n.ID] = n.Position.Y
	}
	for _, e := range g.Edges {
		if y[e.Target] <= y[e.Source] {
			t.Errorf("%s: %s (y %v) is not below %s (y %v)", r.ID, e.Target, y[e.Target], e.Source, y[e.Source])
		}
	}
}
