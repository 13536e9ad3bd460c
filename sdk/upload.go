package betty

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/bettyhq/betty/sdk/client"
)

// UploadChunkSize is the size of the chunks Upload sends: 6 MiB.
const UploadChunkSize = 6 << 20

// UploadRetryDelays are the waits before each new try after a chunk failed (tus clients' 0,
// 3, 5, 10 and 20 seconds); after the last one Upload gives up. A success starts them over.
var UploadRetryDelays = []time.Duration{0, 3 * time.Second, 5 * time.Second, 10 * time.Second, 20 * time.Second}

// UploadOptions describe an upload.
type UploadOptions struct {
	// OrganizationID is the team the file is for.
	OrganizationID string
	// Purpose decides the types and size the server accepts.
	Purpose client.UploadPurpose
	// FileName is the name the server keeps (UploadFile: the file's base name by default).
	FileName string
	// FileType is the MIME type, optional: the server reads the type from the bytes.
	FileType string
	// Resume is the URL of an earlier upload of the same bytes (as handed to OnCreate): the
	// upload goes on from what the server has. When the server no longer knows it (expired
	// after 24 hours, deleted) or it is of another size, a new upload starts.
	Resume string
	// OnCreate is called with the URL of a new upload before its first byte is sent: keep it
	// to resume after this process ends.
	OnCreate func(uploadURL string)
	// Progress is called with how many bytes the server has, and the total, when the upload
	// starts or resumes and after every chunk.
	Progress func(sent, total int64)
	// ChunkSize is the size of each PATCH (UploadChunkSize when 0).
	ChunkSize int64
}

// UploadFile uploads a file of the local disk resumably; see Upload.
func (c *Client) UploadFile(ctx context.Context, name string, opts UploadOptions) (client.Upload, error) {
	f, err := os.Open(name)
	if err != nil {
		return client.Upload{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return client.Upload{}, err
	}
	if opts.FileName == "" {
		opts.FileName = filepath.Base(name)
	}
	return c.Upload(ctx, f, st.Size(), opts)
}

// Upload sends size bytes of r to the server with tus: it creates the upload (or resumes
// opts.Resume), sends chunks of opts.ChunkSize, and after a failed chunk (a broken connection,
// a 5xx, an offset conflict) waits UploadRetryDelays, asks the server for its offset and goes
// on from there. Refusals (a type or size the purpose does not accept, no access) end it at
// once. It answers the finished upload, whose FileUrl other operations take.
func (c *Client) Upload(ctx context.Context, r io.ReaderAt, size int64, opts UploadOptions) (client.Upload, error) {
	chunk := opts.ChunkSize
	if chunk <= 0 {
		chunk = UploadChunkSize
	}
	progress := func(sent int64) {
		if opts.Progress != nil {
			opts.Progress(sent, size)
		}
	}
	var id string
	var offset int64
	if opts.Resume != "" {
		had, length, err := c.uploadOffset(ctx, uploadID(opts.Resume))
		switch {
		case err == nil && length == size:
			id, offset = uploadID(opts.Resume), had
		case err != nil && !errors.Is(err, ErrNotFound):
			return client.Upload{}, err
		} // otherwise it is gone (expired, deleted) or of another file: start over
	}
	if id == "" {
		location, err := c.createUpload(ctx, size, opts)
		if err != nil {
			return client.Upload{}, err
		}
		id = uploadID(location)
		if opts.OnCreate != nil {
			opts.OnCreate(location)
		}
	}
	progress(offset)
	buf := make([]byte, chunk)
	failed := 0
	for offset < size {
		n := min(chunk, size-offset)
		if _, err := r.ReadAt(buf[:n], offset); err != nil && !(errors.Is(err, io.EOF) && n == size-offset) {
			return client.Upload{}, fmt.Errorf("betty: reading the file at byte %d: %w", offset, err)
		}
		next, err := c.sendChunk(ctx, id, offset, buf[:n])
		if err == nil {
			offset, failed = next, 0
			progress(offset)
			continue
		}
		// Wait, ask where the server is, and go on from there.
		for {
			if !UploadResumable(err) || failed == len(UploadRetryDelays) {
				return client.Upload{}, err
			}
			if serr := c.sleep(ctx, UploadRetryDelays[failed]); serr != nil {
				return client.Upload{}, serr
			}
			failed++
			if offset, _, err = c.uploadOffset(ctx, id); err == nil {
				break
			}
		}
		progress(offset)
	}
	return Do[client.Upload](ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.GetUpload(ctx, id)
	})
}

// UploadResumable says whether an upload that failed with err can go on later (Upload tries
// again after such errors): no answer or a broken connection, an offset conflict, a timeout or
// a server error — not a refusal (a type or size not accepted, no access), nor the caller's
// cancellation.
func UploadResumable(err error) bool {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		s := apiErr.StatusCode
		return s == http.StatusConflict || s == http.StatusRequestTimeout || s == http.StatusTooManyRequests ||
			s >= 500 && s != http.StatusNotImplemented
	}
	return !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
}

func (c *Client) createUpload(ctx context.Context, size int64, opts UploadOptions) (string, error) {
	pairs := []string{"filename " + b64(opts.FileName), "organizationId " + b64(opts.OrganizationID), "purpose " + b64(string(opts.Purpose))}
	if opts.FileType != "" {
		pairs = append(pairs, "filetype "+b64(opts.FileType))
	}
	h, err := c.tus(ctx, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.CreateUpload(ctx, &client.CreateUploadParams{TusResumable: client.CreateUploadParamsTusResumableN100,
			UploadLength: size, UploadMetadata: strings.Join(pairs, ",")})
	})
	if err != nil {
		return "", err
	}
	if h.Get("Location") == "" {
		return "", errors.New("betty: the server created the upload but sent no Location")
	}
	return h.Get("Location"), nil
}

// uploadOffset asks the server how many bytes of an upload it has, and its length.
func (c *Client) uploadOffset(ctx context.Context, id string) (offset, length int64, err error) {
	h, err := c.tus(ctx, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.GetUploadOffset(ctx, id, &client.GetUploadOffsetParams{TusResumable: client.GetUploadOffsetParamsTusResumableN100})
	})
	if err != nil {
		return 0, 0, err
	}
	if offset, err = headerInt(h, "Upload-Offset"); err != nil {
		return 0, 0, err
	}
	length, err = headerInt(h, "Upload-Length")
	return offset, length, err
}

// sendChunk sends b at offset and answers the server's new offset.
func (c *Client) sendChunk(ctx context.Context, id string, offset int64, b []byte) (int64, error) {
	h, err := c.tus(ctx, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.AppendUploadChunkWithBody(ctx, id, &client.AppendUploadChunkParams{
			TusResumable: client.AppendUploadChunkParamsTusResumableN100, UploadOffset: offset},
			"application/offset+octet-stream", bytes.NewReader(b))
	})
	if err != nil {
		return 0, err
	}
	return headerInt(h, "Upload-Offset")
}

// tus makes a call whose answer is in its headers (tus answers have no body).
func (c *Client) tus(ctx context.Context, call func(ctx context.Context, api *client.Client) (*http.Response, error)) (http.Header, error) {
	var h http.Header
	err := NoContent(ctx, c, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		resp, err := call(ctx, api)
		if resp != nil {
			h = resp.Header
		}
		return resp, err
	})
	return h, err
}

func headerInt(h http.Header, name string) (int64, error) {
	n, err := strconv.ParseInt(h.Get(name), 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("betty: the server answered %s %q", name, h.Get(name))
	}
	return n, nil
}

// uploadID is the last segment of an upload's URL (or the id itself).
func uploadID(uploadURL string) string {
	if u, err := url.Parse(uploadURL); err == nil && u.Path != "" {
		return path.Base(u.Path)
	}
	return uploadURL
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
