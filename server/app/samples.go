package app

import (
	"context"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/uploads"
)

// voiceSamples gives the voices feature the team's voice-sample uploads.
type voiceSamples struct{ *uploads.Service }

// Resolve accepts a fileUrl of a finished voice-sample upload of the team.
func (v voiceSamples) Resolve(ctx context.Context, orgID, url string) (string, error) {
	f, err := v.FileByURL(ctx, orgID, url, uploads.VoiceSample)
	if errs.Is(err, errs.NotFound) {
		return "", errs.UnprocessableErr("A voice sample must be the fileUrl of a finished upload of this team with the purpose voice-sample " +
			"(the link may have expired: ask GET /v1/uploads/{id}/info for a fresh one).")
	}
	if err != nil {
		return "", err
	}
	return f.ID, nil
}
