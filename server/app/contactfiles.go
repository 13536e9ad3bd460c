package app

import (
	"context"
	"io"

	"github.com/bettyhq/betty/server/uploads"
	"github.com/bettyhq/betty/server/workflows"
)

// contactFiles gives the workflows feature the team's contacts-csv uploads.
type contactFiles struct{ *uploads.Service }

// Resolve accepts a fileUrl of a finished contacts-csv upload of the team.
func (f contactFiles) Resolve(ctx context.Context, orgID, url string) (workflows.Upload, error) {
	file, err := f.FileByURL(ctx, orgID, url, uploads.ContactsCSV)
	if err != nil {
		return workflows.Upload{}, err
	}
	return workflows.Upload{ID: file.ID, Name: file.Name}, nil
}

// Open streams a finished upload of the team.
func (f contactFiles) Open(ctx context.Context, orgID, id string) (io.ReadCloser, error) {
	obj, _, err := f.Service.Open(ctx, orgID, id)
	if err != nil {
		return nil, err
	}
	return struct {
		io.Reader
		io.Closer
	}{io.NewSectionReader(obj, 0, obj.Size()), obj}, nil
}

// campaignWorkflows lets campaigns copy workflows; it is filled once the workflows service
// (which answers campaigns) exists.
type campaignWorkflows struct{ *workflows.Service }
