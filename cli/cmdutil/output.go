package cmdutil

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"gopkg.in/yaml.v3"
)

// Output is how a command prints its data: a table by default (aligned with headers on a
// terminal, tab-separated without headers in a pipe), or JSON or YAML of the data objects as the
// API sends them, for scripts.
type Output struct {
	Format string // "", "json" or "yaml"
}

// AddOutputFlags adds -o/--output and --json to cmd.
func AddOutputFlags(cmd *cobra.Command, o *Output) {
	cmd.Flags().VarP(formatValue{o}, "output", "o", "Output `format`: json or yaml (default: a table)")
	cmd.Flags().VarPF(jsonValue{o}, "json", "", "Print the data as JSON (same as -o json)").NoOptDefVal = "true"
}

type formatValue struct{ o *Output }

func (v formatValue) String() string { return v.o.Format }
func (v formatValue) Type() string   { return "format" }
func (v formatValue) Set(s string) error {
	switch s {
	case "json", "yaml":
		v.o.Format = s
		return nil
	}
	return fmt.Errorf("unknown output format %q: want json or yaml", s)
}

type jsonValue struct{ o *Output }

func (v jsonValue) String() string { return strconv.FormatBool(v.o.Format == "json") }
func (v jsonValue) Type() string   { return "bool" }
func (v jsonValue) Set(s string) error {
	on, err := strconv.ParseBool(s)
	if on {
		v.o.Format = "json"
	}
	return err
}

// Print writes data in the chosen format; for the default format, table fills the rows.
func (o Output) Print(s *IOStreams, data any, table func(t *Table)) error {
	switch o.Format {
	case "json":
		return writeJSON(s, data)
	case "yaml":
		return writeYAML(s, data)
	}
	return PrintTable(s, table)
}

// PrintTable prints the table fill builds.
func PrintTable(s *IOStreams, fill func(t *Table)) error {
	t := &Table{tty: s.StdoutTTY}
	fill(t)
	return t.render(s)
}

func encodeJSON(data any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	err := enc.Encode(data)
	return buf.Bytes(), err
}

func writeJSON(s *IOStreams, data any) error {
	raw, err := encodeJSON(data)
	if err != nil {
		return err
	}
	_, err = s.Out.Write(raw)
	return err
}

// writeYAML goes through JSON so the keys and their order are the API's.
func writeYAML(s *IOStreams, data any) error {
	raw, err := encodeJSON(data)
	if err != nil {
		return err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		return err
	}
	blockStyle(&doc)
	enc := yaml.NewEncoder(s.Out)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return err
	}
	return enc.Close()
}

// blockStyle drops the flow style ({…}, "…") the JSON parse left on every node.
func blockStyle(n *yaml.Node) {
	n.Style = 0
	for _, c := range n.Content {
		blockStyle(c)
	}
}

// Table collects rows to print. A table with a header lists things; one without shows the
// fields of one thing, a label and a value per row.
type Table struct {
	tty    bool
	header []string
	rows   [][]string
}

// Header sets the column names, shown on a terminal only. Every table writes its column names
// (and the labels of a one-thing table) the same way, in capitals, whatever the command passed.
func (t *Table) Header(cols ...string) {
	t.header = make([]string, len(cols))
	for i, c := range cols {
		t.header[i] = strings.ToUpper(c)
	}
}

// Row adds a row. In a table without a header (the fields of one thing) the first cell is
// the field's label, written in capitals like a list's column names.
func (t *Table) Row(cols ...string) { t.rows = append(t.rows, cols) }

// label is how a one-thing table writes a field's label.
func label(s string) string { return strings.ToUpper(s) }

func (t *Table) render(s *IOStreams) error {
	if t.tty && t.header != nil && len(t.rows) == 0 {
		_, err := fmt.Fprintln(s.ErrOut, "Nothing to show.")
		return err
	}
	rows := t.rows
	if t.tty && t.header != nil {
		rows = append([][]string{t.header}, rows...)
	}
	var b bytes.Buffer
	for _, r := range rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = strings.Map(flatten, c)
		}
		if t.header == nil && len(cells) > 0 {
			cells[0] = label(cells[0])
		}
		b.WriteString(strings.Join(cells, "\t") + "\n")
	}
	if !t.tty {
		_, err := s.Out.Write(b.Bytes())
		return err
	}
	var aligned bytes.Buffer
	tw := tabwriter.NewWriter(&aligned, 0, 0, 2, ' ', 0)
	if _, err := tw.Write(b.Bytes()); err != nil {
		return err
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// Padding after an empty last cell is invisible but would trail every such line.
	for line := range strings.Lines(aligned.String()) {
		if _, err := fmt.Fprintln(s.Out, strings.TrimRight(line, " \n")); err != nil {
			return err
		}
	}
	return nil
}

// flatten keeps a cell on one line and in one column.
func flatten(r rune) rune {
	if r == '\t' || r == '\n' || r == '\r' {
		return ' '
	}
	return r
}

// Str is the text of an optional value; empty when absent.
func Str[T ~string](p *T) string {
	if p == nil {
		return ""
	}
	return string(*p)
}

// Time is a timestamp as tables show it (RFC 3339, UTC); empty when absent.
func Time(t *time.Time) string {
	if t == nil || t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
