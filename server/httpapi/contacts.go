package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/workflows"
)

const (
	contactPageSize = 10
	csvPageSize     = 100
)

// SetWorkflowContacts sets the contacts source of a Contacts node.
func (h *Workflows) SetWorkflowContacts(ctx context.Context, req api.SetWorkflowContactsRequestObject) (api.SetWorkflowContactsResponseObject, error) {
	b := req.Body
	src, err := h.svc.SetContacts(ctx, actor(ctx), workflows.ContactsInput{WorkflowID: b.WorkflowId, NodeID: b.NodeId,
		Source: string(b.Source), FileURL: b.FileUrl, FileName: b.FileName, ConnectedAppID: b.ConnectedAppId, ListID: b.ListId, DefaultRegion: b.DefaultRegion,
		ConvertLetters: b.ConvertLetters != nil && *b.ConvertLetters})
	if err != nil {
		return nil, err
	}
	return api.SetWorkflowContacts200JSONResponse{Status: http.StatusOK, Data: renderContactSource(src)}, nil
}

// ListWorkflowContacts lists one page of a Contacts node's contacts.
func (h *Workflows) ListWorkflowContacts(ctx context.Context, req api.ListWorkflowContactsRequestObject) (api.ListWorkflowContactsResponseObject, error) {
	want := ""
	if req.Params.Source != nil {
		want = string(*req.Params.Source)
	}
	items, meta, err := paged(newPage(req.Params.Page, req.Params.PageSize, contactPageSize), func(limit, offset int) ([]store.Contact, int, error) {
		_, rows, total, err := h.svc.Contacts(ctx, actor(ctx), req.Params.WorkflowId, req.Params.NodeId, want, workflows.Page{Limit: limit, Offset: offset})
		return rows, total, err
	})
	if err != nil {
		return nil, err
	}
	return api.ListWorkflowContacts200JSONResponse{Status: http.StatusOK, Data: mapped(items, renderContact), Meta: meta}, nil
}

// DeleteWorkflowContacts clears a Contacts node's source and contacts.
func (h *Workflows) DeleteWorkflowContacts(ctx context.Context, req api.DeleteWorkflowContactsRequestObject) (api.DeleteWorkflowContactsResponseObject, error) {
	want := ""
	if req.Params.Source != nil {
		want = string(*req.Params.Source)
	}
	if err := h.svc.ClearContacts(ctx, actor(ctx), req.Params.WorkflowId, req.Params.NodeId, want, false); err != nil {
		return nil, err
	}
	return api.DeleteWorkflowContacts200JSONResponse{Status: http.StatusOK, Data: api.Deleted{Id: req.Params.NodeId}}, nil
}

// GetWorkflowCsv answers a node's CSV file, its parse status and one page of its contacts (the
// guard found the node's workflow: the actor's Container).
func (h *Workflows) GetWorkflowCsv(ctx context.Context, req api.GetWorkflowCsvRequestObject) (api.GetWorkflowCsvResponseObject, error) {
	a := actor(ctx)
	var src store.ContactSource
	items, meta, err := paged(newPage(req.Params.Page, req.Params.PageSize, csvPageSize), func(limit, offset int) ([]store.Contact, int, error) {
		s, rows, total, err := h.svc.CSV(ctx, a, a.Container, req.NodeId, workflows.Page{Limit: limit, Offset: offset})
		src = s
		return rows, total, err
	})
	if err != nil {
		return nil, err
	}
	return api.GetWorkflowCsv200JSONResponse{Status: http.StatusOK, Data: api.WorkflowCsv{Status: api.ContactsImportStatus(src.Status),
		NodeFile: renderCSVFile(src), Rows: mapped(items, renderContact), Error: src.Error,
		RowsImported: src.RowsImported, RowsRejected: src.RowsRejected}, Meta: meta}, nil
}

// DeleteWorkflowCsv removes a node's CSV file and its contacts.
func (h *Workflows) DeleteWorkflowCsv(ctx context.Context, req api.DeleteWorkflowCsvRequestObject) (api.DeleteWorkflowCsvResponseObject, error) {
	a := actor(ctx)
	if err := h.svc.ClearContacts(ctx, a, a.Container, req.NodeId, "csv", true); err != nil {
		return nil, err
	}
	return api.DeleteWorkflowCsv200JSONResponse{Status: http.StatusOK, Data: api.Deleted{Id: req.NodeId}}, nil
}

func renderCSVFile(s store.ContactSource) api.WorkflowCsvFile {
	return api.WorkflowCsvFile{FileName: deref(s.FileName), FileUrl: deref(s.FileURL)}
}

func renderContactSource(s store.ContactSource) api.WorkflowContactsSource {
	out := api.WorkflowContactsSource{WorkflowId: s.WorkflowID, NodeId: s.NodeID, Source: api.ContactSource(s.Source),
		Status: api.ContactsImportStatus(s.Status), ConnectedAppId: s.ConnectedAppID, ListId: s.ListID, Error: s.Error, UpdatedAt: s.UpdatedAt}
	if s.UploadID != nil {
		id := s.ImportID // the contacts-import job (GET /v2/jobs/status)
		out.JobId = &id
	}
	if s.FileURL != nil {
		f := renderCSVFile(s)
		out.NodeFile = &f
	}
	return out
}

func renderContact(c store.Contact) api.Contact {
	out := api.Contact{Id: c.ID, Phone: c.Phone, FirstName: c.FirstName, LastName: c.LastName, Email: c.Email, CreatedAt: c.CreatedAt,
		BettyMetadata: api.ContactCallMetadata{Status: api.ContactCallStatus(c.Status), Attempts: c.Attempts, CallLogId: c.CallLogID,
			LastError: c.LastError, LastCalledAt: c.LastCalledAt}}
	if c.LifecycleStage != nil {
		s := api.LifecycleStage(*c.LifecycleStage)
		out.LifecycleStage = &s
	}
	if c.Extra != nil {
		var extra map[string]any
		if json.Unmarshal([]byte(*c.Extra), &extra) == nil {
			for k, v := range extra {
				if _, known := contactKeys[k]; !known { // a column named like a field stays out
					if out.AdditionalProperties == nil {
						out.AdditionalProperties = map[string]any{}
					}
					out.AdditionalProperties[k] = v
				}
			}
		}
	}
	return out
}

var contactKeys = map[string]struct{}{"id": {}, "phone": {}, "firstName": {}, "lastName": {}, "email": {}, "lifecycleStage": {},
	"betty_metadata": {}, "created_at": {}}

// DownloadRejectedContacts answers the rows a node's CSV import rejected, as a CSV file.
func (h *Workflows) DownloadRejectedContacts(ctx context.Context, req api.DownloadRejectedContactsRequestObject) (api.DownloadRejectedContactsResponseObject, error) {
	a := actor(ctx)
	f, err := h.svc.RejectedContacts(ctx, a, a.Container, req.NodeId)
	if err != nil {
		return nil, err
	}
	return api.DownloadRejectedContacts200TextcsvResponse{Body: bytes.NewReader(f.Data), ContentLength: int64(len(f.Data)),
		Headers: api.DownloadRejectedContacts200ResponseHeaders{ContentDisposition: "attachment" + strings.TrimPrefix(contentDisposition(f.Name), "inline")}}, nil
}
