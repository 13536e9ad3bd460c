package knowledge

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Bounds of one CSV row: encoding/csv gathers a whole row before answering it, and a line of
// 20 million commas would be 20 million strings.
const (
	MaxCSVColumns  = 1_000
	MaxCSVRowBytes = 1 << 20
)

var (
	errCSVColumns = unreadable("This CSV file has a row of more than %d columns; a knowledge file may have at most %d. Check it is comma-separated text.",
		MaxCSVColumns, MaxCSVColumns)
	errCSVRow = unreadable("This CSV file has a row longer than %d MiB. Check it is comma-separated text.", MaxCSVRowBytes>>20)
)

// parseCSV reads each row as "column: value" pairs named by the header row, so a passage says
// what each value is.
func parseCSV(src string, t *text) error {
	r := csv.NewReader(&csvGuard{r: strings.NewReader(src), start: true})
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	r.ReuseRecord = false
	problem := func(err error) error {
		if isParseError(err) {
			return err
		}
		return unreadable("This CSV file could not be read (%s). Check it is comma-separated text.", csvProblem(err))
	}
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil
	}
	if err != nil {
		return problem(err)
	}
	rows := 0
	for {
		row, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return problem(err)
		}
		first := true
		for i, v := range row {
			if v = strings.TrimSpace(v); v == "" {
				continue
			}
			if !first {
				if err := t.write("; "); err != nil {
					return err
				}
			}
			first = false
			if i < len(header) && strings.TrimSpace(header[i]) != "" {
				if err := t.write(strings.TrimSpace(header[i]) + ": "); err != nil {
					return err
				}
			}
			if err := t.write(v); err != nil {
				return err
			}
		}
		if !first {
			rows++
		}
		if err := t.end(0, false); err != nil {
			return err
		}
	}
	if rows == 0 { // a single line: the header is the content
		return t.add(Block{Text: strings.Join(header, "; ")})
	}
	return nil
}

func csvProblem(err error) string {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Sprintf("line %d: %v", pe.Line, pe.Err)
	}
	return err.Error()
}

// csvGuard passes a CSV through to encoding/csv, refusing a row of more than MaxCSVColumns
// fields or MaxCSVRowBytes bytes before that reader gathers it. It follows quotes as
// encoding/csv does with LazyQuotes (a quote opens a quoted field only at its start; in one,
// a doubled quote is a quote and a quote before a comma or a line break closes it), so a
// line break inside quotes does not end the row it counts.
type csvGuard struct {
	r       io.Reader
	columns int  // separators seen in the row
	bytes   int  // bytes of the row
	start   bool // at the start of a field
	quoted  bool // inside a quoted field
	quote   bool // a quote just seen inside a quoted field
}

func (g *csvGuard) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	for _, c := range p[:n] {
		g.bytes++
		if g.quote {
			g.quote = false
			if c == '"' {
				continue
			}
			if c == ',' || c == '\n' || c == '\r' {
				g.quoted = false
			}
		}
		switch {
		case g.quoted:
			g.quote = c == '"'
		case c == '"' && g.start:
			g.quoted, g.start = true, false
		case c == ',':
			g.columns++
			g.start = true
		case c == '\n':
			g.columns, g.bytes, g.start = 0, 0, true
		default:
			g.start = false
		}
		switch {
		case g.columns >= MaxCSVColumns:
			return 0, errCSVColumns
		case g.bytes > MaxCSVRowBytes:
			return 0, errCSVRow
		}
	}
	return n, err
}
