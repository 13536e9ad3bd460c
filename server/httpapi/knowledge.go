package httpapi

import (
	"context"
	"net/http"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/knowledge"
	"github.com/bettyhq/betty/server/store"
)

// Knowledge answers the KnowledgeBase tag.
type Knowledge struct{ svc *knowledge.Service }

const (
	knowledgeBasePageSize = 20
	knowledgeFilePageSize = 10
)

// CreateKnowledgeBase creates a knowledge base, for a campaign when one is named.
func (h *Knowledge) CreateKnowledgeBase(ctx context.Context, req api.CreateKnowledgeBaseRequestObject) (api.CreateKnowledgeBaseResponseObject, error) {
	kb, err := h.svc.Create(ctx, actor(ctx), req.Body.Name, req.Body.CampaignId)
	if err != nil {
		return nil, err
	}
	return api.CreateKnowledgeBase201JSONResponse{Status: http.StatusCreated, Data: renderKnowledgeBase(kb)}, nil
}

// UpdateKnowledgeBase renames a knowledge base.
func (h *Knowledge) UpdateKnowledgeBase(ctx context.Context, req api.UpdateKnowledgeBaseRequestObject) (api.UpdateKnowledgeBaseResponseObject, error) {
	kb, err := h.svc.Rename(ctx, actor(ctx), req.Id, req.Body.Name)
	if err != nil {
		return nil, err
	}
	return api.UpdateKnowledgeBase200JSONResponse{Status: http.StatusOK, Data: renderKnowledgeBase(kb)}, nil
}

// DeleteKnowledgeBase deletes a knowledge base with its files and FAQs.
func (h *Knowledge) DeleteKnowledgeBase(ctx context.Context, req api.DeleteKnowledgeBaseRequestObject) (api.DeleteKnowledgeBaseResponseObject, error) {
	if err := h.svc.Delete(ctx, actor(ctx), req.Id); err != nil {
		return nil, err
	}
	return api.DeleteKnowledgeBase200JSONResponse{Status: http.StatusOK, Data: api.Deleted{Id: req.Id}}, nil
}

// ListKnowledgeBases lists a team's knowledge bases, or a campaign's.
func (h *Knowledge) ListKnowledgeBases(ctx context.Context, req api.ListKnowledgeBasesRequestObject) (api.ListKnowledgeBasesResponseObject, error) {
	items, meta, err := paged(newPage(req.Params.Page, req.Params.Limit, knowledgeBasePageSize), func(limit, offset int) ([]store.KnowledgeBase, int, error) {
		return h.svc.List(ctx, actor(ctx), deref(req.Params.CampaignId), knowledge.Page{Limit: limit, Offset: offset})
	})
	if err != nil {
		return nil, err
	}
	return api.ListKnowledgeBases200JSONResponse{Status: http.StatusOK, Data: mapped(items, renderKnowledgeBase), Meta: meta}, nil
}

// ActivateKnowledgeBase makes a knowledge base the campaign's active one.
func (h *Knowledge) ActivateKnowledgeBase(ctx context.Context, req api.ActivateKnowledgeBaseRequestObject) (api.ActivateKnowledgeBaseResponseObject, error) {
	l, err := h.svc.Activate(ctx, actor(ctx), req.Body.KnowledgeBaseId, req.Body.CampaignId)
	if err != nil {
		return nil, err
	}
	return api.ActivateKnowledgeBase200JSONResponse{Status: http.StatusOK, Data: renderKnowledgeLink(l)}, nil
}

// DeactivateKnowledgeBase makes a knowledge base inactive for a campaign.
func (h *Knowledge) DeactivateKnowledgeBase(ctx context.Context, req api.DeactivateKnowledgeBaseRequestObject) (api.DeactivateKnowledgeBaseResponseObject, error) {
	l, err := h.svc.Deactivate(ctx, actor(ctx), req.Body.KnowledgeBaseId, req.Body.CampaignId)
	if err != nil {
		return nil, err
	}
	return api.DeactivateKnowledgeBase200JSONResponse{Status: http.StatusOK, Data: renderKnowledgeLink(l)}, nil
}

// CreateKnowledgeFile adds an uploaded file to a knowledge base and queues its parsing.
func (h *Knowledge) CreateKnowledgeFile(ctx context.Context, req api.CreateKnowledgeFileRequestObject) (api.CreateKnowledgeFileResponseObject, error) {
	b := req.Body
	e, err := h.svc.AddFile(ctx, actor(ctx), b.KnowledgeBaseId, b.FileUrl, deref(b.FileName))
	if err != nil {
		return nil, err
	}
	return api.CreateKnowledgeFile201JSONResponse{Status: http.StatusCreated, Data: renderKnowledgeFile(e)}, nil
}

// CreateKnowledgeFaq adds a FAQ to a knowledge base.
func (h *Knowledge) CreateKnowledgeFaq(ctx context.Context, req api.CreateKnowledgeFaqRequestObject) (api.CreateKnowledgeFaqResponseObject, error) {
	b := req.Body
	e, err := h.svc.AddFAQ(ctx, actor(ctx), b.KnowledgeBaseId, b.Name, b.Faq)
	if err != nil {
		return nil, err
	}
	return api.CreateKnowledgeFaq201JSONResponse{Status: http.StatusCreated, Data: renderKnowledgeFile(e)}, nil
}

// UpdateKnowledgeFaq replaces a FAQ's name and text.
func (h *Knowledge) UpdateKnowledgeFaq(ctx context.Context, req api.UpdateKnowledgeFaqRequestObject) (api.UpdateKnowledgeFaqResponseObject, error) {
	e, err := h.svc.UpdateFAQ(ctx, actor(ctx), req.Id, req.Body.Name, req.Body.Faq)
	if err != nil {
		return nil, err
	}
	return api.UpdateKnowledgeFaq200JSONResponse{Status: http.StatusOK, Data: renderKnowledgeFile(e)}, nil
}

// GetKnowledgeFile answers one knowledge file or FAQ.
func (h *Knowledge) GetKnowledgeFile(ctx context.Context, req api.GetKnowledgeFileRequestObject) (api.GetKnowledgeFileResponseObject, error) {
	e, err := h.svc.GetEntry(ctx, actor(ctx), req.Id)
	if err != nil {
		return nil, err
	}
	return api.GetKnowledgeFile200JSONResponse{Status: http.StatusOK, Data: renderKnowledgeFile(e)}, nil
}

// ListKnowledgeFiles lists a knowledge base's files and FAQs, newest first.
func (h *Knowledge) ListKnowledgeFiles(ctx context.Context, req api.ListKnowledgeFilesRequestObject) (api.ListKnowledgeFilesResponseObject, error) {
	items, meta, err := paged(newPage(req.Params.Page, req.Params.Limit, knowledgeFilePageSize), func(limit, offset int) ([]knowledge.Entry, int, error) {
		return h.svc.Entries(ctx, actor(ctx), req.Id, knowledge.Page{Limit: limit, Offset: offset})
	})
	if err != nil {
		return nil, err
	}
	return api.ListKnowledgeFiles200JSONResponse{Status: http.StatusOK, Data: mapped(items, renderKnowledgeFile), Meta: meta}, nil
}

// DeleteKnowledgeFile deletes a knowledge file or FAQ.
func (h *Knowledge) DeleteKnowledgeFile(ctx context.Context, req api.DeleteKnowledgeFileRequestObject) (api.DeleteKnowledgeFileResponseObject, error) {
	if err := h.svc.DeleteEntry(ctx, actor(ctx), req.Id); err != nil {
		return nil, err
	}
	return api.DeleteKnowledgeFile200JSONResponse{Status: http.StatusOK, Data: api.Deleted{Id: req.Id}}, nil
}

// SearchKnowledgeBase answers the passages that best match a question.
func (h *Knowledge) SearchKnowledgeBase(ctx context.Context, req api.SearchKnowledgeBaseRequestObject) (api.SearchKnowledgeBaseResponseObject, error) {
	p := req.Params
	in := knowledge.SearchInput{KnowledgeBaseID: deref(p.KnowledgeBaseId), CampaignID: deref(p.CampaignId), Query: p.Q}
	if p.Limit != nil {
		in.Limit = *p.Limit
	}
	hits, err := h.svc.Search(ctx, actor(ctx), in)
	if err != nil {
		return nil, err
	}
	return api.SearchKnowledgeBase200JSONResponse{Status: http.StatusOK, Data: mapped(hits, renderPassage)}, nil
}

func renderKnowledgeBase(kb store.KnowledgeBase) api.KnowledgeBase {
	return api.KnowledgeBase{Id: kb.ID, Name: kb.Name, OrganizationId: kb.OrganizationID, CampaignId: kb.CampaignID,
		Active: kb.Active && kb.CampaignID != nil, FileCount: kb.FileCount, CreatedAt: kb.CreatedAt, UpdatedAt: kb.UpdatedAt}
}

func renderKnowledgeLink(l store.KnowledgeBaseLink) api.KnowledgeBaseLink {
	return api.KnowledgeBaseLink{Id: l.ID, Active: l.Active, KnowledgeBaseId: l.KnowledgeBaseID, CampaignId: l.CampaignID,
		OrganizationId: l.OrganizationID, CreatedAt: l.CreatedAt, UpdatedAt: l.UpdatedAt}
}

func renderKnowledgeFile(e knowledge.Entry) api.KnowledgeFile {
	f := api.KnowledgeFile{Id: e.ID, KnowledgeBaseId: e.KnowledgeBaseID, OrganizationId: e.OrganizationID, Type: api.KnowledgeFileType(e.Type),
		Status: api.KnowledgeFileStatus(e.Status), Name: e.Name, Url: e.URL, FileName: e.FileName, Size: e.Size, Pages: e.Pages,
		Faq: e.FAQ, ErrorMessage: e.ErrorMessage, CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt}
	if e.Type == store.KnowledgeFAQ {
		name := e.Name
		f.FaqName = &name
	}
	return f
}

func renderPassage(p store.PassageHit) api.KnowledgePassage {
	return api.KnowledgePassage{FileId: p.FileID, KnowledgeBaseId: p.KnowledgeBaseID, Name: p.Name, Type: api.KnowledgeFileType(p.Type),
		Page: p.Page, Snippet: p.Snippet, Content: p.Content, Rank: float32(p.Rank)}
}
