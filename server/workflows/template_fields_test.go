package workflows

import (
	"context"
	"testing"

	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/workflow"
)

// Every shipped template defines the post-call fields its calls gather, valid, and a
// workflow made from it keeps them.
func TestTemplatesDefinePostCallFields(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		s := &Service{db: db}
		list, _, err := s.Templates(context.Background(), "", Page{Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		for _, tp := range list {
			if len(tp.Graph.Fields) == 0 {
				t.Errorf("%s defines no post-call field", tp.Name)
			}
			if vs := workflow.CheckPostCallFields(tp.Graph.Fields); len(vs) > 0 {
				t.Errorf("%s: %+v", tp.Name, vs)
			}
			g, err := fromTemplate(tp.WorkflowTemplate, nil)
			if err != nil || len(g.Fields) != len(tp.Graph.Fields) {
				t.Errorf("%s: a workflow from it has fields %+v (%v)", tp.Name, g.Fields, err)
			}
		}
	})
}
