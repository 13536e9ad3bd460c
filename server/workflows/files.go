package workflows

import (
	"context"
	"errors"
	"io"

	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/workflow"
)

// Upload is a finished upload of a team, as Files resolves it.
type Upload struct {
	ID   string
	Name string
}

// Files are the team's finished uploads (the uploads feature).
type Files interface {
	// Resolve answers the finished contacts-csv upload of the team a fileUrl names.
	Resolve(ctx context.Context, orgID, fileURL string) (Upload, error)
	// Open reads an upload of the team. Close it.
	Open(ctx context.Context, orgID, uploadID string) (io.ReadCloser, error)
	// Use records that by uses an upload (in the caller's transaction).
	Use(ctx context.Context, orgID, uploadID, by string) error
	// Discard records that by no longer uses an upload and deletes it when nothing else does
	// (in the caller's transaction), answering whether it did; Purge then removes its bytes
	// once that transaction committed.
	Discard(ctx context.Context, orgID, uploadID, by string) (bool, error)
	Purge(ctx context.Context, orgID, uploadID string)
}

// fileUser is how a contacts source marks its upload as used: by workflow and node, as node
// ids are unique only in their workflow and two workflows may use one file.
func fileUser(workflowID, nodeID string) string { return "contacts:" + workflowID + ":" + nodeID }

// releaseFile lets go of the upload of a node's previous source unless keep is it (in the
// caller's transaction), answering the upload to purge once committed ("" for none).
func (s *Service) releaseFile(ctx context.Context, orgID, workflowID, nodeID, keep string) (string, error) {
	old, err := s.db.ContactSourceByNode(ctx, orgID, workflowID, nodeID)
	if errors.Is(err, store.ErrNotFound) || err == nil && (old.UploadID == nil || *old.UploadID == keep) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	gone, err := s.files.Discard(ctx, orgID, *old.UploadID, fileUser(workflowID, nodeID))
	if err != nil || !gone {
		return "", err
	}
	return *old.UploadID, nil
}

// dropRemovedContacts removes the contacts source, contacts and file use of each Contacts node
// of stored that g no longer has (in the caller's transaction), answering the uploads to purge
// once committed: a deleted node leaves nothing behind, and the node put back (undo) starts
// without a source.
func (s *Service) dropRemovedContacts(ctx context.Context, orgID, workflowID string, stored, g workflow.Graph) ([]string, error) {
	kept := make(map[string]bool, len(g.Nodes))
	for _, n := range g.Nodes {
		kept[n.ID] = true
	}
	var purge []string
	for _, n := range stored.Nodes {
		if n.Type != workflow.Contacts || kept[n.ID] {
			continue
		}
		upload, err := s.releaseFile(ctx, orgID, workflowID, n.ID, "")
		if err != nil {
			return nil, err
		}
		if upload != "" {
			purge = append(purge, upload)
		}
		if err := s.db.DeleteContactSource(ctx, orgID, workflowID, n.ID); err != nil {
			return nil, err
		}
	}
	return purge, nil
}
