package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jmoiron/sqlx"
)

// ContactsStatus is where the import of a contacts source stands.
type ContactsStatus string

const (
	ContactsParsing ContactsStatus = "parsing"
	ContactsSuccess ContactsStatus = "success"
	ContactsError   ContactsStatus = "error"
)

// ContactCallStatus is where calling a contact stands.
type ContactCallStatus string

const (
	ContactPending ContactCallStatus = "pending"
	ContactFailed  ContactCallStatus = "failed"
)

// ContactSource is the contacts source of a Contacts node.
type ContactSource struct {
	NodeID         string         `db:"node_id"`
	OrganizationID string         `db:"organization_id"`
	WorkflowID     string         `db:"workflow_id"`
	ImportID       string         `db:"import_id"`
	Source         string         `db:"source"`
	Status         ContactsStatus `db:"status"`
	UploadID       *string        `db:"upload_id"`
	FileName       *string        `db:"file_name"`
	FileURL        *string        `db:"file_url"`
	ConnectedAppID *string        `db:"connected_app_id"`
	ListID         *string        `db:"list_id"`
	Error          *string        `db:"error"`
	RowsImported   int            `db:"rows_imported"`
	RowsRejected   int            `db:"rows_rejected"`
	CreatedAt      time.Time      `db:"created_at"`
	UpdatedAt      time.Time      `db:"updated_at"`
}

const contactSourceColumns = `node_id, organization_id, workflow_id, import_id, source, status, upload_id, file_name, file_url,
	connected_app_id, list_id, error, rows_imported, rows_rejected, created_at, updated_at`

// Contact is a contact of a Contacts node.
type Contact struct {
	ID             string            `db:"id"`
	OrganizationID string            `db:"organization_id"`
	WorkflowID     string            `db:"workflow_id"`
	NodeID         string            `db:"node_id"`
	ImportID       string            `db:"import_id"`
	Seq            int               `db:"seq"`
	Phone          string            `db:"phone"`
	FirstName      *string           `db:"first_name"`
	LastName       *string           `db:"last_name"`
	Email          *string           `db:"email"`
	LifecycleStage *string           `db:"lifecycle_stage"`
	Extra          *string           `db:"extra"` // JSON object
	Region         *string           `db:"region"`
	TimeZone       *string           `db:"time_zone"`
	Status         ContactCallStatus `db:"status"`
	Attempts       int               `db:"attempts"`
	CallLogID      *string           `db:"call_log_id"`
	LastError      *string           `db:"last_error"`
	LastCalledAt   *time.Time        `db:"last_called_at"`
	CreatedAt      time.Time         `db:"created_at"`
}

var contactColumnList = strings.Split(strings.Join(strings.Fields(strings.ReplaceAll(contactColumns, ",", " ")), ","), ",")

const contactColumns = `id, organization_id, workflow_id, node_id, import_id, seq, phone, first_name, last_name, email, lifecycle_stage, extra,
	region, time_zone, status, attempts, call_log_id, last_error, last_called_at, created_at`

// SetContactSource replaces the source of a node (its contacts are dropped), filling the
// import id and times.
func (db *DB) SetContactSource(ctx context.Context, s *ContactSource) error {
	if err := db.DeleteContactSource(ctx, s.OrganizationID, s.WorkflowID, s.NodeID); err != nil {
		return err
	}
	s.ImportID = NewID()
	s.CreatedAt = now()
	s.UpdatedAt = s.CreatedAt
	_, err := db.exec(ctx, `INSERT INTO workflow_contact_sources (`+contactSourceColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		s.NodeID, s.OrganizationID, s.WorkflowID, s.ImportID, s.Source, s.Status, s.UploadID, s.FileName, s.FileURL,
		s.ConnectedAppID, s.ListID, s.Error, s.RowsImported, s.RowsRejected, s.CreatedAt, s.UpdatedAt)
	return err
}

// ContactSourceByNode returns the contacts source of a node of a team's workflow, or
// ErrNotFound.
func (db *DB) ContactSourceByNode(ctx context.Context, orgID, workflowID, nodeID string) (ContactSource, error) {
	var s ContactSource
	err := db.get(ctx, db.read(ctx), &s, `SELECT `+contactSourceColumns+` FROM workflow_contact_sources
		WHERE organization_id = ? AND workflow_id = ? AND node_id = ?`, orgID, workflowID, nodeID)
	return s, err
}

// ContactSourceByImport returns a team's contacts source whose current import is importID, or
// ErrNotFound (the import was replaced or cleared).
func (db *DB) ContactSourceByImport(ctx context.Context, orgID, importID string) (ContactSource, error) {
	var s ContactSource
	err := db.get(ctx, db.read(ctx), &s, `SELECT `+contactSourceColumns+` FROM workflow_contact_sources
		WHERE organization_id = ? AND import_id = ?`, orgID, importID)
	return s, err
}

// LockContactSource holds the source of an import until the transaction in ctx ends, so that
// two readers of the same import (a list read queued on save and the periodic one) write its
// contacts one after the other, never both inserting the same contact.
func (db *DB) LockContactSource(ctx context.Context, orgID, importID string) error {
	var one int
	err := db.get(ctx, db.write(ctx), &one, `SELECT 1 FROM workflow_contact_sources
		WHERE organization_id = ? AND import_id = ?`+db.lockRows(ctx), orgID, importID)
	if errors.Is(err, ErrNotFound) {
		return nil // replaced meanwhile: the caller finds that out itself
	}
	return err
}

// DeleteContactSource removes the source of a node of a team's workflow and its contacts
// (none is fine).
func (db *DB) DeleteContactSource(ctx context.Context, orgID, workflowID, nodeID string) error {
	if _, err := db.exec(ctx, `DELETE FROM workflow_contacts WHERE organization_id = ? AND workflow_id = ? AND node_id = ?`,
		orgID, workflowID, nodeID); err != nil {
		return err
	}
	_, err := db.exec(ctx, `DELETE FROM workflow_contact_sources WHERE organization_id = ? AND workflow_id = ? AND node_id = ?`,
		orgID, workflowID, nodeID)
	return err
}

// FinishContactImport records the outcome of an import if it is still the node's current one,
// answering whether it was.
func (db *DB) FinishContactImport(ctx context.Context, orgID, nodeID, importID string, status ContactsStatus, msg *string, imported, rejected int) (bool, error) {
	n, err := db.exec(ctx, `UPDATE workflow_contact_sources SET status = ?, error = ?, rows_imported = ?, rows_rejected = ?, updated_at = ?
		WHERE organization_id = ? AND node_id = ? AND import_id = ?`, status, msg, imported, rejected, now(), orgID, nodeID, importID)
	return n > 0, err
}

// contactBatch is how many contacts one INSERT writes (20 columns: well under SQLite's and
// PostgreSQL's parameter limits).
const contactBatch = 500

// InsertContacts writes contacts, filling ids, times and workflows: with COPY on PostgreSQL
// (inside a transaction), in multi-row INSERTs otherwise.
func (db *DB) InsertContacts(ctx context.Context, rows []Contact) error {
	if err := db.fillWorkflows(ctx, rows); err != nil {
		return err
	}
	at := now()
	if tx, ok := db.PgxTx(ctx); ok {
		data := make([][]any, len(rows))
		for i := range rows {
			c := &rows[i]
			c.ID, c.CreatedAt = NewID(), at
			data[i] = []any{c.ID, c.OrganizationID, c.WorkflowID, c.NodeID, c.ImportID, c.Seq, c.Phone, c.FirstName, c.LastName, c.Email,
				c.LifecycleStage, c.Extra, c.Region, c.TimeZone, string(c.Status), c.Attempts, c.CallLogID, c.LastError, c.LastCalledAt, c.CreatedAt}
		}
		_, err := tx.CopyFrom(ctx, pgx.Identifier{"workflow_contacts"}, contactColumnList, pgx.CopyFromRows(data))
		return translate(err)
	}
	// Parsing the full-batch statement costs as much as running it: use the one
	// PrepareContactInserts kept, else prepare it once for this call.
	var full *sqlx.Stmt
	if len(rows) > contactBatch {
		stmt, err := db.prepared(ctx, db.write(ctx), fullContactInsert)
		if err != nil {
			return translate(err)
		}
		if tx, ok := db.write(ctx).(*sqlx.Tx); ok && stmt == nil {
			if stmt, err = tx.PreparexContext(ctx, db.rebind(fullContactInsert)); err != nil {
				return translate(err)
			}
			defer stmt.Close()
		}
		full = stmt
	}
	args := make([]any, 0, min(len(rows), contactBatch)*20) // reused: a statement keeps none of it
	for start := 0; start < len(rows); start += contactBatch {
		end := min(start+contactBatch, len(rows))
		args = args[:0]
		for i := start; i < end; i++ {
			c := &rows[i]
			c.ID, c.CreatedAt = NewID(), at
			// Values the driver takes as they are (string, int64, time.Time, nil): a pointer or a
			// named type goes through database/sql's reflection, a cost per column per row.
			args = append(args, c.ID, c.OrganizationID, c.WorkflowID, c.NodeID, c.ImportID, int64(c.Seq), c.Phone, orNil(c.FirstName), orNil(c.LastName),
				orNil(c.Email), orNil(c.LifecycleStage), orNil(c.Extra), orNil(c.Region), orNil(c.TimeZone), string(c.Status), int64(c.Attempts),
				orNil(c.CallLogID), orNil(c.LastError), orNil(c.LastCalledAt), c.CreatedAt)
		}
		var err error
		if full != nil && end-start == contactBatch {
			_, err = full.ExecContext(ctx, args...)
			err = translate(err)
		} else {
			_, err = db.exec(ctx, insertContactsSQL(end-start), args...)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// fillWorkflows sets each contact's workflow to its import's: a contact belongs to the import
// that wrote it, and so to that source's workflow and node. An import that is no longer a
// source's current one is ErrReference.
func (db *DB) fillWorkflows(ctx context.Context, rows []Contact) error {
	workflows := map[string]string{}
	var imports []string
	for _, c := range rows {
		if _, ok := workflows[c.ImportID]; !ok {
			workflows[c.ImportID] = ""
			imports = append(imports, c.ImportID)
		}
	}
	if len(imports) == 0 {
		return nil
	}
	var sources []struct {
		ImportID       string `db:"import_id"`
		OrganizationID string `db:"organization_id"`
		WorkflowID     string `db:"workflow_id"`
		NodeID         string `db:"node_id"`
	}
	if err := db.selectAll(ctx, db.write(ctx), &sources, `SELECT import_id, organization_id, workflow_id, node_id
		FROM workflow_contact_sources WHERE import_id IN (`+placeholders(len(imports))+`)`, anys(imports)...); err != nil {
		return err
	}
	owners := make(map[string]int, len(sources))
	for i, s := range sources {
		owners[s.ImportID] = i
	}
	for i := range rows {
		c := &rows[i]
		j, ok := owners[c.ImportID]
		if !ok || sources[j].OrganizationID != c.OrganizationID || sources[j].NodeID != c.NodeID {
			return fmt.Errorf("%w: contacts of import %s, which is not its node's current one", ErrReference, c.ImportID)
		}
		c.WorkflowID = sources[j].WorkflowID
	}
	return nil
}

// orNil is *p, or nil for a nil p.
func orNil[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// fullContactInsert writes contactBatch contacts.
var fullContactInsert = insertContactsSQL(contactBatch)

// PrepareContactInserts readies, on SQLite, the statement InsertContacts writes its full
// batches with, kept on the writer so that each transaction of an import (one per batch) does
// not parse it again. Call it outside a transaction (inside one it does nothing).
func (db *DB) PrepareContactInserts(ctx context.Context) error {
	if db.dialect != SQLite || db.InTransaction(ctx) {
		return nil
	}
	_, err := db.prepared(ctx, db.writer, fullContactInsert)
	return translate(err)
}

func insertContactsSQL(n int) string {
	var b strings.Builder
	b.WriteString(`INSERT INTO workflow_contacts (` + contactColumns + `) VALUES `)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
	}
	return b.String()
}

// ListContacts lists the contacts of a node's current import in source order, and how many
// there are.
func (db *DB) ListContacts(ctx context.Context, orgID, nodeID, importID string, limit, offset int) ([]Contact, int, error) {
	var total int
	if err := db.get(ctx, db.read(ctx), &total, `SELECT COUNT(*) FROM workflow_contacts WHERE organization_id = ? AND node_id = ? AND import_id = ?`,
		orgID, nodeID, importID); err != nil {
		return nil, 0, err
	}
	out := []Contact{}
	if total == 0 {
		return out, 0, nil
	}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT `+contactColumns+` FROM workflow_contacts
		WHERE organization_id = ? AND node_id = ? AND import_id = ? ORDER BY seq LIMIT ? OFFSET ?`, orgID, nodeID, importID, limit, offset)
	return out, total, err
}

// SetWorkflowGraph rewrites a team's workflow's graph without a new version (a node's
// contacts source, which saves do not own).
func (db *DB) SetWorkflowGraph(ctx context.Context, orgID, id, graph string) error {
	return db.one(ctx, `UPDATE workflows SET graph = ?, updated_at = ? WHERE organization_id = ? AND id = ?`, graph, now(), orgID, id)
}

// DeleteContactsOfImport removes what an import wrote so far (an import run again starts
// clean).
func (db *DB) DeleteContactsOfImport(ctx context.Context, orgID, nodeID, importID string) error {
	_, err := db.exec(ctx, `DELETE FROM workflow_contacts WHERE organization_id = ? AND node_id = ? AND import_id = ?`, orgID, nodeID, importID)
	return err
}

// RejectedContacts answers the reason of each contact a node's import rejected, by its row
// number: failed before any call (no attempt, no call log), as the import keeps them.
func (db *DB) RejectedContacts(ctx context.Context, orgID, nodeID, importID string) (map[int]string, error) {
	var rows []struct {
		Seq       int     `db:"seq"`
		LastError *string `db:"last_error"`
	}
	err := db.selectAll(ctx, db.read(ctx), &rows, `SELECT seq, last_error FROM workflow_contacts
		WHERE organization_id = ? AND node_id = ? AND import_id = ? AND status = ? AND attempts = 0 AND call_log_id IS NULL ORDER BY seq`,
		orgID, nodeID, importID, ContactFailed)
	out := make(map[int]string, len(rows))
	for _, r := range rows {
		out[r.Seq] = "Rejected"
		if r.LastError != nil {
			out[r.Seq] = *r.LastError
		}
	}
	return out, err
}
