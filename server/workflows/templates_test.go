package workflows

import (
	"context"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/workflow"
)

// Every seeded template obeys the hard rules and runs once what only its user can give is
// filled in (an outbound flow's contacts source, the after-hours on-call number).
func TestSeededTemplates(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		s := &Service{db: db}
		list, total, err := s.Templates(context.Background(), "", Page{Limit: 100})
		if err != nil || total < 7 {
			t.Fatalf("templates: %d %v", total, err)
		}
		for _, tp := range list {
			typ := workflow.Type(tp.Type)
			if vs := workflow.Check(tp.Graph, typ); len(vs) > 0 {
				t.Errorf("%s breaks a hard rule: %+v", tp.Name, vs)
			}
			if norm, changes := workflow.Normalize(tp.Graph); len(changes) > 0 || len(norm.Nodes) != len(tp.Graph.Nodes) {
				t.Errorf("%s is not normal: %+v", tp.Name, changes)
			}
			for _, v := range workflow.Generic(tp.Graph) {
				t.Errorf("%s has a step without a spoken line: %+v", tp.Name, v)
			}
			for _, v := range workflow.Validate(tp.Graph, typ) {
				if v.Rule != "source-missing" && v.Rule != "destination-missing" {
					t.Errorf("%s cannot run: %+v", tp.Name, v)
				}
			}
			if tp.Name == "Customer support" {
				g, err := fromTemplate(tp.WorkflowTemplate, map[string]string{"companyName": "Acme", "supportEmail": "a@b.example",
					"operatingHours": "9-5", "businessAddress": "1 Main St", "commonIssue1": "logins", "commonIssue2": "bills", "commonIssue3": "parcels"})
				if err != nil {
					t.Fatal(err)
				}
				text := string(mustJSON(g))
				for _, p := range tp.Placeholders { // {{agentName}} and the contact's fields are filled during the call
					if strings.Contains(text, "{{"+p.Key+"}}") || !strings.Contains(text, "parcels") {
						t.Errorf("customer support not filled: %s", text)
					}
				}
				if g.Nodes[0].ID == tp.Graph.Nodes[0].ID {
					t.Error("a copy keeps the template's node ids")
				}
				if vs := workflow.Validate(g, typ); len(vs) > 0 {
					t.Errorf("filled customer support cannot run: %+v", vs)
				}
			}
		}
	})
}

// Steps without a spoken line are warned about only while no language model is configured.
func TestWarningsFollowTheLanguageModel(t *testing.T) {
	g := workflow.Graph{Nodes: []workflow.Node{{ID: "a", Type: workflow.Agent, Data: workflow.Data{"instruction": "Greet them."}}}}
	s := &Service{localBrain: true} // as New makes it
	if w := s.warnings(g); len(w) != 1 || w[0].Field != "nodes[a].say" {
		t.Fatalf("without a model: %+v", w)
	}
	s.SetLanguageModel(true)
	if w := s.warnings(g); w == nil || len(w) != 0 {
		t.Fatalf("with a model: %+v", w)
	}
}
