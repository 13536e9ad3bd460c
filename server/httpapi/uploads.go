package httpapi

import (
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/logging"
	"github.com/bettyhq/betty/server/problem"
	"github.com/bettyhq/betty/server/uploads"
)

// Uploads answers the Uploads tag: tus (discovery, creation, offset, chunks, termination), an
// upload's record, and the download of finished files.
type Uploads struct {
	svc *uploads.Service
}

const (
	tusVersion    = "1.0.0"
	tusExtensions = "creation,termination"
	// chunkType is the content type of a tus PATCH.
	chunkType = "application/offset+octet-stream"
	// fileCSP keeps an uploaded file, HTML included, from running or submitting anything in
	// the server's origin.
	fileCSP = "sandbox; default-src 'none'"
)

// tusProtocol checks what tus asks of every request to an upload before anything reads it
// (the operations declaring Tus-Resumable): every answer carries Tus-Resumable; a missing or
// other version is 412 with the versions spoken in Tus-Version; a chunk that is not
// application/offset+octet-stream is 415.
func tusProtocol(ops *Operations) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			op := ops.Find(c.Request().Method, c.Path())
			if op == nil || op.Route.Operation.Parameters.GetByInAndName("header", "Tus-Resumable") == nil {
				return next(c)
			}
			h := c.Response().Header()
			h.Set("Tus-Resumable", tusVersion)
			if c.Request().Header.Get("Tus-Resumable") != tusVersion {
				h.Set("Tus-Version", tusVersion)
				return problem.New(http.StatusPreconditionFailed, api.ProblemCodeBadRequest,
					"This server speaks tus "+tusVersion+": send Tus-Resumable: "+tusVersion+".")
			}
			if streamedBody(op) {
				if ct, _, _ := mime.ParseMediaType(c.Request().Header.Get("Content-Type")); ct != chunkType {
					return problem.New(http.StatusUnsupportedMediaType, api.ProblemCodeUnsupportedMediaType,
						"A chunk is sent as "+chunkType+".")
				}
			}
			return next(c)
		}
	}
}

// GetUploadCapabilities answers tus discovery.
func (h *Uploads) GetUploadCapabilities(context.Context, api.GetUploadCapabilitiesRequestObject) (api.GetUploadCapabilitiesResponseObject, error) {
	return api.GetUploadCapabilities204Response{Headers: api.GetUploadCapabilities204ResponseHeaders{
		TusResumable: tusVersion, TusVersion: tusVersion, TusExtension: tusExtensions, TusMaxSize: h.svc.MaxSize()}}, nil
}

// CreateUpload starts an upload for the organisation its metadata names (which the guard
// authorized).
func (h *Uploads) CreateUpload(ctx context.Context, req api.CreateUploadRequestObject) (api.CreateUploadResponseObject, error) {
	m, err := uploads.ParseMetadata(req.Params.UploadMetadata)
	if err != nil {
		return nil, err
	}
	f, err := h.svc.Create(ctx, actor(ctx), req.Params.UploadLength, m)
	if err != nil {
		return nil, err
	}
	return api.CreateUpload201Response{Headers: api.CreateUpload201ResponseHeaders{Location: h.svc.Location(f), TusResumable: tusVersion}}, nil
}

// GetUploadOffset answers how many bytes of an upload arrived.
func (h *Uploads) GetUploadOffset(ctx context.Context, req api.GetUploadOffsetRequestObject) (api.GetUploadOffsetResponseObject, error) {
	f, err := h.svc.Get(ctx, actor(ctx), req.UploadId)
	if err != nil {
		return nil, err
	}
	return api.GetUploadOffset200Response{Headers: api.GetUploadOffset200ResponseHeaders{CacheControl: "no-store",
		TusResumable: tusVersion, UploadLength: f.Size, UploadMetadata: &f.Metadata, UploadOffset: f.Offset}}, nil
}

// AppendUploadChunk streams a chunk into an upload.
func (h *Uploads) AppendUploadChunk(ctx context.Context, req api.AppendUploadChunkRequestObject) (api.AppendUploadChunkResponseObject, error) {
	f, err := h.svc.Append(ctx, actor(ctx), req.UploadId, req.Params.UploadOffset, req.Body)
	if err != nil {
		return nil, err
	}
	return api.AppendUploadChunk204Response{Headers: api.AppendUploadChunk204ResponseHeaders{TusResumable: tusVersion, UploadOffset: f.Offset}}, nil
}

// DeleteUpload cancels an upload or deletes a finished one nothing uses.
func (h *Uploads) DeleteUpload(ctx context.Context, req api.DeleteUploadRequestObject) (api.DeleteUploadResponseObject, error) {
	if err := h.svc.Delete(ctx, actor(ctx), req.UploadId); err != nil {
		return nil, err
	}
	return api.DeleteUpload204Response{Headers: api.DeleteUpload204ResponseHeaders{TusResumable: tusVersion}}, nil
}

// GetUpload answers an upload's record, with a fresh fileUrl once it is complete.
func (h *Uploads) GetUpload(ctx context.Context, req api.GetUploadRequestObject) (api.GetUploadResponseObject, error) {
	f, err := h.svc.Get(ctx, actor(ctx), req.UploadId)
	if err != nil {
		return nil, err
	}
	var link *string
	if f.Complete() {
		u, err := h.svc.URL(ctx, f.OrganizationID, f.ID)
		if err != nil {
			return nil, err
		}
		link = &u
	}
	return api.GetUpload200JSONResponse{Status: http.StatusOK, Data: renderUpload(f, link)}, nil
}

func renderUpload(f uploads.File, fileURL *string) api.Upload {
	return api.Upload{Id: f.ID, OrganizationId: f.OrganizationID, FileName: f.Name, FileType: f.Type,
		Purpose: api.UploadPurpose(f.Purpose), Size: f.Size, Offset: f.Offset, Complete: f.Complete(), FileUrl: fileURL,
		CreatedAt: f.CreatedAt, UpdatedAt: f.UpdatedAt}
}

// DownloadFile serves a finished file at its signed URL: whole, or the one byte range asked.
func (h *Uploads) DownloadFile(ctx context.Context, req api.DownloadFileRequestObject) (api.DownloadFileResponseObject, error) {
	obj, f, err := h.svc.Download(ctx, req.FileId, req.Params.Token)
	if err != nil {
		return nil, err
	}
	disposition := contentDisposition(f.Name)
	start, length, ok := byteRange(deref(req.Params.Range), f.Size)
	switch {
	case !ok:
		return sandboxed{api.DownloadFile200AsteriskResponse{Body: obj, ContentType: f.Type, ContentLength: f.Size,
			Headers: api.DownloadFile200ResponseHeaders{AcceptRanges: "bytes", ContentDisposition: disposition}}}, nil
	case length == 0:
		obj.Close()
		p := problem.New(http.StatusRequestedRangeNotSatisfiable, api.ProblemCodeBadRequest,
			fmt.Sprintf("The range asked is outside the file's %d bytes.", f.Size))
		return api.DownloadFile416ApplicationProblemPlusJSONResponse{
			Body:    p.Body("/v1/files/"+url.PathEscape(f.ID), logging.RequestID(ctx)),
			Headers: api.DownloadFile416ResponseHeaders{ContentRange: fmt.Sprintf("bytes */%d", f.Size)}}, nil
	}
	part := struct {
		io.Reader
		io.Closer
	}{io.NewSectionReader(obj, start, length), obj}
	return sandboxed{api.DownloadFile206AsteriskResponse{Body: part, ContentType: f.Type, ContentLength: length,
		Headers: api.DownloadFile206ResponseHeaders{ContentDisposition: disposition,
			ContentRange: fmt.Sprintf("bytes %d-%d/%d", start, start+length-1, f.Size)}}}, nil
}

// sandboxed sends a file with fileCSP.
type sandboxed struct{ api.DownloadFileResponseObject }

func (s sandboxed) VisitDownloadFileResponse(w http.ResponseWriter) error {
	w.Header().Set("Content-Security-Policy", fileCSP)
	return s.DownloadFileResponseObject.VisitDownloadFileResponse(w)
}

// byteRange reads a Range header of one range of bytes (bytes=a-b, bytes=a-, bytes=-n) of a
// file of size bytes. ok is false when there is none to honour — no header, a malformed one,
// several ranges — and the whole file is sent; a range that starts past the end answers ok
// with length 0 (416).
func byteRange(header string, size int64) (start, length int64, ok bool) {
	spec, found := strings.CutPrefix(strings.TrimSpace(header), "bytes=")
	if !found || strings.Contains(spec, ",") {
		return 0, 0, false
	}
	first, last, found := strings.Cut(strings.TrimSpace(spec), "-")
	if !found {
		return 0, 0, false
	}
	if first == "" { // the last n bytes
		n, err := strconv.ParseInt(last, 10, 64)
		if err != nil || n < 0 {
			return 0, 0, false
		}
		n = min(n, size)
		return size - n, n, true
	}
	start, err := strconv.ParseInt(first, 10, 64)
	if err != nil || start < 0 {
		return 0, 0, false
	}
	end := size - 1
	if last != "" {
		if end, err = strconv.ParseInt(last, 10, 64); err != nil || end < start {
			return 0, 0, false
		}
		end = min(end, size-1)
	}
	if start >= size {
		return start, 0, true
	}
	return start, end - start + 1, true
}

// contentDisposition shows the file in place under its name: a plain quoted name when it is
// printable ASCII, else an ASCII stand-in and the UTF-8 name (RFC 6266).
func contentDisposition(name string) string {
	plain := strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' {
			return '_'
		}
		return r
	}, name)
	if plain == name {
		return `inline; filename="` + name + `"`
	}
	var ext strings.Builder
	for _, c := range []byte(name) {
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$&+-.^_`|~", c) >= 0 {
			ext.WriteByte(c)
		} else {
			fmt.Fprintf(&ext, "%%%02X", c)
		}
	}
	return `inline; filename="` + plain + `"; filename*=UTF-8''` + ext.String()
}

// idleBody is an upload chunk's body that ends when no byte arrives for idle: before each
// read the connection's read deadline moves to idle from now (never past end, the chunk's
// whole deadline). A stalled client then frees its goroutine and connection long before end:
// the uploads service keeps the bytes that arrived and tus resumes from that offset. A body cut
// off keeps its passed deadline, so the server does not wait for the rest before closing the
// connection; a body read to its end gets end back, as any body has, so the server watching
// for the client going away does not cancel a slow handler's request after idle.
type idleBody struct {
	io.ReadCloser
	rc   *http.ResponseController
	idle time.Duration
	end  time.Time
}

func (b *idleBody) Read(p []byte) (int, error) {
	deadline := time.Now().Add(b.idle)
	if deadline.After(b.end) {
		deadline = b.end
	}
	_ = b.rc.SetReadDeadline(deadline)
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		_ = b.rc.SetReadDeadline(b.end)
	}
	return n, err
}
