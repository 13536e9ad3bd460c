package workflows

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/workflow"
)

// Placeholder is a value a template asks for; its texts hold it as {{Key}}.
type Placeholder struct {
	Key   string `json:"key"`
	Label string `json:"label"`
}

// Template is a workflow template with its decoded graph and placeholders.
type Template struct {
	store.WorkflowTemplate
	Graph        workflow.Graph
	Placeholders []Placeholder
}

func decodeTemplate(t store.WorkflowTemplate) (Template, error) {
	out := Template{WorkflowTemplate: t, Placeholders: []Placeholder{}}
	if err := json.Unmarshal([]byte(t.Placeholders), &out.Placeholders); err != nil {
		return out, fmt.Errorf("workflows: template %s placeholders: %w", t.ID, err)
	}
	g, err := workflow.Parse([]byte(t.Graph))
	if err != nil {
		return out, fmt.Errorf("workflows: template %s graph: %w", t.ID, err)
	}
	out.Graph = g
	return out, nil
}

// Templates lists the installation's templates by name, of one type when given.
func (s *Service) Templates(ctx context.Context, typ store.Direction, pg Page) ([]Template, int, error) {
	rows, total, err := s.db.ListWorkflowTemplates(ctx, typ, pg.Limit, pg.Offset)
	if err != nil {
		return nil, 0, err
	}
	out := make([]Template, 0, len(rows))
	for _, r := range rows {
		t, err := decodeTemplate(r)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, t)
	}
	return out, total, nil
}

// fromTemplate copies a template's graph with new ids, its placeholders replaced by values. A
// placeholder without a value stays {{key}}; a value for an unknown key is refused.
func fromTemplate(st store.WorkflowTemplate, values map[string]string) (workflow.Graph, error) {
	t, err := decodeTemplate(st)
	if err != nil {
		return workflow.Graph{}, err
	}
	known := map[string]bool{}
	for _, p := range t.Placeholders {
		known[p.Key] = true
	}
	var pairs []string
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !known[k] {
			return workflow.Graph{}, errs.InvalidField("body.templateValues."+k,
				fmt.Sprintf("The template %q has no placeholder %q.", t.Name, k))
		}
		if v := strings.TrimSpace(values[k]); v != "" {
			pairs = append(pairs, "{{"+k+"}}", v)
		}
	}
	g := renumber(t.Graph)
	if len(pairs) > 0 {
		r := strings.NewReplacer(pairs...)
		for i, n := range g.Nodes {
			g.Nodes[i].Data = fill(n.Data, r).(workflow.Data)
		}
	}
	return g, nil
}

// fill replaces placeholders in every string of a JSON value.
func fill(v any, r *strings.Replacer) any {
	switch x := v.(type) {
	case string:
		return r.Replace(x)
	case workflow.Data:
		out := workflow.Data{}
		for k, val := range x {
			out[k] = fill(val, r)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, val := range x {
			out[k] = fill(val, r)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, val := range x {
			out[i] = fill(val, r)
		}
		return out
	}
	return v
}
