package workflow_test

import (
	"testing"

	"github.com/bettyhq/betty/server/workflow"
)

func TestLine(t *testing.T) {
	cases := []struct {
		data workflow.Data
		want string
	}{
		{workflow.Data{"say": " Hi {{firstName}}. ", "instruction": `Say "something else"`}, "Hi {{firstName}}."},
		{workflow.Data{"instruction": `Answer what they asked. Then say "Is there anything else I can help you with?"`}, "Is there anything else I can help you with?"},
		{workflow.Data{"instruction": "Tell them the status of their order."}, ""},
		{workflow.Data{"say": "   "}, ""},
	}
	for _, c := range cases {
		if got := workflow.Line(workflow.Node{ID: "a", Type: workflow.Agent, Data: c.data}); got != c.want {
			t.Errorf("Line(%v) = %q, want %q", c.data, got, c.want)
		}
	}
}

// Steps that speak without a line of their own are warned about, on their say field; other
// kinds never.
func TestGeneric(t *testing.T) {
	g := workflow.Graph{Nodes: []workflow.Node{
		{ID: "start", Type: workflow.Start, Data: workflow.Data{}},
		{ID: "a", Type: workflow.Agent, Data: workflow.Data{"instruction": "Tell them the status of their order."}},
		{ID: "b", Type: workflow.Agent, Data: workflow.Data{"instruction": "x", "say": "Your order ships today."}},
		{ID: "cr", Type: workflow.CustomerResponse, Data: workflow.Data{"description": "Anything"}},
		{ID: "fwd", Type: workflow.ForwardCall, Data: workflow.Data{}},
		{ID: "end", Type: workflow.EndCall, Data: workflow.Data{"say": "Goodbye."}},
		{ID: "end2", Type: workflow.EndCall, Data: workflow.Data{}},
	}}
	vs := workflow.Generic(g)
	var got []string
	for _, v := range vs {
		if v.Rule != "say-missing" || v.Message == "" {
			t.Errorf("warning %+v", v)
		}
		got = append(got, v.Field)
	}
	want := []string{"nodes[a].say", "nodes[fwd].say", "nodes[end2].say"}
	if len(got) != len(want) {
		t.Fatalf("warnings %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("warnings %v, want %v", got, want)
		}
	}
	if len(workflow.Validate(g, workflow.Inbound)) == 0 {
		t.Fatal("the graph was expected to be unrunnable for other reasons")
	}
	for _, v := range workflow.Validate(g, workflow.Inbound) {
		if v.Rule == "say-missing" {
			t.Fatal("a missing line blocks a run")
		}
	}
}
