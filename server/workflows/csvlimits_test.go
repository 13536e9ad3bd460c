package workflows

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/store"
)

// csvOf is a header and rows of cells, comma-separated.
func csvOf(rows ...[]string) []byte {
	var b bytes.Buffer
	for _, r := range rows {
		b.WriteString(strings.Join(r, ","))
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// cells is n cells named prefix0, prefix1…
func cells(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprint(prefix, i)
	}
	return out
}

func repeat(cell string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = cell
	}
	return out
}

// A contacts file is bounded in columns, in the size of each row and in what a contact's extra
// fields hold (the bounds Zapier's contacts follow): beyond them the import ends in error
// naming the limit, and nothing near the file's size is ever held for one row.
func TestContactsFileBounds(t *testing.T) {
	const phone = "+14155550123"
	tenMB := 10 << 20
	cases := []struct {
		name string
		file []byte
		want string // in the import's error; "" when the file imports
	}{
		{"a million columns", csvOf(append([]string{"phone"}, cells("c", 999_999)...), append([]string{phone}, repeat("x", 999_999)...)),
			"header row is longer than 64 KiB"},
		{"201 columns", csvOf(append([]string{"phone", "firstName"}, repeat("phone", 199)...), []string{phone, "Ada"}),
			"201 columns; a contacts file has at most 200"},
		{"51 extra columns", csvOf(append([]string{"phone"}, cells("c", 51)...), []string{phone}),
			"51 columns besides phone, firstName, lastName, email and lifecycleStage; a contact carries at most 50 other fields"},
		{"a row of 300 cells", csvOf([]string{"phone", "note"}, append([]string{phone}, repeat("x", 299)...)),
			"Row 2: it has 300 cells; a contacts file has at most 200 columns"},
		{"a 10 MB line", csvOf([]string{"phone", "note"}, []string{phone, strings.Repeat("x", tenMB)}),
			"Row 2 is longer than 64 KiB"},
		{"a quote left open", append(csvOf([]string{"phone", "note"}, []string{phone, "fine"}), []byte(phone+`,"`+strings.Repeat("line\n", tenMB/5))...),
			"Row 3 is longer than 64 KiB"},
		{"a huge quoted field", csvOf([]string{"phone", "note"}, []string{phone, `"` + strings.Repeat("a,b\n", 1<<20) + `"`}),
			"Row 2 is longer than 64 KiB"},
		{"a 1001-character field", csvOf([]string{"phone", "note"}, []string{phone, "ok"}, []string{"+14155550124", strings.Repeat("x", 1001)}),
			"Row 3: the note column holds too much: an extra field holds at most 1000 characters"},
		{"17 KiB of extra fields", csvOf(append([]string{"phone"}, cells("c", 17)...), append([]string{phone}, repeat(strings.Repeat("x", 1000), 17)...)),
			"Row 2: the c16 column holds too much: a contact's extra fields hold at most 16 KiB in all"},
		{"within every bound", csvOf(append([]string{"phone", "firstName"}, cells("c", 50)...),
			// c0 holds 1000 characters in 2000 bytes: a field is counted in characters.
			append([]string{phone, "Ada", strings.Repeat("é", 1000)}, repeat(strings.Repeat("y", 250), 49)...),
			append([]string{"+14155550124", strings.Repeat("x", 10<<10)}, repeat(strings.Repeat("y", 300), 50)...)), ""},
	}
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := &Service{db: db}
		org, wf := benchWorkflow(t, db)
		for i, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				src := store.ContactSource{NodeID: fmt.Sprint("bounds-", i), OrganizationID: org, WorkflowID: wf, Source: "csv", Status: store.ContactsParsing}
				if err := db.SetContactSource(ctx, &src); err != nil {
					t.Fatal(err)
				}
				n, _, err := s.readContacts(ctx, src, bytes.NewReader(c.file), ImportOptions{Region: DefaultRegion}, DefaultMaxContactRows)
				var ie *importError
				switch {
				case c.want == "" && (err != nil || n != 2):
					t.Fatalf("imported %d: %v", n, err)
				case c.want != "" && (!errors.As(err, &ie) || !strings.Contains(ie.msg, c.want)):
					t.Fatalf("imported %d: %v, want an import error saying %q", n, err, c.want)
				}
			})
		}
	})
}

// The reader holds no more than about a row's bound of a 10 MB line or quoted field.
func TestContactsReaderIsBounded(t *testing.T) {
	for name, file := range map[string]string{
		"a 10 MB line":         "phone,note\n+14155550123," + strings.Repeat("x", 10<<20) + "\n",
		"a 10 MB quoted field": "phone,note\n+14155550123,\"" + strings.Repeat("x\n", 5<<20) + "\"\n",
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		r := newContactsCSV(strings.NewReader(file))
		var err error
		for err == nil {
			_, err = r.Read()
		}
		runtime.ReadMemStats(&after)
		if !errors.Is(err, errRowTooLong) || errors.Is(err, io.EOF) {
			t.Errorf("%s: %v", name, err)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 2<<20 {
			t.Errorf("%s: reading it allocated %d bytes", name, grew)
		}
	}
}

// A file of more data rows than the server's limit ends in error naming it; one of exactly
// that many imports. A number seen on an earlier row is kept failed, naming that row, however
// it was written. An import that ends in error keeps none of its rows.
func TestContactsRowLimitAndDuplicates(t *testing.T) {
	file := csvOf([]string{"phone"}, []string{"(415) 555-0100"}, []string{"+1 415 555 0101"}, []string{"+14155550100"}, []string{"+44 20 7946 0000"})
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := &Service{db: db}
		s.SetContactsMaxRows(3)
		org, wf := benchWorkflow(t, db)
		src := store.ContactSource{NodeID: "limit", OrganizationID: org, WorkflowID: wf, Source: "csv", Status: store.ContactsParsing}
		if err := db.SetContactSource(ctx, &src); err != nil {
			t.Fatal(err)
		}
		_, _, err := s.readContacts(ctx, src, bytes.NewReader(file), ImportOptions{Region: DefaultRegion}, s.maxRows)
		var ie *importError
		if !errors.As(err, &ie) || ie.msg != "The file has more than 3 contacts: split it into smaller files." {
			t.Fatalf("4 rows under a limit of 3: %v", err)
		}
		s.SetContactsMaxRows(4)
		s.SetContactsMaxRows(0) // keeps 4
		if err := db.DeleteContactsOfImport(ctx, org, src.NodeID, src.ImportID); err != nil {
			t.Fatal(err)
		}
		imported, rejected, err := s.readContacts(ctx, src, bytes.NewReader(file), ImportOptions{Region: DefaultRegion}, s.maxRows)
		if err != nil || imported != 3 || rejected != 1 {
			t.Fatalf("imported %d, rejected %d: %v", imported, rejected, err)
		}
		rows, _, err := db.ListContacts(ctx, org, src.NodeID, src.ImportID, 10, 0)
		if err != nil || len(rows) != 4 || rows[2].LastError == nil || *rows[2].LastError != "Duplicate of row 1: each number is called once." ||
			rows[1].Status != store.ContactPending || rows[3].Status != store.ContactPending {
			t.Fatalf("%+v %v", rows, err)
		}
		// An import that ends in error keeps none of the rows it wrote before.
		if err := s.finishImport(ctx, src, 3, 1, ie.msg); err != nil {
			t.Fatal(err)
		}
		failed, err := db.ContactSourceByImport(ctx, org, src.ImportID)
		if rows, total, lerr := db.ListContacts(ctx, org, src.NodeID, src.ImportID, 10, 0); err != nil || lerr != nil || total != 0 || len(rows) != 0 ||
			failed.Status != store.ContactsError || *failed.Error != ie.msg || failed.RowsImported != 0 {
			t.Fatalf("after the error: %d contacts, %+v %v %v", total, failed, err, lerr)
		}
	})
}

func TestFirstRows(t *testing.T) {
	var f firstRows
	for i, c := range []struct {
		phone string
		want  int
	}{{"+14155550100", 1}, {"+442079460000", 2}, {"+14155550100", 1}, {"+014155550100", 4}, {"+14155550101", 5}, {"not a number", 6},
		{"+014155550100", 4}, {"not a number", 6}, {"+442079460000", 2}} {
		if got := f.first(c.phone, i+1); got != c.want {
			t.Errorf("%s at row %d: first at %d, want %d", c.phone, i+1, got, c.want)
		}
	}
}
