package betty

import (
	"context"
	"fmt"
	"iter"
	"net/http"
	"time"

	"github.com/bettyhq/betty/sdk/client"
)

// Knowledge bases: a team's documents and FAQs that agents answer from. Files are uploaded
// (UploadFile with purpose knowledge-file), added to a knowledge base, and read by the server
// in the background: a file is parsing, then success (searchable) or error (ErrorMessage says
// why). A campaign's agents answer from its active knowledge base.

// KnowledgeBases walks a team's knowledge bases by name; with campaignID, only those linked
// to that campaign, Active saying which one is its active one.
func (c *Client) KnowledgeBases(ctx context.Context, team, campaignID string) iter.Seq2[client.KnowledgeBase, error] {
	size := 100
	return All[client.KnowledgeBase](ctx, c, func(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
		p := &client.ListKnowledgeBasesParams{Page: &page, Limit: &size}
		if campaignID != "" {
			p.CampaignId = &campaignID
		}
		return api.ListKnowledgeBases(ctx, team, p)
	})
}

// CreateKnowledgeBase creates an empty knowledge base; with a campaignID it is made for that
// campaign (and is its active one when it had none). A name the team already uses is a 409
// *APIError (ErrConflict).
func (c *Client) CreateKnowledgeBase(ctx context.Context, team, name, campaignID string) (client.KnowledgeBase, error) {
	req := client.CreateKnowledgeBaseRequest{OrganizationId: team, Name: name}
	if campaignID != "" {
		req.CampaignId = &campaignID
	}
	return Do[client.KnowledgeBase](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.CreateKnowledgeBase(ctx, req)
	})
}

// RenameKnowledgeBase renames a knowledge base of a team.
func (c *Client) RenameKnowledgeBase(ctx context.Context, team, id, name string) (client.KnowledgeBase, error) {
	return Do[client.KnowledgeBase](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.UpdateKnowledgeBase(ctx, id, client.UpdateKnowledgeBaseRequest{Name: name, OrganizationId: &team})
	})
}

// DeleteKnowledgeBase deletes a knowledge base of a team with its files and FAQs.
func (c *Client) DeleteKnowledgeBase(ctx context.Context, team, id string) error {
	return NoContent(ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.DeleteKnowledgeBase(ctx, id, &client.DeleteKnowledgeBaseParams{OrganizationId: team})
	})
}

// ActivateKnowledgeBase makes a knowledge base the active one of a campaign (any other one of
// the campaign becomes inactive).
func (c *Client) ActivateKnowledgeBase(ctx context.Context, team, id, campaignID string) (client.KnowledgeBaseLink, error) {
	return Do[client.KnowledgeBaseLink](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.ActivateKnowledgeBase(ctx, client.ActivateKnowledgeBaseRequest{OrganizationId: team, KnowledgeBaseId: id, CampaignId: campaignID})
	})
}

// DeactivateKnowledgeBase leaves a campaign without an active knowledge base (this one stays
// linked, inactive).
func (c *Client) DeactivateKnowledgeBase(ctx context.Context, team, id, campaignID string) (client.KnowledgeBaseLink, error) {
	return Do[client.KnowledgeBaseLink](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.DeactivateKnowledgeBase(ctx, client.DeactivateKnowledgeBaseRequest{OrganizationId: team, KnowledgeBaseId: id, CampaignId: campaignID})
	})
}

// KnowledgeFiles walks the files and FAQs of a knowledge base, newest first.
func (c *Client) KnowledgeFiles(ctx context.Context, team, knowledgeBaseID string) iter.Seq2[client.KnowledgeFile, error] {
	size := 100
	return All[client.KnowledgeFile](ctx, c, func(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
		return api.ListKnowledgeFiles(ctx, knowledgeBaseID, &client.ListKnowledgeFilesParams{OrganizationId: team, Page: &page, Limit: &size})
	})
}

// KnowledgeFile answers one file or FAQ of a team.
func (c *Client) KnowledgeFile(ctx context.Context, team, id string) (client.KnowledgeFile, error) {
	return Do[client.KnowledgeFile](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.GetKnowledgeFile(ctx, id, &client.GetKnowledgeFileParams{OrganizationId: team})
	})
}

// AddKnowledgeFile adds a finished upload (its FileUrl) to a knowledge base; the answer is
// parsing. name may be empty (the upload's name).
func (c *Client) AddKnowledgeFile(ctx context.Context, knowledgeBaseID, fileURL, name string) (client.KnowledgeFile, error) {
	req := client.CreateKnowledgeFileRequest{KnowledgeBaseId: knowledgeBaseID, FileUrl: fileURL}
	if name != "" {
		req.FileName = &name
	}
	return Do[client.KnowledgeFile](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.CreateKnowledgeFile(ctx, req)
	})
}

// UploadKnowledgeFile uploads a local file resumably (opts as for UploadFile; its purpose and
// team are set here) and adds it to a knowledge base of the team. The answer is parsing: see
// WaitForKnowledgeFile.
func (c *Client) UploadKnowledgeFile(ctx context.Context, team, knowledgeBaseID, path string, opts UploadOptions) (client.KnowledgeFile, error) {
	opts.OrganizationID, opts.Purpose = team, client.UploadPurposeKnowledgeFile
	up, err := c.UploadFile(ctx, path, opts)
	if err != nil {
		return client.KnowledgeFile{}, err
	}
	if up.FileUrl == nil {
		return client.KnowledgeFile{}, fmt.Errorf("betty: upload %s finished without a file URL", up.Id)
	}
	return c.AddKnowledgeFile(ctx, knowledgeBaseID, *up.FileUrl, opts.FileName)
}

// WaitForKnowledgeFile polls a file every interval (1 s when 0) until it is no longer parsing,
// and answers it: success, or error with ErrorMessage. The context bounds the wait.
func (c *Client) WaitForKnowledgeFile(ctx context.Context, team, id string, interval time.Duration) (client.KnowledgeFile, error) {
	if interval <= 0 {
		interval = time.Second
	}
	for {
		f, err := c.KnowledgeFile(ctx, team, id)
		if err != nil || f.Status != client.KnowledgeFileStatusParsing {
			return f, err
		}
		if err := sleepContext(ctx, interval); err != nil {
			return f, err
		}
	}
}

// DeleteKnowledgeFile deletes a file (its passages and stored bytes go too) or a FAQ.
func (c *Client) DeleteKnowledgeFile(ctx context.Context, team, id string) error {
	return NoContent(ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.DeleteKnowledgeFile(ctx, id, &client.DeleteKnowledgeFileParams{OrganizationId: team})
	})
}

// AddKnowledgeFAQ adds a FAQ (a named block of questions and answers) to a knowledge base;
// it is searchable at once.
func (c *Client) AddKnowledgeFAQ(ctx context.Context, knowledgeBaseID, name, text string) (client.KnowledgeFile, error) {
	return Do[client.KnowledgeFile](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.CreateKnowledgeFaq(ctx, client.CreateKnowledgeFaqRequest{KnowledgeBaseId: knowledgeBaseID, Name: name, Faq: text})
	})
}

// EditKnowledgeFAQ replaces a FAQ's name and text.
func (c *Client) EditKnowledgeFAQ(ctx context.Context, id, name, text string) (client.KnowledgeFile, error) {
	return Do[client.KnowledgeFile](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.UpdateKnowledgeFaq(ctx, id, client.UpdateKnowledgeFaqRequest{Name: name, Faq: text})
	})
}

// KnowledgeSearch is a question to a team's knowledge: KnowledgeBaseID, or CampaignID for the
// campaign's active knowledge base. Limit 0 is the server's default (5).
type KnowledgeSearch struct {
	KnowledgeBaseID, CampaignID, Query string
	Limit                              int
}

// SearchKnowledge answers the passages that best match, best first.
func (c *Client) SearchKnowledge(ctx context.Context, team string, s KnowledgeSearch) ([]client.KnowledgePassage, error) {
	p := &client.SearchKnowledgeBaseParams{OrganizationId: team, Q: s.Query}
	if s.KnowledgeBaseID != "" {
		p.KnowledgeBaseId = &s.KnowledgeBaseID
	}
	if s.CampaignID != "" {
		p.CampaignId = &s.CampaignID
	}
	if s.Limit > 0 {
		p.Limit = &s.Limit
	}
	return Do[[]client.KnowledgePassage](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.SearchKnowledgeBase(ctx, p)
	})
}
