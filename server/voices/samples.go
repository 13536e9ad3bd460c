package voices

import (
	"context"
	"net/url"
	"strings"

	"github.com/bettyhq/betty/server/errs"
)

// UploadURLs is the Samples check until the uploads service answers it: a sample must be a URL
// of this server's uploads (<base URL>/v1/uploads/…). It cannot see whether the upload is
// finished, is the team's or holds audio; the uploads service, wired in its place, does.
type UploadURLs struct {
	// BaseURL is the server's public URL.
	BaseURL string
}

// Check refuses any URL that is not under <BaseURL>/v1/uploads/.
func (u UploadURLs) Check(_ context.Context, _ string, raw string) error {
	base, err := url.Parse(u.BaseURL)
	if err != nil {
		return err
	}
	got, err := url.Parse(raw)
	if err != nil || !strings.EqualFold(got.Scheme, base.Scheme) || !strings.EqualFold(got.Host, base.Host) ||
		!strings.HasPrefix(got.Path, strings.TrimRight(base.Path, "/")+"/v1/uploads/") {
		return errs.UnprocessableErr("A voice sample must be a file uploaded to this server (the Uploads API, purpose voice-sample); " +
			"other URLs are not fetched.")
	}
	return nil
}
