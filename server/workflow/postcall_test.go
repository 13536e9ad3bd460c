package workflow_test

import (
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/workflow"
)

func TestCheckPostCallFields(t *testing.T) {
	ok := workflow.PostCallField{Name: "appointment_day", Type: workflow.ValueDate, Description: "Which day suits you?"}
	many := make([]workflow.PostCallField, workflow.MaxFields+1)
	for i := range many {
		many[i] = ok
	}
	cases := []struct {
		name   string
		fields []workflow.PostCallField
		field  string // "" when valid
	}{
		{"none", nil, ""},
		{"valid", []workflow.PostCallField{ok, {Name: "interested", Type: workflow.ValueYesNo, Description: "Interested?"},
			{Name: "plan", Type: workflow.ValueChoice, Description: "Which plan?", Options: []string{"basic", "pro"}}}, ""},
		{"too many", many, "postCallFields"},
		{"empty name", []workflow.PostCallField{{Type: workflow.ValueText, Description: "x"}}, "postCallFields[0].name"},
		{"camel case", []workflow.PostCallField{{Name: "appointmentDay", Type: workflow.ValueText, Description: "x"}}, "postCallFields[0].name"},
		{"double underscore", []workflow.PostCallField{{Name: "a__b", Type: workflow.ValueText, Description: "x"}}, "postCallFields[0].name"},
		{"too long", []workflow.PostCallField{{Name: strings.Repeat("a", workflow.MaxFieldName+1), Type: workflow.ValueText, Description: "x"}}, "postCallFields[0].name"},
		{"taken", []workflow.PostCallField{ok, ok}, "postCallFields[1].name"},
		{"unknown type", []workflow.PostCallField{{Name: "a", Type: "colour", Description: "x"}}, "postCallFields[0].type"},
		{"no description", []workflow.PostCallField{{Name: "a", Type: workflow.ValueText, Description: " "}}, "postCallFields[0].description"},
		{"choice without options", []workflow.PostCallField{{Name: "a", Type: workflow.ValueChoice, Description: "x", Options: []string{"one"}}}, "postCallFields[0].options"},
		{"options off a choice", []workflow.PostCallField{{Name: "a", Type: workflow.ValueText, Description: "x", Options: []string{"a", "b"}}}, "postCallFields[0].options"},
		{"option twice", []workflow.PostCallField{{Name: "a", Type: workflow.ValueChoice, Description: "x", Options: []string{"Pro", "pro"}}}, "postCallFields[0].options"},
		{"empty option", []workflow.PostCallField{{Name: "a", Type: workflow.ValueChoice, Description: "x", Options: []string{"a", ""}}}, "postCallFields[0].options"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			vs := workflow.CheckPostCallFields(c.fields)
			switch {
			case c.field == "" && len(vs) > 0:
				t.Fatalf("refused: %+v", vs)
			case c.field != "" && (len(vs) != 1 || vs[0].Field != c.field):
				t.Fatalf("violations %+v, want one on %s", vs, c.field)
			}
		})
	}
}

func TestPrepareKeepsPostCallFields(t *testing.T) {
	g := workflow.Graph{Nodes: []workflow.Node{{ID: "s", Type: workflow.Start, Data: workflow.Data{}}},
		Fields: []workflow.PostCallField{{Name: " email ", Type: workflow.ValueEmail, Description: "  Your   e-mail? "}}}
	norm, _, vs := workflow.Prepare(g, workflow.Outbound)
	if len(vs) > 0 {
		t.Fatal(vs)
	}
	if len(norm.Fields) != 1 || norm.Fields[0].Name != "email" || norm.Fields[0].Description != "Your e-mail?" {
		t.Fatalf("fields %+v", norm.Fields)
	}
	g.Fields[0].Type = "mail"
	if _, _, vs := workflow.Prepare(g, workflow.Outbound); len(vs) != 1 || vs[0].Field != "postCallFields[0].type" {
		t.Fatalf("violations %+v", vs)
	}
}
