package workflows

// The CSV import of a Contacts node (its rules are written at the top of contacts.go): the
// River job that streams the file, the columns, and one row as a contact (also how a CRM's or
// Zapier's contact is read, so every source is normalised the same way).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"unicode"

	"github.com/riverqueue/river"

	"github.com/bettyhq/betty/server/campaigns"
	"github.com/bettyhq/betty/server/errs"
	tel "github.com/bettyhq/betty/server/phones"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/workflow"
)

// importArgs is the job that imports the CSV file of a node's current import.
type importArgs struct {
	OrganizationID string `json:"organizationId"`
	NodeID         string `json:"nodeId"`
	ImportID       string `json:"importId"`
	// Region is the default region of numbers without a country code (DefaultRegion when
	// empty, as in jobs inserted before it existed).
	Region string `json:"region,omitempty"`
	// ConvertLetters reads the letters of vanity numbers as keypad digits (ContactsInput).
	ConvertLetters bool `json:"convertLetters,omitempty"`
}

func (importArgs) Kind() string { return "contacts_import" }

type importer struct {
	river.WorkerDefaults[importArgs]
	s *Service
}

func (w *importer) Work(ctx context.Context, job *river.Job[importArgs]) error {
	return w.s.ImportContacts(ctx, job.Args.OrganizationID, job.Args.ImportID, ImportOptions{Region: job.Args.Region, ConvertLetters: job.Args.ConvertLetters}, job.Attempt >= job.MaxAttempts)
}

// contactsNode finds a team's workflow and its contacts node.
type importError struct{ msg string }

func (e *importError) Error() string { return e.msg }

// ImportContacts imports the CSV file of a node's current import, streaming it in batches. The
// import id alone finds the source (a node id is unique only in its workflow). An import
// that is no longer current (replaced or cleared) stops; doing it again starts from a
// clean slate (River works a job at least once).
func (s *Service) ImportContacts(ctx context.Context, orgID, importID string, opts ImportOptions, lastAttempt bool) error {
	if opts.Region == "" {
		opts.Region = DefaultRegion
	}
	src, err := s.db.ContactSourceByImport(ctx, orgID, importID)
	if errors.Is(err, store.ErrNotFound) || err == nil && (src.Status != store.ContactsParsing || src.UploadID == nil) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := s.db.DeleteContactsOfImport(ctx, orgID, src.NodeID, importID); err != nil {
		return err
	}
	f, err := s.files.Open(ctx, orgID, *src.UploadID)
	if err != nil {
		if errs.Is(err, errs.NotFound) || lastAttempt {
			return s.finishImport(ctx, src, 0, 0, "The uploaded file is gone or could not be read; upload it again.")
		}
		return err
	}
	defer f.Close()
	imported, rejected, err := s.readContacts(ctx, src, f, opts, s.maxRows)
	var ie *importError
	switch {
	case errors.As(err, &ie):
		return s.finishImport(ctx, src, imported, rejected, ie.msg)
	case errors.Is(err, errStale):
		return nil
	case err != nil && lastAttempt:
		return s.finishImport(ctx, src, imported, rejected, "The file could not be read from storage; set it again in a while.")
	case err != nil:
		return err
	}
	return s.finishImport(ctx, src, imported, rejected, "")
}

var errStale = errors.New("workflows: import replaced")

// ImportOptions are how a CSV file's numbers are read.
type ImportOptions struct {
	// Region is the region of numbers written without a country code (DefaultRegion when empty).
	Region string
	// ConvertLetters reads letters as keypad digits; off, a number with letters is refused.
	ConvertLetters bool
}

// finishImport records how an import ended. One that ends in error keeps none of its rows
// (the batches written before the failure are removed with the same transaction): a node's
// contacts are a whole file or none of it.
func (s *Service) finishImport(ctx context.Context, src store.ContactSource, imported, rejected int, failure string) error {
	if failure == "" {
		_, err := s.db.FinishContactImport(ctx, src.OrganizationID, src.NodeID, src.ImportID, store.ContactsSuccess, nil, imported, rejected)
		return err
	}
	return s.db.InTx(ctx, func(ctx context.Context) error {
		if err := s.db.DeleteContactsOfImport(ctx, src.OrganizationID, src.NodeID, src.ImportID); err != nil {
			return err
		}
		_, err := s.db.FinishContactImport(ctx, src.OrganizationID, src.NodeID, src.ImportID, store.ContactsError, &failure, 0, 0)
		return err
	})
}

// column is what a CSV column holds.
type column int

const (
	colExtra column = iota
	colPhone
	colFirstName
	colLastName
	colEmail
	colStage
)

var columnNames = map[string]column{"phone": colPhone, "phonenumber": colPhone, "firstname": colFirstName,
	"lastname": colLastName, "email": colEmail, "lifecyclestage": colStage}

func foldHeader(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		if r == ' ' || r == '_' || r == '-' || r == '\ufeff' {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// readContacts streams the CSV into the source's current import and answers how many rows it
// imported (callable) and rejected (kept, failed). Reading, normalising and writing overlap:
// one goroutine reads the file in chunks, one worker per CPU normalises them, and this one
// numbers, de-duplicates and writes them in file order.
func (s *Service) readContacts(ctx context.Context, src store.ContactSource, r io.Reader, opts ImportOptions, maxRows int) (int, int, error) {
	cr := newContactsCSV(r)
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return 0, 0, &importError{"The file is empty: it needs a header row and one row per contact."}
	}
	if errors.Is(err, errRowTooLong) {
		return 0, 0, &importError{fmt.Sprintf("The header row is longer than %d KiB: a contacts file has at most %d columns.", MaxRowBytes>>10, MaxContactColumns)}
	}
	if err != nil {
		return 0, 0, &importError{"The file is not a CSV file: " + err.Error()}
	}
	if len(header) > MaxContactColumns {
		return 0, 0, &importError{fmt.Sprintf("The file has %d columns; a contacts file has at most %d.", len(header), MaxContactColumns)}
	}
	cols := make([]column, len(header))
	names := make([]string, len(header))
	var extras []int
	hasPhone := false
	for i, h := range header {
		names[i] = strings.TrimPrefix(strings.TrimSpace(h), "\ufeff")
		cols[i] = columnNames[foldHeader(h)]
		hasPhone = hasPhone || cols[i] == colPhone
		if cols[i] == colExtra {
			extras = append(extras, i)
		}
	}
	if !hasPhone {
		return 0, 0, &importError{"The file has no phone column: name one of its columns phone (or phoneNumber)."}
	}
	if len(extras) > MaxExtraFields {
		return 0, 0, &importError{fmt.Sprintf("The file has %d columns besides phone, firstName, lastName, email and lifecycleStage; "+
			"a contact carries at most %d other fields: remove the columns you do not need.", len(extras), MaxExtraFields)}
	}

	numbers, err := s.teamNumbers(ctx, src.OrganizationID, src.WorkflowID)
	if errors.Is(err, store.ErrNotFound) {
		return 0, 0, errStale // the workflow is gone, and its contacts source with it
	}
	if err != nil {
		return 0, 0, err
	}

	if err := s.db.PrepareContactInserts(ctx); err != nil {
		return 0, 0, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type chunk struct {
		rows [][]string
		out  chan []store.Contact
		err  error
	}
	work := make(chan chunk, runtime.GOMAXPROCS(0))
	ordered := make(chan chunk, runtime.GOMAXPROCS(0))
	go func() { // the reader
		defer close(work)
		defer close(ordered)
		rows, line := make([][]string, 0, importBatch), 1
		send := func(c chunk) bool {
			select {
			case ordered <- c:
			case <-ctx.Done():
				return false
			}
			if c.err != nil {
				return false
			}
			select {
			case work <- c:
				return true
			case <-ctx.Done():
				return false
			}
		}
		for {
			rec, err := cr.Read()
			line++
			if errors.Is(err, io.EOF) {
				break
			}
			if errors.Is(err, errRowTooLong) {
				send(chunk{err: &importError{fmt.Sprintf("Row %d is longer than %d KiB, the most a row may take (is a quote left open?).", line, MaxRowBytes>>10)}})
				return
			}
			if err != nil {
				send(chunk{err: &importError{fmt.Sprintf("Row %d is not valid CSV: %v", line, err)}})
				return
			}
			if blank(rec) {
				continue
			}
			if msg := rowProblem(rec, extras, names); msg != "" {
				send(chunk{err: &importError{fmt.Sprintf("Row %d: %s.", line, msg)}})
				return
			}
			rows = append(rows, rec)
			if len(rows) == importBatch {
				if !send(chunk{rows: rows, out: make(chan []store.Contact, 1)}) {
					return
				}
				rows = make([][]string, 0, importBatch)
			}
		}
		if len(rows) > 0 {
			send(chunk{rows: rows, out: make(chan []store.Contact, 1)})
		}
	}()
	for range runtime.GOMAXPROCS(0) { // the normalisers
		go func() {
			p := newPhones(opts.Region)
			p.numbers, p.letters = numbers, opts.ConvertLetters
			for c := range work {
				out := make([]store.Contact, len(c.rows))
				for i, rec := range c.rows {
					out[i] = contactFromRow(rec, cols, names, p)
				}
				c.out <- out
			}
		}()
	}

	var seen firstRows
	imported, rejected, seq := 0, 0, 0
	for c := range ordered {
		if c.err != nil {
			return imported, rejected, c.err
		}
		var batch []store.Contact
		select {
		case batch = <-c.out:
		case <-ctx.Done():
			return imported, rejected, ctx.Err()
		}
		for i := range batch {
			seq++
			if seq > maxRows {
				return imported, rejected, &importError{fmt.Sprintf("The file has more than %d contacts: split it into smaller files.", maxRows)}
			}
			ct := &batch[i]
			ct.OrganizationID, ct.NodeID, ct.ImportID, ct.Seq = src.OrganizationID, src.NodeID, src.ImportID, seq
			if ct.Status == store.ContactPending {
				if first := seen.first(ct.Phone, seq); first != seq {
					ct.Status, ct.LastError = store.ContactFailed, ptr(fmt.Sprintf("Duplicate of row %d: each number is called once.", first))
				}
			}
			if ct.Status == store.ContactPending {
				imported++
			} else {
				rejected++
			}
		}
		err := s.db.InTx(ctx, func(ctx context.Context) error {
			_, err := s.db.ContactSourceByImport(ctx, src.OrganizationID, src.ImportID)
			if errors.Is(err, store.ErrNotFound) {
				return errStale
			}
			if err != nil {
				return err
			}
			return s.db.InsertContacts(ctx, batch)
		})
		if err != nil {
			return imported, rejected, err
		}
	}
	if err := ctx.Err(); err != nil {
		return imported, rejected, err
	}
	if seq == 0 {
		return 0, 0, &importError{"The file has a header but no contacts."}
	}
	return imported, rejected, nil
}

// firstRows remembers the row where each number of a file first appears: the one thing an
// import holds for the whole file (the rows themselves pass through a batch at a time). A
// number in E.164 is a "+" and at most 15 digits, so it is kept as an integer: 16 to 32 bytes
// a number in the map (by how full it is) instead of about 60 as a string, some 25 MiB for a
// million numbers (make bench prints the peak).
type firstRows struct {
	byDigits map[uint64]int32
	other    map[string]int // a number not of that shape (none the normaliser accepts today)
}

// first answers the row where phone first appeared, recording seq when this is it.
func (f *firstRows) first(phone string, seq int) int {
	if len(phone) > 1 && len(phone) <= 16 && phone[0] == '+' && phone[1] != '0' {
		if n, err := strconv.ParseUint(phone[1:], 10, 64); err == nil {
			if f.byDigits == nil {
				f.byDigits = make(map[uint64]int32)
			}
			if at, ok := f.byDigits[n]; ok {
				return int(at)
			}
			f.byDigits[n] = int32(seq)
			return seq
		}
	}
	if f.other == nil {
		f.other = make(map[string]int)
	}
	if at, ok := f.other[phone]; ok {
		return at
	}
	f.other[phone] = seq
	return seq
}

// rowProblem says what breaks the bounds of a contact in a row ("" when nothing does): more
// cells than a file's columns, or extra fields (the cells of the columns extras) too big.
func rowProblem(rec []string, extras []int, names []string) string {
	if len(rec) > MaxContactColumns {
		return fmt.Sprintf("it has %d cells; a contacts file has at most %d columns", len(rec), MaxContactColumns)
	}
	held := 0
	for _, i := range extras {
		if i >= len(rec) {
			break
		}
		v := strings.TrimSpace(rec[i])
		if v == "" {
			continue
		}
		var msg string
		if msg, held = extraFieldProblem(names[i], v, held); msg != "" {
			return fmt.Sprintf("the %s column holds too much: %s", names[i], msg)
		}
	}
	return ""
}

// teamNumbers is the policy of the numbers the team types for a workflow: its campaign's
// allowedNumberTypes (read when the file is imported; the dialer checks again at each dial),
// landlines and mobiles only outside campaigns.
func (s *Service) teamNumbers(ctx context.Context, orgID, workflowID string) (tel.Policy, error) {
	w, err := s.db.WorkflowByID(ctx, orgID, workflowID)
	if err != nil || w.CampaignID == nil {
		return tel.TeamPolicy(nil), err
	}
	c, err := s.db.CampaignByID(ctx, orgID, *w.CampaignID)
	if err != nil {
		return tel.Policy{}, err
	}
	return campaigns.Decode(c.Settings).NumberPolicy(), nil
}

func blank(rec []string) bool {
	for _, f := range rec {
		if strings.TrimSpace(f) != "" {
			return false
		}
	}
	return true
}

func ptr[T any](v T) *T { return &v }

// ContactFromRow reads one CSV row: the known columns, the rest as extra fields, the phone
// number normalised (a row without a valid one, or with one of a kind beyond landlines and
// mobiles, is failed, with the reason).
func ContactFromRow(rec []string, cols []column, names []string, region string) store.Contact {
	p := newPhones(region)
	p.numbers = tel.TeamPolicy(nil)
	return contactFromRow(rec, cols, names, p)
}

func contactFromRow(rec []string, cols []column, names []string, p *phones) store.Contact {
	c := store.Contact{Status: store.ContactPending}
	var extra map[string]string
	var rawPhone string
	for i, v := range rec {
		if i >= len(cols) {
			break
		}
		v = strings.TrimSpace(v)
		if v == "" {
			continue
		}
		switch cols[i] {
		case colPhone:
			rawPhone = v
		case colFirstName:
			c.FirstName = ptr(v)
		case colLastName:
			c.LastName = ptr(v)
		case colEmail:
			c.Email = ptr(v)
		case colStage:
			c.LifecycleStage = ptr(stage(v))
		default:
			if extra == nil {
				extra = map[string]string{}
			}
			extra[names[i]] = v
		}
	}
	if extra != nil {
		b, _ := json.Marshal(extra)
		c.Extra = ptr(string(b))
	}
	c.Phone = rawPhone
	e164, reg, tz, kind, ok := p.normalize(rawPhone)
	switch {
	case rawPhone == "":
		c.Status, c.LastError = store.ContactFailed, ptr("No phone number")
	case !p.letters && hasLetters(rawPhone):
		c.Status, c.LastError = store.ContactFailed, ptr(LettersRefusal)
	case !ok:
		c.Status, c.LastError = store.ContactFailed, ptr("Invalid phone number")
	default:
		c.Phone, c.Region, c.TimeZone = e164, ptr(reg), tz
		if why := p.numbers.Refusal(kind); why != "" {
			c.Status, c.LastError = store.ContactFailed, &why
		}
	}
	return c
}

// stage reads a lifecycle stage ("Sales Lead", "sales_lead"), "other" when unknown.
func stage(v string) string {
	for _, s := range workflow.Stages { // already written as stored: most files, no allocation
		if s == v {
			return s
		}
	}
	f := strings.Map(func(r rune) rune {
		if r == '_' || r == '-' {
			return ' '
		}
		return unicode.ToLower(r)
	}, strings.TrimSpace(v))
	f = strings.Join(strings.Fields(f), " ")
	for _, s := range workflow.Stages {
		if s == f || strings.ReplaceAll(s, " ", "") == f {
			return s
		}
	}
	return "other"
}

// ContactFromFields reads a contact of a CRM (HubSpot) like a CSV row: the number normalised
// to E.164 (numbers without a country code in region), a contact without a valid one failed
// with the reason, as is one whose number is neither a landline nor a mobile (a CRM's
// numbers come from outside the team: no campaign's opt-in applies), the lifecycle stage one
// of the known ones ("other" otherwise).
func ContactFromFields(phone, firstName, lastName, email, lifecycleStage, region string) store.Contact {
	if region == "" {
		region = DefaultRegion
	}
	return contactFromRow([]string{phone, firstName, lastName, email, lifecycleStage},
		[]column{colPhone, colFirstName, colLastName, colEmail, colStage}, make([]string, 5), newPhones(region))
}
