package betty

import (
	"context"
	"fmt"
	"io"
	"iter"
	"mime"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"github.com/bettyhq/betty/sdk/client"
)

// Contacts: who an outbound workflow calls, on its Contacts node. A CSV file is uploaded
// (purpose contacts-csv) and set as the node's source; the server imports it in the
// background (status parsing, then success or error) and keeps rows it cannot call, failed,
// with the reason in betty_metadata.lastError.

// ContactsNode answers the id of a workflow's Contacts node ("" when it has none).
func ContactsNode(w client.Workflow) string {
	if w.Nodes == nil {
		return ""
	}
	for _, n := range *w.Nodes {
		if n.Type == client.NodeKindContacts {
			return n.Id
		}
	}
	return ""
}

// CSVOptions are the optional settings of a CSV contacts source.
type CSVOptions struct {
	// FileName is the name shown for the file (the upload's name when empty).
	FileName string
	// DefaultRegion is the region (like "GB") of numbers written without a country code;
	// the server's default (US) when empty.
	DefaultRegion string
	// ConvertLetters reads the letters of vanity numbers (1-800-FLOWERS) as keypad digits;
	// without it a row whose number has letters is rejected.
	ConvertLetters bool
}

// SetContactsCSV makes an uploaded CSV file (its fileUrl) the contacts source of a node.
func (c *Client) SetContactsCSV(ctx context.Context, team, workflowID, nodeID, fileURL string, opts CSVOptions) (client.WorkflowContactsSource, error) {
	req := client.SetWorkflowContactsRequest{OrganizationId: team, WorkflowId: workflowID, NodeId: nodeID,
		Source: client.ContactSourceCsv, FileUrl: &fileURL}
	if opts.FileName != "" {
		req.FileName = &opts.FileName
	}
	if opts.DefaultRegion != "" {
		req.DefaultRegion = &opts.DefaultRegion
	}
	if opts.ConvertLetters {
		req.ConvertLetters = &opts.ConvertLetters
	}
	return Do[client.WorkflowContactsSource](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.SetWorkflowContacts(ctx, req)
	})
}

// ImportContacts uploads a local CSV file and makes it the contacts source of a node; the
// import then runs on the server (WaitForContacts waits for it).
func (c *Client) ImportContacts(ctx context.Context, team, workflowID, nodeID, path string, opts UploadOptions, csv CSVOptions) (client.WorkflowContactsSource, error) {
	opts.OrganizationID, opts.Purpose = team, client.UploadPurposeContactsCsv
	up, err := c.UploadFile(ctx, path, opts)
	if err != nil {
		return client.WorkflowContactsSource{}, err
	}
	if up.FileUrl == nil {
		return client.WorkflowContactsSource{}, fmt.Errorf("betty: upload %s finished without a file URL", up.Id)
	}
	if csv.FileName == "" {
		csv.FileName = opts.FileName
	}
	return c.SetContactsCSV(ctx, team, workflowID, nodeID, *up.FileUrl, csv)
}

// ContactsCSV answers the CSV source of a workflow's node with one page of its contacts (node
// ids are unique only in their workflow).
func (c *Client) ContactsCSV(ctx context.Context, workflowID, nodeID string, page, size int) (client.WorkflowCsv, client.PageMeta, error) {
	var out client.WorkflowCsv
	env, err := send(ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.GetWorkflowCsv(ctx, nodeID, &client.GetWorkflowCsvParams{WorkflowId: &workflowID, Page: &page, PageSize: &size})
	}, false)
	if err != nil {
		return out, client.PageMeta{}, err
	}
	if err := decodeData(env, &out); err != nil {
		return out, client.PageMeta{}, err
	}
	if env.Meta == nil {
		return out, client.PageMeta{}, fmt.Errorf("betty: %s: the answer has no pagination meta", env.what)
	}
	return out, *env.Meta, nil
}

// WaitForContacts polls a workflow's node's CSV every interval (1 s when 0) until it is no
// longer parsing, and answers it with its first page and how many rows it has.
func (c *Client) WaitForContacts(ctx context.Context, workflowID, nodeID string, interval time.Duration) (client.WorkflowCsv, client.PageMeta, error) {
	if interval <= 0 {
		interval = time.Second
	}
	for {
		csv, meta, err := c.ContactsCSV(ctx, workflowID, nodeID, 1, 100)
		if err != nil || csv.Status != client.ContactsImportStatusParsing {
			return csv, meta, err
		}
		if err := sleepContext(ctx, interval); err != nil {
			return csv, meta, err
		}
	}
}

// Contacts walks the contacts of a workflow's Contacts node in source order.
func (c *Client) Contacts(ctx context.Context, workflowID, nodeID string) iter.Seq2[client.Contact, error] {
	size := 100
	return All[client.Contact](ctx, c, func(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
		return api.ListWorkflowContacts(ctx, &client.ListWorkflowContactsParams{WorkflowId: workflowID, NodeId: nodeID, Page: &page, PageSize: &size})
	})
}

// maxRejected bounds the rejected rows read by RejectedContacts.
const maxRejected = 64 << 20

// RejectedContacts downloads, as CSV, the rows of a workflow's node's CSV file that its import
// rejected (GET /v1/workflow/csv/{nodeId}/rejected): the file's header and rows with a reason
// column.
// It answers the bytes and the file name the server suggests. Errors are as for Do (a node
// without a CSV source matches ErrNotFound; an import still running answers 409, ErrConflict).
func (c *Client) RejectedContacts(ctx context.Context, workflowID, nodeID string) ([]byte, string, error) {
	resp, err := c.api.DownloadRejectedContacts(ctx, nodeID, &client.DownloadRejectedContactsParams{WorkflowId: &workflowID})
	if err != nil {
		if unreachable(err) {
			return nil, "", &UnreachableError{Server: c.server, Err: err}
		}
		return nil, "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxRejected+1))
	switch {
	case err != nil:
		return nil, "", fmt.Errorf("betty: GET rejected contacts: reading the answer: %w", err)
	case !isSuccess(resp.StatusCode):
		return nil, "", newAPIError(resp, body)
	case len(body) > maxRejected:
		return nil, "", fmt.Errorf("betty: GET rejected contacts: more than %d bytes", maxRejected)
	case !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/csv"):
		return nil, "", fmt.Errorf("betty: GET rejected contacts: answered %q, want text/csv", resp.Header.Get("Content-Type"))
	}
	name := "rejected.csv"
	if _, params, err := mime.ParseMediaType(resp.Header.Get("Content-Disposition")); err == nil && params["filename"] != "" {
		name = filepath.Base(params["filename"])
	}
	return body, name, nil
}

// ClearContacts removes the contacts source of a workflow's Contacts node and every contact
// of it (and a CSV file; an import in progress is stopped); call logs are kept. With source
// set, only a node whose source is that one is cleared. A workflow with a run in progress is
// refused with a 422 *APIError.
func (c *Client) ClearContacts(ctx context.Context, workflowID, nodeID string, source client.ContactSource) error {
	p := &client.DeleteWorkflowContactsParams{WorkflowId: workflowID, NodeId: nodeID}
	if source != "" {
		p.Source = &source
	}
	return NoContent(ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.DeleteWorkflowContacts(ctx, p)
	})
}

// DeleteContactsCSV removes the CSV file of a workflow's Contacts node and the contacts read
// from it; a node whose source is not a CSV file matches ErrNotFound (ClearContacts clears
// any source).
func (c *Client) DeleteContactsCSV(ctx context.Context, workflowID, nodeID string) error {
	return NoContent(ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.DeleteWorkflowCsv(ctx, nodeID, &client.DeleteWorkflowCsvParams{WorkflowId: &workflowID})
	})
}
