package app

import (
	"context"

	"github.com/bettyhq/betty/server/knowledge"
	"github.com/bettyhq/betty/server/uploads"
)

// knowledgeFiles gives the knowledge feature the team's document uploads.
type knowledgeFiles struct{ *uploads.Service }

// Resolve accepts a fileUrl of a finished knowledge-file or agent-file upload of the team;
// another team's upload, or a link that names none (or has expired), is "Upload not found.".
func (f knowledgeFiles) Resolve(ctx context.Context, orgID, url string) (knowledge.Upload, error) {
	file, err := f.FileByURL(ctx, orgID, url, uploads.KnowledgeFile, uploads.AgentFile)
	if err != nil {
		return knowledge.Upload{}, err
	}
	return knowledge.Upload{ID: file.ID, Name: file.Name, Type: file.Type, Size: file.Size}, nil
}

// Open reads a finished upload of the team.
func (f knowledgeFiles) Open(ctx context.Context, orgID, id string) (knowledge.Object, error) {
	obj, _, err := f.Service.Open(ctx, orgID, id)
	return obj, err
}
