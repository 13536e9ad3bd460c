package app

import (
	"context"
	"io"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/uploads"
	"github.com/bettyhq/betty/server/workflows"
)

// agentFiles gives the agents feature the team's agent-audio uploads.
type agentFiles struct{ *uploads.Service }

// Audio accepts a fileUrl of a finished agent-audio upload of the team.
func (f agentFiles) Audio(ctx context.Context, orgID, url string) (string, string, error) {
	file, err := f.FileByURL(ctx, orgID, url, uploads.AgentAudio)
	if errs.Is(err, errs.NotFound) {
		return "", "", errs.UnprocessableErr("Teaching audio must be the fileUrl of a finished upload of this team with the purpose agent-audio " +
			"(the link may have expired: ask GET /v1/uploads/{id}/info for a fresh one).")
	}
	if err != nil {
		return "", "", err
	}
	return file.ID, file.Name, nil
}

// ReadAudio opens a finished upload of the team, with a file name that ends in its type's
// extension.
func (f agentFiles) ReadAudio(ctx context.Context, orgID, id string) (io.ReadCloser, string, error) {
	obj, file, err := f.Open(ctx, orgID, id)
	if err != nil {
		return nil, "", err
	}
	return obj, file.TypedName(), nil
}

// agentNumbers gives the agents feature the workflow that answers a paired number.
type agentNumbers struct{ *workflows.Service }

// AnswerNumber answers the id of the inbound workflow through which agentID answers phoneID.
func (n agentNumbers) AnswerNumber(ctx context.Context, a auth.Actor, phoneID, agentID string) (string, error) {
	w, err := n.Service.AnswerNumber(ctx, a, phoneID, agentID)
	return w.ID, err
}
