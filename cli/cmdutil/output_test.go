package cmdutil_test

import (
	"testing"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
)

type thing struct {
	Name string  `json:"name"`
	Note *string `json:"note"`
	HTML string  `json:"html"`
}

func TestOutput(t *testing.T) {
	data := []thing{{Name: "a", HTML: "<b>"}, {Name: "b\tc"}}
	fill := func(tb *cmdutil.Table) {
		tb.Header("NAME", "NOTE")
		for _, d := range data {
			tb.Row(d.Name, cmdutil.Str(d.Note))
		}
	}
	tests := []struct {
		name   string
		tty    bool
		format string
		want   string
	}{
		{name: "terminal", tty: true, want: "NAME  NOTE\na\nb c\n"},
		{name: "pipe", want: "a\t\nb c\t\n"},
		{name: "json", format: "json", want: `[
  {
    "name": "a",
    "note": null,
    "html": "<b>"
  },
  {
    "name": "b\tc",
    "note": null,
    "html": ""
  }
]
`},
		{name: "yaml", format: "yaml", want: `- name: a
  note: null
  html: <b>
- name: "b\tc"
  note: null
  html: ""
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, s := clitest.NewFactory(t, clitest.Options{TTY: tt.tty})
			if err := (cmdutil.Output{Format: tt.format}).Print(f.IO, data, fill); err != nil {
				t.Fatal(err)
			}
			if s.Out.String() != tt.want {
				t.Errorf("got\n%q\nwant\n%q", s.Out, tt.want)
			}
		})
	}
}

func TestOutputEmptyList(t *testing.T) {
	f, s := clitest.NewFactory(t, clitest.Options{TTY: true})
	err := cmdutil.Output{}.Print(f.IO, []thing{}, func(tb *cmdutil.Table) { tb.Header("NAME") })
	if err != nil {
		t.Fatal(err)
	}
	if s.Out.Len() != 0 || s.ErrOut.String() != "Nothing to show.\n" {
		t.Errorf("out %q, err %q", s.Out, s.ErrOut)
	}
}
