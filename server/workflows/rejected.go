package workflows

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/store"
)

// The rows an import rejected are downloadable as a CSV file people can fix and upload again:
// each is the file's own row (read again from the upload, which the source keeps while it is
// set), under the file's own header, in file order, with the reason in a last column. The
// contacts table keeps only what it calls, so the stored contact could not give back the
// original cells (a stage outside the known ones is stored as "other"). A row is matched to
// its contact by its number among the file's non-blank rows, as the import numbers them.

// RejectedFile is the CSV of the rows an import rejected.
type RejectedFile struct {
	// Name is the file's name: the source file's, with "-rejected" before ".csv".
	Name string
	Data []byte
	Rows int
}

// RejectedContacts answers the rows of a workflow's node's CSV file that its import rejected.
func (s *Service) RejectedContacts(ctx context.Context, a auth.Actor, workflowID, nodeID string) (RejectedFile, error) {
	src, err := s.db.ContactSourceByNode(ctx, a.OrganizationID, workflowID, nodeID)
	if errors.Is(err, store.ErrNotFound) || err == nil && (src.Source != "csv" || src.UploadID == nil) {
		return RejectedFile{}, errs.NotFoundf("CSV file")
	}
	if err != nil {
		return RejectedFile{}, err
	}
	if src.Status == store.ContactsParsing {
		return RejectedFile{}, errs.ConflictErr("The file is still being imported: download its rejected rows once the import is done.")
	}
	reasons, err := s.db.RejectedContacts(ctx, a.OrganizationID, nodeID, src.ImportID)
	if err != nil {
		return RejectedFile{}, err
	}
	f, err := s.files.Open(ctx, a.OrganizationID, *src.UploadID)
	if errs.Is(err, errs.NotFound) {
		return RejectedFile{}, errs.New(errs.NotFound, "The uploaded file is gone: its rejected rows can no longer be downloaded; they are still listed with their reason.")
	}
	if err != nil {
		return RejectedFile{}, err
	}
	defer f.Close()
	data, err := rejectedCSV(f, reasons)
	if err != nil {
		return RejectedFile{}, err
	}
	name := "contacts.csv"
	if src.FileName != nil && *src.FileName != "" {
		name = *src.FileName
	}
	base, _ := strings.CutSuffix(name, ".csv")
	return RejectedFile{Name: base + "-rejected.csv", Data: data, Rows: len(reasons)}, nil
}

// rejectedCSV reads the file as the import does and writes the header and the rows whose
// number (among non-blank rows, from 1) has a reason, each with its reason last.
func rejectedCSV(r io.Reader, reasons map[int]string) ([]byte, error) {
	cr := newContactsCSV(r)
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		return nil, errs.UnprocessableErr("The file can no longer be read as CSV: " + err.Error())
	}
	reasonColumn := "reason"
	names := make([]string, len(header), len(header)+1)
	for i, h := range header {
		names[i] = strings.TrimPrefix(strings.TrimSpace(h), "\ufeff")
		if foldHeader(h) == "reason" {
			reasonColumn = "rejection reason"
		}
	}
	var out bytes.Buffer
	w := csv.NewWriter(&out)
	if err := w.Write(append(names, reasonColumn)); err != nil {
		return nil, err
	}
	row := make([]string, len(names)+1)
	seq, left := 0, len(reasons)
	for left > 0 {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, errs.UnprocessableErr(fmt.Sprintf("The file can no longer be read as CSV after row %d: %v", seq, err))
		}
		if blank(rec) {
			continue
		}
		seq++
		reason, ok := reasons[seq]
		if !ok {
			continue
		}
		left--
		// A row longer than the header has cells the import never read; a shorter one is padded.
		for i := range names {
			row[i] = ""
			if i < len(rec) {
				row[i] = defuseFormula(rec[i])
			}
		}
		row[len(names)] = reason
		if err := w.Write(row); err != nil {
			return nil, err
		}
	}
	w.Flush()
	return out.Bytes(), w.Error()
}

// defuseFormula keeps a spreadsheet from running a cell as a formula (OWASP's CSV injection
// advice): a cell starting with =, @, a tab or a carriage return, or with + or - not followed
// by a number (a phone number like +1 415… stays as written), gets a leading '.
func defuseFormula(v string) string {
	if v == "" {
		return v
	}
	switch v[0] {
	case '=', '@', '\t', '\r':
		return "'" + v
	case '+', '-':
		if !numberLike(v[1:]) {
			return "'" + v
		}
	}
	return v
}

func numberLike(v string) bool {
	digits := 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == ' ' || c == '(' || c == ')' || c == '-' || c == '.' || c == '/':
		default:
			return false
		}
	}
	return digits > 0
}
