package workflows

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"unicode"

	"github.com/nyaruka/phonenumbers"
	"github.com/riverqueue/river"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/workflow"
)

// Contacts of a Contacts node come from a CSV file (imported here by a River job that streams
// the file), HubSpot or Zapier (the integrations feature). The import's rules:
//   - the first row is a header; columns are matched by name ignoring case, spaces, "_" and
//     "-": phone (or phoneNumber, required), firstName, lastName, email, lifecycleStage; any
//     other column is kept on the contact under its header;
//   - a phone number is normalised to E.164 (the default region, for numbers written without
//     a country code, is the one the request names, else DefaultRegion), with its region and first time zone kept for the
//     dialer's calling window; a row without a valid number is kept, call status failed,
//     with the reason in lastError;
//   - a number already on an earlier row of the file is kept the same way ("Duplicate of row
//     N"): the node calls each number once;
//   - a lifecycle stage outside the known ones is "other";
//   - more than MaxContactRows data rows ends the import in error.

// DefaultRegion is the region of phone numbers written without a country code.
const DefaultRegion = "US"

// MaxContactRows is the most data rows a CSV file may have.
const MaxContactRows = 50_000

// importBatch is how many contacts are written per transaction while importing.
const importBatch = 10000

// ContactsInput is a new contacts source of a node.
type ContactsInput struct {
	WorkflowID, NodeID string
	Source             string
	FileURL, FileName  *string
	ConnectedAppID     *string
	ListID             *string
	// DefaultRegion is the region of a CSV file's numbers written without a country code
	// (ISO 3166-1 alpha-2); DefaultRegion when nil.
	DefaultRegion *string
}

// checkRegion answers the default region a CSV import uses: DefaultRegion when none is sent,
// else the one sent if the phone-number library knows it.
func checkRegion(region *string) (string, error) {
	if region == nil {
		return DefaultRegion, nil
	}
	r := strings.ToUpper(strings.TrimSpace(*region))
	if _, ok := phonenumbers.GetSupportedRegions()[r]; !ok {
		return "", errs.InvalidField("body.defaultRegion", fmt.Sprintf("%q is not a region phone numbers are known for; use a country code like US or GB", *region))
	}
	return r, nil
}

// importArgs is the job that imports the CSV file of a node's current import.
type importArgs struct {
	OrganizationID string `json:"organizationId"`
	NodeID         string `json:"nodeId"`
	ImportID       string `json:"importId"`
	// Region is the default region of numbers without a country code (DefaultRegion when
	// empty, as in jobs inserted before it existed).
	Region string `json:"region,omitempty"`
}

func (importArgs) Kind() string { return "contacts_import" }

type importer struct {
	river.WorkerDefaults[importArgs]
	s *Service
}

func (w *importer) Work(ctx context.Context, job *river.Job[importArgs]) error {
	return w.s.ImportContacts(ctx, job.Args.OrganizationID, job.Args.NodeID, job.Args.ImportID, job.Args.Region, job.Attempt >= job.MaxAttempts)
}

// contactsNode finds a team's workflow and its contacts node.
func (s *Service) contactsNode(ctx context.Context, a auth.Actor, workflowID, nodeID string) (Workflow, int, error) {
	if strings.TrimSpace(nodeID) == "" {
		return Workflow{}, 0, errs.InvalidField("body.nodeId", "Node id is required")
	}
	w, err := s.Get(ctx, a, workflowID)
	if err != nil {
		return w, 0, err
	}
	for i, n := range w.Graph.Nodes {
		if n.ID != nodeID {
			continue
		}
		if n.Type != workflow.Contacts {
			return w, 0, errs.UnprocessableErr("Contacts are set on a Contacts node; this node is a " + string(n.Type) + " node.")
		}
		return w, i, nil
	}
	return w, 0, errs.NotFoundf("Node")
}

// setNodeSource writes a node's contactsSource into the stored graph (no new version: saves do
// not own it).
func (s *Service) setNodeSource(ctx context.Context, w Workflow, index int, source string) error {
	g := workflow.Clone(w.Graph)
	if source == "" {
		delete(g.Nodes[index].Data, workflow.FieldSource)
	} else {
		g.Nodes[index].Data[workflow.FieldSource] = source
	}
	graph, _, err := encode(g)
	if err != nil {
		return err
	}
	return s.db.SetWorkflowGraph(ctx, w.OrganizationID, w.ID, graph)
}

// SetContacts sets the contacts source of an outbound workflow's Contacts node, replacing the
// previous one and its contacts. A CSV file is imported in the background (status parsing);
// Zapier contacts arrive when zaps push them; HubSpot waits for the integrations feature.
func (s *Service) SetContacts(ctx context.Context, a auth.Actor, in ContactsInput) (store.ContactSource, error) {
	w, index, err := s.contactsNode(ctx, a, in.WorkflowID, in.NodeID)
	if err != nil {
		return store.ContactSource{}, err
	}
	if w.Type != store.Outbound {
		return store.ContactSource{}, errs.UnprocessableErr("Only outbound workflows call a list of contacts.")
	}
	src := store.ContactSource{NodeID: in.NodeID, OrganizationID: a.OrganizationID, WorkflowID: w.ID, Source: in.Source,
		Status: store.ContactsSuccess, ConnectedAppID: in.ConnectedAppID, ListID: in.ListID}
	var upload Upload
	region := DefaultRegion
	switch in.Source {
	case "csv":
		if region, err = checkRegion(in.DefaultRegion); err != nil {
			return src, err
		}
		if in.FileURL == nil || *in.FileURL == "" {
			return src, errs.InvalidField("body.fileUrl", "fileUrl is required for a CSV file")
		}
		if upload, err = s.files.Resolve(ctx, a.OrganizationID, *in.FileURL); err != nil {
			return src, err
		}
		name := upload.Name
		if in.FileName != nil {
			name = *in.FileName
		}
		src.Status, src.UploadID, src.FileName, src.FileURL = store.ContactsParsing, &upload.ID, &name, in.FileURL
		src.ConnectedAppID, src.ListID = nil, nil
	case "hubspot":
		if in.ConnectedAppID == nil {
			return src, errs.InvalidField("body.connectedAppId", "connectedAppId is required")
		}
		return src, errs.UnprocessableErr("HubSpot contacts need a connected HubSpot app, which arrives with the integrations feature.")
	case "zapier":
		src.ListID = nil
	default:
		return src, errs.InvalidField("body.source", "the source is csv, hubspot or zapier")
	}
	var purge string
	err = s.db.InTx(ctx, func(ctx context.Context) error {
		keep := ""
		if src.UploadID != nil {
			keep = *src.UploadID
			if err := s.files.Use(ctx, a.OrganizationID, keep, fileUser(in.NodeID)); err != nil {
				return err
			}
		}
		var err error
		if purge, err = s.releaseFile(ctx, a.OrganizationID, in.NodeID, keep); err != nil {
			return err
		}
		if err := s.db.SetContactSource(ctx, &src); err != nil {
			return err
		}
		if err := s.setNodeSource(ctx, w, index, in.Source); err != nil {
			return err
		}
		if src.UploadID == nil {
			return nil
		}
		return s.jobs.Insert(ctx, importArgs{OrganizationID: a.OrganizationID, NodeID: in.NodeID, ImportID: src.ImportID, Region: region},
			&river.InsertOpts{MaxAttempts: 5})
	})
	if err == nil && purge != "" {
		s.files.Purge(ctx, a.OrganizationID, purge)
	}
	return src, err
}

// ClearContacts removes a node's contacts source and contacts and clears its contactsSource.
// With want, only a source of that kind is cleared (another answers 404 when onlyWant, else
// nothing happens).
func (s *Service) ClearContacts(ctx context.Context, a auth.Actor, workflowID, nodeID, want string, onlyWant bool) error {
	if workflowID == "" {
		_, wf, err := s.db.WorkflowNodeOwner(ctx, nodeID)
		if err != nil {
			return errs.NotFoundf("Node")
		}
		workflowID = wf
	}
	w, index, err := s.contactsNode(ctx, a, workflowID, nodeID)
	if err != nil {
		return err
	}
	src, err := s.db.ContactSourceByNode(ctx, a.OrganizationID, nodeID)
	switch {
	case errors.Is(err, store.ErrNotFound) && onlyWant:
		return errs.NotFoundf("CSV file")
	case errors.Is(err, store.ErrNotFound):
		return nil
	case err != nil:
		return err
	case want != "" && src.Source != want && onlyWant:
		return errs.NotFoundf("CSV file")
	case want != "" && src.Source != want:
		return nil
	}
	var purge string
	err = s.db.InTx(ctx, func(ctx context.Context) error {
		var err error
		if purge, err = s.releaseFile(ctx, a.OrganizationID, nodeID, ""); err != nil {
			return err
		}
		if err := s.db.DeleteContactSource(ctx, a.OrganizationID, nodeID); err != nil {
			return err
		}
		return s.setNodeSource(ctx, w, index, "")
	})
	if err == nil && purge != "" {
		s.files.Purge(ctx, a.OrganizationID, purge)
	}
	return err
}

// Contacts answers a node's source and one page of its contacts (none without a source, or
// when want names another source).
func (s *Service) Contacts(ctx context.Context, a auth.Actor, workflowID, nodeID, want string, pg Page) (store.ContactSource, []store.Contact, int, error) {
	if _, _, err := s.contactsNode(ctx, a, workflowID, nodeID); err != nil {
		return store.ContactSource{}, nil, 0, err
	}
	src, err := s.db.ContactSourceByNode(ctx, a.OrganizationID, nodeID)
	if errors.Is(err, store.ErrNotFound) || err == nil && want != "" && src.Source != want {
		return store.ContactSource{}, []store.Contact{}, 0, nil
	}
	if err != nil {
		return src, nil, 0, err
	}
	rows, total, err := s.db.ListContacts(ctx, a.OrganizationID, nodeID, src.ImportID, pg.Limit, pg.Offset)
	return src, rows, total, err
}

// CSV answers the CSV source of a node and one page of its contacts (404 for another source).
func (s *Service) CSV(ctx context.Context, a auth.Actor, nodeID string, pg Page) (store.ContactSource, []store.Contact, int, error) {
	src, err := s.db.ContactSourceByNode(ctx, a.OrganizationID, nodeID)
	if errors.Is(err, store.ErrNotFound) || err == nil && src.Source != "csv" {
		return src, nil, 0, errs.NotFoundf("CSV file")
	}
	if err != nil {
		return src, nil, 0, err
	}
	rows, total, err := s.db.ListContacts(ctx, a.OrganizationID, nodeID, src.ImportID, pg.Limit, pg.Offset)
	return src, rows, total, err
}

// importError is a failure of the file itself, recorded on the source (retrying cannot mend).
type importError struct{ msg string }

func (e *importError) Error() string { return e.msg }

// ImportContacts imports the CSV file of a node's current import, streaming it in batches. An
// import that is no longer current (replaced or cleared) stops; doing it again starts from a
// clean slate (River works a job at least once).
func (s *Service) ImportContacts(ctx context.Context, orgID, nodeID, importID, region string, lastAttempt bool) error {
	if region == "" {
		region = DefaultRegion
	}
	src, err := s.db.ContactSourceByNode(ctx, orgID, nodeID)
	if errors.Is(err, store.ErrNotFound) || err == nil && (src.ImportID != importID || src.Status != store.ContactsParsing || src.UploadID == nil) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := s.db.DeleteContactsOfImport(ctx, orgID, nodeID, importID); err != nil {
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
	imported, rejected, err := s.readContacts(ctx, src, f, region, MaxContactRows)
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

func (s *Service) finishImport(ctx context.Context, src store.ContactSource, imported, rejected int, failure string) error {
	status, msg := store.ContactsSuccess, (*string)(nil)
	if failure != "" {
		status, msg = store.ContactsError, &failure
	}
	_, err := s.db.FinishContactImport(ctx, src.OrganizationID, src.NodeID, src.ImportID, status, msg, imported, rejected)
	return err
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
func (s *Service) readContacts(ctx context.Context, src store.ContactSource, r io.Reader, region string, maxRows int) (int, int, error) {
	cr := csv.NewReader(bufio.NewReaderSize(r, 64<<10))
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return 0, 0, &importError{"The file is empty: it needs a header row and one row per contact."}
	}
	if err != nil {
		return 0, 0, &importError{"The file is not a CSV file: " + err.Error()}
	}
	cols := make([]column, len(header))
	names := make([]string, len(header))
	hasPhone := false
	for i, h := range header {
		names[i] = strings.TrimPrefix(strings.TrimSpace(h), "\ufeff")
		cols[i] = columnNames[foldHeader(h)]
		hasPhone = hasPhone || cols[i] == colPhone
	}
	if !hasPhone {
		return 0, 0, &importError{"The file has no phone column: name one of its columns phone (or phoneNumber)."}
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type chunk struct {
		rows [][]string
		out  chan []store.Contact
		err  error
	}
	work := make(chan chunk, runtime.GOMAXPROCS(0))
	ordered := make(chan chunk, 2*runtime.GOMAXPROCS(0))
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
			if err != nil {
				send(chunk{err: &importError{fmt.Sprintf("Row %d is not valid CSV: %v", line, err)}})
				return
			}
			if blank(rec) {
				continue
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
			p := newPhones(region)
			for c := range work {
				out := make([]store.Contact, len(c.rows))
				for i, rec := range c.rows {
					out[i] = contactFromRow(rec, cols, names, p)
				}
				c.out <- out
			}
		}()
	}

	seen := make(map[string]int)
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
				if first, dup := seen[ct.Phone]; dup {
					ct.Status, ct.LastError = store.ContactFailed, ptr(fmt.Sprintf("Duplicate of row %d: each number is called once.", first))
				} else {
					seen[ct.Phone] = seq
				}
			}
			if ct.Status == store.ContactPending {
				imported++
			} else {
				rejected++
			}
		}
		err := s.db.InTx(ctx, func(ctx context.Context) error {
			cur, err := s.db.ContactSourceByNode(ctx, src.OrganizationID, src.NodeID)
			if errors.Is(err, store.ErrNotFound) || err == nil && cur.ImportID != src.ImportID {
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
// number normalised (a row without a valid one is failed, with the reason).
func ContactFromRow(rec []string, cols []column, names []string, region string) store.Contact {
	return contactFromRow(rec, cols, names, newPhones(region))
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
	e164, reg, tz, ok := p.normalize(rawPhone)
	switch {
	case rawPhone == "":
		c.Status, c.LastError = store.ContactFailed, ptr("No phone number")
	case !ok:
		c.Status, c.LastError = store.ContactFailed, ptr("Invalid phone number")
	default:
		c.Phone, c.Region, c.TimeZone = e164, ptr(reg), tz
	}
	return c
}

// stage reads a lifecycle stage ("Sales Lead", "sales_lead"), "other" when unknown.
func stage(v string) string {
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
