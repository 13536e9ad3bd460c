package workflows

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// What one contact may carry, wherever it comes from. The fields beyond the named ones (a
// CSV file's other columns, a zap's other keys) are its extra fields: at most MaxExtraFields,
// each at most MaxExtraValue characters, MaxExtraBytes in all (names and values), so listing
// contacts stays small whatever was sent. A contacts file also has at most MaxContactColumns
// columns and each of its rows, the header too, takes at most MaxRowBytes of the file: the CSV
// reader never holds more than that of one line or one quoted field. Beyond any of these, a
// file's import ends in error naming the limit; a zap's push is refused naming the field.
const (
	MaxExtraFields    = 50
	MaxExtraValue     = 1000
	MaxExtraBytes     = 16 << 10
	MaxContactColumns = 200
	MaxRowBytes       = 64 << 10
)

// contactsReadAhead is the read buffer of a contacts file.
const contactsReadAhead = 64 << 10

// errRowTooLong is a row that runs past MaxRowBytes of the file.
var errRowTooLong = errors.New("workflows: a row of the contacts file is too long")

// contactsCSV reads a contacts file one row at a time, as the import and the rejected rows'
// download both read it.
type contactsCSV struct {
	*csv.Reader
	in *rowBound
}

func newContactsCSV(r io.Reader) *contactsCSV {
	in := &rowBound{r: r, max: MaxRowBytes + contactsReadAhead}
	cr := csv.NewReader(bufio.NewReaderSize(in, contactsReadAhead))
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true
	return &contactsCSV{Reader: cr, in: in}
}

// Read answers the next row, or errRowTooLong for one longer than MaxRowBytes (or one more
// than MaxContactColumns cells, whose []string alone would weigh 16 bytes a cell).
func (c *contactsCSV) Read() ([]string, error) {
	c.in.start = c.InputOffset()
	rec, err := c.Reader.Read()
	if c.in.tripped {
		return nil, errRowTooLong
	}
	return rec, err
}

// rowBound refuses to hand the CSV reader more than max bytes past the start of the row it
// reads. The buffer in between reads ahead at most contactsReadAhead bytes, so a row of at
// most MaxRowBytes never trips it, and no row holds more than max bytes in memory.
type rowBound struct {
	r          io.Reader
	read       int64
	start, max int64
	tripped    bool
}

func (b *rowBound) Read(p []byte) (int, error) {
	if b.read-b.start >= b.max {
		b.tripped = true
		return 0, errRowTooLong
	}
	p = p[:min(int64(len(p)), b.max-(b.read-b.start))]
	n, err := b.r.Read(p)
	b.read += int64(n)
	return n, err
}

// extraFieldProblem says what breaks the extra fields' rule in a value of the field named
// name, given the bytes the contact's extra fields held before it ("" when nothing does),
// and answers the bytes held with it.
func extraFieldProblem(name, value string, held int) (string, int) {
	held += len(name) + len(value)
	switch {
	case len(value) > MaxExtraValue && utf8.RuneCountInString(value) > MaxExtraValue:
		return fmt.Sprintf("an extra field holds at most %d characters", MaxExtraValue), held
	case held > MaxExtraBytes:
		return fmt.Sprintf("a contact's extra fields hold at most %d KiB in all", MaxExtraBytes>>10), held
	}
	return "", held
}
